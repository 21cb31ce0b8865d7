// Registers the site's service worker (its address is this script's data-worker attribute):
// it caches static files only, and shows push notices.
(() => {
  var script = document.currentScript;
  if (!script || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register(script.dataset.worker, { scope: "/" }).catch(() => {
    // No worker (a private window, an insecure origin): the site works as before.
  });
})();
