/* The review of a finished game on its replay page (issue #38).
 *
 * "Review this game" asks for it (POST .../review); a progress bar follows the worker
 * (GET .../review, polled), with its meaning in words, and, once done, each seat's summary
 * and each costly decision are written from replay.html's words (the reader's language). In
 * the replay itself a costly card (or bid) is marked data-costly with data-better="<card or
 * action>", and a button on it opens why (a tap: a phone has no hover).
 */
(function () {
  "use strict";

  var POLL_MS = 1000;

  function $(sel, el) { return (el || document).querySelector(sel); }

  function start() {
    var box = $("[data-review]");
    if (!box) return;
    var words = JSON.parse(box.getAttribute("data-words") || "{}");
    var url = "/api/rooms/" + encodeURIComponent(box.getAttribute("data-room")) +
      "/games/" + encodeURIComponent(box.getAttribute("data-game")) + "/review";
    var button = $("[data-action='review']", box);
    var bar = $("[data-review-progress]", box);
    var result = $("[data-review-result]", box);
    var status = $("[data-review-status]", box);
    var marks = 0;

    // Numbers in the page's language (<html lang>): the decimal sign from the server's
    // catalog words (Babel's, as every number the server writes), the plural category
    // from Intl.PluralRules, whose names are CLDR's, as the server's forms are keyed.
    var lang = document.documentElement.lang || "en";
    var plurals = new Intl.PluralRules(
      Intl.PluralRules.supportedLocalesOf([lang]).length ? lang : "en");

    function fill(text, values) {
      return String(text || "").replace(/\{(\w+)\}/g, function (m, k) { return values[k]; });
    }
    function say(key, values) { return fill(words[key], values); }
    function sayCounted(key, count, values) {
      var forms = words[key] || {};
      return fill(forms[plurals.select(count)] || forms.other, values);
    }
    function decimal(x) { return x.toFixed(2).replace(".", words.decimal || "."); }
    // "40 %" in French, "40%" in English: the reader's way to write a share.
    var percent = new Intl.NumberFormat(
      Intl.NumberFormat.supportedLocalesOf([lang]).length ? lang : "en", { style: "percent" });
    function named(action, lift) {
      if (action === "call") return say("call", { lift: lift });
      return (words.cards && words.cards[action]) || (words.bids && words.bids[action]) || action;
    }
    function line(text, cls) {
      var p = document.createElement("p");
      if (cls) p.className = cls;
      p.textContent = text;  // names are the players' own text: never markup
      return p;
    }

    function mark(d) {
      var deal = $("section[data-hand='" + d.hand + "']");
      if (!deal) return;
      var at = null;
      if (words.cards && words.cards[d.action]) {
        var cards = deal.querySelectorAll(".played[data-played-by='" + d.seat + "']");
        for (var i = 0; i < cards.length; i++) {
          if ($("[data-card='" + d.action + "']", cards[i])) at = cards[i];
        }
      } else if (d.action === "call") {
        at = $("[data-call='" + d.lift + "']", deal);
      } else if (d.action === "reckoned") {
        at = $("[data-reneges-uncalled]", deal);
      } else {
        at = $(".decision", deal);
      }
      if (!at) return;
      at.setAttribute("data-costly", String(d.loss));
      at.setAttribute("data-better", d.best);
      // Why it cost, opened by a tap: a phone never shows a hover title. The button sits on
      // the mark; its sentence goes below the lift's cards (inside a card it would widen
      // the lift past a phone's width), else inside the marked line.
      var note = document.createElement("span");
      note.className = "costly-note";
      note.id = "costly-" + (++marks);
      note.hidden = true;
      note.textContent = say("costly", {
        name: words.names[d.seat], action: named(d.action, d.lift),
        best: named(d.best, d.best_lift), loss: decimal(d.loss)
      }) + (d.why && words.why[d.why] ? " " + words.why[d.why] : "");
      var open = document.createElement("button");
      open.type = "button";
      open.className = "costly-open";
      open.setAttribute("data-costly-open", "");
      open.setAttribute("aria-expanded", "false");
      open.setAttribute("aria-controls", note.id);
      open.textContent = words.why_costly;
      open.addEventListener("click", function () {
        note.hidden = !note.hidden;
        open.setAttribute("aria-expanded", String(!note.hidden));
      });
      at.appendChild(open);
      var cards = at.closest(".lift-cards");
      if (cards) cards.insertAdjacentElement("afterend", note);
      else at.appendChild(note);
    }

    function show(review) {
      result.textContent = "";
      var list = document.createElement("ul");
      list.className = "review-seats";
      review.seats.forEach(function (s) {
        var li = document.createElement("li");
        li.setAttribute("data-review-seat", s.seat);
        li.className = "team-" + (s.seat % 2);
        li.textContent = sayCounted("seat", s.costly, {
          name: words.names[s.seat], costly: s.costly, decisions: s.decisions,
          average: decimal(s.average_loss)
        });
        list.appendChild(li);
      });
      result.appendChild(list);
      var costly = review.decisions.filter(function (d) { return d.loss >= 0.25; });
      if (!costly.length) { result.appendChild(line(words.none, "review-none")); return; }
      var ol = document.createElement("ol");
      ol.className = "review-costly";
      costly.forEach(function (d) {
        var li = document.createElement("li");
        li.setAttribute("data-costly", String(d.loss));
        li.setAttribute("data-better", d.best);
        li.className = "team-" + (d.seat % 2);
        li.appendChild(line(say("hand", { hand: d.hand }) + " · " + say("costly", {
          name: words.names[d.seat], action: named(d.action, d.lift),
          best: named(d.best, d.best_lift), loss: decimal(d.loss)
        })));
        if (d.why && words.why[d.why]) li.appendChild(line(words.why[d.why], "review-why"));
        ol.appendChild(li);
        mark(d);
      });
      result.appendChild(ol);
    }

    // What the bar means, in words (a status region, read out when it changes): waiting for
    // the worker, then the share done, in steps of a tenth so a screen reader is not
    // talked over every second.
    function progressSaid(review) {
      if (review.state === "queued") return words.queued;
      var tenths = Math.floor((review.progress || 0) * 10) / 10;
      return say("running", { done: percent.format(tenths) });
    }

    function follow(review) {
      if (review.state === "done") {
        bar.hidden = true;
        button.hidden = true;
        status.textContent = "";
        status.hidden = true;
        show(review);
        return;
      }
      button.hidden = true;
      bar.hidden = false;
      bar.value = review.progress || 0;
      status.hidden = false;
      var said = progressSaid(review);
      if (status.textContent !== said) status.textContent = said;
      setTimeout(poll, POLL_MS);
    }

    function poll() {
      fetch(url, { credentials: "same-origin", cache: "no-store" }).then(function (r) {
        if (r.status === 404) { button.hidden = false; return null; }
        if (!r.ok) throw new Error(String(r.status));
        return r.json();
      }).then(function (review) { if (review) follow(review); })
        .catch(function () {
          bar.hidden = true;
          status.hidden = true;
          result.textContent = words.failed;
          button.hidden = false;
        });
    }

    button.addEventListener("click", function () {
      button.disabled = true;
      fetch(url, { method: "POST", credentials: "same-origin" }).then(function (r) {
        if (!r.ok) throw new Error(String(r.status));
        return r.json();
      }).then(function () { button.disabled = false; poll(); })
        .catch(function () { button.disabled = false; result.textContent = words.failed; });
    });

    button.hidden = true;
    poll();  // asked before (by anyone, or for the same game elsewhere): shown at once
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
