"""Which language a request is read in (app/i18n.py): pure ASGI, so a long event stream
passes through it once, at its start, and never per event."""

from __future__ import annotations

from http.cookies import SimpleCookie

from starlette.types import ASGIApp, Message, Receive, Scope, Send

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


class Language:
    """Reads every HTTP request in the language ``i18n.choose`` picks for it; a ``?lang=``
    that names one of ours is remembered in a cookie on the answer to a page visited."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        query = scope.get("query_string", b"").decode("latin-1")
        lang = i18n.choose(query, _cookie(scope), _header(scope, b"accept-language"))
        with i18n.reading(lang, scope.get("path") or "/", query):
            if i18n.asked(query) is None or not _navigation(scope):
                await self.app(scope, receive, send)
                return
            cookie = lang_cookie(lang, secure=scope.get("scheme") == "https")

            async def remember(message: Message) -> None:
                if message["type"] == "http.response.start":
                    headers = list(message.get("headers", []))
                    headers.append((b"set-cookie", cookie))
                    message = {**message, "headers": headers}
                await send(message)

            await self.app(scope, receive, remember)
