/* The round clock's countdown (templates/includes/round_clock.html; README: "A round clock").
   Each clock carries its end and the server's now (ms since the epoch, one server reading);
   offset = server now - local receipt (the request's middle, as NTP), so every device counts
   down to the same moment. It re-reads data-src on load, every REFRESH s and when shown again.
   mm:ss, "Time!" at zero; role="timer" is silent, a polite region speaks each whole minute. */
(function () {
  "use strict";
  var REFRESH = 15; // seconds between re-reads of a clock's data-src
  var TICK = 200; // ms between redraws
  var received = new WeakMap(); // element -> local ms its server time arrived
  var pageReceipt = (function () {
    var entry = window.performance && performance.getEntriesByType
      ? performance.getEntriesByType("navigation")[0] : null;
    if (!entry || !entry.responseStart) return Date.now();
    var middle = (entry.requestStart + entry.responseStart) / 2;
    return Date.now() - Math.max(performance.now() - middle, 0);
  })();

  function clocks() {
    return Array.prototype.slice.call(document.querySelectorAll("[data-round-clock]"));
  }

  function text(seconds) {
    if (seconds <= 0) return "Time!";
    var minutes = Math.floor(seconds / 60), rest = seconds % 60;
    return (minutes < 10 ? "0" : "") + minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function remaining(element) {
    var ends = Number(element.dataset.endsAt), serverNow = Number(element.dataset.serverNow);
    if (!ends || !serverNow) return null;
    var offset = serverNow - received.get(element);
    // for the browser tests
    if (element.dataset.offset !== String(offset)) element.dataset.offset = String(offset);
    return Math.max(Math.ceil((ends - (Date.now() + offset)) / 1000), 0);
  }

  function say(element, words) {
    var live = element.querySelector("[data-round-clock-say]");
    if (live) live.textContent = words;
  }

  function draw(element) {
    if (!received.has(element)) received.set(element, Date.now());
    var seconds = remaining(element);
    var shown = element.querySelector("[data-round-clock-time]");
    if (seconds === null || !shown) return;
    var label = (element.dataset.label || "the round").toLowerCase();
    var words = text(seconds);
    if (shown.textContent !== words) shown.textContent = words;
    element.dataset.remaining = String(seconds);
    element.classList.toggle("is-over", seconds === 0);
    element.classList.toggle("is-last-minute", seconds > 0 && seconds <= 60);
    var said = element.dataset.said;
    if (seconds === 0 && said !== "0") {
      element.dataset.said = "0";
      say(element, "Time! " + label.charAt(0).toUpperCase() + label.slice(1) + " is over.");
    } else if (seconds > 0 && seconds % 60 === 0 && said !== String(seconds)) {
      element.dataset.said = String(seconds);
      var minutes = seconds / 60;
      say(element, minutes + (minutes === 1 ? " minute" : " minutes") + " left in " + label + ".");
    }
  }

  function tick() {
    clocks().forEach(draw);
  }

  function refresh(element) {
    var src = element.dataset.src;
    if (!src || element.dataset.loading) return;
    element.dataset.loading = "1";
    var sent = Date.now();
    fetch(src, { headers: { "HX-Request": "true" }, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        // the request's middle
        var arrived = (sent + Date.now()) / 2;
        if (!response.ok) throw new Error("clock " + response.status);
        return response.text().then(function (html) { return [html, arrived]; });
      })
      .then(function (answer) {
        delete element.dataset.loading;
        var holder = document.createElement("template");
        holder.innerHTML = answer[0].trim();
        var fresh = holder.content.querySelector("[data-round-clock]");
        if (!fresh || !element.parentNode) return;
        if (element.dataset.said) fresh.dataset.said = element.dataset.said;
        received.set(fresh, answer[1]);
        element.replaceWith(fresh);
        draw(fresh);
      })
      .catch(function () {
        delete element.dataset.loading; // offline: keep counting
      });
  }

  function refreshAll() {
    clocks().forEach(refresh);
  }

  // A clock swapped in later (htmx, captain.js) is counted from its insertion and read again at
  // once, timed; every clock is read again right after load (a small answer: a tighter offset).
  clocks().forEach(function (element) { received.set(element, pageReceipt); });
  new MutationObserver(function (changes) {
    var now = Date.now();
    changes.forEach(function (change) {
      Array.prototype.forEach.call(change.addedNodes, function (node) {
        if (node.nodeType !== 1) return;
        var found = node.matches("[data-round-clock]") ? [node] : [];
        found = found.concat(Array.prototype.slice.call(node.querySelectorAll("[data-round-clock]")));
        found.forEach(function (element) {
          if (received.has(element)) return; // ours, already timed
          received.set(element, now);
          draw(element);
          refresh(element);
        });
      });
    });
  }).observe(document.documentElement, { childList: true, subtree: true });

  refreshAll();
  tick();
  window.setInterval(tick, TICK);
  window.setInterval(refreshAll, REFRESH * 1000);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") refreshAll();
  });
  window.addEventListener("online", refreshAll);
})();
