"""A push service and a browser, on loopback, for the tests: the work a browser vendor's
push service does (RFC 8030: take a POST at the subscription's endpoint; RFC 8292: check the
VAPID signature, its audience and expiry, before anything else) and the work the browser
does (RFC 8291: decrypt the aes128gcm payload with the subscription's private key and auth
secret). What it heard is kept for the test to read; how each endpoint answers is the
test's to say (a status, a hang, a redirect)."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """One browser's subscription: its endpoint on the receiver, its P-256 key pair, its
    16-byte auth secret."""

    endpoint: str
    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)

    def subscription(self) -> dict[str, Any]:
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)},
            "expirationTime": None,
        }

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(
            body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm"
        )
        found: dict[str, Any] = json.loads(plain)
        return found


@dataclass
class Heard:
    path: str
    headers: dict[str, str]
    body: bytes
    vapid_key: str  # the k= of the Authorization header
    claims: dict[str, Any]


class VapidError(AssertionError):
    pass


def verify_vapid(authorization: str, origin: str) -> tuple[str, dict[str, Any]]:
    """RFC 8292: ``vapid t=<JWT>, k=<key>``; the JWT is ES256 over the claims, signed by k,
    for this push service (aud), not yet expired and for at most 24 h, with a contact (sub)."""
    scheme, _, rest = authorization.partition(" ")
    if scheme.lower() != "vapid":
        raise VapidError(f"not the vapid scheme: {authorization[:20]!r}")
    params = dict(p.strip().split("=", 1) for p in rest.split(","))
    token, key = params["t"], params["k"]
    head_b64, claims_b64, signature_b64 = token.split(".")
    head = json.loads(unb64url(head_b64))
    if head.get("alg") != "ES256" or head.get("typ", "JWT") != "JWT":
        raise VapidError(f"not an ES256 JWT: {head}")
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
    raw = unb64url(signature_b64)
    if len(raw) != 64:
        raise VapidError("an ES256 signature is 64 bytes")
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        public.verify(der, f"{head_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise VapidError("the VAPID signature does not verify") from None
    claims = json.loads(unb64url(claims_b64))
    now = time.time()
    if claims.get("aud") != origin:
        raise VapidError(f"aud {claims.get('aud')!r} is not {origin!r}")
    if not now < int(claims["exp"]) <= now + 24 * 3600:
        raise VapidError(f"exp out of range: {claims['exp']}")
    if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
        raise VapidError(f"sub is no contact: {claims.get('sub')!r}")
    return key, claims


class Receiver:
    """The push service on loopback. ``answers[path]`` lists the statuses the next POSTs to
    that endpoint get (then 201); ``"hang"`` holds the request for ``hang_s``;
    ``("redirect", url)`` answers 307 to url."""

    def __init__(self) -> None:
        self.heard: list[Heard] = []
        self.refused: list[str] = []
        self.answers: dict[str, list[Any]] = {}
        self.hang_s = 30.0
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self.origin = f"http://127.0.0.1:{self.port}"
        self._counter = 0

    def browser(self) -> Browser:
        with self._lock:
            self._counter += 1
            n = self._counter
        return Browser(f"{self.origin}/push/{n}-{b64url(os.urandom(6))}")

    def heard_by(self, browser: Browser) -> list[dict[str, Any]]:
        """The payloads delivered to ``browser``, decrypted as the browser does."""
        path = browser.endpoint.removeprefix(self.origin)
        with self._lock:
            mine = [h for h in self.heard if h.path == path]
        return [browser.decrypt(h.body) for h in mine]

    def wait_for(self, browser: Browser, count: int = 1, timeout: float = 20.0) -> list[Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = self.heard_by(browser)
            if len(got) >= count:
                return got
            time.sleep(0.05)
        raise AssertionError(f"{browser.endpoint} heard {len(self.heard_by(browser))} of {count}")

    def wait_for_kind(self, browser: Browser, kind: str, timeout: float = 20.0) -> list[Any]:
        """Until ``browser`` has heard a letter of ``kind`` (others may come before it: a
        turn watched for may be told before the letter a commit queued from its thread)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = self.heard_by(browser)
            if any(letter["type"] == kind for letter in got):
                return got
            time.sleep(0.05)
        kinds = [letter["type"] for letter in self.heard_by(browser)]
        raise AssertionError(f"{browser.endpoint} heard {kinds}, no {kind}")

    def posts_to(self, browser: Browser) -> int:
        path = browser.endpoint.removeprefix(self.origin)
        with self._lock:
            return sum(1 for h in self.heard if h.path == path) + self.refused.count(path)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                with receiver._lock:
                    queued = receiver.answers.get(self.path) or []
                    answer = queued.pop(0) if queued else 201
                if answer == "hang":
                    time.sleep(receiver.hang_s)
                    answer = 201
                if isinstance(answer, tuple):
                    with receiver._lock:
                        receiver.refused.append(self.path)
                    self.send_response(307)
                    self.send_header("Location", answer[1])
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                try:
                    key, claims = verify_vapid(self.headers["Authorization"], receiver.origin)
                    assert self.headers["Content-Encoding"] == "aes128gcm"
                    assert int(self.headers["TTL"]) > 0
                except (AssertionError, KeyError, ValueError):
                    with receiver._lock:
                        receiver.refused.append(self.path)
                    self.send_response(401)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if 200 <= answer < 300:
                    with receiver._lock:
                        receiver.heard.append(
                            Heard(self.path, dict(self.headers.items()), body, key, claims)
                        )
                else:
                    with receiver._lock:
                        receiver.refused.append(self.path)
                self.send_response(answer)
                if answer == 429:
                    self.send_header("Retry-After", "0")
                self.send_header("Content-Length", "0")
                self.end_headers()

        return Handler

    @contextmanager
    def running(self) -> Iterator[Receiver]:
        thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        thread.start()
        try:
            yield self
        finally:
            self._server.shutdown()
            self._server.server_close()
