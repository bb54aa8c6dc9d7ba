/* The night's door page (templates/players/door.html): typing in "Find your name" filters the
   list as you type. Without this script the box is a plain search form. */
(function () {
  "use strict";

  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
  }

  function setUp() {
    const input = document.querySelector("[data-door-search]");
    const note = document.getElementById("door-no-match");
    if (!input) return;
    input.addEventListener("input", function () {
      const query = fold(input.value);
      let shown = 0;
      document.querySelectorAll(".door-list li[data-name]").forEach(function (row) {
        const match = !query || fold(row.dataset.name).includes(query);
        row.hidden = !match;
        if (match) shown += 1;
      });
      note.hidden = shown > 0;
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
