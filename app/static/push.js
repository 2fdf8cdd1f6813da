/* Web Push on this device (API.md § Fourth round, "The phone"): the table's bell ("Tell me
 * when it is my turn") and the profile page's panel subscribe this browser with the server's
 * VAPID key and hand the subscription to the player's profile; the table's page says when it
 * comes into sight and leaves it, for "your turn" is pushed only while no page of the seat is
 * in sight. Where push cannot work (no service worker or PushManager, an iPhone outside the
 * home screen, notifications blocked, no push service reachable) the page says so plainly;
 * the sound, the tab's title and the vibration stay as they are.
 */
(function () {
  "use strict";
  var ALL = ["turn", "table", "night", "invite", "nudge"];
  var SUBSCRIBE_WAIT_MS = 15000;

  function word(key) { return window.allFoursWord ? window.allFoursWord(key) : key; }
  function say(text, where) {
    if (where) { where.textContent = text; return; }
    if (window.AllFours && window.AllFours.toast) window.AllFours.toast(text);
  }

  function supported() {
    return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  }
  function appleOutsideHomeScreen() {
    var apple = /iPhone|iPad|iPod/.test(navigator.userAgent || "");
    var standalone = window.navigator.standalone === true ||
      (window.matchMedia && window.matchMedia("(display-mode: standalone)").matches);
    return apple && !standalone;
  }
  // Why push cannot work here, as a word of the page's; null when it may.
  function obstacle() {
    if (appleOutsideHomeScreen() && !("PushManager" in window)) return "push_ios";
    if (!supported()) return "push_unsupported";
    if (Notification.permission === "denied") return "push_denied";
    return null;
  }

  function keyBytes(base64url) {
    var s = base64url.replace(/-/g, "+").replace(/_/g, "/");
    s += "===".slice((s.length + 3) % 4);
    var raw = atob(s), out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }

  function api(method, url, body) {
    return fetch(url, {
      method: method,
      credentials: "same-origin",
      headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined
    });
  }

  function registration() {
    return navigator.serviceWorker.register("/sw.js", { scope: "/" })
      .then(function () { return navigator.serviceWorker.ready; });
  }

  function current() {
    if (!supported()) return Promise.resolve(null);
    return navigator.serviceWorker.getRegistration("/")
      .then(function (reg) { return reg ? reg.pushManager.getSubscription() : null; })
      .catch(function () { return null; });
  }

  // Subscribe this browser for ``events``; resolves to the word to say.
  function turnOn(events) {
    var why = obstacle();
    if (why) return Promise.resolve({ ok: false, word: why });
    return api("GET", "/api/me").then(function (me) {
      if (me.status === 401) throw { word: "push_profile" };
      return Notification.requestPermission();
    }).then(function (permission) {
      if (permission !== "granted") throw { word: "push_denied" };
      return Promise.all([registration(), api("GET", "/api/push/key").then(function (r) { return r.json(); })]);
    }).then(function (both) {
      var reg = both[0], key = keyBytes(both[1].public_key);
      return reg.pushManager.getSubscription().then(function (old) {
        if (old) return old;
        // A browser whose push service cannot be reached may never answer: give it a while.
        var late = new Promise(function (resolve, reject) {
          setTimeout(function () { reject(new Error("no answer")); }, SUBSCRIBE_WAIT_MS);
        });
        return Promise.race([
          reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }), late
        ]);
      }).catch(function () { throw { word: "push_unreachable" }; });
    }).then(function (subscription) {
      return api("POST", "/api/me/push", { subscription: subscription.toJSON(), events: events });
    }).then(function (r) {
      if (r.status === 201) return { ok: true, word: "push_on" };
      return r.json().then(function (body) { return { ok: false, text: body.message || body.detail }; });
    }).catch(function (err) {
      return { ok: false, word: (err && err.word) || "push_unreachable" };
    });
  }

  function turnOff() {
    return current().then(function (subscription) {
      if (!subscription) return null;
      var endpoint = subscription.endpoint;
      return subscription.unsubscribe().catch(function () { return false; }).then(function () {
        return api("DELETE", "/api/me/push", { endpoint: endpoint });
      });
    }).then(function () { return { ok: true, word: "push_off" }; });
  }

  function told(result) { return result.text || word(result.word); }

  // -- the table's bell ---------------------------------------------------------------------
  function setUpBell(bell) {
    current().then(function (s) { bell.setAttribute("aria-pressed", s ? "true" : "false"); });
    bell.addEventListener("click", function () {
      var on = bell.getAttribute("aria-pressed") === "true";
      var done = on ? turnOff() : turnOn(ALL);
      done.then(function (result) {
        if (result.ok) bell.setAttribute("aria-pressed", on ? "false" : "true");
        say(told(result));
      });
    });
  }

  // -- the profile page's panel ---------------------------------------------------------------
  function setUpPanel(form) {
    var status = form.querySelector("[data-push-status]");
    var off = form.querySelector("[data-push-off]");
    var boxes = Array.prototype.slice.call(form.querySelectorAll("input[name=events]"));
    function chosen() { return boxes.filter(function (b) { return b.checked; }).map(function (b) { return b.value; }); }
    function showOn(isOn) { off.hidden = !isOn; }
    current().then(function (subscription) {
      if (!subscription) { showOn(false); return; }
      api("GET", "/api/me").then(function (r) { return r.json(); }).then(function (me) {
        var mine = (me.push_subscriptions || []).filter(function (s) { return s.endpoint === subscription.endpoint; })[0];
        showOn(!!mine);
        if (mine) boxes.forEach(function (b) { b.checked = mine.events.indexOf(b.value) !== -1; });
      });
    });
    var why = obstacle();
    if (why) say(word(why), status);
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      turnOn(chosen()).then(function (result) {
        if (result.ok) showOn(true);
        say(told(result), status);
      });
    });
    off.addEventListener("click", function () {
      turnOff().then(function (result) { showOn(false); say(told(result), status); });
    });
  }

  // -- the seat's page in sight, or not ---------------------------------------------------
  function setUpSight() {
    var live = document.getElementById("live");
    var match = /^\/r\/([^/]+)/.exec(location.pathname);
    if (!live || !match) return;
    var url = "/api/rooms/" + match[1] + "/sight";
    var said = null;
    function seated() { var t = document.getElementById("table"); return !!(t && t.hasAttribute("data-you")); }
    function tell(force) {
      if (!seated()) return;
      var visible = document.visibilityState === "visible";
      if (!force && said === visible) return;
      said = visible;
      try {
        fetch(url, {
          method: "POST", credentials: "same-origin", keepalive: true,
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ visible: visible })
        }).catch(function () { said = null; });
      } catch (x) { said = null; }
    }
    document.addEventListener("visibilitychange", function () { tell(false); });
    // The page closes or goes to the back-forward cache: out of sight.
    window.addEventListener("pagehide", function () { if (seated()) tellHidden(); });
    function tellHidden() {
      said = false;
      try {
        fetch(url, {
          method: "POST", credentials: "same-origin", keepalive: true,
          headers: { "Content-Type": "application/json" }, body: JSON.stringify({ visible: false })
        });
      } catch (x) { /* the stream's end says it too */ }
    }
    // Each time the stream (re)opens, the server hears the page's sight anew: a stream that
    // closed counted it out of sight.
    document.body.addEventListener("htmx:sseOpen", function () { tell(true); });
    // A seat taken after the page opened.
    document.body.addEventListener("htmx:afterSwap", function (e) {
      if (e.target && e.target.id === "live") tell(false);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var bell = document.querySelector("[data-push-toggle]");
    if (bell) setUpBell(bell);
    var form = document.querySelector("[data-push-form]");
    if (form) setUpPanel(form);
    setUpSight();
  });
})();
