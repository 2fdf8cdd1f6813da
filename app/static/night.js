// The director's page (night_direct.html): copy a link (a player's, a substitute's, the
// director's own), or hand it on through the phone's share sheet where there is one
// (app.js marks <html> "can-share"; pages.css shows the Share buttons only then).
(function () {
  "use strict";
  var timers = new WeakMap();
  function word(key) { return window.allFoursWord ? window.allFoursWord(key) : ""; }
  function say(box, text) {
    var status = box.querySelector("[data-link-status]");
    if (!status) return;
    status.textContent = text;
    clearTimeout(timers.get(status));
    timers.set(status, setTimeout(function () { status.textContent = ""; }, 4000));
  }
  function copy(box, input) {
    var done = function () { say(box, word("copied")); };
    var byHand = function () {
      input.focus();
      input.select();
      try { if (document.execCommand("copy")) { done(); return; } } catch (x) { /* below */ }
      say(box, word("selected"));
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(input.value).then(done, byHand);
    else byHand();
  }
  function share(box, input) {
    if (typeof navigator.share !== "function") { copy(box, input); return; }
    var label = box.querySelector("label");
    navigator.share({ title: label ? label.textContent : "All Fours", url: input.value }).then(
      function () { say(box, word("shared")); },
      function (err) { if (!err || err.name !== "AbortError") copy(box, input); }
    );
  }
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("[data-copy-link], [data-share-link]");
    var box = button && button.closest("[data-link-box]");
    var input = box && box.querySelector("input");
    if (!input) return;
    if (button.hasAttribute("data-share-link")) share(box, input);
    else copy(box, input);
  });
})();
