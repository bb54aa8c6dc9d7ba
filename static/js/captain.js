/* The captain's score card, enhanced. Without this script every form still works as a plain post.
 *
 * - Forms marked data-enhance are posted with fetch and the HX-Request header; the server answers
 *   with the score-card partial (#card), which is swapped in (the server speaks htmx's protocol;
 *   htmx itself is not loaded here: see static/vendor/README.md).
 * - A hand (data-enhance="queue") is first kept in localStorage with its client key, then sent.
 *   If the network is down it stays there ("Waiting to send"), the captain can go on with the
 *   next hand, and it is sent again with the SAME key when the network is back (the online event,
 *   a retry timer, or "Send now"), so the server records it exactly once.
 * - Each hand gets a fresh client key; a double tap is ignored while a form is being sent.
 * - A service worker (/t/sw.js, see captain-sw.js) keeps the page and its assets, so the page
 *   reloads without a network too; it is told to keep the page again after each recorded hand.
 * - While hands wait, the card shows the score, the dealer and the end of the game as they will be
 *   once those hands are sent, marked "not sent yet" (the projection). The page does not score a
 *   hand: it looks each one up in the engine's table that the server renders with the page
 *   (#card-rules, scoring.games.domain.hand_table), starting from the server's state on #card. A hand
 *   the table says the server would refuse is not kept: the engine's reason is shown at once.
 *   Once the hands are sent, the card is the server's again; a hand the server refuses is dropped
 *   and its reason stays on the page (#refused) until the next hand is recorded.
 */
