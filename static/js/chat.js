// The chat's form empties once its message is sent, and keeps the text when it was refused.
document.addEventListener("htmx:afterRequest", (event) => {
  const form = event.detail.elt;
  if (form && form.id === "chat-form" && event.detail.xhr && event.detail.xhr.status < 300) {
    // A sent message's answer replaces the form (out of band): focus the one on the page.
    form.reset();
    document.getElementById("chat-text")?.focus();
  }
});
