/* All Fours in the browser: the little that htmx does not do.
 *
 * The server renders every table; this file only adds what lives in the page between
 * swaps: preferences (four-colour deck, sound), the connection banner, announcements for
 * screen readers, the tab title, the light animations, arrow keys across the hand, the
 * reason a card cannot be played, the sweep of a collected trick, and placing and
 * dismissing the hand summary. The pages around the table (the home page's presets,
 * sharing the invite, the focus after a lobby action) have their own block at the end.
 * It reads the rendered table only, never hidden state: there is none in the page.
 */
// The sentences this script writes, in the page's language: base.html renders them into
// <body data-words>; {name} in a sentence is filled in from ``values``.
window.allFoursWord = function (key, values) {
  var all = window.allFoursWords;
  if (!all) {
    try { all = JSON.parse(document.body.getAttribute("data-words") || "{}"); } catch (x) { all = {}; }
    window.allFoursWords = all;
  }
  return String(all[key] || key).replace(/\{(\w+)\}/g, function (m, k) {
    return values && Object.prototype.hasOwnProperty.call(values, k) ? String(values[k]) : m;
  });
};

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
    // A table that comes during a sweep (the next deal after a quick reckoning) keeps the
    // trick's room too, so that nothing below slides under the sweep, and the sweep stays
    // on the felt, which may have moved (the hand's calls of renege gone from above it).
    var trick = $(".trick", t);
    if (sweepRoom && trick) {
      if (trick.style.minHeight !== sweepRoom) trick.style.minHeight = sweepRoom;
      onFelt($(".sweep-clip"), $(".sweep-ghost"));
    }
    if (lift && !first && liftKey !== seenLift) sweep(lift);
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
    keepKeyboard();
  }

  // Playing a card by keyboard removes the focused card, and a hand's last card takes the
  // hand away until the next deal comes in after the sweep: keep the keyboard in the hand.
  function keepKeyboard() {
    var active = document.activeElement;
    if (!handFocused || (active && active !== document.body)) return;
    var stop = $("#table [data-hand] [tabindex='0']");
    if (stop) stop.focus({ preventScroll: true });
  }

  // ---------- The sweep of a collected trick ----------
  var SWEEP_MS = 1600, FINAL_SWEEP_MS = 2400; // as .collected.sweep in app.css
  var sweepDone = null;
  var sweepRoom = null; // the trick's height held while a sweep is on (a CSS length)
  // Where the trick lay on screen, read before a table that collects a new lift changes
  // anything (the last frame's layout, so reading it costs no layout of its own).
  var trickBox = null;
  function beforeTable(fragment) {
    var coming = fragment.querySelector && fragment.querySelector(".trick .collected");
    var trick = coming && coming.getAttribute("data-lift") !== seenLift ? $("#table .trick") : null;
    trickBox = trick ? trick.getBoundingClientRect() : null;
  }
  // The sweep goes on within the felt, clipped at its edges: the cards slide towards the
  // winner's seat and never over the score, the kick's strip, the status or the reckoning.
  // In the page's coordinates: a scroll (a tap on "Score it" brings it into view) moves it
  // with the table. CSSOM, not a style attribute: the CSP refuses those.
  function onFelt(clip, ghost) {
    var felt = $("#table .play-felt"), trick = $("#table .trick");
    if (!clip || !ghost || !felt || !trick) return;
    var edge = felt.getBoundingClientRect(), at = trick.getBoundingClientRect();
    clip.style.left = edge.left + window.scrollX + "px";
    clip.style.top = edge.top + window.scrollY + "px";
    clip.style.width = edge.width + "px";
    clip.style.height = edge.height + "px";
    ghost.style.left = at.left - edge.left + "px";
    ghost.style.top = at.top - edge.top + "px";
  }
  function sweep(lift) {
    var box = trickBox;
    trickBox = null;
    if (sweepDone) sweepDone();
    if (!box || (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches)) return;
    // A new table may lay the felt out otherwise (a new deal's felt is shorter before its
    // first card): the copy lies where the trick is now, and the trick keeps the room it had
    // until the sweep is over, so that nothing below (the status) slides under the copy.
    var trick = $("#table .trick");
    if (!trick || !$("#table .play-felt")) return;
    var now = trick.getBoundingClientRect();
    sweepRoom = Math.max(now.height, box.height) + "px";
    trick.style.minHeight = sweepRoom;
    var clip = document.createElement("div");
    clip.className = "sweep-clip";
    var ghost = document.createElement("div");
    ghost.className = "trick sweep-ghost";
    ghost.setAttribute("aria-hidden", "true");
    ghost.setAttribute("data-past", "");
    ghost.setAttribute("data-sweep", lift.getAttribute("data-lift") || "");
    ghost.style.width = box.width + "px";
    onFelt(clip, ghost);
    var copy = lift.cloneNode(true);
    copy.removeAttribute("id"); // the lift's own stays in the table
    copy.classList.add("sweep");
    ghost.appendChild(copy);
    clip.appendChild(ghost);
    document.body.appendChild(clip);
    // The last lift of a hand: the new deal's cards come in once it has been swept.
    var final = lift.hasAttribute("data-final");
    root.classList.add("sweeping");
    if (final) root.classList.add("sweeping-final");
    var timer = null;
    var done = function () {
      if (sweepDone !== done) return;
      sweepDone = null;
      clearTimeout(timer);
      if (clip.parentNode) clip.parentNode.removeChild(clip);
      var held = $("#table .trick");
      if (held) held.style.removeProperty("min-height");
      sweepRoom = null;
      root.classList.remove("sweeping", "sweeping-final");
      if (final) {
        root.classList.add("dealt");
        setTimeout(function () { root.classList.remove("dealt"); }, 900);
      }
      root.setAttribute("data-swept", ghost.getAttribute("data-sweep"));
      fitSummary();
      keepKeyboard(); // the new deal's hand was hidden until now: it could not take the focus
    };
    sweepDone = done;
    copy.addEventListener("animationend", done);
    timer = setTimeout(done, (final ? FINAL_SWEEP_MS : SWEEP_MS) + 400); // should the animation not run
  }

  // ---------- The hand summary ----------
  // On a phone it is a drawer over the far side of the table, between the kick and the
  // player's own area: never over the score, the kick, the status, the decision or the hand.
  // Fitted at once, before the frame that shows it (a frame late, it would lie over what
  // a new table moved): written only when it changed, and only while a summary is shown, so
  // most moves cost no layout here at all.
  function fitSummary() {
    var board = $("#table .board"), me = $("#table .me-area"), s = $("#table .hand-summary:not([hidden])");
    if (!board || !me || !s) return;
    if (getComputedStyle(s).position !== "absolute") { // in the side column: it fits itself
      board.style.removeProperty("--summary-room");
      board.style.removeProperty("--summary-top");
      return;
    }
    // Your turn with cards in the lift: the drawer folds to its title, so the lift it lies
    // over is seen; "Show" opens it again (kept open: the summary is kept whole, data-keep).
    var fold = !!$("#table.your-turn") && !!$("#table .trick [data-played]") && !s.hasAttribute("data-unfolded");
    s.classList.toggle("folded", fold);
    var unfold = $("[data-unfold-summary]", s);
    if (unfold) unfold.hidden = !fold;
    var above = $("#table .kick-panel") || $("#table .scoreboard");
    var boardTop = board.getBoundingClientRect().top;
    var top = above ? Math.max(above.getBoundingClientRect().bottom - boardTop + 4, 0) : 0;
    var room = Math.max(me.getBoundingClientRect().top - boardTop - top - 6, 80) + "px";
    if (board.style.getPropertyValue("--summary-room") !== room) board.style.setProperty("--summary-room", room);
    if (board.style.getPropertyValue("--summary-top") !== top + "px") board.style.setProperty("--summary-top", top + "px");
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

  // ---------- A double tap moves once and says nothing ----------
  // A second tap of a card or of Stand/Beg (a double tap, a bouncing finger) while the first
  // is on its way is dropped by htmx (hx-sync "this:drop" on the two forms). One just after
  // the first was answered lands on the redrawn table: on the card that slid under the
  // finger, or is sent with the new table's version. The first tap made the move: what the
  // second is refused with (a card not to play now, "It is not your turn.") goes unsaid.
  var DOUBLE_TAP_MS = 700, SAME_PLACE_PX = 24;
  var lastMove = -Infinity; // when this page last sent a move, or had one answered
  var lastTap = null; // where and when a move's control was last tapped
  function moveForm(el) { return el && el.closest ? el.closest(".beg-step, .hand-form") : null; }
  function secondTap() { return Date.now() - lastMove < DOUBLE_TAP_MS; }
  // The same finger again: a tap where the last one was, at once (a card tapped later, or
  // elsewhere, still says why it cannot be played).
  function sameTap(e) {
    return !!lastTap && Date.now() - lastTap.at < DOUBLE_TAP_MS
      && Math.abs(e.clientX - lastTap.x) < SAME_PLACE_PX && Math.abs(e.clientY - lastTap.y) < SAME_PLACE_PX;
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
    if (el.hasAttribute("data-toggle-last")) { root.classList.toggle("show-last"); return; }
    if (el.hasAttribute("data-dismiss-summary")) {
      dismissSummary(el.closest(".hand-summary"));
      focusNext();
      return;
    }
    if (el.hasAttribute("data-unfold-summary")) {
      var folded = el.closest(".hand-summary");
      folded.setAttribute("data-unfolded", ""); // the player asked for it: it stays open
      fitSummary();
      return;
    }
    if (el.getAttribute("aria-disabled") === "true" && el.hasAttribute("data-reason")) {
      e.preventDefault();
      if (!(moveForm(el) && sameTap(e))) toast(el.getAttribute("data-reason"));
      return;
    }
    if (moveForm(el) && el.tagName === "BUTTON") {
      lastTap = { x: e.clientX, y: e.clientY, at: Date.now() };
    }
  }

  // ---------- htmx wiring ----------
  document.addEventListener("DOMContentLoaded", function () {
    onTable();
    syncPrefs();
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
      if (!moveForm(e.detail && e.detail.elt)) return;
      if (e.detail.xhr) e.detail.xhr.allFoursSecondTap = secondTap();
      lastMove = Date.now();
      $all("#table .hand-summary").forEach(dismissSummary);
    });
    document.body.addEventListener("htmx:afterRequest", function (e) {
      if (moveForm(e.detail && e.detail.elt)) lastMove = Date.now();
    });
    window.addEventListener("resize", fitSummary);
    document.body.addEventListener("htmx:sseOpen", function () { root.classList.remove("reconnecting"); });
    document.body.addEventListener("htmx:sseError", function () { root.classList.add("reconnecting"); });
    // Once per table, however it came (an event, an action's answer, a poll, a new seat):
    // htmx fires afterSwap on #live for each, the stream's swaps included.
    document.body.addEventListener("allfours:beforeTable", function (e) { beforeTable(e.detail.fragment); });
    document.body.addEventListener("htmx:afterSwap", function (e) {
      if (e.target && e.target.id === "live") onTable();
    });

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
      if (xhr && xhr.allFoursSecondTap) { refresh(); return; }
      try { var body = JSON.parse(xhr.responseText); text = body.message || body.detail || body.error; } catch (x) { text = ""; }
      if (!text) {
        var m = /<p class="error"[^>]*>([^<]+)</.exec(xhr.responseText || "");
        text = m ? m[1] : window.allFoursWord("failed", { status: xhr.status });
      }
      toast(text);
      refresh();
    });
    document.body.addEventListener("htmx:sendError", function () {
      toast(window.allFoursWord("offline"));
    });

    // A phone that slept may hold a stale table and a dead stream: fetch a fresh snapshot
    // when the page comes back (the stream reconnects by itself and starts from one too).
    document.addEventListener("visibilitychange", function () {
      if (document.hidden) { hiddenSince = Date.now(); return; }
      if (hiddenSince !== null) refresh();
      hiddenSince = null;
    });
  });

  // What the table-talk block below shares with this one.
  window.AllFours = { chime: chime, toast: toast, store: store };

  function refresh() {
    var live = $("#live");
    var url = live && live.getAttribute("data-table-url");
    if (url && window.htmx) window.htmx.ajax("GET", url, { source: live, target: "#live", swap: "morph:innerHTML settle:0ms" });
  }
})();

