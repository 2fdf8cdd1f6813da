// The site as an installed app (app/web/install.py): the service worker registered where the
// browser has one, and, in standalone mode (on the home screen, no browser bar), Back at a
// table in play asks first (the room page's #leave-dialog): only a second Back or "Leave the
// table" leaves.
(function () {
  "use strict";
  if ("serviceWorker" in navigator) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {
        // No worker (a private window, plain HTTP off localhost): the site works without one.
      });
    });
  }

  // The hint on the home page: on an iPhone or iPad (Safari installs by hand, from Share), or
  // where the browser offers to install (beforeinstallprompt); never in the app, never again
  // once "Not now" was pressed.
  var LATER = "allfours.install-later";
  var offer = null;
  function hintSaidLater() { try { return localStorage.getItem(LATER) === "1"; } catch (e) { return false; } }
  function showHint(which) {
    var hint = document.querySelector("[data-install-hint]");
    if (!hint || standalone() || hintSaidLater()) return;
    hint.querySelector(which).hidden = false;
    hint.hidden = false;
  }
  function wireHint() {
    var hint = document.querySelector("[data-install-hint]");
    if (!hint) return;
    var ios = /iPhone|iPad|iPod/.test(navigator.userAgent) ||
      (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1); // iPadOS says Mac
    if (ios) showHint("[data-install-ios]");
    hint.addEventListener("click", function (e) {
      var action = e.target.closest && e.target.closest("[data-action]");
      if (!action) return;
      if (action.getAttribute("data-action") === "install" && offer) {
        offer.prompt();
        offer = null;
      }
      try { localStorage.setItem(LATER, "1"); } catch (x) { /* private mode: asked again */ }
      hint.hidden = true;
    });
  }
  window.addEventListener("beforeinstallprompt", function (e) {
    e.preventDefault(); // the page's own button asks, once, where the player looks
    offer = e;
    showHint("[data-install-offer]");
  });

  function standalone() {
    return (window.matchMedia && window.matchMedia("(display-mode: standalone)").matches) ||
      window.navigator.standalone === true;
  }
  function inPlay() {
    var t = document.getElementById("table");
    var phase = t ? t.getAttribute("data-phase") : "";
    return !!phase && phase !== "lobby" && phase !== "game_over";
  }

  var GUARD = "allfours-guard";
  function guarded() { return history.state && history.state[GUARD] === true; }
  function guard() {
    if (!guarded() && inPlay()) {
      var state = {};
      state[GUARD] = true;
      history.pushState(state, "", location.href);
    }
  }

  function setUp() {
    var dialog = document.getElementById("leave-dialog");
    if (!dialog || !standalone() || !history.pushState) return;
    guard();
    // A table that starts after the page opened: guarded from its first deal.
    document.body.addEventListener("htmx:afterSwap", guard);
    window.addEventListener("popstate", function () {
      if (guarded()) return;           // forward again onto the guard entry
      if (!inPlay()) { history.back(); return; }
      if (typeof dialog.showModal === "function" && !dialog.open) dialog.showModal();
    });
    var leaving = false;
    // "Stay", Escape: the guard again, for the next Back.
    dialog.addEventListener("close", function () { if (!leaving) guard(); });
    dialog.querySelector("[data-leave-cancel]").addEventListener("click", function () {
      dialog.close();
    });
    dialog.querySelector("[data-leave-confirm]").addEventListener("click", function () {
      leaving = true;
      dialog.close();
      history.back();
    });
  }
  document.addEventListener("DOMContentLoaded", setUp);
  document.addEventListener("DOMContentLoaded", wireHint);
})();
