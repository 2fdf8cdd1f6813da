"""What a browser is told and asked: the security headers of every answer, and why a
state-changing request looks sent by another site's page (the gate refuses it).

Everything the pages load is our own and vendored, so the Content-Security-Policy can be
strict: no inline script or style, no other origin, no framing. `/docs` (Swagger UI, served
from its package's own files) is the one page that needs inline styles.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.caching import html_not_cached

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; manifest-src 'self'; media-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
# Swagger UI's React sets style attributes and injects a <style> for its syntax highlighter.
DOCS_CSP = CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
DOCS_PATHS = ("/docs",)
CSP_HEADER = (b"content-security-policy", CSP.encode())
DOCS_CSP_HEADER = (b"content-security-policy", DOCS_CSP.encode())

_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]


# The gate (app/api/gate.py) leaves here the Set-Cookie that remembers a reader's language.
LANG_COOKIE_KEY = "allfours.lang_cookie"


def answer_headers(scope: Scope, headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """An answer's headers as every answer leaves: the policy headers, HTML never cached and
    varying with the reader's language (app/api/caching.py), anything but an event stream
    varying with Accept-Encoding (it may be gzipped, app/api/layers.py), the remembered
    language."""
    out = html_not_cached(headers)
    cookie = scope.get(LANG_COOKIE_KEY)
    if cookie is not None:
        out.append((b"set-cookie", cookie))
    out += policy_headers(scope.get("path", ""))
    return out


def policy_headers(path: str) -> list[tuple[bytes, bytes]]:
    """The security policy's headers, for an answer to ``path`` ("" where no request was
    read: the connection layer's answers, app/net.py)."""
    csp = DOCS_CSP_HEADER if path.startswith(DOCS_PATHS) else CSP_HEADER
    return [csp, *_HEADERS]


class Headers:
    """Every HTTP answer's headers (errors, refusals from below the routes and streams
    included), set in one place as its start leaves."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = answer_headers(scope, list(message.get("headers", ())))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def cross_site_reason(method: str, headers: dict[bytes, bytes]) -> str | None:
    """Why a state-changing request looks sent by another site's page, or None.

    A browser says where a request comes from: ``Sec-Fetch-Site`` (every current browser),
    else ``Origin``. Only ``same-origin`` is ours: a page on another port or a sibling
    subdomain is "same-site" and gets the seat cookie despite SameSite=Lax. A request that
    carries neither header is a script's, which holds no victim's cookie.
    """
    if method not in UNSAFE_METHODS:
        return None
    site = headers.get(b"sec-fetch-site")
    if site is not None:
        if site in (b"same-origin", b"none"):
            return None
        return f"a request from a {site.decode('latin-1')} page may not change a table"
    origin = headers.get(b"origin")
    if origin is None:
        return None
    host = headers.get(b"host", b"").decode("latin-1").lower()
    parsed = urlsplit(origin.decode("latin-1").lower())
    if parsed.scheme in ("http", "https") and parsed.netloc == host:
        return None
    return "a request from another site's page may not change a table"
