"""What a push subscription must be before the server keeps it.

A push endpoint is a URL the server will POST to on its own, later, from inside the host's
network: it must be on a push service the host allows (``ALLFOURS_PUSH_HOSTS``), named by
origin. Nothing else is accepted: no other host, no user name or password, no other scheme,
and no redirect is ever followed when sending (app/push/postman.py)."""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec

from app.push.reasons import PUSH_HOST, PUSH_KEY
from app.reasons import Reason

P256_POINT_BYTES = 65  # an uncompressed point: 0x04, x, y
AUTH_BYTES = 16  # RFC 8291's authentication secret


class NotPushable(ValueError):
    def __init__(self, why: Reason) -> None:
        super().__init__(why.code)
        self.why = why


@dataclass(frozen=True, slots=True)
class Origin:
    """An allowed push service: ``scheme://host[:port]``; a host ``*.example.com`` allows
    every subdomain of example.com (Windows' push service has one per region)."""

    scheme: str
    host: str
    port: int

    def allows(self, scheme: str, host: str, port: int) -> bool:
        if scheme != self.scheme or port != self.port:
            return False
        if self.host.startswith("*."):
            return host.endswith(self.host[1:]) and len(host) > len(self.host) - 1
        return host == self.host


def _default_port(scheme: str) -> int:
    return 443 if scheme == "https" else 80


def allowed_origins(listed: str) -> tuple[Origin, ...]:
    """ALLFOURS_PUSH_HOSTS, read: a comma-separated list of origins."""
    found = []
    for item in listed.split(","):
        item = item.strip()
        if not item:
            continue
        parts = urlsplit(item)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an origin: {item!r}")
        port = parts.port or _default_port(parts.scheme)
        found.append(Origin(parts.scheme, parts.hostname.lower(), port))
    return tuple(found)


def checked_endpoint(endpoint: str, allowed: tuple[Origin, ...]) -> str:
    """The endpoint, if the server may call it; else NotPushable(push_host)."""
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        raise NotPushable(PUSH_HOST) from None
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if scheme not in ("http", "https") or not host or parts.username or parts.password:
        raise NotPushable(PUSH_HOST)
    if "@" in parts.netloc or "\\" in endpoint or any(c.isspace() for c in endpoint):
        raise NotPushable(PUSH_HOST)
    port = port or _default_port(scheme)
    if not any(origin.allows(scheme, host, port) for origin in allowed):
        raise NotPushable(PUSH_HOST)
    return endpoint


def _unpadded(text: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise NotPushable(PUSH_KEY) from None


def checked_keys(p256dh: str, auth: str) -> tuple[str, str]:
    """The subscription's keys, if they are what RFC 8291 needs: the browser's P-256 public
    key (a point on the curve) and a 16-byte secret; else NotPushable(push_key)."""
    point = _unpadded(p256dh)
    if len(point) != P256_POINT_BYTES or point[0] != 4:
        raise NotPushable(PUSH_KEY)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise NotPushable(PUSH_KEY) from None
    if len(_unpadded(auth)) != AUTH_BYTES:
        raise NotPushable(PUSH_KEY)
    return p256dh.rstrip("="), auth.rstrip("=")
