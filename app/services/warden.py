"""Who may sit where, as the room kernel asks it (API.md § Fifth round, "A rule holds on
every path"): a banned player takes no seat at a public table, and two players one of whom
blocked the other never sit at one table. The rules themselves are the moderation's (bans)
and the social ties' (blocks); the rooms reach them through this small protocol, wired at
start (app/main.py), as they reach push through the herald (app/services/herald.py).

A player's standing is read once where a seat is asked for (a join, a claim, play now, a
night's seat), carried in the command and judged by ``decide`` on the room it already read:
a move never asks."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class PlaceStanding:
    """What the place's rules say of one profile when it comes to a seat."""

    banned: bool = False  # by the server's admin: no seat at a public table
    shuns: frozenset[int] = frozenset()  # the profiles never seated with it (blocks, either way)


CLEAR = PlaceStanding()  # a guest's (no profile: no ban, no block to keep)


class Warden(Protocol):
    def standing(self, player: int) -> PlaceStanding: ...

    def apart(self, players: Collection[int]) -> bool:
        """Whether two of these players must not sit at one table (a block between them)."""
        ...

    def blocks_among(self, players: Collection[int]) -> set[tuple[int, int]]:
        """The two players of each block between these players (blocker, blocked)."""
        ...

    def banned_among(self, players: Collection[int]) -> bool: ...


class Lenient:
    """A warden with no rules (the tests of the rooms alone)."""

    def standing(self, player: int) -> PlaceStanding:
        return CLEAR

    def apart(self, players: Collection[int]) -> bool:
        return False

    def blocks_among(self, players: Collection[int]) -> set[tuple[int, int]]:
        return set()

    def banned_among(self, players: Collection[int]) -> bool:
        return False
