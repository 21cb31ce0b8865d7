// Settings: turn push notices on or off in this browser. The page's #push section holds the
// site's public VAPID key and the addresses to tell the site; its [data-state] lines say where
// things stand (one shown at a time), its buttons act.
(function () {
  var box = document.getElementById("push");
  if (!box) return;
  var on = box.querySelector("[data-push-on]");
  var off = box.querySelector("[data-push-off]");
  var csrf = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"];

  function show(state) {
    box.querySelectorAll("[data-state]").forEach(function (line) {
      line.hidden = line.dataset.state !== state;
    });
    on.hidden = state === "on" || state === "unsupported" || state === "denied";
    off.hidden = state !== "on";
  }

  function keyBytes(base64url) {
    var base64 = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(base64), function (c) { return c.charCodeAt(0); });
  }

  function tell(url, fields) {
    return fetch(url, {
      method: "POST",
      headers: { "X-CSRFToken": csrf },
      body: new URLSearchParams(fields),
      credentials: "same-origin",
    }).then(function (response) {
      if (!response.ok) throw new Error("refused");
    });
  }

  box.hidden = false;
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    show("unsupported");
    return;
  }
  var ready = navigator.serviceWorker.register(box.dataset.worker, { scope: "/" }).then(function () {
    return navigator.serviceWorker.ready;
  });
  ready.then(function (registration) { return registration.pushManager.getSubscription(); })
    .then(function (subscription) {
      show(subscription ? "on" : Notification.permission === "denied" ? "denied" : "off");
    })
    .catch(function () { show("unsupported"); });

  on.addEventListener("click", function () {
    on.disabled = true;
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") throw new Error(permission);
      return ready;
    }).then(function (registration) {
      return registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(box.dataset.key),
      });
    }).then(function (subscription) {
      var keys = subscription.toJSON().keys;
      return tell(box.dataset.subscribe, { endpoint: subscription.endpoint, p256dh: keys.p256dh, auth: keys.auth });
    }).then(function () {
      show("on");
    }).catch(function () {
      show(Notification.permission === "denied" ? "denied" : "failed");
    }).finally(function () {
      on.disabled = false;
    });
  });

  off.addEventListener("click", function () {
    off.disabled = true;
    ready.then(function (registration) { return registration.pushManager.getSubscription(); })
      .then(function (subscription) {
        if (!subscription) return null;
        var endpoint = subscription.endpoint;
        return subscription.unsubscribe().then(function () {
          return tell(box.dataset.unsubscribe, { endpoint: endpoint });
        });
      })
      .then(function () { show("off"); })
      .catch(function () { show("failed"); })
      .finally(function () { off.disabled = false; });
  });
})();
