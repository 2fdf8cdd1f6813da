// All Fours' service worker (app/web/install.py fills in this release's list and cache name).
// It keeps the offline page and the static files by their versioned URLs, nothing else: a
// page, an /api/ answer or a stream holds a player's cards, tokens or keys and is never kept.
// It shows the server's push notifications (app/push/words.py: type, title, body, url, tag),
// one per table (a newer one replaces the older), and a tap opens the table.
"use strict";

const CACHE = __CACHE__;
const PREFIX = __PREFIX__;
const PRECACHE = __PRECACHE__;
const OFFLINE = __OFFLINE__;
const ICON = __ICON__;
const BADGE = __BADGE__;
const KEPT = new Set(PRECACHE);

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, {cache: "reload"}))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((name) => name.startsWith(PREFIX) && name !== CACHE)
          .map((name) => caches.delete(name))
      ))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // The network first, always; the offline page only when the network fails (an answer
    // with an error status is still the server's answer).
    event.respondWith(
      fetch(request).catch(() =>
        caches.open(CACHE)
          .then((cache) => cache.match(OFFLINE, {ignoreVary: true}))
          .then((page) => page || Response.error())
      )
    );
    return;
  }
  if (KEPT.has(url.pathname + url.search) && url.pathname.startsWith("/static/")) {
    // A versioned static file never changes: from the cache, else from the network.
    event.respondWith(
      caches.open(CACHE)
        .then((cache) => cache.match(request, {ignoreVary: true}))
        .then((kept) => kept || fetch(request))
    );
  }
  // Anything else goes to the network as if there were no worker.
});

self.addEventListener("push", (event) => {
  let letter = {};
  try { letter = event.data ? event.data.json() : {}; } catch (e) { letter = {}; }
  const title = letter.title || "All Fours";
  const url = typeof letter.url === "string" && letter.url.startsWith("/") ? letter.url : "/";
  event.waitUntil(self.registration.showNotification(title, {
    body: letter.body || "",
    tag: letter.tag || "all-fours",
    renotify: letter.type === "turn" || letter.type === "nudge",
    icon: ICON,
    badge: BADGE,
    data: { url: url, type: letter.type || "" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => new URL(w.url).pathname === url.pathname);
      if (open && "focus" in open) return open.focus();
      return self.clients.openWindow(url.href);
    })
  );
});
