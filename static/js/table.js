// The table polls for changes only while it is visible, and refreshes at once when it is shown
// again. (A file, not an hx-trigger filter: the Content-Security-Policy forbids eval.)
document.addEventListener("htmx:beforeRequest", (event) => {
  const source = event.detail.elt;
  if (source && source.id === "table" && document.visibilityState !== "visible" &&
      event.detail.requestConfig.verb === "get") {
    event.preventDefault();
  }
});
document.addEventListener("visibilitychange", () => {
  const table = document.getElementById("table");
  if (document.visibilityState === "visible" && table && table.hasAttribute("hx-get")) {
    htmx.trigger(table, "refresh");
  }
});
