/* The wall's paging (templates/wall/): one panel at a time, the next every few seconds
   (12, or ?seconds=N in the address, 2 to 300), round and round. htmx replaces the panels
   while games are played; the panel on show stays on show. Without this script, or on a
   screen narrower than 48rem (a phone), the panels stand one under the other. */
(function () {
  "use strict";
  var asked = Number(new URLSearchParams(window.location.search).get("seconds"));
  var seconds = asked >= 2 && asked <= 300 ? asked : 12;
  var shown = null;
  if (!window.matchMedia("(min-width: 48rem)").matches) return; // a phone scrolls the panels

  function panels() {
    return Array.prototype.slice.call(document.querySelectorAll(".wall-panel"));
  }

  function show(name, again) {
    var all = panels();
    if (!all.length) return;
    var index = all.findIndex(function (panel) { return panel.dataset.panel === name; });
    if (index < 0) index = 0;
    all.forEach(function (panel, at) {
      panel.classList.toggle("is-shown", at === index);
      panel.classList.toggle("is-steady", Boolean(again) && at === index); // no fade on a refresh
    });
    shown = all[index].dataset.panel;
    document.documentElement.dataset.panel = shown;
  }

  function turn() {
    var all = panels();
    if (!all.length) return;
    var index = all.findIndex(function (panel) { return panel.dataset.panel === shown; });
    show(all[(index + 1) % all.length].dataset.panel);
  }

  document.documentElement.classList.add("wall-paging");
  show(null);
  window.setInterval(turn, seconds * 1000);
  // htmx:load bubbles from the new panels (an outerHTML swap's own events fire on the old,
  // detached element, which no listener above it hears).
  document.body.addEventListener("htmx:load", function (event) {
    if (event.target.id === "wall-panels") show(shown, true);
  });
})();