(function () {
  "use strict";
  if (!window.fetch || !window.FormData || !window.URLSearchParams) return;
  var STORE = "captain-queue:" + location.pathname;
  var pending = document.getElementById("pending");
  var refused = document.getElementById("refused");
  var rules = readRules();
  var live = document.getElementById("live");
  var memory = [];
  var sending = false;
  var timer = null;
  var delay = 2000;
  var script = document.currentScript;

  /* Ask the service worker to keep these URLs (fetched again, so the kept page is current). */
  function keep(urls) {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker) worker.postMessage({ type: "keep", urls: urls });
  }

  if (script && script.dataset.serviceWorker && navigator.serviceWorker) {
    navigator.serviceWorker.register(script.dataset.serviceWorker).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      var assets = Array.prototype.map.call(
        document.querySelectorAll("link[rel=stylesheet], script[src]"),
        function (element) { return element.href || element.src; }
      );
      registration.active.postMessage({ type: "keep", urls: [location.pathname].concat(assets) });
    }).catch(function () { /* no service worker: the page still works online */ });
  }

  function load() {
    try {
      var text = localStorage.getItem(STORE);
      return text ? JSON.parse(text) : [];
    } catch (error) {
      return memory;
    }
  }

  function save(queue) {
    memory = queue;
    try {
      if (queue.length) localStorage.setItem(STORE, JSON.stringify(queue));
      else localStorage.removeItem(STORE);
    } catch (error) { /* private mode: the queue lives as long as the page */ }
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.prototype.map.call(bytes, function (b) {
      return (b + 256).toString(16).slice(1);
    }).join("");
  }

  function readRules() {
    var element = document.getElementById("card-rules");
    try {
      return element ? JSON.parse(element.textContent) : null;
    } catch (error) {
      return null;
    }
  }

  /* The engine's result of a hand (its posted body) dealt by seat `dealer`, from the table:
     {points, scored, deal_moves, summary} or {error}; null if the table does not know it. */
  function lookUp(body, dealer) {
    if (!rules || dealer === null) return null;
    var data = new URLSearchParams(body);
    var special = data.get("special");
    if (special) {
      var column = rules.special[special];
      return column ? rules.results[column[dealer]] : null;
    }
    var ids = rules.seats.map(function (seat) { return String(seat.id); });
    var tricks = data.get("tricks_won");
    var facts = {
      dealer_seat: dealer,
      caller_seat: ids.indexOf(data.get("caller")),
      caller_alone: data.has("caller_alone"),
      defender_alone: data.has("defender_alone"),
      ordered_up: data.has("ordered_up") ? true : null,
      tricks_won: tricks === null || tricks === "" ? null : Number(tricks),
      renege: data.get("renege") || null,
    };
    var position = 0; // the last axis varies fastest (scoring.games.domain.hand_table)
    for (var i = 0; i < rules.axes.length; i++) {
      var choices = rules.axes[i][1];
      var at = choices.indexOf(facts[rules.axes[i][0]]);
      if (at < 0) return null;
      position = position * choices.length + at;
    }
    var code = rules.hands.substr(position * rules.width, rules.width);
    return rules.results[parseInt(code, 36)] || null;
  }

  /* As the engine ends a game (scoring.games.domain.engine.game_state_after): by its length, or at
     the hand time was called on unless level and playing on. */
  function isOver(state) {
    var game = rules.game;
    var byLength = game.length === "hands" ? state.played >= game.hands_per_game
      : game.length === "target" && Math.max(state.a, state.b) >= game.target_score;
    return byLength ||
      (state.timeCalled && (state.a !== state.b || game.tie_at_time === "draw"));
  }

  /* What the engine refuses of a hand whatever its facts, from the game's state before it
     (scoring.games.domain.engine.game_state_after): any hand after the end, time called twice. */
  function refusedByGame(state, body) {
    if (state.over) return "the game was already over";
    if (state.timeCalled && new URLSearchParams(body).has("time_called")) {
      return "time was already called in this game; the next hand that breaks the tie ends it";
    }
    return null;
  }

  /* The server's state on the card, with the waiting hands added in order. */
  function project(queue) {
    var data = card().dataset;
    var state = {
      a: +data.scoreA, b: +data.scoreB, played: +data.handsPlayed,
      dealer: data.dealerSeat === "" || data.dealerSeat === undefined ? null : +data.dealerSeat,
      over: data.over !== undefined, timeCalled: data.timeCalled !== undefined,
      known: true, refused: [], rows: [],
    };
    queue.forEach(function (item) {
      if (!state.known) return;
      var timeCalled = new URLSearchParams(item.body).has("time_called");
      var refusal = refusedByGame(state, item.body);
      var result = refusal ? { error: refusal } : lookUp(item.body, state.dealer);
      if (!result) {
        state.known = false;
      } else if (result.error) {
        state.refused.push("hand " + item.number + " will be refused: " + result.error);
      } else {
        var posted = new URLSearchParams(item.body);
        var caller = rules.seats.filter(function (seat) {
          return !posted.get("special") && String(seat.id) === posted.get("caller");
        })[0];
        state.rows.push({ number: item.number, summary: result.summary,
          caller: caller ? caller.name : "", dealer: rules.seats[state.dealer].name });
        state.a += result.points[0];
        state.b += result.points[1];
        state.played += result.scored ? 1 : 0;
        state.dealer = (state.dealer + result.deal_moves) % rules.seats.length;
        state.timeCalled = state.timeCalled || timeCalled;
        state.over = isOver(state);
        state.rows[state.rows.length - 1].score = state.a + "–" + state.b;
      }
    });
    return state;
  }

  function plural(count, word) { return count + " " + word + (count === 1 ? "" : "s"); }

  /* The board and status line as the projection says, marked as not sent yet; or the server's
     own, as rendered, when nothing waits. */
  function showProjection(queue, form) {
    var board = card().querySelector(".board");
    var status = card().querySelector(".status");
    if (!board || !status) return;
    status.dataset.html = status.dataset.html || status.innerHTML;
    status.dataset.kind = status.dataset.kind || status.className;
    var state = project(queue);
    var unsent = queue.length && state.known;
    var sides = board.querySelectorAll(".side");
    Array.prototype.forEach.call(sides, function (side, index) {
      var points = side.querySelector("b").firstChild;
      var own = index === 0 ? card().dataset.scoreA : card().dataset.scoreB;
      points.textContent = unsent ? String(index === 0 ? state.a : state.b) : own;
    });
    board.classList.toggle("unsent", !!unsent);
    listWaiting(unsent ? state.rows : []);
    var served = card().dataset.dealerSeat;
    markDealer(form, unsent ? state.dealer : (served === "" ? null : +served));
    if (form) form.hidden = !!(unsent && state.over);
    if (!queue.length) {
      status.innerHTML = status.dataset.html;
      status.className = status.dataset.kind;
      return;
    }
    if (!unsent) {
      status.textContent = "Hand " + (form ? form.elements.number.value : "") +
        " · the score is before hand " + queue[0].number;
      return;
    }
    status.textContent = "";
    var words;
    if (state.over) {
      var names = board.querySelectorAll(".side .names");
      var high = Math.max(state.a, state.b), low = Math.min(state.a, state.b);
      words = (state.timeCalled ? "Time called: " : "Game over: ") +
        (state.a === state.b ? "a draw, " : names[state.a > state.b ? 0 : 1].textContent + " won, ") +
        high + "–" + low;
      status.className = "status result";
      var strong = document.createElement("strong");
      strong.textContent = words;
      status.appendChild(strong);
      status.appendChild(document.createTextNode(" "));
    } else {
      var dealer = rules.seats[state.dealer].name;
      var length = card().dataset.length;
      var game = rules.game;
      if (state.timeCalled) {
        length += ", tied at time " + state.a + "–" + state.b + ": the next hand decides";
      } else if (game.length === "hands") {
        length += ", " + Math.max(game.hands_per_game - state.played, 0) + " to play";
      }
      status.className = status.dataset.kind;
      status.appendChild(document.createTextNode("Hand " + (form ? form.elements.number.value : "") +
        " · " + dealer + " deals · " + length + " · "));
    }
    var mark = document.createElement("span");
    mark.className = "unsent-note";
    mark.textContent = plural(queue.length, "hand") + " not sent yet" +
      (state.refused.length ? "; " + state.refused.join("; ") : "");
    status.appendChild(mark);
  }

  /* The caller buttons mark who deals the hand being entered (" · dealer", as rendered), the
     seat the projection says once hands wait, the server's again when none do. */
  function markDealer(form, dealer) {
    if (!form || !rules) return;
    Array.prototype.forEach.call(form.querySelectorAll("input[name=caller]"), function (input) {
      var small = input.parentNode.querySelector("small");
      if (!small) return;
      var seat = rules.seats.map(function (s) { return String(s.id); }).indexOf(input.value);
      var side = small.textContent.split(" · ")[0];
      small.textContent = seat === dealer ? side + " · dealer" : side;
    });
  }

  /* The waiting hands on top of the list of hands, as the server lists its own, marked. */
  function listWaiting(rows) {
    var list = card().querySelector("ol.hands");
    if (list) {
      Array.prototype.forEach.call(list.querySelectorAll("li.unsent"), function (item) {
        item.remove();
      });
    }
    if (!rows.length) {
      if (list && list.hasAttribute("data-waiting")) { // made here: no hand is recorded yet
        list.previousElementSibling.remove();
        list.remove();
      }
      return;
    }
    if (!list) {
      var heading = document.createElement("h2");
      heading.textContent = "Hands";
      list = document.createElement("ol");
      list.className = "hands";
      list.reversed = true;
      list.setAttribute("data-waiting", "");
      card().appendChild(heading);
      card().appendChild(list);
    }
    rows.forEach(function (row) {
      var item = document.createElement("li");
      item.className = "unsent";
      item.value = row.number;
      var line = document.createElement("p");
      var small = document.createElement("small");
      small.textContent = (row.caller ? row.caller + " called, " : "") + row.dealer + " dealt · " +
        row.score + " · not sent yet";
      line.appendChild(document.createTextNode(row.summary + " "));
      line.appendChild(small);
      var box = document.createElement("div");
      box.appendChild(line);
      item.appendChild(box);
      list.insertBefore(item, list.firstChild);
    });
  }

  function card() { return document.getElementById("card"); }
  function handForm() { return card().querySelector("form[data-enhance=queue]"); }

  function announce(text) {
    live.textContent = "";
    setTimeout(function () { live.textContent = text; }, 30);
  }

  function scoreWords(root) {
    return Array.prototype.map.call(root.querySelectorAll(".side"), function (side) {
      return side.querySelector(".tag").textContent + " " + side.querySelector("b").textContent;
    }).join(", ");
  }

  /* After a render or a change of the queue: a fresh key for the next hand, its number after the
     hands still waiting, and the "waiting to send" line. */
  function prepare() {
    var queue = load();
    var form = handForm();
    if (form) {
      form.elements.key.value = newKey();
      // After the hands waiting, never before the server's next hand (an undone waiting hand
      // gives its number back).
      var next = Math.max(+card().dataset.number,
        queue.length ? +queue[queue.length - 1].number + 1 : 0);
      form.elements.number.value = next;
      form.querySelector("[data-n]").textContent = next;
      var heading = form.querySelector("h2.sr");
      if (heading) heading.textContent = "Enter hand " + next;
    }
    showProjection(queue, form);
    var undo = card().querySelector(".undo button");
    if (undo) {
      undo.dataset.label = undo.dataset.label || undo.textContent;
      undo.textContent = queue.length
        ? "Undo hand " + queue[queue.length - 1].number + " (not sent yet)"
        : undo.dataset.label;
    }
    pending.hidden = !queue.length;
    if (queue.length) {
      var numbers = queue.map(function (item) { return item.number; }).join(", ");
      pending.querySelector("span").textContent = "Waiting to send: " + queue.length +
        (queue.length === 1 ? " hand" : " hands") + " (hand " + numbers + ")";
    }
  }

  function swap(html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    var fresh = template.content.getElementById("card");
    if (!fresh) return false;
    card().replaceWith(fresh);
    prepare();
    keep([location.pathname]);
    var flash = fresh.querySelector("[data-flash]");
    announce((flash ? flash.textContent + ". " : "") + "Score: " + scoreWords(fresh) + ".");
    // The new state starts at the top: the score, the result (also announced in #live), then
    // the form for the next hand with its "Record hand" button in view, without a scroll.
    window.scrollTo(0, 0);
    var first = fresh.querySelector("input[name=caller], .over button");
    if (first) first.focus({ preventScroll: true });
    return true;
  }

  /* The answer was not a score card (the link was replaced, or too many wrong links). */
  function lost(text) {
    var note = document.createElement("p");
    note.className = "flash error";
    note.textContent = text;
    card().insertBefore(note, card().children[1]);
    announce(text);
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: {
        "HX-Request": "true",
        "Content-Type": "application/x-www-form-urlencoded",
      },
    }).then(function (response) {
      // 5xx and 429 (too many attempts from this network, e.g. a bar's shared address) are
      // passing troubles: the hand stays on the phone and is sent again later, with its key.
      if (response.status >= 500 || response.status === 429) {
        throw new Error("try again later: " + response.status);
      }
      return response.text().then(function (html) {
        return { html: html, refused: !response.ok };
      });
    });
  }

  function busy(form, on) {
    if (on) form.setAttribute("aria-busy", "true");
    else form.removeAttribute("aria-busy");
    Array.prototype.forEach.call(form.querySelectorAll("button"), function (button) {
      button.disabled = on;
    });
  }

  function clearHand(form) {
    Array.prototype.forEach.call(form.querySelectorAll("input[type=radio], input[type=checkbox]"),
      function (input) { input.checked = input.name === "renege" && input.value === ""; });
    busy(form, false);
  }

  /* The server refused a waiting hand (the card it answered says why, in its flash): the hand is
     dropped, and if other hands wait to be sent (their cards will replace this one), its reason
     is kept above the card. */
  function refuse(number) {
    if (!load().length) return;
    var flash = card().querySelector("[data-flash].error");
    var reason = flash ? flash.textContent : "refused by the server";
    if (flash) flash.remove();
    var note = document.createElement("li");
    note.textContent = "Hand " + number + " was not recorded: " + reason;
    refused.querySelector("ul").appendChild(note);
    refused.hidden = false;
    announce(note.textContent);
  }

  function clearRefused() {
    refused.hidden = true;
    refused.querySelector("ul").textContent = "";
  }

  /* Send the waiting hands in order; stop at the first that cannot be sent and try again later. */
  function flush() {
    clearTimeout(timer);
    var queue = load();
    if (sending || !queue.length) return prepare();
    sending = true;
    var item = queue[0];
    post(item.url, item.body).then(function (answer) {
      sending = false;
      delay = 2000;
      save(load().filter(function (other) { return other.key !== item.key; }));
      if (swap(answer.html)) {
        if (answer.refused) refuse(item.number);
        return flush();
      }
      var form = handForm();
      if (form) busy(form, false);
      prepare();
      lost("Hand " + item.number + " was not recorded: this score-card link no longer works. " +
        "Reload the page, or ask the organiser for the table's new link.");
    }, function () {
      sending = false;
      var form = handForm();
      if (form && form.getAttribute("aria-busy")) {
        clearHand(form);
        Array.prototype.forEach.call(card().querySelectorAll("[data-flash]"), function (flash) {
          flash.remove(); // it was about an earlier hand
        });
        prepare();
        announce("No connection: hand " + item.number +
          " is kept on this phone and will be sent when the connection is back. " +
          "Score with the hands not sent yet: " + scoreWords(card()) + ".");
      }
      prepare();
      timer = setTimeout(flush, delay);
      delay = Math.min(delay * 2, 30000);
    });
  }

  /* A hand the engine's table says the server would refuse: its reason now, the taps kept. */
  function refuseNow(form, reason) {
    Array.prototype.forEach.call(card().querySelectorAll("[data-flash]"), function (flash) {
      flash.remove();
    });
    var note = document.createElement("p");
    note.className = "flash error";
    note.setAttribute("data-flash", "");
    note.textContent = reason.charAt(0).toUpperCase() + reason.slice(1);
    card().insertBefore(note, form);
    announce(note.textContent);
  }

  function formData(form, submitter) {
    var data;
    try {
      data = new FormData(form, submitter);
    } catch (error) {
      data = new FormData(form);
      if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    }
    return data;
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var mode = form.getAttribute("data-enhance");
    if (!mode) return;
    event.preventDefault();
    if (form.getAttribute("aria-busy")) return; // a double tap: the first one is on its way
    var queue = load();
    if (form.classList.contains("undo") && queue.length) {
      if (sending) return announce("That hand is being sent: undo it once it is recorded.");
      var dropped = queue.pop();
      save(queue);
      prepare();
      return announce("Hand " + dropped.number + " removed: it had not been sent.");
    }
    var data = formData(form, event.submitter);
    var body = new URLSearchParams(data).toString();
    if (mode === "queue") {
      var ahead = project(queue);
      var refusal = ahead.known && refusedByGame(ahead, body);
      var result = refusal ? { error: refusal } : ahead.known && lookUp(body, ahead.dealer);
      if (result && result.error) return refuseNow(form, result.error);
      clearRefused();
    }
    busy(form, true);
    if (mode === "queue") {
      queue.push({ url: form.action, key: data.get("key"), number: data.get("number"), body: body });
      save(queue);
      return flush();
    }
    post(form.action, body).then(function (answer) {
      if (!swap(answer.html)) {
        busy(form, false);
        lost("Not done: this score-card link no longer works. Reload the page.");
      }
    }, function () {
      busy(form, false);
      announce("No connection: not sent. Try again when you are back online.");
      var note = form.querySelector(".offline") || document.createElement("p");
      note.className = "flash error offline";
      note.textContent = "No connection: not sent. Try again when you are back online.";
      form.appendChild(note);
    });
  });

  pending.querySelector("button").addEventListener("click", function () {
    delay = 2000;
    flush();
  });
  window.addEventListener("online", function () {
    delay = 2000;
    flush();
  });
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) prepare();
  });
  prepare();
  flush();
})();
