"""Which language a request is read in (app/i18n.py), decided once at its start by the gate
(app/api/gate.py), never per event of a stream."""

from __future__ import annotations

from http.cookies import SimpleCookie

from starlette.routing import Match
from starlette.types import Scope

from app import i18n


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _cookie(scope: Scope) -> str | None:
    raw = _header(scope, b"cookie")
    if not raw:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(raw)
    except Exception:  # a malformed Cookie header: as if it had none of ours
        return None
    morsel = jar.get(i18n.LANG_COOKIE)
    return morsel.value if morsel is not None else None


def _navigation(scope: Scope) -> bool:
    """A page the reader went to (a link of the language menu), not one of the page's own
    requests: a table's stream or fragment asks for the page's language without changing
    the reader's choice (another tab may have made a new one since)."""
    if _header(scope, b"hx-request") == "true":
        return False
    return "text/event-stream" not in (_header(scope, b"accept") or "")


def lang_cookie(lang: str, secure: bool) -> bytes:
    """The Set-Cookie value that remembers a reader's language."""
    parts = [
        f"{i18n.LANG_COOKIE}={lang}",
        "Path=/",
        f"Max-Age={i18n.LANG_COOKIE_MAX_AGE}",
        "SameSite=Lax",
    ]
    if secure:
        parts.append("Secure")
    return "; ".join(parts).encode()


def language_of(scope: Scope) -> tuple[str, bytes | None]:
    """The language ``i18n.choose`` picks for a request, and the Set-Cookie value that
    remembers it when a page visited named one of ours with ``?lang=`` (else None)."""
    query = scope.get("query_string", b"").decode("latin-1")
    lang = i18n.choose(query, _cookie(scope), _header(scope, b"accept-language"))
    if i18n.asked(query) is None or not _navigation(scope):
        return lang, None
    return lang, lang_cookie(lang, secure=scope.get("scheme") == "https")


READ_AGAIN = frozenset({"GET", "HEAD"})


def _readable(scope: Scope, path: str) -> bool:
    """The app answers GET at ``path`` (a route for it, not one for POST alone)."""
    router = getattr(scope.get("app"), "router", None)
    if router is None:
        return False
    probe: Scope = {"type": "http", "path": path, "root_path": "", "method": "GET"}
    return any(route.matches(probe)[0] is Match.FULL for route in router.routes)


def menu_address(scope: Scope) -> tuple[str, str]:
    """The address the language menu names (path, query): the page's own, but for the answer
    to a form, whose address may not be one to read again (GET /me/signin-link would be
    405): there the nearest that is, the address itself (a report form's) or the one above
    it (``/me`` for a sign-in link shown, ``/c/{code}`` for a club's new invite), else home."""
    path = scope.get("path") or "/"
    query = scope.get("query_string", b"").decode("latin-1")
    if scope.get("method", "GET") in READ_AGAIN or path.startswith("/api/"):
        return path, query
    if _readable(scope, path):
        return path, query
    up = path.rstrip("/")
    while "/" in up.strip("/"):
        up = up.rsplit("/", 1)[0]
        if _readable(scope, up):
            return up, ""
    return "/", ""
