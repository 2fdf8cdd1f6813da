"""Computer players. A bot sees exactly what a human in its seat sees: an Observation.

``choose(observation, level)`` is the one entry point the server calls. ``easy`` plays by
rules of thumb; ``standard`` searches (sampled worlds and play-outs) within a time budget of
about 20 ms, never more than 300 ms, so it may run in a worker thread.
"""

from __future__ import annotations

import random
from typing import Literal

from app.bots import easy, standard
from app.bots.budget import DEFAULT_BUDGET, Budget
from app.rules.state import Action
from app.rules.view import Observation

BotLevel = Literal["easy", "standard"]
LEVELS: tuple[BotLevel, ...] = ("easy", "standard")
DEFAULT_LEVEL: BotLevel = "standard"

__all__ = ["DEFAULT_LEVEL", "LEVELS", "BotLevel", "Budget", "choose"]


def choose(
    observation: Observation,
    level: BotLevel,
    *,
    rng: random.Random | None = None,
    budget: Budget = DEFAULT_BUDGET,
) -> Action:
    """The action a bot of ``level`` takes; ``observation.legal`` must not be empty.

    ``budget`` bounds the standard player's search (tests pass a small, reproducible one).
    """
    if not observation.legal:
        raise ValueError("the bot has no action to take")
    if level == "easy":
        return easy.choose(observation)
    if level == "standard":
        return standard.choose(observation, rng or random.Random(), budget)
    raise ValueError(f"unknown bot level {level!r}")
