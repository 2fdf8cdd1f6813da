"""The game record (``GET /api/rooms/{code}/games/{g}``) as the OpenAPI document describes
it. The route sends the record app/services/records.py builds; a test validates real
records against these models (strict, no extra keys), so the two cannot drift apart."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.rules import Rules
from app.rules.state import ACTION_TYPES, TABLE_ACTION_TYPES
from app.services.options import RoomOptions
from app.services.view import ReplayOfView, SeatRatingView
from app.views.records import HandRecordView
from app.views.shapes import CardCode as Code
from app.views.shapes import SeatNumber, Shown
from app.views.shapes import TeamNumber as Team


class RecordSeat(Shown):
    seat: SeatNumber
    name: str
    bot: bool
    level: str | None
    player: str | None = Field(
        None, description="the handle of the profile holding the seat (null: a guest)"
    )


class RecordAction(Shown):
    seq: int = Field(description="1, 2, ... in the order the moves were made")
    seat: SeatNumber
    type: Literal[ACTION_TYPES + TABLE_ACTION_TYPES]  # type: ignore[valid-type]
    card: Code | None
    auto: bool = Field(
        description="made by a computer player covering the seat (or the server: a"
        " reckoning's time up, R23, whose row names the dealer)"
    )
    lift: int | None = Field(
        None,
        ge=1,
        le=12,
        exclude_if=lambda v: v is None,
        description="a call of renege (type call, R22): the lift it names",
    )


class GameRecordOut(Shown):
    """One game of a room: everything public so far, and once it is over its seed, from
    which every deal can be checked (docs/fairness.md, ``python -m app.verify``)."""

    format: Literal["allfours-game-record/1"]
    room: str
    game: int = Field(description="the game's number in the room, 1-based")
    rules: Rules
    options: RoomOptions
    seats: list[RecordSeat | None] = Field(min_length=4, max_length=4)
    replay_of: ReplayOfView | None = Field(description="the game whose deals this one replays")
    shuffle: Literal["sha256-fisher-yates", "python-random"] = Field(
        description="how the seed deals: docs/fairness.md (python-random: dealt before it)"
    )
    first_dealer: SeatNumber
    first_dealer_from: Literal["seed", "rotation", "replay"] = Field(
        description="drawn from the seed, passed on from the game before, or the replayed game's"
    )
    actions: list[RecordAction]
    hands: list[HandRecordView] = Field(description="the finished deals, in order")
    hand_number: int = Field(description="the deal being played (the last, once over)")
    scores: list[int] = Field(min_length=2, max_length=2)
    over: bool
    winner: Team | None
    seed_commitment: str | None = Field(
        description="hex SHA-256 of the seed's decimal text; null for a game dealt before it",
        json_schema_extra={"pattern": "^[0-9a-f]{64}$"},
    )
    seed: int | None = Field(description="the seed, once the game is over (up to 39 digits)")
    rated: bool = Field(description="the game was rated (API.md § Ratings): false until it is over")
    ratings: list[SeatRatingView] | None = Field(
        description="a rated game's players' ratings before and after it; null otherwise"
    )


class ReplayCreated(Shown):
    code: str
    url: str


# The models whose integer bounds the OpenAPI document takes from pydantic (app/api/openapi.py).
RECORD_MODELS = (GameRecordOut,)
