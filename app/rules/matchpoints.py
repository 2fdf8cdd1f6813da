"""R32, matchpoints: each North-South score on a board compared with every other on it.

Pure: scores in, matchpoints out. ``matchpoints`` counts a whole board at once (the verifier's
and the tests' way); a ``Traveller`` keeps a board's scores as they arrive, in order, so the
matchpoints of any result are read in a binary search, never recounted from every record.
Matchpoints are whole numbers: 2 for each score beaten, 1 for each tie, 0 for each loss.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

Side = Literal["ns", "ew"]
# R32: a board not played gives the side that caused it 40 % of its top, the other 60 %;
# 50 % each when neither did.
CAUSED, SUFFERED, NEITHER = 0.4, 0.6, 0.5
NO_TOP = 50.0  # a percentage over no comparison at all (a board played once): an average


def top(results: int) -> int:
    """R32: the most matchpoints a side can make on a board played ``results`` times."""
    return 2 * max(results - 1, 0)


def matchpoints(scores: Sequence[int]) -> list[tuple[int, int]]:
    """R32: (North-South, East-West) matchpoints of each score of a board, in order."""
    best = top(len(scores))
    out = []
    for i, s in enumerate(scores):
        ns = sum(2 if s > o else 1 if s == o else 0 for j, o in enumerate(scores) if j != i)
        out.append((ns, best - ns))
    return out


def percent(made: float, tops: float) -> float:
    """R32: matchpoints over the top of the boards played, times 100 (rounded to 0.01)."""
    return round(100.0 * made / tops, 2) if tops else NO_TOP


def unplayed(top_of_board: int, side: Side, caused_by: Side | None) -> float:
    """R32: what a side gets on a board it did not play (the director may say otherwise)."""
    if caused_by is None:
        return NEITHER * top_of_board
    return (CAUSED if caused_by == side else SUFFERED) * top_of_board


@dataclass
class Traveller:
    """One board's results as they arrive (R32): its NS scores kept sorted, so a result's
    matchpoints are two binary searches. Reusable by any event: a day's boards, a night's."""

    scores: list[int] = field(default_factory=list)  # every NS score on the board, sorted

    @classmethod
    def of(cls, scores: Iterable[int]) -> Traveller:
        return cls(sorted(scores))

    def add(self, score: int) -> None:
        bisect.insort(self.scores, score)

    @property
    def results(self) -> int:
        return len(self.scores)

    @property
    def top(self) -> int:
        return top(len(self.scores))

    def ns(self, score: int) -> int:
        """North-South's matchpoints for ``score``, one of the board's results."""
        below = bisect.bisect_left(self.scores, score)
        ties = bisect.bisect_right(self.scores, score) - below - 1
        if ties < 0:
            raise ValueError(f"{score} is not a result on this board")
        return 2 * below + ties

    def pair(self, score: int) -> tuple[int, int]:
        """(North-South, East-West) matchpoints for ``score``."""
        ns = self.ns(score)
        return ns, self.top - ns

    def of_side(self, score: int, side: Side) -> int:
        ns, ew = self.pair(score)
        return ns if side == "ns" else ew