/* ---------- Live updates change only what changed (issue 14) ----------
 * Every table that reaches the page (an event of the stream, an action's answer, a poll) is
 * the whole table as the server rendered it for this viewer. Swapped in whole, it made the
 * browser rebuild, restyle and lay out some thousand nodes (a dozen cards drawn in SVG) for
 * each card played. The swap style "morph:innerHTML" (#live's hx-swap, inherited by the
 * table's forms) has idiomorph (vendor/idiomorph.min.js) lay the new table beside the one
 * shown and change only what differs: a text, an attribute, the card that came into the
 * trick, a card gone from a hand. The elements kept keep their identity, so the focus, a
 * half-typed name or an open <details> stay as they are. Elements are matched by id (the
 * templates give one to each card in hand and in the trick, each seat plate, kick, news item
 * and lift), else by place and tag. Left as this script or the player made them: style
 * attributes (the CSP refuses them in markup, so only this script sets any), the classes of
 * the page's animations and htmx's own, the tabindex of the focused element, what was typed
 * or picked in a form and not sent; an element with data-keep is kept whole while its id
 * stays (as hx-preserve did: the summary once read, the open rules, the result's sheet
 * loaded into it). The extension is this script's, not idiomorph's own: it tells the page a
 * table is coming before anything changes ("allfours:beforeTable", which the stream's swaps
 * fire no htmx event for), hands idiomorph the whole fragment, text included, and gives htmx
 * only what it must process.
 */
