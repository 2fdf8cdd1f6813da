"""The app factory: ``create_app(settings)`` wires store, live fan-out, services and routes."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES, GZipMiddleware

from app.api import admin, chat, docs, health, host, openapi, pages, records, replay_pages, rooms
from app.api import errors as api_errors
from app.api import night_pages as night_page_routes
from app.api import nights as night_routes
from app.api import stats as stats_routes
from app.api.context import Context
from app.api.language import Language
from app.api.limits import RoomQuota, StreamGate
from app.api.middleware import BodyLimit, RateLimit
from app.api.night_schemas import NIGHT_MODELS
from app.api.record_schemas import RECORD_MODELS
from app.api.schemas import DOCUMENTED_MODELS
from app.api.security import SameOrigin, SecurityHeaders
from app.live.hub import Hub
from app.live.notifier import LocalNotifier, make_notifier
from app.live.presence import Presence
from app.logs import RequestLog
from app.services.housekeeping import Housekeeping, RoomSweeper
from app.services.keeper import TableKeeper
from app.services.night_steward import NightSteward
from app.services.nights import Nights
from app.services.tables import Tables
from app.settings import Settings, load_settings
from app.store.checkpoint import WalCheckpointer
from app.store.db import make_engine

log = logging.getLogger("allfours")
# Never gzipped: already compressed formats, and the event streams, which gzip would hold
# back until a buffer fills (a move must reach every screen at once).
NOT_COMPRESSED = tuple(dict.fromkeys((*DEFAULT_EXCLUDED_CONTENT_TYPES, "text/event-stream")))
GZIP_MINIMUM_SIZE = 512  # bytes: below this the gzip header and checksum outweigh the gain


def build_context(settings: Settings) -> Context:
    engine = make_engine(settings.database_url)
    hub = Hub()
    presence = Presence(
        on_change=hub.presence_changed,
        away_s=settings.away_s,
        turn_scale=settings.turn_timer_scale,
    )
    notifier = make_notifier(settings.database_url, hub)
    tables = Tables(engine, notifier)
    keeper = TableKeeper(
        tables,
        hub,
        presence,
        bot_delay_s=settings.bot_delay_ms / 1000,
        away_s=settings.away_s,
        shared_presence=not isinstance(notifier, LocalNotifier),
    )
    streams = StreamGate(
        per_address=settings.max_streams_per_address, per_room=settings.max_streams_per_room
    )
    quota = RoomQuota(settings.rooms_per_hour, settings.admin_token)
    return Context(settings, engine, hub, notifier, presence, tables, keeper, streams, quota)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or load_settings()
    ctx = build_context(settings)
    housekeeping = Housekeeping(ctx.tables, ctx.presence)
    sweeper = RoomSweeper(
        housekeeping,
        ttl_days=settings.room_ttl_days,
        empty_ttl_hours=settings.empty_room_ttl_hours,
        presence_horizon_s=max(3600.0, 2 * settings.away_s),  # a pruned seat counts as away
    )
    checkpointer = WalCheckpointer(ctx.engine)
    nights = Nights(ctx.tables)
    steward = NightSteward(nights, ctx.hub)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        ctx.hub.bind(asyncio.get_running_loop())
        checkpointer.start()
        await ctx.notifier.start()
        ctx.keeper.start_heartbeat()
        # Pending bot turns (and away covers) resume after a restart.
        resume = asyncio.get_running_loop().create_task(ctx.keeper.resume_all())
        resume_nights = asyncio.get_running_loop().create_task(steward.resume_all())
        await sweeper.start()
        try:
            yield
        finally:
            await sweeper.stop()
            resume.cancel()
            resume_nights.cancel()
            await asyncio.gather(resume, resume_nights, return_exceptions=True)
            await steward.close()
            await ctx.keeper.close()
            await ctx.notifier.stop()
            # Let database work still running in worker threads finish before the pool goes.
            await asyncio.get_running_loop().shutdown_default_executor()
            checkpointer.stop()
            ctx.engine.dispose()

    app = FastAPI(
        title="All Fours",
        version="0.1.0",
        description="The Trinidad card game: the JSON API of API.md.",
        lifespan=lifespan,
        docs_url=None,  # app.api.docs serves /docs without a CDN
        redoc_url=None,
    )
    app.state.ctx = ctx
    app.state.housekeeping = housekeeping
    app.state.nights = nights
    app.state.steward = steward
    api_errors.install(app)
    app.include_router(health.router)
    app.include_router(rooms.router)
    app.include_router(host.router)
    app.include_router(chat.router)
    app.include_router(records.router)
    app.include_router(admin.router)
    app.include_router(night_routes.router)
    pages.install(app)
    app.include_router(host.page_router)
    app.include_router(replay_pages.router)
    app.include_router(stats_routes.router)
    app.include_router(stats_routes.pages)
    app.include_router(night_page_routes.router)
    docs.install(app)
    openapi.install(app, (*DOCUMENTED_MODELS, *RECORD_MODELS, *NIGHT_MODELS))
    # Outermost last: the rate limit sees every request, then the cross-site check, then
    # the body limit; every answer, refusals included, carries the security headers.
    # Innermost, pages are compressed for a browser that accepts gzip (event streams are
    # not: see NOT_COMPRESSED); no HTML answer may be kept by a cache (app/api/security.py).
    # Innermost of all, each request is read in its reader's language (app/i18n.py).
    app.add_middleware(Language)
    app.add_middleware(
        GZipMiddleware,
        minimum_size=GZIP_MINIMUM_SIZE,
        compresslevel=6,
        exclude_content_types=NOT_COMPRESSED,
    )
    app.add_middleware(
        BodyLimit,
        limit=settings.max_body_bytes,
        paths={"/records/open": replay_pages.UPLOAD_MAX_BYTES},  # a record file
    )
    app.add_middleware(SameOrigin)
    app.add_middleware(RateLimit, per_minute=settings.rate_limit, exempt=("/static/", "/healthz"))
    app.add_middleware(SecurityHeaders)
    app.add_middleware(RequestLog)  # outermost: it logs 429s, 413s and 403s too
    return app
