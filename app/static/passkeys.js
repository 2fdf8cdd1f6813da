// Passkeys (WebAuthn) on the profile page and the sign-in page: the buttons of
// _passkeys.html and _passkey_signin.html. A ceremony is two requests: the server's options
// (binary values in base64url), the browser's navigator.credentials call, and the answer
// sent back as JSON (PublicKeyCredential.toJSON()'s shape, built by hand for the browsers
// that lack it). The player's key comes back as the HttpOnly cookie: this script never
// sees one.
(function () {
  "use strict";

  function fromB64url(text) {
    var b64 = text.replace(/-/g, "+").replace(/_/g, "/");
    while (b64.length % 4) b64 += "=";
    var raw = atob(b64), bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes.buffer;
  }
  function toB64url(buffer) {
    var bytes = new Uint8Array(buffer), raw = "";
    for (var i = 0; i < bytes.length; i++) raw += String.fromCharCode(bytes[i]);
    return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  // The options as navigator.credentials takes them: challenge and ids as buffers.
  function creationOptions(o) {
    o.challenge = fromB64url(o.challenge);
    o.user.id = fromB64url(o.user.id);
    (o.excludeCredentials || []).forEach(function (c) { c.id = fromB64url(c.id); });
    return o;
  }
  function requestOptions(o) {
    o.challenge = fromB64url(o.challenge);
    (o.allowCredentials || []).forEach(function (c) { c.id = fromB64url(c.id); });
    return o;
  }
  function credentialJSON(cred) {
    var r = cred.response, response = { clientDataJSON: toB64url(r.clientDataJSON) };
    if (r.attestationObject) {
      response.attestationObject = toB64url(r.attestationObject);
      if (r.getTransports) response.transports = r.getTransports();
    } else {
      response.authenticatorData = toB64url(r.authenticatorData);
      response.signature = toB64url(r.signature);
      if (r.userHandle) response.userHandle = toB64url(r.userHandle);
    }
    var out = { id: cred.id, rawId: toB64url(cred.rawId), type: cred.type, response: response };
    if (cred.authenticatorAttachment) out.authenticatorAttachment = cred.authenticatorAttachment;
    out.clientExtensionResults = cred.getClientExtensionResults ? cred.getClientExtensionResults() : {};
    return out;
  }

  function words(box) {
    try { return JSON.parse(box.getAttribute("data-passkey-words") || "{}"); } catch (x) { return {}; }
  }
  function say(box, key, status) {
    var line = box.querySelector("[data-passkey-status]");
    if (!line) return;
    line.textContent = String(words(box)[key] || "").replace("{status}", status || "");
  }
  // A refusal as the reader reads it: the passkey's own, or the answer's status.
  function Refused(status, code) { this.status = status; this.code = code; }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body || {}),
    }).then(function (r) {
      if (r.ok) return r.status === 204 ? null : r.json();
      return r.json().then(
        function (e) { throw new Refused(r.status, e && e.code); },
        function () { throw new Refused(r.status, null); }
      );
    });
  }
  function failed(box, err) {
    if (err instanceof Refused) {
      say(box, err.code === "passkey_refused" ? "refused" : "failed", err.status);
    } else if (err && (err.name === "NotAllowedError" || err.name === "AbortError")) {
      say(box, "cancelled");  // the dialog closed, or no passkey of this site was there
    } else if (err && err.name === "SecurityError") {
      say(box, "unsupported");  // not HTTPS nor localhost, or an address WebAuthn refuses
    } else if (err && err.name === "InvalidStateError") {
      say(box, "refused");  // this authenticator already holds a passkey of the profile
    } else {
      say(box, "failed", err && err.name ? err.name : "?");
    }
  }
  function supported(box) {
    var ok = !!(window.PublicKeyCredential && navigator.credentials);
    if (!ok) say(box, "unsupported");
    return ok;
  }
  // Only a path of this site, never another site's address.
  function nextPage(button) {
    var next = button.getAttribute("data-passkey-next") || "/me";
    return /^\/(?![\/\\])/.test(next) ? next : "/me";
  }

  function add(button, box) {
    if (!supported(box)) return;
    button.disabled = true;
    say(box, "");
    post("/api/me/passkeys/options")
      .then(function (o) { return navigator.credentials.create({ publicKey: creationOptions(o) }); })
      .then(function (cred) { return post("/api/me/passkeys", { credential: credentialJSON(cred) }); })
      .then(function () { location.reload(); })
      .catch(function (err) { failed(box, err); })
      .then(function () { button.disabled = false; });
  }
  function signin(button, box) {
    if (!supported(box)) return;
    button.disabled = true;
    say(box, "");
    post("/api/passkeys/signin-options")
      .then(function (o) { return navigator.credentials.get({ publicKey: requestOptions(o) }); })
      .then(function (cred) { return post("/api/passkeys/signin", { credential: credentialJSON(cred) }); })
      .then(function () { location.assign(nextPage(button)); })
      .catch(function (err) { failed(box, err); button.disabled = false; });
  }
  function remove(button, box) {
    button.disabled = true;
    fetch("/api/me/passkeys/" + encodeURIComponent(button.getAttribute("data-passkey-remove")), {
      method: "DELETE",
      credentials: "same-origin",
    }).then(function (r) {
      if (r.ok || r.status === 404) { location.reload(); return; }
      say(box, "failed", r.status);
      button.disabled = false;
    }, function (err) { failed(box, err); button.disabled = false; });
  }

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("[data-passkey-add], [data-passkey-signin], [data-passkey-remove]");
    var box = button && button.closest("[data-passkeys]");
    if (!box) return;
    e.preventDefault();
    if (button.hasAttribute("data-passkey-add")) add(button, box);
    else if (button.hasAttribute("data-passkey-signin")) signin(button, box);
    else remove(button, box);
  });
  // The ceremonies for a test or another script: window.allFoursPasskeys.add(box) etc.
  window.allFoursPasskeys = { fromB64url: fromB64url, toB64url: toB64url, credentialJSON: credentialJSON };
})();
