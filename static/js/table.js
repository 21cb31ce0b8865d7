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

// Arrange your own hand: drag a card (mouse or finger) to a new place. The order is saved on the
// server, so it is kept between visits. A short press is still a click (discard).
(() => {
  let drag = null;
  const hand = () => document.querySelector("form.hand");

  document.addEventListener("pointerdown", (event) => {
    const card = event.target.closest("form.hand .hand-card");
    if (!card || event.button !== 0) return;
    drag = { card, x: event.clientX, y: event.clientY, moved: false };
  });

  document.addEventListener("pointermove", (event) => {
    if (!drag) return;
    if (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 10) return;
    drag.moved = true;
    drag.card.classList.add("dragging");
    event.preventDefault();
    const over = document.elementFromPoint(event.clientX, event.clientY);
    const target = over && over.closest("form.hand .hand-card");
    if (target && target !== drag.card) {
      const box = target.getBoundingClientRect();
      const after = event.clientX > box.left + box.width / 2;
      target.parentNode.insertBefore(drag.card, after ? target.nextSibling : target);
    }
  });

  document.addEventListener("pointerup", () => {
    if (!drag) return;
    const { card, moved } = drag;
    drag = null;
    card.classList.remove("dragging");
    if (!moved) return;
    // Swallow the click that ends a drag, then save the new order.
    card.addEventListener("click", (e) => e.preventDefault(), { once: true, capture: true });
    const form = hand();
    const order = [...form.querySelectorAll(".hand-card")].map((b) => b.value);
    const sort = document.querySelector("form.sorts");
    const values = { sort: "manual", order };
    htmx.ajax("POST", sort.getAttribute("action"), { target: "#table", swap: "outerHTML", values });
  });
})();
