// Settings: turn push notices on or off in this browser. The page's #push section holds the
// site's public VAPID key and the addresses to tell the site; its [data-state] lines say where
// things stand (one shown at a time), its buttons act.
(() => {
  var box = document.getElementById("push");
  if (!box) return;
  var on = box.querySelector("[data-push-on]");
  var off = box.querySelector("[data-push-off]");
  var csrf = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"];

  function show(state) {
    box.querySelectorAll("[data-state]").forEach((line) => {
      line.hidden = line.dataset.state !== state;
    });
    on.hidden = state === "on" || state === "unsupported" || state === "denied";
    off.hidden = state !== "on";
  }

  function keyBytes(base64url) {
    var base64 = (base64url + "===".slice((base64url.length + 3) % 4))
      .replace(/-/g, "+")
      .replace(/_/g, "/");
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  }

  function tell(url, fields) {
    return fetch(url, {
      method: "POST",
      headers: { "X-CSRFToken": csrf },
      body: new URLSearchParams(fields),
      credentials: "same-origin",
    }).then((response) => {
      if (!response.ok) throw new Error("refused");
    });
  }

  box.hidden = false;
  if (
    !("serviceWorker" in navigator) ||
    !("PushManager" in window) ||
    !("Notification" in window)
  ) {
    show("unsupported");
    return;
  }
  var ready = navigator.serviceWorker
    .register(box.dataset.worker, { scope: "/" })
    .then(() => navigator.serviceWorker.ready);
  ready
    .then((registration) => registration.pushManager.getSubscription())
    .then((subscription) => {
      show(subscription ? "on" : Notification.permission === "denied" ? "denied" : "off");
    })
    .catch(() => {
      show("unsupported");
    });

  on.addEventListener("click", () => {
    on.disabled = true;
    Notification.requestPermission()
      .then((permission) => {
        if (permission !== "granted") throw new Error(permission);
        return ready;
      })
      .then((registration) =>
        registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(box.dataset.key),
        }),
      )
      .then((subscription) => {
        var keys = subscription.toJSON().keys;
        return tell(box.dataset.subscribe, {
          endpoint: subscription.endpoint,
          p256dh: keys.p256dh,
          auth: keys.auth,
        });
      })
      .then(() => {
        show("on");
      })
      .catch(() => {
        show(Notification.permission === "denied" ? "denied" : "failed");
      })
      .finally(() => {
        on.disabled = false;
      });
  });

  off.addEventListener("click", () => {
    off.disabled = true;
    ready
      .then((registration) => registration.pushManager.getSubscription())
      .then((subscription) => {
        if (!subscription) return null;
        var endpoint = subscription.endpoint;
        return subscription
          .unsubscribe()
          .then(() => tell(box.dataset.unsubscribe, { endpoint: endpoint }));
      })
      .then(() => {
        show("off");
      })
      .catch(() => {
        show("failed");
      })
      .finally(() => {
        off.disabled = false;
      });
  });
})();
