"""The app factory: ``create_app(settings)`` wires store, live fan-out, services and routes."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager

from fastapi import FastAPI

from app.api import (
    admin,
    admin_pages,
    chat,
    club_pages,
    docs,
    friend_pages,
    health,
    host,
    openapi,
    pages,
    player_pages,
    profile_pages,
    records,
    replay_pages,
    report_pages,
    reviews,
    rooms,
)
from app.api import clubs as club_routes
from app.api import daily as daily_routes
from app.api import errors as api_errors
from app.api import friends as friend_routes
from app.api import install as install_routes
from app.api import metrics as metrics_routes
from app.api import night_pages as night_page_routes
from app.api import nights as night_routes
from app.api import passkeys as passkey_routes
from app.api import play as play_routes
from app.api import players as player_routes
from app.api import profiles as profile_routes
from app.api import push as push_routes
from app.api import reports as report_routes
from app.api import stats as stats_routes
from app.api.context import Context
from app.api.layers import AllFours, layers
from app.api.limits import RoomQuota, StreamGate
from app.api.night_schemas import NIGHT_MODELS
from app.api.record_schemas import RECORD_MODELS
from app.api.review_schemas import REVIEW_MODELS
from app.api.schemas import DOCUMENTED_MODELS
from app.api.sealed import BOARD_SEATS_ONLY
from app.live.hub import Hub
from app.live.notifier import LocalNotifier
from app.live.pick import make_notifier
from app.live.presence import Presence
from app.services.housekeeping import Housekeeping, RoomSweeper
from app.services.keeper import RoomKeeper
from app.services.night_steward import NightSteward
from app.services.nights import Nights
from app.services.place_rules import PlaceRules
from app.services.players import Players
from app.services.push import Push
from app.services.quotas import Quotas
from app.services.review_worker import ReviewWorkers
from app.services.reviews import Reviews
from app.services.rooms import Rooms
from app.settings import Settings, load_settings
from app.store.checkpoint import WalCheckpointer
from app.store.db import make_engine
from app.store.server_key import server_key

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
    push = Push(engine, settings)
    # The place's rules (bans, blocks) reach the rooms here, as push does.
    rooms = Rooms(engine, notifier, herald=push, warden=PlaceRules(engine))
    keeper = RoomKeeper(
        rooms,
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
    nights = Nights(rooms)
    quotas = Quotas(settings.profiles_per_hour)
    players = Players(engine, rooms, server_key(settings).key, quotas)
    hub.on_keys_ended(players.forget)  # a key signed out in another process: forgotten here
    hub.on_resync(players.forget_all)  # the notifier reconnected: a sign-out may be unheard
    return Context(
        settings,
        engine,
        hub,
        notifier,
        presence,
        rooms,
        keeper,
        streams,
        quota,
        nights=nights,
        steward=NightSteward(nights, hub),
        housekeeping=Housekeeping(rooms, presence),
        players=players,
        push=push,
        reviews=Reviews(engine, rooms),
        review_workers=ReviewWorkers(
            settings.database_url,
            settings.review_worlds,
            settings.review_workers,
            lie_low=settings.review_lie_low,
            speed=settings.review_speed,
        ),
        quotas=quotas,
    )


STOP_STEP_S = 10.0  # the longest one step of stopping may take before the next goes on


async def _bounded(step: str, done: Awaitable[object]) -> None:
    """One step of stopping, bounded: a step that hangs (seen once in a test run, on
    PostgreSQL, without a trace of which) is logged by name and left behind, so the process
    still stops and its database pool is still closed."""
    try:
        await asyncio.wait_for(done, STOP_STEP_S)
    except TimeoutError:
        log.warning(
            "a step of stopping took too long", extra={"event": "stop_step_slow", "step": step}
        )


async def resume_reviews(ctx: Context) -> None:
    """Workers for the reviews left waiting (none started when none is)."""
    if await asyncio.to_thread(ctx.reviews.waiting):
        await asyncio.to_thread(ctx.review_workers.ensure)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or load_settings()
    ctx = build_context(settings)
    sweeper = RoomSweeper(
        ctx.housekeeping,
        ttl_days=settings.room_ttl_days,
        empty_ttl_hours=settings.empty_room_ttl_hours,
        presence_horizon_s=max(3600.0, 2 * settings.away_s),  # a pruned seat counts as away
    )
    checkpointer = WalCheckpointer(ctx.engine)
    steward = ctx.steward

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
        await ctx.push.start()
        # Reviews asked before a restart are taken up again (a worker starts only if needed).
        review_start = asyncio.get_running_loop().create_task(resume_reviews(ctx))
        try:
            yield
        finally:
            review_start.cancel()
            await _bounded("reviews", asyncio.to_thread(ctx.review_workers.stop))
            await _bounded("push", ctx.push.stop())
            await _bounded("sweeper", sweeper.stop())
            resume.cancel()
            resume_nights.cancel()
            await _bounded("resume", asyncio.gather(resume, resume_nights, return_exceptions=True))
            await _bounded("steward", steward.close())
            await _bounded("keeper", ctx.keeper.close())
            await _bounded("notifier", ctx.notifier.stop())
            # Let database work still running in worker threads finish before the pool goes.
            await _bounded("executor", asyncio.get_running_loop().shutdown_default_executor())
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
    api_errors.install(app)
    app.include_router(health.router)
    app.include_router(rooms.router, dependencies=[BOARD_SEATS_ONLY])
    app.include_router(host.router)
    app.include_router(chat.router, dependencies=[BOARD_SEATS_ONLY])
    app.include_router(records.router, dependencies=[BOARD_SEATS_ONLY])
    app.include_router(reviews.router, dependencies=[BOARD_SEATS_ONLY])
    app.include_router(reviews.pages, dependencies=[BOARD_SEATS_ONLY])
    app.include_router(admin.router)
    app.include_router(metrics_routes.router)
    app.include_router(report_routes.router)
    app.include_router(player_routes.router)
    app.include_router(passkey_routes.router)
    app.include_router(profile_routes.router)
    app.include_router(push_routes.router)
    app.include_router(night_routes.router)
    app.include_router(club_routes.router)
    app.include_router(club_pages.router)
    app.include_router(play_routes.router)
    app.include_router(daily_routes.router)
    app.include_router(daily_routes.pages)
    app.include_router(play_routes.pages)
    app.include_router(friend_pages.router)
    app.include_router(friend_routes.router)
    pages.install(app)
    app.include_router(install_routes.router)
    app.include_router(player_pages.router)
    app.include_router(host.page_router)
    app.include_router(admin_pages.router)
    app.include_router(report_pages.router)
    app.include_router(replay_pages.router, dependencies=[BOARD_SEATS_ONLY])
    app.include_router(profile_pages.router)
    app.include_router(stats_routes.router, dependencies=[BOARD_SEATS_ONLY])
    app.include_router(stats_routes.pages, dependencies=[BOARD_SEATS_ONLY])
    app.include_router(night_page_routes.router)
    docs.install(app)
    openapi.install(app, (*DOCUMENTED_MODELS, *RECORD_MODELS, *NIGHT_MODELS, *REVIEW_MODELS))
    return app
