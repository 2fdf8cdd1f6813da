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
})();
