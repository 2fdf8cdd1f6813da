"""The gate: what a request is answered before any route runs, in one layer and in this
order. A client over the rate limit (429; static files and the health probe are not
counted), a state-changing request sent by another site's page (403), a body over the size
limit (413); every other request goes on, read in its reader's language (app/i18n.py), which
a page visited with ``?lang=`` remembers in a cookie (set on the answer by app/api/security.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from app import i18n
from app.api.language import language_of, menu_address
from app.api.middleware import body_within, send_error
from app.api.security import LANG_COOKIE_KEY, UNSAFE_METHODS, cross_site_reason
from app.services.quotas import TokenBuckets


class Gate:
    def __init__(
        self,
        app: ASGIApp,
        *,
        per_minute: int,
        exempt: tuple[str, ...],
        body_limit: int,
        body_limits: Mapping[str, int],
    ) -> None:
        self.app = app
        self.per_minute = per_minute
        self.buckets = TokenBuckets(per_minute, per_minute / 60.0) if per_minute > 0 else None
        self.exempt = exempt  # path prefixes the rate limit does not count
        self.body_limit = body_limit
        self.body_limits = dict(body_limits)  # exact paths with a limit of their own (uploads)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if self.buckets is not None and not path.startswith(self.exempt):
            client: Any = scope.get("client")
            address = client[0] if client else "unknown"
            wait = self.buckets.take(address)
            if wait:
                detail = f"more than {self.per_minute} requests a minute from {address}"
                await send_error(
                    send, 429, "too_many_requests", detail, scope, retry_after=str(wait)
                )
                return
        method = scope["method"]
        reason = (
            cross_site_reason(method, dict(scope["headers"])) if method in UNSAFE_METHODS else None
        )
        if reason is not None:
            await send_error(send, 403, "forbidden", reason, scope)
            return
        limit = self.body_limits.get(path, self.body_limit)
        within = await body_within(limit, scope, receive, send)
        if within is None:
            return
        lang, remember = language_of(scope)
        if remember is not None:
            scope[LANG_COOKIE_KEY] = remember
        with i18n.reading(lang, where=partial(menu_address, scope)):
            await self.app(scope, within, send)