(function () {
  "use strict";
  var PAGE_CLASSES = /^(played|fresh|htmx-.*)$/;
  var fresh = null; // during a morph: what htmx must process (new elements, changed hx- ones)

  // A control whose live value differs from its markup was changed in the page (a name being
  // typed, the invite link written out in full): idiomorph would reset it. A <select> the
  // person picked in is theirs until its form is sent: an option's own default says nothing
  // (the first option, chosen by default, has none), so the pick is remembered as it is made.
  var picked = typeof WeakSet === "function" ? new WeakSet() : null;
  function changedByPlayer(el, name) {
    if (name === "value") return (el.tagName === "TEXTAREA" || (el.tagName === "INPUT" && el.type !== "hidden")) && el.value !== el.defaultValue;
    if (name === "checked") return el.tagName === "INPUT" && el.checked !== el.defaultChecked;
    if (name === "selected") {
      var select = el.tagName === "OPTION" && el.closest("select");
      return !!select && (picked ? picked.has(select) : el.selected !== el.defaultSelected);
    }
    return false;
  }
  // The roving tab stop of a hand the keyboard is in (the card about to be played) is the
  // player's, not the markup's: the server's stop would make a second one.
  function handStop(el) {
    var active = document.activeElement;
    var hand = el.closest && el.closest("[data-hand]");
    return !!hand && !!active && hand.contains(active);
  }
  var CONFIG = {
    morphStyle: "innerHTML",
    callbacks: {
      beforeNodeMorphed: function (from, to) {
        if (from.nodeType !== 1) return true;
        if (to.hasAttribute("data-keep") && from.id && from.id === to.id) return false;
        // The new node is a parsed copy: the page's classes go onto it, so idiomorph keeps them.
        for (var i = 0; i < from.classList.length; i++) {
          var c = from.classList[i];
          if (PAGE_CLASSES.test(c) && !to.classList.contains(c)) to.classList.add(c);
        }
        return true;
      },
      beforeAttributeUpdated: function (name, el) {
        if (name === "style" || (name === "tabindex" && (el === document.activeElement || handStop(el))) || changedByPlayer(el, name)) return false;
        if (fresh && name.indexOf("hx-") === 0 && fresh.indexOf(el) === -1) fresh.push(el);
        return true;
      },
      afterNodeAdded: function (node) {
        if (fresh && node.nodeType === 1) fresh.push(node);
      },
    },
  };

  // The whole of ``fragment`` into ``target``'s children (``whole``: into ``target`` itself).
  // Returned: the elements htmx must process (new ones, and kept ones whose hx- attributes
  // changed).
  function morphInto(target, fragment, whole) {
    fresh = [];
    try {
      window.Idiomorph.morph(target, fragment, whole ? WHOLE : CONFIG);
      return fresh;
    } finally {
      fresh = null;
    }
  }
  var WHOLE = { morphStyle: "outerHTML", callbacks: CONFIG.callbacks };
  window.AllFoursMorph = morphInto;

  // Taking a seat answers with the whole live element, and its stream must reopen as the new
  // seat (the answer set the seat's cookie). It is morphed like any table, so what the person
  // has open stays open (the rules, a level chosen, the focus), and only the stream is
  // replaced: the old one closed, a changed attribute makes htmx process the element again,
  // which opens the new one.
  var stream = null, reopened = 0;
  function reopenStream(live) {
    if (stream) stream.close();
    live.setAttribute("data-stream", String(++reopened));
    return live;
  }

  document.addEventListener("change", function (e) {
    if (picked && e.target && e.target.tagName === "SELECT") picked.add(e.target);
  }, true);

  // A table is shown only if it was rendered for the viewer the page is now. Taking a seat
  // changes the viewer. After that, an event from a stream that is no longer the page's own,
  // or the answer to a request sent before (a poll, a refresh), is the old viewer's table.
  // It may be of the same version, and would put a spectator's table in the seat's place:
  // no hand, no turn, no Start. Such a table is dropped; the page's own stream brings the next.
  document.addEventListener("htmx:sseBeforeMessage", function (e) {
    var from = e.detail && e.detail.target;
    if (stream && from && from !== stream) e.preventDefault();
  });
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (e.detail && e.detail.xhr) e.detail.xhr.allFoursViewer = reopened;
  });
  document.addEventListener("htmx:beforeSwap", function (e) {
    var xhr = e.detail && e.detail.xhr;
    if (!xhr || !e.detail.target || e.detail.target.id !== "live") return;
    if ((xhr.responseText || "").indexOf('id="live"') !== -1) { // a seat taken: the new viewer
      var asker = e.detail.requestConfig && e.detail.requestConfig.elt;
      if (e.detail.shouldSwap && asker && !document.body.contains(asker)) {
        e.detail.shouldSwap = false;
        takeSeat(e.detail.target, xhr.responseText);
      }
      return;
    }
    if (xhr.allFoursViewer !== undefined && xhr.allFoursViewer !== reopened) e.detail.shouldSwap = false;
  });

  // The whole live element in, as the seat's new viewer: morphed, its stream reopened.
  function morphWhole(live, fragment) {
    live.dispatchEvent(new CustomEvent("allfours:beforeTable", { bubbles: true, detail: { fragment: fragment } }));
    var changed = morphInto(live, fragment, true);
    changed.push(reopenStream(live));
    return changed;
  }
  // The answer to taking a seat whose form a table took away while it was on its way (the
  // last seat taken: the table that says so comes first, drawn for the spectator the page
  // still was, and has no form to sit down with). htmx looks for the swap's extension above
  // the element that asked, and above a form no longer in the page finds no "morph": it put
  // the new live element INSIDE the old one, whose stream (the spectator's) stayed open and
  // was no longer heard, while the new one was closed by the extension at its first message,
  // its element taken away by the next table: the page heard the table no more.
  function takeSeat(live, html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    morphWhole(live, template.content).forEach(function (el) { window.htmx.process(el); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (!window.htmx || !window.Idiomorph) return;
    // Sent: the form's pick has done its work, the tables that follow say what it is now.
    document.body.addEventListener("htmx:afterRequest", function (e) {
      var form = e.detail.elt && e.detail.elt.closest && e.detail.elt.closest("form");
      if (picked && form && e.detail.successful) Array.prototype.forEach.call(form.querySelectorAll("select"), function (s) { picked.delete(s); });
    });
    var make = window.htmx.createEventSource;
    if (make) window.htmx.createEventSource = function (url) { stream = make(url); return stream; };
    window.htmx.defineExtension("morph", {
      handleSwap: function (style, target, fragment) {
        var whole = style === "morph:outerHTML" && target.id === "live";
        if (style !== "morph:innerHTML" && !whole) return false;
        if (whole) return morphWhole(target, fragment);
        target.dispatchEvent(new CustomEvent("allfours:beforeTable", { bubbles: true, detail: { fragment: fragment } }));
        return morphInto(target, fragment, false);
      },
    });
  });
})();

