// A reason the reader opened stays open when htmx swaps in fresh content (live standings are
// polled every 5 s). Each kept <details> carries a data-key naming what it explains.
(function () {
  "use strict";
  var open = [];
  document.addEventListener("htmx:beforeSwap", function (event) {
    open = Array.prototype.map.call(
      event.detail.target.querySelectorAll("details[open][data-key]"),
      function (details) { return details.dataset.key; }
    );
  });
  document.addEventListener("htmx:afterSwap", function () {
    open.forEach(function (key) {
      var details = document.querySelector('details[data-key="' + CSS.escape(key) + '"]');
      if (details) { details.open = true; }
    });
    open = [];
  });
})();
