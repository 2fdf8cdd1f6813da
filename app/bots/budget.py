"""How long a bot may think, and the clock that enforces it."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a decision may think.

    ``max_worlds`` counts the search in sampled worlds, ``max_cards`` its work in cards played
    out (a world costs a play-out per legal card, each as long as the cards left to play:
    early in a deal a world costs ten times more than late). Both are counts, so the same
    game, seed and budget give the same decision whatever the machine's load. ``ms`` is an
    anytime budget on the clock (None = none). ``cap_ms`` is the hard limit on the wall clock,
    checked inside every play-out (None = no cap: the arena and the tests, where only the
    counts decide). ``clock`` says what ``ms`` counts: wall time (latency is what players
    feel) or this thread's CPU time (the arena on a shared machine).
    """

    ms: float | None = 20.0
    cap_ms: float | None = 300.0
    max_worlds: int | None = None
    max_cards: int | None = None  # the work, in cards played out over all worlds
    min_worlds: int = 4
    clock: Literal["wall", "cpu"] = "wall"
    bidding: Literal["heuristic", "search"] = "heuristic"
    bid_factor: float = 3.0  # a bid is made once a deal: it may think this many times longer


class Clock:
    """The soft budget on the budget's clock, the hard cap on the wall clock.

    The cap is read inside the search (every lift of every play-out), but a loaded machine
    runs the search in slices: between two readings the process may wait a long while for a
    core (a tenth of a second and more, with 38 ms of CPU spread over 754 ms of wall time).
    So the cap counts as reached once the next reading could come after it: when the time
    left is less than the longest wait between two readings seen so far. Idle, readings come
    microseconds apart and the cap is where it says; loaded, the search ends early enough."""

    __slots__ = ("_cap", "_gap", "_last", "_read", "_soft")

    def __init__(self, budget: Budget, factor: float = 1.0) -> None:
        now = time.perf_counter()
        self._cap = now + budget.cap_ms / 1000 if budget.cap_ms is not None else None
        self._last, self._gap = now, 0.0
        self._read = time.thread_time if budget.clock == "cpu" else time.perf_counter
        self._soft = self._read() + budget.ms * factor / 1000 if budget.ms is not None else None

    def capped(self) -> bool:
        if self._cap is None:
            return False
        now = time.perf_counter()
        self._gap = max(self._gap, now - self._last)
        self._last = now
        return now + self._gap >= self._cap

    def spent(self) -> bool:
        """The anytime budget is used up, or the cap is reached."""
        return self.capped() or (self._soft is not None and self._read() >= self._soft)


def worlds_within(budget: Budget, cards_per_world: int) -> int | None:
    """The worlds a search may sample, by both of the budget's counts (None: no count)."""
    worlds = budget.max_worlds
    if budget.max_cards is not None:
        fit = max(budget.min_worlds, budget.max_cards // max(1, cards_per_world))
        worlds = fit if worlds is None else min(worlds, fit)
    return worlds
