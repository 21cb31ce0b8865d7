// The dashboard's invitations ask for news only while the page is visible, and at once when it is
// shown again: a rematch offered meanwhile then shows without a reload. (A file, not an hx-trigger
// filter: the Content-Security-Policy forbids eval.)
document.addEventListener("htmx:beforeRequest", (event) => {
  if (event.detail.elt.id === "invitations" && document.visibilityState !== "visible") {
    event.preventDefault();
  }
});
document.addEventListener("visibilitychange", () => {
  const invitations = document.getElementById("invitations");
  if (invitations && document.visibilityState === "visible") htmx.trigger(invitations, "refresh");
});
