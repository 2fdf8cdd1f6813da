"""Leavers at play now (API.md § Fifth round, *Leavers*): a player who left 3 of their last
10 public games is cooled off (429 ``cooling_off``, with ``Retry-After``), the one check play
now makes (app/services/play_now.py). Who left a game is counted when it ends
(app/services/career.py); the rule itself is app/players/leavers.py's."""

from __future__ import annotations

import math
from datetime import UTC, datetime

from sqlalchemy import Engine

from app.players.leavers import LOOKED_AT, READ_AT_MOST, PublicGame, cooling_off_until
from app.reasons import N_, reason
from app.services import errors
from app.store import career_repo
from app.store.db import read

COOLING_OFF = reason(
    "cooling_off",
    "you left {left} of your last {games} public games: play now again in {minutes} minutes",
    N_(
        "You left %(left)s of your last %(games)s games at public tables. Play now opens for"
        " you again in %(minutes)s minutes; a private table with friends is open now."
    ),
)


def refuse_cooling_off(engine: Engine, player_id: int, now: datetime | None = None) -> None:
    """The refusal (429 ``cooling_off``, ``retry_after``: seconds) of a player cooling off."""
    with read(engine) as conn:
        rows = career_repo.public_games(conn, player_id, READ_AT_MOST)
    games = [PublicGame(ended_at, left) for ended_at, left in rows]
    until = cooling_off_until(games)
    wait = (until - (now or datetime.now(UTC))).total_seconds() if until is not None else 0
    if wait <= 0:
        return
    seconds = math.ceil(wait)
    refused = errors.TooMany(
        COOLING_OFF,
        left=sum(g.left for g in games[:LOOKED_AT]),
        games=LOOKED_AT,
        minutes=math.ceil(seconds / 60),
    )
    refused.retry_after = seconds
    raise refused
