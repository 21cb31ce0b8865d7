// The waiting room polls only while it is visible (a hidden tab is no host at the page: the news
// then goes by mail), and at once when it is shown again. (A file, not an hx-trigger filter: the
// Content-Security-Policy forbids eval.)
document.addEventListener("htmx:beforeRequest", (event) => {
  if (event.detail.elt.id === "waiting-poll" && document.visibilityState !== "visible") {
    event.preventDefault();
  }
});
document.addEventListener("visibilitychange", () => {
  const poll = document.getElementById("waiting-poll");
  if (poll && document.visibilityState === "visible") htmx.trigger(poll, "refresh");
});
