"""The game record (``GET /api/rooms/{code}/games/{g}``) as the OpenAPI document describes
it. The route sends the record app/services/records.py builds; a test validates real
records against these models (strict, no extra keys), so the two cannot drift apart."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.api.schemas import AwardOut, Code, LiftOut, SeatNumber, Team, _Out
from app.rules import Rules
from app.rules.state import ACTION_TYPES


class RecordSeat(_Out):
    seat: SeatNumber
    name: str
    bot: bool
    level: str | None


class ReplayOfOut(_Out):
    room: str = Field(description="the room of the game these deals come from")
    game: int = Field(description="that game's number in its room")


class RecordAction(_Out):
    seq: int = Field(description="1, 2, ... in the order the moves were made")
    seat: SeatNumber
    type: Literal[ACTION_TYPES]  # type: ignore[valid-type]
    card: Code | None
    auto: bool = Field(description="made by a computer player covering the seat")


class DealtOut(_Out):
    """Each seat's cards of the deal (runs of the pack included), lowest index first; null
    where the deal was thrown in unplayed and the game is not over."""

    seat0: list[Code] | None = Field(alias="0")
    seat1: list[Code] | None = Field(alias="1")
    seat2: list[Code] | None = Field(alias="2")
    seat3: list[Code] | None = Field(alias="3")


class HandRecordOut(_Out):
    n: int = Field(description="the deal's number in the game, redeals counted")
    dealer: SeatNumber
    redeal: bool
    dealt: DealtOut
    kicks: list[Code]
    trump: Literal["C", "D", "H", "S"] | None
    decision: Literal["stand", "give_one", "run_pack"] | None
    tricks: list[LiftOut]
    game_totals: list[int] | None = Field(description="what each team counted for Game")
    awards: list[AwardOut]
    scores_after: list[int] = Field(min_length=2, max_length=2)


class GameRecordOut(_Out):
    """One game of a room: everything public so far, and once it is over its seed, from
    which every deal can be checked (docs/fairness.md, ``python -m app.verify``)."""

    format: Literal["allfours-game-record/1"]
    room: str
    game: int = Field(description="the game's number in the room, 1-based")
    rules: Rules
    seats: list[RecordSeat | None] = Field(min_length=4, max_length=4)
    replay_of: ReplayOfOut | None = Field(description="the game whose deals this one replays")
    shuffle: Literal["sha256-fisher-yates", "python-random"] = Field(
        description="how the seed deals: docs/fairness.md (python-random: dealt before it)"
    )
    first_dealer: SeatNumber
    first_dealer_from: Literal["seed", "rotation", "replay"] = Field(
        description="drawn from the seed, passed on from the game before, or the replayed game's"
    )
    actions: list[RecordAction]
    hands: list[HandRecordOut] = Field(description="the finished deals, in order")
    hand_number: int = Field(description="the deal being played (the last, once over)")
    scores: list[int] = Field(min_length=2, max_length=2)
    over: bool
    winner: Team | None
    seed_commitment: str | None = Field(
        description="hex SHA-256 of the seed's decimal text; null for a game dealt before it",
        json_schema_extra={"pattern": "^[0-9a-f]{64}$"},
    )
    seed: int | None = Field(description="the seed, once the game is over (up to 39 digits)")


class ReplayCreated(_Out):
    code: str
    url: str


# The models whose integer bounds the OpenAPI document takes from pydantic (app/api/openapi.py).
RECORD_MODELS = (GameRecordOut,)
