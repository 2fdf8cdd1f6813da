"""The app factory: ``create_app(settings)`` wires store, live fan-out, services and routes."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from app.api import admin, chat, docs, health, host, openapi, pages, records, replay_pages, rooms
from app.api import errors as api_errors
from app.api import night_pages as night_page_routes
from app.api import nights as night_routes
from app.api import stats as stats_routes
from app.api.context import Context
from app.api.layers import AllFours, layers
from app.api.limits import RoomQuota, StreamGate
from app.api.night_schemas import NIGHT_MODELS
from app.api.record_schemas import RECORD_MODELS
from app.api.schemas import DOCUMENTED_MODELS
from app.live.hub import Hub
from app.live.notifier import LocalNotifier
from app.live.pick import make_notifier
from app.live.presence import Presence
from app.services.housekeeping import Housekeeping, RoomSweeper
from app.services.keeper import TableKeeper
from app.services.night_steward import NightSteward
from app.services.nights import Nights
from app.services.tables import Tables
from app.settings import Settings, load_settings
from app.store.checkpoint import WalCheckpointer
from app.store.db import make_engine

log = logging.getLogger("allfours")


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

    app = AllFours(
        layers=layers(settings),  # app/api/layers.py: every layer, outermost first
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
    return app
