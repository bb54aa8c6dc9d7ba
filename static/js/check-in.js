/* The night desk's check-in list (templates/nights/_check_in.html), progressively enhanced:
   typing in the search box filters the list as you type; a name that matches nobody says that
   "Check in" adds it as a walk-in. After a check-in (a row's button or a walk-in) the box is
   emptied for the next person, and the list keeps its filter when the desk's poll redraws it
   (check-ins at the door). Without this script the box is a plain form: "Check in" checks in
   the roster player of that name, or adds a walk-in. */
(function () {
  "use strict";

  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
  }

  function filter(form) {
    const input = form.querySelector("input[name=name]");
    const note = form.querySelector("#no-match");
    const query = fold(input.value);
    let shown = 0;
    let exact = false;
    document.querySelectorAll("#people li[data-name]").forEach(function (row) {
      const name = fold(row.dataset.name);
      const match = !query || name.includes(query);
      row.hidden = !match;
      if (match) shown += 1;
      if (query && name === query) exact = true;
    });
    if (!query) {
      note.hidden = true;
    } else if (shown === 0) {
      note.textContent = "Nobody called “" + input.value.trim() + "” on the roster: "
        + "“Check in” adds them as a walk-in.";
      note.hidden = false;
    } else if (!exact) {
      note.textContent = shown + " on the roster match; “Check in” adds “"
        + input.value.trim() + "” as a new walk-in.";
      note.hidden = false;
    } else {
      note.hidden = true;
    }
  }

  function setUp() {
    const form = document.querySelector("[data-check-in-search]");
    if (!form) return;
    const input = form.querySelector("input[name=name]");
    input.addEventListener("input", function () { filter(form); });
    document.body.addEventListener("htmx:afterSwap", function () { filter(form); });
    // The desk's poll swaps the list out of band when players check in at the door.
    document.body.addEventListener("htmx:oobAfterSwap", function () { filter(form); });
    document.body.addEventListener("htmx:afterRequest", function (event) {
      const path = (event.detail.pathInfo && event.detail.pathInfo.requestPath) || "";
      const ok = event.detail.successful && !document.querySelector("#messages .flash.error");
      if (ok && path.endsWith("/check-in/") && input.value) {
        input.value = "";
        filter(form);
      }
    });
    filter(form);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
