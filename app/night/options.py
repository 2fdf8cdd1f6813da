"""A night's options (API.md § Club night, ``POST /api/nights``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.night.standings import Order


class NightOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    match: Literal[1, 2, 3, 4] = Field(
        2, description="bullseyes (games won) that win a table's match: 2 = best of three"
    )
    rounds: int | None = Field(
        None, ge=1, le=16, description="Swiss rounds before the knockout (default ⌈log2 N⌉)"
    )
    knockout: Literal[4, 8] = Field(4, description="pairs in the knockout after the Swiss")
    grace_s: int = Field(
        180, ge=0, le=3600, description="seconds from a round's start before a forfeit"
    )
    standings: Order = Field("wins_first", description="the standings' first column")
    team_target: int | None = Field(
        None, ge=1, le=500, description="team match: total bullseyes that win the night"
    )
    games: int | None = Field(
        None,
        ge=1,
        le=20,
        description="team match: a fixed number of games per table (instead of a match)",
    )
