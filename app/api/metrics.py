"""``GET /metrics``: the server's numbers in Prometheus' text format, for the admin token or a
scraper on this machine (loopback) only.

Loopback means the connection's own peer is a loopback address and no proxy stood between:
a request carrying any header a proxy adds (``Forwarded``, any ``X-Forwarded-*``,
``X-Real-IP``, ``Via``) came through a proxy (which may well run on this machine, so its peer
is loopback too) and needs the admin token. A proxy that adds none of them (one in TCP mode)
cannot be told from a local scraper: the admin token is then the way (docs/self-hosting.md).
The peer is the one uvicorn's proxy-headers middleware left in the scope, as for the rate limit
(app/api/limits.py).

Gauges the database knows for every process (rooms, games in play) are read at each scrape;
the counters (app/metrics.py) and the open streams are this process's own.
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Iterator

from fastapi import APIRouter, Request, Response
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector

from app.api.admin_token import ADMIN_TOKEN_NEEDED, ADMIN_TOKEN_WRONG, admin_token_given
from app.api.answers import errors_of
from app.api.context import Context
from app.api.limits import client_address
from app.api.numbers import gauges
from app.reasons import N_, reason
from app.services import errors

router = APIRouter(tags=["admin"])

METRICS_LOOPBACK_ONLY = reason(
    "metrics_loopback_only",
    "the metrics are for a scraper on this machine (loopback, no proxy) or the admin token",
    N_("Only the server's admin may do that."),
)
# The headers a proxy adds (any one of them: the request was forwarded).
_PROXY_HEADERS = ("forwarded", "x-real-ip", "via")
_PROXY_PREFIX = "x-forwarded-"


def forwarded(request: Request) -> bool:
    """The request carries a header some proxy adds."""
    return any(name in _PROXY_HEADERS or name.startswith(_PROXY_PREFIX) for name in request.headers)


def from_loopback(request: Request) -> bool:
    """The peer is this machine and no proxy forwarded the request."""
    if forwarded(request):
        return False
    try:
        return ipaddress.ip_address(client_address(request.scope)).is_loopback
    except ValueError:  # "unknown", a unix socket's path
        return False


def require_scraper(request: Request, admin_token: str | None) -> None:
    given = admin_token_given(request)
    if given:
        if admin_token and hmac.compare_digest(given.encode(), admin_token.encode()):
            return
        raise errors.Forbidden(ADMIN_TOKEN_WRONG)
    if from_loopback(request):
        return
    if admin_token:
        raise errors.Unauthorized(ADMIN_TOKEN_NEEDED)
    raise errors.Forbidden(METRICS_LOOPBACK_ONLY)


class Gauges(Collector):
    """The gauges of one scrape, read before it."""

    def __init__(self, values: dict[str, tuple[str, float]]) -> None:
        self.values = values

    def collect(self) -> Iterator[Metric]:
        for name, (documentation, value) in self.values.items():
            yield GaugeMetricFamily(name, documentation, value=value)


@router.get(
    "/metrics",
    responses={
        200: {"content": {CONTENT_TYPE_LATEST: {}}, "description": "Prometheus' text format"},
        **errors_of(401, 403),
    },
    response_class=Response,
)
async def metrics(request: Request) -> Response:
    """The server's numbers in Prometheus' text format: the admin token, or loopback only."""
    ctx: Context = request.app.state.ctx
    require_scraper(request, ctx.settings.admin_token)
    scrape = CollectorRegistry(auto_describe=False)
    scrape.register(Gauges(await gauges(ctx)))
    body = generate_latest(REGISTRY) + generate_latest(scrape)
    return Response(body, media_type=CONTENT_TYPE_LATEST, headers={"Cache-Control": "no-store"})
