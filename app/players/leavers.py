"""Play now's cooling off for leavers (API.md § Fifth round, *Leavers*;
docs/players.md): pure, over a player's public games as their career rows keep them (when
each ended, whether the player left it). app/services/leavers.py reads the rows and play
now asks it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

LOOKED_AT = 10  # the player's last public games the rule looks at
LEAVES = 3  # leaves among them that cool a player off
FIRST_COOLING = timedelta(minutes=10)
DOUBLING_WITHIN = timedelta(days=1)  # each new leave this close to the last doubles it


@dataclass(frozen=True, slots=True)
class PublicGame:
    """One public game of the player's, at its end."""

    ended_at: datetime
    left: bool


def cooling_off_until(games: Sequence[PublicGame]) -> datetime | None:
    """When a player may press play now again (``games``: theirs, newest first), or None:
    cooled off for 10 minutes from their latest leave once they left 3 of their last 10
    public games, twice as long for each earlier leave that did the same within the day
    before it (10, 20, 40 ... minutes)."""
    if sum(g.left for g in games[:LOOKED_AT]) < LEAVES:
        return None
    latest = next(g.ended_at for g in games if g.left)
    cooling = [
        n
        for n, g in enumerate(games)
        if g.left
        and latest - g.ended_at <= DOUBLING_WITHIN
        and sum(h.left for h in games[n : n + LOOKED_AT]) >= LEAVES
    ]
    return latest + FIRST_COOLING * (1 << (len(cooling) - 1))


# Enough of a player's last public games for the rule: the day before their latest leave
# and the ten before each leave in it (a day holds fewer games than this).
READ_AT_MOST = 200
