// An element marked data-poll-while-visible (the dashboard's invitations, the waiting room) asks
// for news only while the page is visible, and at once when it is shown again: a hidden tab has
// no reader, and what came meanwhile then shows without a reload. (A file, not an hx-trigger
// filter: the Content-Security-Policy forbids eval.)
document.addEventListener("htmx:beforeRequest", (event) => {
  if (
    event.detail.elt.hasAttribute("data-poll-while-visible") &&
    document.visibilityState !== "visible"
  ) {
    event.preventDefault();
  }
});
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState !== "visible") return;
  for (const poll of document.querySelectorAll("[data-poll-while-visible]")) {
    htmx.trigger(poll, "refresh");
  }
});
