// All Fours' service worker (app/web/install.py fills in this release's list and cache name).
// It keeps the offline page and the static files by their versioned URLs, nothing else: a
// page, an /api/ answer or a stream holds a player's cards, tokens or keys and is never kept.
"use strict";

const CACHE = __CACHE__;
const PREFIX = __PREFIX__;
const PRECACHE = __PRECACHE__;
const OFFLINE = __OFFLINE__;
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
