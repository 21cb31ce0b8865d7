// The table polls for changes only while it is visible, and refreshes at once when it is shown
// again. (A file, not an hx-trigger filter: the Content-Security-Policy forbids eval.)
document.addEventListener("htmx:beforeRequest", (event) => {
  const source = event.detail.elt;
  if (
    source &&
    source.id === "table" &&
    document.visibilityState !== "visible" &&
    event.detail.requestConfig.verb === "get"
  ) {
    event.preventDefault();
  }
});
document.addEventListener("visibilitychange", () => {
  const table = document.getElementById("table");
  if (document.visibilityState === "visible" && table && table.hasAttribute("hx-get")) {
    htmx.trigger(table, "refresh");
  }
});

// The table hears of its game's changes as they happen: a stream of server-sent events
// (/games/N/events/, open while the page is visible) says "changed", and the table then asks as
// its poll would, sending the marks of what it holds (#table-marks): the answer is the parts that
// changed, swapped in place, or the whole table. While the stream is open the timed poll runs
// once a minute only, a fallback; where there is no stream (the server answers 204, or the
// browser has none) it polls as before. The table's requests wait for one another
// (hx-sync="this:queue last"): an event heard while the player's own move is on its way asks
// after it, with the marks the move brought, and is answered 204 when nothing else changed.
// (htmx's SSE extension keeps a stream open in a hidden tab and cannot skip the player's own
// move without eval, which the Content-Security-Policy forbids: hence these few lines.)
(() => {
  const FALLBACK_MS = 60000;
  let stream = null;
  let lastAsked = Date.now();
  const table = () => document.getElementById("table");
  const live = () => stream && stream.readyState === EventSource.OPEN;

  function open() {
    const url = table()?.dataset.events;
    if (stream || !url || !window.EventSource || document.visibilityState !== "visible") return;
    stream = new EventSource(url);
    stream.addEventListener("changed", (event) => {
      const data = JSON.parse(event.data || "{}");
      const t = table();
      if (!t?.hasAttribute("hx-get")) return;
      // A move the table shows already (the player's own, answered by its move): nothing to ask.
      const known = typeof data.v === "number" && data.v <= Number(t.dataset.version);
      if (!known || data.chat || data.over) htmx.trigger(t, "refresh");
    });
    stream.addEventListener("error", () => {
      if (stream && stream.readyState === EventSource.CLOSED) stream = null; // polls instead
    });
  }
  function close() {
    if (stream) stream.close();
    stream = null;
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") open();
    else close();
  });
  document.addEventListener("htmx:beforeRequest", (event) => {
    const config = event.detail.requestConfig;
    if (event.detail.elt?.id !== "table" || config.verb !== "get") return;
    // A timed poll has no triggering event; "refresh" (an event, the page shown again) has one.
    if (live() && !config.triggeringEvent && Date.now() - lastAsked < FALLBACK_MS) {
      event.preventDefault();
    }
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    if (event.detail.elt?.id === "table") lastAsked = Date.now();
  });
  document.addEventListener("htmx:afterSettle", () => {
    // An answer in parts (table.html#parts) leaves the table's element in place: its version
    // follows the marks the parts brought.
    const t = table();
    const marks = document.querySelector("#table-marks input[name=v]");
    if (t && marks) t.dataset.version = marks.value;
    if (t?.dataset.events) open();
    else close(); // the game ended: no more
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", open);
  else open();
})();

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
    const target = over?.closest("form.hand .hand-card");
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
    saveOrder(hand());
  });
})();

// Saves the hand's order as shown: the same POST for a drag and for the keyboard.
function saveOrder(form) {
  const order = [...form.querySelectorAll(".hand-card")].map((b) => b.value);
  const sort = document.querySelector("form.sorts");
  const values = { sort: "manual", order };
  htmx.ajax("POST", sort.getAttribute("hx-post"), { target: "#table", swap: "outerHTML", values });
}