/* The pages around the table: the home page's presets, sharing the invite link, and where
 * the keyboard goes after a lobby action. Each keys on data attributes of its own
 * (data-preset-choice, data-action="share", data-action="join|bot|start").
 */
(function () {
  "use strict";

  function $(sel, el) { return (el || document).querySelector(sel); }
  function $all(sel, el) { return Array.prototype.slice.call((el || document).querySelectorAll(sel)); }

  // ---------- Presets: a preset sets the house rules; house rules that match none are "custom" ----------
  // A room option among the house rules (hints: data-option) is no rule of a preset's.
  function ruleFields(form) {
    return $all(".house-rules select:not([data-option]), .house-rules input[type=checkbox]:not([data-option])", form);
  }
  function fieldValue(f) { return f.type === "checkbox" ? (f.checked ? "true" : "false") : f.value; }
  function presetRules(radio) {
    try { return JSON.parse(radio.getAttribute("data-preset-rules")); } catch (e) { return null; }
  }
  function applyPreset(form, radio) {
    var rules = presetRules(radio);
    if (!rules) return;
    ruleFields(form).forEach(function (f) {
      if (!(f.name in rules)) return;
      if (f.type === "checkbox") f.checked = rules[f.name] === "true"; else f.value = rules[f.name];
    });
    showCustom(form, false);
  }
  // The preset the fields now spell, checked; none checked (so none is sent) when they spell none.
  function matchPreset(form) {
    var fields = ruleFields(form), found = null;
    $all("[data-preset-choice]", form).forEach(function (radio) {
      var rules = presetRules(radio);
      if (found || !rules) return;
      if (fields.every(function (f) { return rules[f.name] === fieldValue(f); })) found = radio;
    });
    $all("[data-preset-choice]", form).forEach(function (radio) { radio.checked = radio === found; });
    showCustom(form, !found);
  }
  function showCustom(form, on) {
    var note = $("[data-preset-custom]", form);
    if (note) note.hidden = !on;
  }
  // The reckoning's time (a room option) matters only with renege mode on.
  function syncReckon(form) {
    var box = $("[data-reckon-option]", form), renege = $("select[name=renege]", form);
    if (box && renege) box.hidden = renege.value === "off";
  }
  function wirePresets() {
    var form = $("[data-create-form]");
    if (!form) return;
    form.addEventListener("change", function (e) {
      var t = e.target;
      if (t.hasAttribute && t.hasAttribute("data-preset-choice")) applyPreset(form, t);
      else matchPreset(form);
      syncReckon(form);
    });
    syncReckon(form);
    // A page restored from the back/forward cache may hold fields changed earlier.
    var checked = $("[data-preset-choice]:checked", form);
    if (checked) matchPreset(form);
  }

  // ---------- Share the invite link (the phone's share sheet), or copy it ----------
  var canShare = typeof navigator.share === "function";
  // The share control reads "Share link" or "Copy link" by this class (pages.css): set
  // before the first paint (this script runs in <head>), so no swap ever shows the other.
  if (canShare) document.documentElement.classList.add("can-share");
  var statusTimer = null;
  function say(box, text) {
    var status = $("[data-share-status]", box);
    if (!status) return;
    status.textContent = text;
    clearTimeout(statusTimer);
    statusTimer = setTimeout(function () { status.textContent = ""; }, 4000);
  }
  function copy(box, url) {
    var input = $("#invite-link", box);
    var done = function () { say(box, window.allFoursWord("copied")); };
    var byHand = function () {
      if (!input) return;
      input.value = url;
      input.focus();
      input.select();
      try { if (document.execCommand("copy")) { done(); return; } } catch (x) { /* below */ }
      say(box, window.allFoursWord("selected"));
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(url).then(done, byHand);
    else byHand();
  }
  function share(button) {
    var box = button.closest("[data-invite-box]") || document;
    var input = $("#invite-link", box);
    var url = location.origin + (input ? input.getAttribute("data-invite") : location.pathname);
    if (!canShare) { copy(box, url); return; }
    var code = $("[data-room-code]");
    var text = code ? window.allFoursWord("invite_code", { code: code.textContent })
      : window.allFoursWord("invite");
    navigator.share({ title: "All Fours", text: text, url: url }).then(
      function () { say(box, window.allFoursWord("shared")); },
      function (err) { if (!err || err.name !== "AbortError") copy(box, url); }
    );
  }

  // ---------- After a lobby action the keyboard goes on to the next step ----------
  // Sitting down, adding a computer player and starting each swap the table, which takes
  // the focused button away: the focus goes to the next thing to do, never while the player
  // has put it somewhere themselves. (Closing the hand summary: dismissSummary above.)
  var pending = null; // {action, seat} of the last lobby action, until the player moves on
  function nextControl(action, seat) {
    var t = $("#table");
    if (!t) return null;
    if (t.getAttribute("data-phase") === "lobby") {
      var bots = $all("[data-action=bot]", t);
      var later = bots.filter(function (b) { return Number(b.getAttribute("data-seat")) > Number(seat); });
      var start = $("[data-action=start]", t);
      if (action === "bot") return start || later[0] || bots[0] || null;
      return bots[0] || start || $("[data-action=join]", t);
    }
    // The game is on: your decision, else your hand, else the table itself.
    var decision = $all(".beg-step button[data-action]", t).filter(function (b) { return !b.disabled; })[0];
    return decision || $("[data-hand] [tabindex='0']", t) || $("[data-action=rematch]", t) || t;
  }
  function focusAfterLobby() {
    if (!pending) return;
    var active = document.activeElement;
    // Lost: on the body, taken out of the page, or hidden (a browser may leave the focus on
    // a hidden element until its next frame).
    var lost = !active || active === document.body || !document.contains(active) ||
      active.getClientRects().length === 0;
    if (!lost) return;
    var target = nextControl(pending.action, pending.seat);
    if (!target) return;
    if (target.id === "table" && !target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    // A game just started: the table is shown from its top (the kick, trump, the scores), not
    // scrolled down to the hand the focus goes to, which stayed where the Start button was.
    var started = pending.action === "start" && $("#table").getAttribute("data-phase") !== "lobby";
    if (started) $("#table").scrollIntoView({ block: "start" });
    target.focus({ preventScroll: started });
  }

  document.addEventListener("DOMContentLoaded", function () {
    wirePresets();
    document.addEventListener("click", function (e) {
      // Closing the hand summary: dismissSummary puts the focus on the next thing to do; if
      // a swap takes that control away, it is found again on the new table.
      if (e.target.closest && e.target.closest("[data-dismiss-summary]")) {
        pending = { action: "dismiss" };
        return;
      }
      var el = e.target.closest ? e.target.closest("[data-action]") : null;
      if (!el) return;
      var action = el.getAttribute("data-action");
      if (action === "share") { share(el); return; }
      // A signed-in player sits under their profile's name (the server takes it from the
      // profile): the hidden field is filled before the form checks it.
      var profileName = document.body.getAttribute("data-player-name");
      var nameField = document.getElementById("name");
      if ((action === "join" || action === "take-seat") && profileName && nameField && !nameField.value) nameField.value = profileName;
      if (action === "join" || action === "bot" || action === "start") {
        pending = { action: action, seat: el.getAttribute("data-seat") };
      }
    });
    // The player moving on (a key other than the one that acted, or a tap) ends the hand-holding.
    document.addEventListener("keydown", function (e) { if (e.key !== "Enter" && e.key !== " ") pending = null; });
    document.addEventListener("pointerdown", function () { pending = null; }, true);
    // At once when the new table is in (a key pressed before it settles finds the control),
    // and again once settled and after the stream's swaps.
    document.body.addEventListener("htmx:afterSwap", focusAfterLobby);
    document.body.addEventListener("htmx:afterSettle", focusAfterLobby);
    document.body.addEventListener("htmx:sseMessage", focusAfterLobby);
  });
})();

/* ---------- Table talk: the chat beside the table and the nudge ----------
 * Messages arrive on the page's stream and are appended to #chat-log as text (the server
 * renders them escaped). This block keeps the log tidy (no message twice after a
 * reconnection), counts what came while the drawer was shut, mutes the seats a player
 * chose (on this browser), reads new messages aloud only when asked, and answers a nudge.
 */
(function () {
  "use strict";
  var WIDE = "(min-width: 1500px)";
  var muted = {};
  var unread = 0;
  var titleTimer = null;

  function $(sel, el) { return (el || document).querySelector(sel); }
  function shared() { return window.AllFours || { chime: function () {}, toast: function () {}, store: { get: function () { return null; }, set: function () {} } }; }
  function chat() { return $("#chat"); }
  function isOpen() {
    var c = chat();
    // A side column (wide screens, see chat.css) is always open; the drawer only when opened.
    return !!c && (c.getAttribute("data-open") === "true" || window.matchMedia(WIDE).matches);
  }
  function loadMuted() {
    try { muted = JSON.parse(localStorage.getItem("allfours.muted") || "{}") || {}; } catch (x) { muted = {}; }
  }
  function saveMuted() {
    try { localStorage.setItem("allfours.muted", JSON.stringify(muted)); } catch (x) { /* private mode */ }
  }
  function roomKey() { var t = $("#table"); return t ? (location.pathname.split("/")[2] || "") : ""; }
  function isMuted(seat) { return !!muted[roomKey() + ":" + seat]; }

  function tidy() {
    var log = $("#chat-log");
    if (!log) return [];
    var seen = {}, fresh = [];
    Array.prototype.slice.call(log.querySelectorAll("[data-chat-message]")).forEach(function (li) {
      var id = li.getAttribute("data-id");
      if (seen[id]) { li.remove(); return; }
      seen[id] = true;
      var seat = li.getAttribute("data-seat");
      var off = isMuted(seat);
      li.classList.toggle("chat-muted", off);  // the name stays: a tap on it unmutes
      var b = li.querySelector("[data-chat-mute]");
      if (b) b.setAttribute("aria-pressed", off ? "true" : "false");
      var time = li.querySelector("time");
      if (time && !time.hasAttribute("data-local")) {
        var when = new Date(time.getAttribute("datetime"));
        if (!isNaN(when)) time.textContent = when.toLocaleTimeString(document.documentElement.lang || [], { hour: "2-digit", minute: "2-digit" });
        time.setAttribute("data-local", "");
      }
      if (!li.hasAttribute("data-counted")) { li.setAttribute("data-counted", ""); if (!off) fresh.push(li); }
    });
    return fresh;
  }
  function showUnread() {
    var badge = $("[data-chat-unread]");
    if (!badge) return;
    badge.hidden = unread === 0;
    $("b", badge).textContent = String(unread);
  }
  function onMessages(first) {
    var fresh = tidy();
    var log = $("#chat-log");
    if (log) log.scrollTop = log.scrollHeight;
    if (first) return;
    var mine = $("#table") && $("#table").getAttribute("data-you");
    var others = fresh.filter(function (li) { return li.getAttribute("data-seat") !== mine; });
    if (!isOpen()) { unread += others.length; showUnread(); }
    var aloud = $("[data-chat-aloud]");
    var say = $("#chat-announcer");
    if (aloud && aloud.checked && say && others.length) {
      say.textContent = others.map(function (li) {
        var name = li.querySelector(".chat-name");
        return (name ? name.textContent + ": " : "") + li.querySelector(".chat-text").textContent;
      }).join(". ");
    }
  }
  function syncForm() {
    // Who may write changes with the table (taking a seat): the table says it.
    var t = $("#table"), form = $("[data-chat-form]"), ro = $("[data-chat-readonly]");
    if (!t || !form) return;
    var may = t.hasAttribute("data-chat-write");
    form.hidden = !may;
    if (ro) ro.hidden = may;
  }
  function flashTitle() {
    var n = 0, original = document.title;
    clearInterval(titleTimer);
    titleTimer = setInterval(function () {
      document.title = n % 2 ? original : window.allFoursWord("your_turn");
      if (++n > 9 || (!document.hidden && n > 3)) { clearInterval(titleTimer); document.title = original; }
    }, 700);
  }
  function onNudge(data) {
    var t = $("#table");
    var seat;
    try { seat = JSON.parse(data).seat; } catch (x) { return; }
    if (!t || String(seat) !== t.getAttribute("data-you")) return;
    var s = shared();
    if (s.store.get("sound") === "on") s.chime();
    if (navigator.vibrate) navigator.vibrate([120, 80, 120]);
    flashTitle();
    s.toast(window.allFoursWord("waiting"));
  }

  // The talk is heard on the stream itself, not through a swapped element: the recent
  // messages come right after the table on every (re)connection, while the new table is
  // still settling.
  document.addEventListener("htmx:sseOpen", function (e) {
    var source = e.detail && e.detail.source;
    if (!source || source.allfoursTalk) return;
    source.allfoursTalk = true;
    source.addEventListener("chat", function (m) {
      var log = $("#chat-log");
      if (!log) return;
      log.insertAdjacentHTML("beforeend", m.data);  // the server's escaped markup: text only
      onMessages(false);
    });
    source.addEventListener("nudge", function (m) { onNudge(m.data); });
  });

  // The table's own lines (a call of renege and its verdict, R27): the server words them in
  // the reader's language in each table (data-talk-line); each new one joins the log once.
  var tableLines = {};
  function talkLines(first) {
    var log = $("#chat-log"), t = $("#table");
    if (!log || !t) return;
    var added = false;
    Array.prototype.slice.call(t.querySelectorAll("[data-talk-line]")).forEach(function (line) {
      var key = line.getAttribute("data-talk-line");
      if (tableLines[key]) return;
      tableLines[key] = true;
      var li = document.createElement("li");
      li.className = "chat-message chat-table-line";
      li.setAttribute("data-chat-message", "");
      li.setAttribute("data-id", key);
      li.setAttribute("data-seat", "table");
      li.setAttribute("data-table-line", key);
      var text = document.createElement("span");
      text.className = "chat-text";
      text.textContent = line.textContent;
      li.appendChild(text);
      log.appendChild(li);
      added = true;
    });
    if (added) onMessages(first);
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (!chat()) return;
    loadMuted();
    onMessages(true);
    syncForm();
    talkLines(true);
    document.body.addEventListener("htmx:afterSwap", function (e) {
      if (e.target && e.target.id === "live") talkLines(false);
    });
    document.body.addEventListener("htmx:afterSwap", syncForm);
    document.body.addEventListener("htmx:afterRequest", function (e) {
      var form = e.detail.elt && e.detail.elt.closest && e.detail.elt.closest("[data-chat-form]");
      if (!form) return;
      var note = $("[data-chat-note]", form);
      if (e.detail.successful) {
        var input = $("#chat-input");
        if (input) input.value = "";
        if (note) note.textContent = "";
      } else if (note) {
        var text = "";
        try { var said = JSON.parse(e.detail.xhr.responseText); text = said.message || said.detail; } catch (x) { text = ""; }
        note.textContent = text || window.allFoursWord("not_sent");
      }
    });
    // Closing the drawer (its Close button, or Escape inside it) gives the focus back to the
    // top bar's switch that opened it.
    function closeDrawer() {
      var c = chat(), toggle = $("[data-chat-toggle]");
      c.setAttribute("data-open", "false");
      if (toggle) { toggle.setAttribute("aria-expanded", "false"); toggle.focus(); }
    }
    chat().addEventListener("keydown", function (e) {
      if (e.key === "Escape" && chat().getAttribute("data-open") === "true") closeDrawer();
    });
    document.addEventListener("click", function (e) {
      var toggle = e.target.closest && e.target.closest("[data-chat-toggle]");
      if (toggle) {
        var c = chat();
        var open = c.getAttribute("data-open") !== "true";
        c.setAttribute("data-open", open ? "true" : "false");
        toggle.setAttribute("aria-expanded", open ? "true" : "false");
        if (open) { unread = 0; showUnread(); var log = $("#chat-log"); if (log) log.scrollTop = log.scrollHeight; }
        return;
      }
      if (e.target.closest && e.target.closest("[data-chat-close]")) { closeDrawer(); return; }
      var mute = e.target.closest && e.target.closest("[data-chat-mute]");
      if (mute) {
        var seat = mute.closest("[data-chat-message]").getAttribute("data-seat");
        var key = roomKey() + ":" + seat;
        if (muted[key]) delete muted[key]; else muted[key] = true;
        saveMuted();
        tidy();
      }
    });
  });
})();

/* ---------- Where the stream cannot get through: polling the table (issue 14) ----------
 * Some proxies and mobile networks hold server-sent events back or cut them, and the table
 * would freeze. When no event has come STREAM_WAIT_MS after the page (or a reopened stream)
 * started, or the stream failed FAILS times without an event between, the page asks for its
 * table every POLL_MS with the ETag of the last one (the server answers 304, no body, when
 * nothing changed), says so in a quiet line above the table, and goes back to the stream as
 * soon as an event as new as the table comes through it (the EventSource keeps retrying by
 * itself). Whatever brings a table, an older one never replaces a newer one.
 */
(function () {
  "use strict";
  var STREAM_WAIT_MS = 5000, POLL_MS = 3000, FAILS = 3;
  var polling = false, pollTimer = null, waitTimer = null, fails = 0, tag = null, asking = false;
  var root = document.documentElement;

  function live() { return document.getElementById("live"); }
  function shown() {
    var t = document.getElementById("table");
    return t ? Number(t.getAttribute("data-version")) : -1;
  }
  function versionOf(html) {
    var m = /data-version="(\d+)"/.exec(html || "");
    return m ? Number(m[1]) : -1;
  }
  function note() {
    var n = document.getElementById("conn-polling");
    if (n) return n;
    var l = live();
    if (!l) return null;
    n = document.createElement("div");
    n.id = "conn-polling";
    n.className = "conn-polling";
    n.setAttribute("role", "status");
    n.textContent = window.allFoursWord("polling");
    l.parentNode.insertBefore(n, l);
    return n;
  }

  function waitForEvent() {
    clearTimeout(waitTimer);
    waitTimer = setTimeout(function () { if (!polling) fallBack(); }, STREAM_WAIT_MS);
  }
  function fallBack() {
    if (polling || !live()) return;
    polling = true;
    root.classList.add("polling");
    root.classList.remove("reconnecting");
    note();
    poll();
  }
  function backToStream() {
    if (!polling) return;
    polling = false;
    clearTimeout(pollTimer);
    root.classList.remove("polling");
  }
  function poll() {
    clearTimeout(pollTimer);
    if (!polling) return;
    var l = live();
    var url = l && l.getAttribute("data-table-url");
    if (!url || !window.htmx || document.hidden) { pollTimer = setTimeout(poll, POLL_MS); return; }
    asking = true;
    var headers = tag ? { "If-None-Match": tag } : {};
    window.htmx.ajax("GET", url, { source: l, target: "#live", swap: "morph:innerHTML settle:0ms", headers: headers }).then(
      function () { asking = false; pollTimer = setTimeout(poll, POLL_MS); },
      function () { asking = false; pollTimer = setTimeout(poll, POLL_MS); }
    );
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (!live() || !live().hasAttribute("sse-connect") || !window.htmx) return;
    waitForEvent();
    document.body.addEventListener("htmx:sseOpen", function () { if (!polling) waitForEvent(); });
    document.body.addEventListener("htmx:sseError", function () {
      if (polling) { root.classList.remove("reconnecting"); return; }
      fails += 1;
      if (fails >= FAILS) { fallBack(); return; }
      // A stream that dies as it opens may never try again: without a message soon, poll.
      waitForEvent();
    });
    // An event held back by a buffering proxy may come long after a newer poll: never swap
    // it in; an event as new as the table shows the stream gets through again.
    document.body.addEventListener("htmx:sseBeforeMessage", function (e) {
      var v = versionOf(e.detail && e.detail.data);
      if (v >= 0 && v < shown()) { e.preventDefault(); return; }
      fails = 0;
      clearTimeout(waitTimer);
      backToStream();
    });
    // The table's answers (polls and wake-up refreshes alike) carry its ETag; a 304 keeps
    // the table as it is.
    document.body.addEventListener("htmx:beforeSwap", function (e) {
      var xhr = e.detail.xhr;
      if (!xhr || e.detail.target.id !== "live" || !/\/table(\?|$)/.test(xhr.responseURL || "")) return;
      if (xhr.status === 304) { e.detail.shouldSwap = false; return; }
      if (xhr.status === 200) tag = xhr.getResponseHeader("ETag") || tag;
    });
    // Taking a seat swaps the whole live element in: a new stream, a new chance for it.
    document.body.addEventListener("htmx:afterSwap", function (e) {
      var xhr = e.detail.xhr;
      if (xhr && (xhr.responseText || "").indexOf('id="live"') !== -1) { tag = null; if (!polling) waitForEvent(); }
    });
  });
})();

