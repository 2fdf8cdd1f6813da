"""A room's table settings that are not rules (API.md § Second round, "Room options")."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

MAX_BOARD = 64  # a duplicate event's boards: more than a night or a day ever deals


class RoomOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    match: Literal[1, 2, 3, 4] = Field(
        1, description="bullseyes (games won) a partnership needs to win the match"
    )
    turn_timer_s: Literal[0, 30, 60, 120] = Field(
        0,
        description="seconds a decision may take before the computer makes it for the seat"
        " (0: no timer)",
    )
    spectator_chat: bool = Field(False, description="spectators may write in the chat too")
    reckon_s: int = Field(
        15,
        ge=5,
        le=120,
        description="renege mode (R23): seconds after a hand's last card for the players to call"
        " renege or say 'score it' before the hand is scored",
    )
    rated: bool = Field(
        True,
        description="a game here is rated (API.md § Ratings) when four different players hold"
        " the four seats from the first deal to the end; off: its games count in the players'"
        " stats but leave their ratings alone",
    )
    hints: bool = Field(
        False,
        exclude_if=lambda hints: not hints,  # shown only where it is so
        description="practice: the seat on turn may ask GET /api/rooms/{code}/hint for a"
        " suggested action and why; a game with hints is never rated",
    )
    public: bool = Field(
        False,
        exclude_if=lambda public: not public,  # shown only where it is so
        description="a public table: listed in the lobby (GET /api/lobby), open to anyone,"
        " and found by play now (POST /api/play)",
    )
    boards: tuple[Annotated[int, Field(ge=1, le=MAX_BOARD)], ...] = Field(
        (),
        max_length=MAX_BOARD,
        exclude_if=lambda boards: not boards,  # shown only where there are
        description="duplicate (R30-R31): the boards this table deals, in order, one a game:"
        " each game is the next board of the event whose seed is the room's, played as one"
        " hand; after the last, no next game",
    )
    reserved: bool = Field(
        False,
        exclude_if=lambda reserved: not reserved,  # shown only where it is so
        description="a club night's table: its seats are taken through the players' night"
        " links, and only the night's director seats substitutes",
    )

    @field_validator("boards")
    @classmethod
    def _each_board_once(cls, boards: tuple[int, ...]) -> tuple[int, ...]:
        if len(set(boards)) != len(boards):
            raise ValueError("a board is dealt once at a table")
        return boards


DEFAULT_OPTIONS = RoomOptions()
