"""One notification delivered to a push service: encrypted for the browser (RFC 8291,
aes128gcm), signed with the server's VAPID key (RFC 8292), POSTed with a short timeout and
no redirect followed. What came back, sorted into what the caller does next."""

from __future__ import annotations

import enum
import json
import time
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import urlsplit

import requests
from py_vapid import Vapid02
from pywebpush import WebPusher

TTL_S = 10 * 60  # a notification older than this is no news: the push service drops it
VAPID_EXPIRY_S = 12 * 3600  # RFC 8292 allows 24 h at most


class Outcome(enum.Enum):
    DELIVERED = "delivered"  # 2xx: the push service took it
    GONE = "gone"  # 404/410: the subscription is no more; forget it
    RETRY = "retry"  # 429, 5xx, a timeout, a dropped connection: try again later
    REFUSED = "refused"  # any other answer (a redirect, a 4xx): never sent again


@dataclass(frozen=True, slots=True)
class Answer:
    outcome: Outcome
    status: int | None = None
    retry_after_s: float | None = None


class _NoRedirects(requests.Session):
    """A session that never follows a redirect: an allowed push service that answers 3xx
    must not lead the server to an address it was never allowed to call."""

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs["allow_redirects"] = False
        return super().request(*args, **kwargs)


def session() -> requests.Session:
    """One per sending thread: requests' sessions are not shared between threads."""
    made = _NoRedirects()
    made.trust_env = False  # no proxy from the environment between us and a push service
    return made


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def sort(status: int, retry_after: str | None = None) -> Answer:
    if 200 <= status < 300:
        return Answer(Outcome.DELIVERED, status)
    if status in (404, 410):
        return Answer(Outcome.GONE, status)
    if status == 429 or status >= 500:
        return Answer(Outcome.RETRY, status, _retry_after(retry_after))
    return Answer(Outcome.REFUSED, status)


def signed(vapid: Vapid02, *, audience: str, subject: str, now: float) -> dict[str, str]:
    """The VAPID header for one push service (``audience``: its origin), good for
    ``VAPID_EXPIRY_S``: the same header serves every push to that service meanwhile."""
    claims: dict[str, str | int] = {
        "aud": audience,
        "sub": subject,
        "exp": int(now) + VAPID_EXPIRY_S,
    }
    made: dict[str, str] = vapid.sign(claims)
    return made


def audience_of(endpoint: str) -> str:
    parts = urlsplit(endpoint)
    return f"{parts.scheme}://{parts.netloc}"


def deliver(
    *,
    endpoint: str,
    p256dh: str,
    auth: str,
    payload: dict[str, object],
    authorization: dict[str, str],
    timeout_s: float,
    via: requests.Session,
    urgency: str = "high",
) -> Answer:
    """Send ``payload`` (JSON) to one subscription, with the push service's VAPID header
    (``signed``). Blocking: run it in a worker thread."""
    headers = {**authorization, "Urgency": urgency}
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
    subscription = {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}}
    pusher = WebPusher(subscription, requests_session=via)
    try:
        response = pusher.send(data, headers, ttl=TTL_S, timeout=timeout_s)
    except requests.RequestException:
        return Answer(Outcome.RETRY)
    assert not isinstance(response, str)
    try:
        return sort(response.status_code, response.headers.get("Retry-After"))
    finally:
        response.close()