// ---------- The score sheet (issue 14) ----------
// The table's "Score sheet" control fetches the sheet with htmx into #sheet-body; this block
// opens it in a modal dialog (room.html), which Escape, Close or a tap beside it shuts, and
// gives focus back to the control (or its successor, if the table was redrawn meanwhile).
(function () {
  "use strict";
  var opener = null;
  function sheetDialog() { return document.getElementById("sheet-dialog"); }
  document.addEventListener("DOMContentLoaded", function () {
    var d = sheetDialog();
    if (!d || typeof d.showModal !== "function" || !window.htmx) return;
    var body = document.getElementById("sheet-body");
    document.addEventListener("click", function (e) {
      var el = e.target.closest ? e.target.closest("[data-open-sheet], [data-close-sheet]") : null;
      if (el && el.hasAttribute("data-open-sheet")) {
        opener = el;
        if (body) body.setAttribute("aria-busy", "true");
        if (!d.open) d.showModal();
      } else if (el || e.target === d) {
        d.close();
      }
    });
    d.addEventListener("close", function () {
      var back = opener && document.body.contains(opener) ? opener : document.querySelector("[data-open-sheet]");
      if (back) back.focus({ preventScroll: true });
    });
    document.body.addEventListener("htmx:afterSwap", function (e) {
      if (e.target === body) body.removeAttribute("aria-busy");
    });
    // Open while the table plays on: a deal that ends (the score moves) comes onto the sheet.
    var scoreKey = null;
    function score() {
      var t = document.getElementById("table");
      return t ? [t.getAttribute("data-phase"), t.getAttribute("data-score-0"), t.getAttribute("data-score-1")].join(":") : null;
    }
    function onTable() {
      var key = score(), url = opener && opener.getAttribute("hx-get");
      if (d.open && url && scoreKey !== null && key !== scoreKey) window.htmx.ajax("GET", url, { target: body, swap: "innerHTML" });
      scoreKey = key;
    }
    document.body.addEventListener("htmx:sseMessage", onTable);
    document.body.addEventListener("htmx:afterSettle", function (e) { if (e.target && e.target.id === "live") onTable(); });
    document.body.addEventListener("htmx:responseError", function (e) {
      if (e.detail.target === body) { body.removeAttribute("aria-busy"); body.textContent = window.allFoursWord("no_sheet"); }
    });
    document.body.addEventListener("htmx:sendError", function (e) {
      if (e.detail.target === body) { body.removeAttribute("aria-busy"); body.textContent = window.allFoursWord("offline"); }
    });
  });
})();

