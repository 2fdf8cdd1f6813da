/* All Fours in the browser: the little that htmx does not do.
 *
 * The server renders every table; this file only adds what lives in the page between
 * swaps: preferences (four-colour deck, sound), the connection banner, announcements for
 * screen readers, the tab title, the light animations, arrow keys across the hand, the
 * reason a card cannot be played, copying the invite link, the sweep of a collected trick,
 * and placing and dismissing the hand summary.
 * It reads the rendered table only, never hidden state: there is none in the page.
 */
(function () {
  "use strict";

  var root = document.documentElement;
  var store = {
    get: function (k) { try { return localStorage.getItem("allfours." + k); } catch (e) { return null; } },
    set: function (k, v) { try { localStorage.setItem("allfours." + k, v); } catch (e) { /* private mode */ } },
  };
  // Apply preferences before the first paint (this script runs in <head>).
  if (store.get("deck") === "four") root.setAttribute("data-deck", "four");

  var seenNews = null; // keys of events already announced; null until the first table
  var seenPlayed = {};
  var seenLift = null;
  var seenKicks = {};
  var wasMyTurn = false;
  var hiddenSince = null;
  var handFocused = false; // the keyboard was in the hand before the last swap

  function $(sel, el) { return (el || document).querySelector(sel); }
  function $all(sel, el) { return Array.prototype.slice.call((el || document).querySelectorAll(sel)); }
  function table() { return $("#table"); }

  // ---------- Preferences ----------
  function syncPrefs() {
    $all("[data-pref]").forEach(function (b) {
      var k = b.getAttribute("data-pref");
      var on = k === "deck" ? root.getAttribute("data-deck") === "four" : store.get("sound") === "on";
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }
  function togglePref(k) {
    if (k === "deck") {
      var four = root.getAttribute("data-deck") !== "four";
      if (four) root.setAttribute("data-deck", "four"); else root.removeAttribute("data-deck");
      store.set("deck", four ? "four" : "two");
    } else if (k === "sound") {
      store.set("sound", store.get("sound") === "on" ? "off" : "on");
      if (store.get("sound") === "on") chime();
    }
    syncPrefs();
  }

  var audio = null;
  function chime() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      var now = audio.currentTime;
      [660, 880].forEach(function (f, i) {
        var o = audio.createOscillator(), g = audio.createGain();
        o.type = "sine"; o.frequency.value = f;
        g.gain.setValueAtTime(0.0001, now + i * 0.12);
        g.gain.exponentialRampToValueAtTime(0.15, now + i * 0.12 + 0.02);
        g.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.25);
        o.connect(g); g.connect(audio.destination);
        o.start(now + i * 0.12); o.stop(now + i * 0.12 + 0.3);
      });
    } catch (e) { /* no audio here */ }
  }

  // ---------- Messages ----------
  var toastTimer = null;
  function toast(text) {
    var t = $("#toast");
    if (!t) return;
    t.textContent = text;
    t.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(function () { t.hidden = true; }, 3500);
  }
  function announce(text) {
    var a = $("#announcer");
    if (!a || !text) return;
    var p = document.createElement("p");
    p.textContent = text;
    a.appendChild(p);
    while (a.childNodes.length > 6) a.removeChild(a.firstChild);
  }

  // ---------- After each table (first render and every swap) ----------
  function onTable() {
    var t = table();
    if (!t) return;
    var title = t.getAttribute("data-title");
    if (title) document.title = title;

    var myTurn = t.hasAttribute("data-your-turn");
    if (myTurn && !wasMyTurn && store.get("sound") === "on" && seenNews !== null) chime();
    wasMyTurn = myTurn;

    // Announce what is new; on the first table remember everything without reading it out.
    var first = seenNews === null;
    if (first) seenNews = {};
    var fresh = [];
    $all("[data-news]", t).forEach(function (li) {
      var k = li.getAttribute("data-news");
      if (!seenNews[k]) { seenNews[k] = true; if (!first || k.indexOf("turn:") === 0) fresh.push(li.textContent); }
    });
    if (fresh.length) announce(fresh.join(" "));

    // A card that arrived since the last table slides in from its player's side.
    var played = {};
    $all("[data-played]", t).forEach(function (slot) {
      var code = slot.getAttribute("data-played");
      played[code] = true;
      if (!first && !seenPlayed[code]) slot.classList.add("played");
    });
    seenPlayed = played;

    // A trick just collected: show it a moment, then sweep it to the winner. The same
    // version reaches the page twice when the viewer played the fourth card (the action's
    // answer, then the stream), and the next lead may follow at once: the sweep is a copy
    // outside the swapped table, so no later swap cuts it short.
    var lift = $(".collected", t);
    var liftKey = lift ? lift.getAttribute("data-lift") : null;
    if (lift && !first && liftKey !== seenLift) sweep(t, lift);
    else if (sweepDone && !$(".trick", t)) sweepDone(); // the game is over: the result, at once
    if (liftKey) seenLift = liftKey;

    // Kick points pop when a card that scores is turned.
    $all(".kick", t).forEach(function (k) {
      var key = k.getAttribute("data-kick");
      if (!first && !seenKicks[key] && k.classList.contains("scores")) k.classList.add("fresh");
      seenKicks[key] = true;
    });

    // The invite link in full, as a friend would paste it.
    var invite = $("#invite-link", t);
    if (invite && /^https?:$/.test(location.protocol)) invite.value = location.origin + invite.getAttribute("data-invite");

    // The summary of a hand, once dismissed, stays dismissed (also across reloads).
    $all(".hand-summary", t).forEach(function (s) {
      try { if (sessionStorage.getItem("allfours.dismissed") === s.id) s.hidden = true; } catch (e) { /* ignore */ }
    });
    fitSummary();
    // Playing a card by keyboard removes the focused card: keep the keyboard in the hand.
    var active = document.activeElement;
    if (handFocused && (!active || active === document.body)) {
      var stop = $("[data-hand] [tabindex='0']", t);
      if (stop) stop.focus({ preventScroll: true });
    }
    syncPrefs();
  }

  // ---------- The sweep of a collected trick ----------
  var SWEEP_MS = 1600, FINAL_SWEEP_MS = 2400; // as .collected.sweep in app.css
  var sweepDone = null;
  function sweep(t, lift) {
    var trick = $(".trick", t);
    if (sweepDone) sweepDone();
    if (!trick || (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches)) return;
    var box = trick.getBoundingClientRect();
    var ghost = document.createElement("div");
    ghost.className = "trick sweep-ghost";
    ghost.setAttribute("aria-hidden", "true");
    ghost.setAttribute("data-past", "");
    ghost.setAttribute("data-sweep", lift.getAttribute("data-lift") || "");
    // CSSOM, not a style attribute: the page's CSP refuses inline styles.
    ghost.style.left = box.left + "px";
    ghost.style.top = box.top + "px";
    ghost.style.width = box.width + "px";
    var copy = lift.cloneNode(true);
    copy.classList.add("sweep");
    ghost.appendChild(copy);
    document.body.appendChild(ghost);
    // The last lift of a hand: the new deal's cards come in once it has been swept.
    var final = lift.hasAttribute("data-final");
    root.classList.add("sweeping");
    if (final) root.classList.add("sweeping-final");
    var timer = null;
    var done = function () {
      if (sweepDone !== done) return;
      sweepDone = null;
      clearTimeout(timer);
      if (ghost.parentNode) ghost.parentNode.removeChild(ghost);
      root.classList.remove("sweeping", "sweeping-final");
      if (final) {
        root.classList.add("dealt");
        setTimeout(function () { root.classList.remove("dealt"); }, 900);
      }
      root.setAttribute("data-swept", ghost.getAttribute("data-sweep"));
      fitSummary();
    };
    sweepDone = done;
    copy.addEventListener("animationend", done);
    timer = setTimeout(done, (final ? FINAL_SWEEP_MS : SWEEP_MS) + 400); // should the animation not run
  }

  // ---------- The hand summary ----------
  // On a phone it is a drawer over the far side of the table: it may reach down to the
  // player's own area (the decision, the hand), never over it.
  function fitSummary() {
    var board = $("#table .board"), me = $("#table .me-area");
    if (!board || !me) return;
    var room = me.getBoundingClientRect().top - board.getBoundingClientRect().top - 6;
    board.style.setProperty("--summary-room", Math.max(room, 120) + "px");
  }
  function dismissSummary(s) {
    if (!s || s.hidden) return;
    s.hidden = true;
    try { sessionStorage.setItem("allfours.dismissed", s.id); } catch (x) { /* ignore */ }
  }
  // After the summary, the next thing to do: the decision, else the hand, else the table.
  function focusNext() {
    var t = table();
    if (!t) return;
    var next = $(".beg-step button:not([disabled])", t) || $("[data-hand] [tabindex='0']", t)
      || $(".felt-tools button", t) || $("[data-action]", t);
    if (!next) { t.setAttribute("tabindex", "-1"); next = t; }
    next.focus({ preventScroll: true });
  }

  // ---------- Keyboard across the hand ----------
  function handKeys(e) {
    var card = e.target.closest && e.target.closest(".hand-card");
    if (!card) return;
    var cards = $all(".hand-card", card.parentNode);
    var i = cards.indexOf(card), j = i;
    if (e.key === "ArrowRight" || e.key === "ArrowDown") j = Math.min(cards.length - 1, i + 1);
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") j = Math.max(0, i - 1);
    else if (e.key === "Home") j = 0;
    else if (e.key === "End") j = cards.length - 1;
    else return;
    e.preventDefault();
    cards.forEach(function (c, n) { c.tabIndex = n === j ? 0 : -1; });
    cards[j].focus();
  }

  function onClick(e) {
    var el = e.target.closest ? e.target.closest("button, [data-reason]") : null;
    if (!el) return;
    if (el.hasAttribute("data-pref")) { togglePref(el.getAttribute("data-pref")); return; }
    if (el.hasAttribute("data-copy-invite")) {
      var input = $("#invite-link");
      var url = location.origin + (input ? input.getAttribute("data-invite") : location.pathname);
      var done = function () { toast("Invite link copied: " + url); };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(url).then(done, function () { input && input.select(); });
      } else if (input) { input.value = url; input.select(); try { document.execCommand("copy"); done(); } catch (x) { /* select is enough */ } }
      return;
    }
    if (el.hasAttribute("data-toggle-last")) { root.classList.toggle("show-last"); return; }
    if (el.hasAttribute("data-dismiss-summary")) {
      dismissSummary(el.closest(".hand-summary"));
      focusNext();
      return;
    }
    if (el.getAttribute("aria-disabled") === "true" && el.hasAttribute("data-reason")) {
      e.preventDefault();
      toast(el.getAttribute("data-reason"));
    }
  }

  // ---------- htmx wiring ----------
  document.addEventListener("DOMContentLoaded", function () {
    var live = $("#live");
    if (live && live.value === undefined) { /* the room page */ }
    onTable();
    document.addEventListener("click", onClick);
    // Browsers start sound only after a gesture: a tap anywhere wakes the chime after a reload.
    document.addEventListener("pointerdown", function () {
      if (audio && audio.state === "suspended") audio.resume();
    });
    document.addEventListener("focusin", function (e) {
      handFocused = !!(e.target.closest && e.target.closest("[data-hand]"));
    });
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape") root.classList.remove("show-last");
      handKeys(e);
    });
    if (!window.htmx) return;

    // The viewer's next move puts the summary of the hand before away: it was read.
    document.body.addEventListener("htmx:beforeRequest", function (e) {
      var from = e.detail && e.detail.elt;
      if (from && from.closest && from.closest(".beg-step, .hand-form")) $all("#table .hand-summary").forEach(dismissSummary);
    });
    window.addEventListener("resize", fitSummary);
    document.body.addEventListener("htmx:sseOpen", function () { root.classList.remove("reconnecting"); });
    document.body.addEventListener("htmx:sseError", function () { root.classList.add("reconnecting"); });
    document.body.addEventListener("htmx:afterSettle", function (e) {
      if (e.target && e.target.id === "live") onTable();
    });
    // htmx-ext-sse swaps without the request events: catch its swaps here.
    document.body.addEventListener("htmx:sseMessage", function () { onTable(); });

    // An action's answer is the table at that moment; never let it replace a newer one
    // that the event stream already brought.
    document.body.addEventListener("htmx:beforeSwap", function (e) {
      var t = table();
      var xhr = e.detail.xhr;
      if (!t || !xhr || e.detail.target.id !== "live") return;
      if (xhr.status >= 400) return;
      // Taking a seat answers with the whole live element: always swap it, for the stream
      // must reopen as the new seat even if other players' moves arrived first.
      if ((xhr.responseText || "").indexOf('id="live"') !== -1) return;
      var m = /data-version="(\d+)"/.exec(xhr.responseText || "");
      if (m && Number(m[1]) < Number(t.getAttribute("data-version"))) e.detail.shouldSwap = false;
    });
    document.body.addEventListener("htmx:responseError", function (e) {
      var xhr = e.detail.xhr, text = "";
      try { var body = JSON.parse(xhr.responseText); text = body.detail || body.error; } catch (x) { text = ""; }
      if (!text) {
        var m = /<p class="error"[^>]*>([^<]+)</.exec(xhr.responseText || "");
        text = m ? m[1] : "That did not work (" + xhr.status + ")";
      }
      toast(text);
      refresh();
    });
    document.body.addEventListener("htmx:sendError", function () {
      toast("No connection to the table: try again in a moment.");
    });

    // A phone that slept may hold a stale table and a dead stream: fetch a fresh snapshot
    // when the page comes back (the stream reconnects by itself and starts from one too).
    document.addEventListener("visibilitychange", function () {
      if (document.hidden) { hiddenSince = Date.now(); return; }
      if (hiddenSince !== null) refresh();
      hiddenSince = null;
    });
  });

  function refresh() {
    var live = $("#live");
    var url = live && live.getAttribute("data-table-url");
    if (url && window.htmx) window.htmx.ajax("GET", url, { target: "#live", swap: "innerHTML" });
  }
})();