// The keyboard in the hand: the arrow keys go from card to card, Alt + an arrow moves the card.
// Moves are saved after a short pause (one request for several steps), and said aloud.
let pendingSave = null;
document.addEventListener("htmx:beforeRequest", (event) => {
  if (pendingSave && event.detail.elt && event.detail.elt.id === "table") event.preventDefault();
});
document.addEventListener("keydown", (event) => {
  const card = event.target.closest?.("form.hand .hand-card");
  const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
  if (!card || !step || event.ctrlKey || event.metaKey || event.shiftKey) return;
  event.preventDefault();
  const form = card.form;
  const cards = [...form.querySelectorAll(".hand-card")];
  const other = cards[cards.indexOf(card) + step];
  if (!other) return;
  if (!event.altKey) {
    other.focus();
    return;
  }
  other.insertAdjacentElement(step < 0 ? "beforebegin" : "afterend", card);
  card.focus();
  const live = document.getElementById("announce");
  const name = card.querySelector(".pc").getAttribute("aria-label");
  const place = [...form.querySelectorAll(".hand-card")].indexOf(card) + 1;
  live.textContent = live.dataset.moved
    .replace("%(card)s", name)
    .replace("%(place)s", place)
    .replace("%(count)s", cards.length);
  clearTimeout(pendingSave);
  pendingSave = setTimeout(() => {
    pendingSave = null;
    saveOrder(form);
  }, 600);
});

// Focus after the table is swapped. A move of yours lands on what comes next: after a draw the
// hand (the new card), after a discard the status line. A poll keeps focus on the control it was
// on, and moves it only when it becomes your turn and focus was not elsewhere on the page (never
// away from someone typing in another box).
(() => {
  let before = null;
  // What a control is, so its twin in the new table can be found: tag, container, value, link.
  const keyOf = (el) =>
    [el.tagName, el.parentElement.className, el.value || "", el.getAttribute("href") || ""].join(
      "|",
    );
  const find = (table, key) =>
    [...table.querySelectorAll("a, button, summary, .turn")].find((el) => keyOf(el) === key);
  const next = (table) => {
    const target = table.querySelector("[data-focus]") || table.querySelector(".turn");
    if (!target.matches("button, a")) target.setAttribute("tabindex", "-1");
    return target;
  };

  // A panel (scoresheet, round summary, hint) the player opened or closed stays so when the table
  // is swapped, as long as it is the same panel (same summary line); panels the player has not
  // touched open and close as the page says (the scoresheet at the end, the hint on your turn).
  const panelKey = (d) =>
    `${d.className}|${(d.querySelector("summary")?.textContent || "").trim()}`;
  const chosen = new Map();
  document.addEventListener(
    "toggle",
    (event) => {
      const panel = event.target;
      if (panel.matches?.("#table details") && panel.dataset.userToggle === "1") {
        chosen.set(panelKey(panel), panel.open);
      }
    },
    true,
  );
  document.addEventListener("click", (event) => {
    // a click (or Enter/Space) on a summary
    const summary = event.target.closest?.("#table details > summary");
    if (summary) summary.parentElement.dataset.userToggle = "1";
  });

  document.addEventListener("htmx:beforeSwap", (event) => {
    const table = event.detail.target;
    if (table?.id !== "table") return;
    const active = document.activeElement;
    const inside = table.contains(active);
    const path = event.detail.requestConfig.path || "";
    const sort = document.querySelector("form.sorts");
    before = {
      free: !active || active === document.body || inside,
      key: inside ? keyOf(active) : null,
      poll: event.detail.requestConfig.verb === "get",
      sorting: !!sort && path === sort.getAttribute("hx-post"),
      wasMyTurn: !!table.querySelector(".your-turn"),
    };
  });

  document.addEventListener("htmx:afterSettle", () => {
    const table = document.getElementById("table");
    const was = before;
    before = null;
    if (!table || !was) return;
    table.querySelectorAll("details").forEach((d) => {
      const open = chosen.get(panelKey(d));
      if (open !== undefined) {
        d.open = open;
        d.dataset.userToggle = "1";
      }
    });
    if (!was.free) return;
    let target = null;
    if (was.poll && !was.wasMyTurn && table.querySelector(".your-turn")) target = next(table);
    else if (was.poll || was.sorting) target = was.key && find(table, was.key);
    else target = next(table);
    if (!target && was.key) target = next(table);
    if (target) target.focus();
  });

  // The keyboard hint only says what the script does, so it shows only with the script.
  htmx.onLoad((root) => {
    for (const el of root.querySelectorAll(".keys[hidden]")) el.removeAttribute("hidden");
  });
})();

// "n" opens the next game waiting on you (the table's "Next game" link), as on lichess; never
// while typing (the chat) nor with a modifier (the browser's own shortcuts).
document.addEventListener("keydown", (event) => {
  if (event.key !== "n" || event.repeat || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target.closest?.("input, textarea, select, [contenteditable]")) return;
  const link = document.querySelector("a[data-next-game]");
  if (link) link.click();
});
