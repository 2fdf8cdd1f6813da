"""What a browser is told and asked before a request reaches a route: the security headers of
every response, and the refusal of state-changing requests sent by another site's page.

Everything the pages load is our own and vendored, so the Content-Security-Policy can be
strict: no inline script or style, no other origin, no framing. `/docs` (Swagger UI, served
from its package's own files) is the one page that needs inline styles.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.caching import html_not_cached
from app.api.middleware import send_error

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; manifest-src 'self'; media-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
# Swagger UI's React sets style attributes and injects a <style> for its syntax highlighter.
DOCS_CSP = CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
DOCS_PATHS = ("/docs",)

_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]


class SecurityHeaders:
    """Adds the policy headers to every HTTP response (errors and streams included)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        csp = DOCS_CSP if scope.get("path", "").startswith(DOCS_PATHS) else CSP
        added = [(b"content-security-policy", csp.encode()), *_HEADERS]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = html_not_cached(list(message.get("headers", [])))
                message = {**message, "headers": [*headers, *added]}
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


class SameOrigin:
    """403 for a state-changing request that another site's page made a browser send."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            reason = cross_site_reason(scope["method"], dict(scope["headers"]))
            if reason is not None:
                await send_error(send, 403, "forbidden", reason)
                return
        await self.app(scope, receive, send)
