"""How long a bot may think, and the clock that enforces it."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a decision may think.

    ``ms`` is the anytime budget (None = no clock, for reproducible tests with
    ``max_worlds``); ``cap_ms`` the hard limit on the wall clock, always enforced. ``clock``
    says what ``ms`` counts: wall time (the server: latency is what players feel) or this
    thread's CPU time (the arena on a shared machine: the same search whatever the load).
    """

    ms: float | None = 20.0
    cap_ms: float = 300.0
    max_worlds: int | None = None
    min_worlds: int = 4
    clock: Literal["wall", "cpu"] = "wall"
    bidding: Literal["heuristic", "search"] = "heuristic"
    bid_factor: float = 3.0  # a bid is made once a deal: it may think this many times longer


DEFAULT_BUDGET = Budget()


class Clock:
    """The soft budget on the budget's clock, the hard cap on the wall clock."""

    __slots__ = ("_cap", "_read", "_soft")

    def __init__(self, budget: Budget, factor: float = 1.0) -> None:
        self._cap = time.perf_counter() + budget.cap_ms / 1000
        self._read = time.thread_time if budget.clock == "cpu" else time.perf_counter
        self._soft = self._read() + budget.ms * factor / 1000 if budget.ms is not None else None

    def capped(self) -> bool:
        return time.perf_counter() >= self._cap

    def spent(self) -> bool:
        """The anytime budget is used up, or the cap is reached."""
        return self.capped() or (self._soft is not None and self._read() >= self._soft)
