// The site's service worker (games/views/webapp.py serves it from the root, for the whole site).
// It caches static files only: never a page, never game data, which always come from the network.
// It also shows the site's push notices (games/notifications/push.py) and opens their link.
"use strict";
const CACHE = "{{ cache_name|escapejs }}";
const STATIC_PATH = new URL("{{ static_url|escapejs }}", self.location.origin).pathname;
const ICON = "{{ icon|escapejs }}";

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim())
  );
});

function isStatic(request) {
  const url = new URL(request.url);
  return request.method === "GET" && url.origin === self.location.origin && url.pathname.startsWith(STATIC_PATH);
}

// Static files: from the cache at once when there, refreshed from the network behind it.
self.addEventListener("fetch", (event) => {
  if (!isStatic(event.request)) return; // the browser fetches it as if there were no worker
  event.respondWith(caches.open(CACHE).then(async (cache) => {
    const cached = await cache.match(event.request);
    const fresh = fetch(event.request).then((response) => {
      if (response.ok) cache.put(event.request, response.clone());
      return response;
    });
    if (!cached) return fresh;
    event.waitUntil(fresh.catch(() => undefined));
    return cached;
  }));
});

self.addEventListener("push", (event) => {
  const notice = event.data ? event.data.json() : {};
  event.waitUntil(self.registration.showNotification(notice.title || "3·13", {
    body: notice.body || "",
    tag: notice.tag,
    icon: ICON,
    data: { url: notice.url || "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = event.notification.data.url;
  event.waitUntil(self.clients.matchAll({ type: "window" }).then((windows) => {
    const open = windows.find((client) => client.url === url);
    return open ? open.focus() : self.clients.openWindow(url);
  }));
});