// -- Nobody stalls the table (#15) -------------------------------------------------------------
// The away countdown and the turn timer's ring count down from the seconds the view was
// rendered with (data-seconds at data-timed-at, Unix time): a view is rendered once per
// version and may reach this page later, so the clock never restarts on a re-render.
// "The computer played 9♠ for you" stays until the player dismisses it (then never again).
(function () {
  "use strict";
  var store = {
    get: function (k) { try { return localStorage.getItem("allfours." + k); } catch (e) { return null; } },
    set: function (k, v) { try { localStorage.setItem("allfours." + k, v); } catch (e) { /* private mode */ } },
  };
  function $all(sel, el) { return Array.prototype.slice.call((el || document).querySelectorAll(sel)); }
  function left(el) {
    var s = Number(el.getAttribute("data-seconds"));
    var at = Number(el.getAttribute("data-timed-at"));
    return Math.max(0, Math.ceil(s - (Date.now() / 1000 - at)));
  }
  function mmss(s) { return Math.floor(s / 60) + ":" + ("0" + (s % 60)).slice(-2); }
  function tick() {
    $all("[data-away-clock]").forEach(function (el) {
      var text = el.querySelector("[data-clock-text]");
      if (text) text.textContent = mmss(left(el));
    });
    $all("[data-reckon-clock]").forEach(function (el) {
      var text = el.querySelector("[data-clock-text]");
      if (text) text.textContent = mmss(left(el));
    });
    $all("[data-turn-ring]").forEach(function (el) {
      var s = left(el);
      var total = Number(el.getAttribute("data-total")) || 1;
      el.style.setProperty("--left", String(Math.min(1, s / total)));
      el.classList.toggle("low", s <= 10);
      var text = el.querySelector("[data-clock-text]");
      if (text) text.textContent = s + " s";
    });
  }
  function code() { var m = location.pathname.match(/^\/r\/([^/]+)/); return m ? m[1] : ""; }
  function playedFor() {
    $all("[data-played-for]").forEach(function (el) {
      if (store.get("playedFor." + code()) === el.getAttribute("data-played-for")) el.hidden = true;
    });
  }
  document.addEventListener("click", function (e) {
    var b = e.target.closest ? e.target.closest("[data-dismiss-played-for]") : null;
    if (!b) return;
    var note = b.closest("[data-played-for]");
    if (!note) return;
    store.set("playedFor." + code(), note.getAttribute("data-played-for"));
    note.hidden = true;
  });
  document.addEventListener("DOMContentLoaded", function () {
    tick(); playedFor();
    setInterval(tick, 1000);
    // Each table, the stream's included, ends in an afterSwap.
    document.body.addEventListener("htmx:afterSwap", function () { tick(); playedFor(); });
  });
})();

