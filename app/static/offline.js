// The offline page (app/templates/offline.html): tries the page again by itself once the
// connection is back. The service worker shows it at the address that failed, so a reload
// asks for that page again; at /offline itself, the home page.
(function () {
  "use strict";
  var target = location.pathname === "/offline" ? "/" : location.href;
  var trying = false;
  function retry() {
    if (trying) return;
    trying = true;
    fetch(target, { method: "HEAD", cache: "no-store", credentials: "same-origin" })
      .then(function () { location.replace(target); })
      .catch(function () { trying = false; });
  }
  window.addEventListener("online", retry);
  setInterval(function () { if (navigator.onLine !== false) retry(); }, 5000);
  document.addEventListener("DOMContentLoaded", function () {
    var link = document.querySelector("[data-retry]");
    if (link) {
      link.setAttribute("href", target);
      link.addEventListener("click", function (e) { e.preventDefault(); retry(); });
    }
  });
})();
