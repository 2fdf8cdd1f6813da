"""The server's gauges at this moment, for ``GET /metrics`` and the host's page: what the
database knows for every process (rooms, games in play) and this process's open streams."""

from __future__ import annotations

from app.api.context import Context


async def gauges(ctx: Context) -> dict[str, tuple[str, float]]:
    figures = await ctx.rooms.read(ctx.housekeeping.figures)
    return {
        "allfours_rooms": ("Rooms on the server (every process)", figures["rooms"]),
        "allfours_games_in_play": (
            "Games started and not over (every process)",
            figures["games_in_play"],
        ),
        "allfours_reviews_queued": (
            "Reviews of games asked and not done yet (every process)",
            figures["reviews_queued"],
        ),
        "allfours_push_waiting": (
            "Web Push notifications waiting in the outbox (every process)",
            figures["push_waiting"],
        ),
        "allfours_streams_open": (
            "Event streams open to this process",
            ctx.streams.open_streams(),
        ),
    }
