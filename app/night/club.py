"""A club as stored (its row, members, seasons, nights), as plain data: the store reads it
(app/store/club_repo.py), the clubs' service (app/services/clubs.py) and views read it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

Role = Literal["admin", "member"]


@dataclass(frozen=True, slots=True)
class ClubRow:
    id: int
    code: str
    name: str
    standings: str


@dataclass(frozen=True, slots=True)
class MemberRow:
    player_id: int
    handle: str
    name: str
    role: str
    listed: bool = True


@dataclass(frozen=True, slots=True)
class SeasonRow:
    id: int
    number: int
    name: str
    started_at: datetime
    ended_at: datetime | None


@dataclass(frozen=True, slots=True)
class ClubNightRow:
    night_id: int
    code: str
    name: str
    season: int  # the season's number
