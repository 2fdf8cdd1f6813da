"""The house-rule options of RULES.md; the defaults are the rules as written."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Rules(BaseModel):
    """The rules a room plays by, fixed when the room is created."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    target: Literal[7, 10, 14, 21] = Field(14, description="R19: points needed to win")
    game_points: Literal[1, 2] = Field(1, description="R18: what the Game point is worth")
    game_tie: Literal["none", "non_dealer"] = Field(
        "none", description="R18: a tied Game scores nothing, or goes to the non-dealer's team"
    )
    give_one_can_win: bool = Field(
        False, description="R11: the dealer may give one even when it wins the game"
    )
    give_one_needs_trump: bool = Field(
        False,
        description="R10: the dealer may give one only while holding a card of the kick's suit",
    )
    undertrump: Literal["allowed", "forbidden"] = Field(
        "allowed",
        description="R14: after a plain lead was trumped, a lower trump may not be played "
        "unless the hand holds only trumps",
    )
    kick_two: bool = Field(
        False, description="R7 (Tobago): a turned 2 scores 2 points instead of the 6"
    )
    flip_last_card: bool = Field(
        False,
        description="R12: when the pack runs out, turn the last card(s) before redealing",
    )


DEFAULT_RULES = Rules()
