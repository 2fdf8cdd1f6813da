"""A player's records as the store reads them (app/store/player_repo.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class ProfileRow:
    id: int
    handle: str
    name: str
    language: str | None
    listed: bool
    secret: str | None  # None: deleted
    mu: float | None
    sigma: float | None
    rated_games: int
    created_at: datetime

    @property
    def deleted(self) -> bool:
        return self.secret is None


@dataclass(frozen=True, slots=True)
class DeviceRow:
    id: int
    device: str
    created_at: datetime
    seen_at: datetime