// ---------- Renege mode: "Renege with 4♣?" (R20, issue 26) ----------
// A card that would renege (data-renege-card, on its holder's page only) is played only once
// the player says so in the dialog (room.html), by tap, click or keyboard alike: the card's
// own click is held back, and given again once confirmed, so the form posts as any card's.
// Cancel, Escape or a tap beside it keep the hand as it was and the focus on the card.
(function () {
  "use strict";
  var card = null; // the card asked about
  var confirmed = null; // the card whose next click plays it
  function dialog() { return document.getElementById("renege-dialog"); }
  function close(play) {
    var d = dialog(), c = card;
    card = null;
    if (d && d.open) d.close();
    if (!c) return;
    // A table that arrived meanwhile may have redrawn the hand: the same card, by its id.
    var now = document.getElementById(c.id) || c;
    if (play && document.contains(now) && now.hasAttribute("data-renege-card")) {
      confirmed = now;
      now.click();
    } else if (document.contains(now)) {
      now.focus({ preventScroll: true });
    }
  }
  document.addEventListener("click", function (e) {
    var d = dialog();
    var el = e.target.closest ? e.target.closest("[data-renege-card]") : null;
    if (el && d && typeof d.showModal === "function") {
      if (confirmed === el) { confirmed = null; return; }
      e.preventDefault();
      e.stopPropagation();
      card = el;
      var ask = d.querySelector("[data-renege-question]");
      if (ask) ask.textContent = el.getAttribute("data-renege-ask") || "";
      d.showModal();
      var cancel = d.querySelector("[data-renege-cancel]");
      if (cancel) cancel.focus();
      return;
    }
    if (!d || !d.open) return;
    if (e.target.closest && e.target.closest("[data-renege-confirm]")) close(true);
    else if ((e.target.closest && e.target.closest("[data-renege-cancel]")) || e.target === d) close(false);
  }, true);
  document.addEventListener("DOMContentLoaded", function () {
    var d = dialog();
    if (d) d.addEventListener("cancel", function (e) { e.preventDefault(); close(false); });
  });
})();
