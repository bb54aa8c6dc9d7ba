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
 */
(function () {
  "use strict";
  if (!window.fetch || !window.FormData || !window.URLSearchParams) return;
  var STORE = "captain-queue:" + location.pathname;
  var pending = document.getElementById("pending");
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
      var next = queue.length ? +queue[queue.length - 1].number + 1 : 0;
      if (next > +form.elements.number.value) {
        form.elements.number.value = next;
        form.querySelector("[data-n]").textContent = next;
      }
    }
    var status = card().querySelector(".status");
    if (status && form) {
      status.dataset.html = status.dataset.html || status.innerHTML;
      if (queue.length) {
        status.textContent = "Hand " + form.elements.number.value + " · the score is before hand " +
          queue[0].number;
      } else {
        status.innerHTML = status.dataset.html;
      }
    }
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
      return response.text();
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

  /* Send the waiting hands in order; stop at the first that cannot be sent and try again later. */
  function flush() {
    clearTimeout(timer);
    var queue = load();
    if (sending || !queue.length) return prepare();
    sending = true;
    var item = queue[0];
    post(item.url, item.body).then(function (html) {
      sending = false;
      delay = 2000;
      save(load().filter(function (other) { return other.key !== item.key; }));
      if (swap(html)) return flush();
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
        announce("No connection: hand " + item.number +
          " is kept on this phone and will be sent when the connection is back.");
      }
      prepare();
      timer = setTimeout(flush, delay);
      delay = Math.min(delay * 2, 30000);
    });
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
    busy(form, true);
    if (mode === "queue") {
      queue.push({ url: form.action, key: data.get("key"), number: data.get("number"), body: body });
      save(queue);
      return flush();
    }
    post(form.action, body).then(function (html) {
      if (!swap(html)) {
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
