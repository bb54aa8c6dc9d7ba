/* The captain's service worker, served at /t/sw.js (scope /t/) by scoring.games.captain.views.
 *
 * It lets a captain who lost the signal reload the score card and go on entering hands: the
 * hands wait in captain.js's queue (localStorage) and are sent with their keys when the
 * network is back.
 *
 * - Score-card pages (navigations under /t/): network first; each page that loads is kept, and
 *   the kept copy is shown when the network is down.
 * - Static files (/static/): cache first (their names change with their content in production).
 * - captain.js posts {type: "keep", urls: [...]} to keep the page and its assets (the first load
 *   happens before this worker controls the page) and again after each recorded hand, so the
 *   kept page shows the latest score.
 * Everything else (the forms' posts, the QR code) goes to the network untouched.
 */
"use strict";
var CACHE = "captain-v1";

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("captain-") === 0 && name !== CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function sameOrigin(url) {
  return new URL(url, self.location.href).origin === self.location.origin;
}

/* Keeps run one after the other: the copy fetched last (the latest score) is the one kept. */
var keeping = Promise.resolve();

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type !== "keep" || !Array.isArray(data.urls)) return;
  var urls = data.urls.filter(sameOrigin);
  keeping = keeping.then(function () { return keepAll(urls); });
  event.waitUntil(keeping);
});

function keepAll(urls) {
  return caches.open(CACHE).then(function (cache) {
    return Promise.all(urls.map(function (url) {
      var isStatic = new URL(url, self.location.href).pathname.indexOf("/static/") === 0;
      // A static file the page has just loaded comes from the browser's HTTP cache.
      var options = { credentials: "same-origin", cache: isStatic ? "force-cache" : "default" };
      return fetch(url, options).then(function (response) {
        if (response.ok) return cache.put(url, response);
      }).catch(function () { /* offline: keep the copy we have */ });
    }));
  });
}

function offlinePage() {
  return new Response(
    "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">" +
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">" +
    "<title>No connection</title></head><body><main><h1>No connection</h1>" +
    "<p>This score card has not been opened on this phone with a connection yet. " +
    "Try again when you are back online.</p></main></body></html>",
    { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } }
  );
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" || !sameOrigin(request.url)) return;
  var path = new URL(request.url).pathname;
  if (request.mode === "navigate" && path.indexOf("/t/") === 0) {
    event.respondWith(fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        event.waitUntil(caches.open(CACHE).then(function (cache) {
          return cache.put(request.url, copy);
        }));
      }
      return response;
    }, function () {
      return caches.match(request.url, { ignoreSearch: true }).then(function (kept) {
        return kept || offlinePage();
      });
    }));
  } else if (path.indexOf("/static/") === 0) {
    event.respondWith(caches.match(request).then(function (kept) {
      return kept || fetch(request).then(function (response) {
        if (response.ok) {
          var copy = response.clone();
          event.waitUntil(caches.open(CACHE).then(function (cache) {
            return cache.put(request, copy);
          }));
        }
        return response;
      });
    }));
  }
});
