/* The replay page: one step of the game at a time.
 *
 * The server renders every step (app/web/replay.py); this shows one: the deal (lift=0),
 * each lift (1..n), then the count (n + 1). The position lives in the URL
 * (?hand=3&lift=4), so a link points at it; the buttons and the arrow keys move it
 * (Home / End: the first and last step of the hand). Without this script the page shows
 * the whole game at once.
 */
(function () {
  "use strict";

  function $(sel, el) { return (el || document).querySelector(sel); }
  function $all(sel, el) { return Array.prototype.slice.call((el || document).querySelectorAll(sel)); }

  function start() {
    var root = $("[data-replay]");
    if (!root) return;
    var deals = $all("section[data-hand]", root);
    if (!deals.length) return;
    root.classList.add("stepping");
    // The sentences it writes, in the page's language (replay.html's data-words).
    var words = JSON.parse(root.getAttribute("data-words") || "{}");
    function say(key, values) {
      return String(words[key] || "").replace(/\{(\w+)\}/g, function (m, k) { return values[k]; });
    }

    // Every step of the game in order: [hand, lift].
    var steps = [];
    deals.forEach(function (d) {
      var hand = +d.getAttribute("data-hand");
      var last = +d.getAttribute("data-last-step");
      for (var lift = 0; lift <= last; lift++) steps.push([hand, lift]);
    });

    function find(hand, lift) {
      for (var i = 0; i < steps.length; i++) {
        if (steps[i][0] === hand && steps[i][1] === lift) return i;
      }
      return -1;
    }

    function fromUrl() {
      var q = new URLSearchParams(location.search);
      var hand = parseInt(q.get("hand") || "", 10);
      var lift = parseInt(q.get("lift") || "0", 10);
      var i = find(hand, isNaN(lift) ? 0 : lift);
      if (i < 0 && !isNaN(hand)) i = find(hand, 0); // a lift past the hand's end: its deal
      return i < 0 ? 0 : i;
    }

    function href(i) {
      var s = steps[i];
      return "?hand=" + s[0] + "&lift=" + s[1];
    }

    var at = fromUrl();

    function show(i, push) {
      at = Math.max(0, Math.min(steps.length - 1, i));
      var hand = steps[at][0], lift = steps[at][1];
      deals.forEach(function (d) {
        var mine = +d.getAttribute("data-hand") === hand;
        d.hidden = !mine;
        if (!mine) return;
        var lifts = +d.getAttribute("data-lifts");
        var counting = lifts > 0 && lift === lifts + 1;
        $all("[data-gone]", d).forEach(function (c) {
          c.classList.toggle("gone", +c.getAttribute("data-gone") <= lift);
        });
        $all("[data-lift]", d).forEach(function (l) {
          var n = +l.getAttribute("data-lift");
          l.hidden = counting ? n !== lifts : n !== lift;
        });
        var count = $("[data-awards=count]", d);
        if (count) count.hidden = !counting;
        var after = lifts === 0 || counting;
        $("[data-score-before]", d).hidden = after;
        $("[data-score-after]", d).hidden = !after;
        var where = lift === 0 ? say("deal", {}) : counting ? say("count", {})
          : say("lift", { lift: lift, lifts: lifts });
        $("[data-position]", root).textContent =
          say("hand", { hand: hand, hands: deals.length }) + " · " + where;
      });
      $all("[data-jump]", root).forEach(function (a) {
        if (+a.getAttribute("data-jump") === hand) a.setAttribute("aria-current", "step");
        else a.removeAttribute("aria-current");
      });
      var prev = $("[data-step=prev]", root), next = $("[data-step=next]", root);
      prev.setAttribute("href", href(Math.max(0, at - 1)));
      next.setAttribute("href", href(Math.min(steps.length - 1, at + 1)));
      prev.setAttribute("aria-disabled", at === 0 ? "true" : "false");
      next.setAttribute("aria-disabled", at === steps.length - 1 ? "true" : "false");
      if (push) history.replaceState(null, "", href(at));
    }

    function move(by) { show(at + by, true); }

    root.addEventListener("click", function (e) {
      var a = e.target.closest("[data-step], [data-jump]");
      if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      if (a.hasAttribute("data-jump")) show(find(+a.getAttribute("data-jump"), 0), true);
      else move(a.getAttribute("data-step") === "next" ? 1 : -1);
    });

    document.addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      var t = e.target;
      if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable)) return;
      var hand = steps[at][0];
      if (e.key === "ArrowRight") move(1);
      else if (e.key === "ArrowLeft") move(-1);
      else if (e.key === "Home") show(find(hand, 0), true);
      else if (e.key === "End") {
        var d = $("section[data-hand='" + hand + "']", root);
        show(find(hand, +d.getAttribute("data-last-step")), true);
      } else return;
      e.preventDefault();
    });

    window.addEventListener("popstate", function () { show(fromUrl(), false); });
    show(at, false);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
