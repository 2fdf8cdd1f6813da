"""Computer players. A bot sees exactly what a human in its seat sees: an Observation.

``choose(observation, level)`` is the one entry point the server calls. ``easy`` plays by
rules of thumb; ``standard`` and ``strong`` search (sampled worlds and play-outs), each within
its level's budget: a number of worlds, and a hard cap on the wall clock that is checked inside
every play-out, so they may run in a worker thread and never keep a table waiting long.

A bot's chances come from the ``rng`` it is handed: ``rng_for(seed, version)`` derives one
from the game's seed and version, so the same game, seed and budget give the same decisions.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Literal

from app.bots import easy, standard, strong
from app.bots.budget import Budget
from app.i18n import N_
from app.rules.state import Action
from app.rules.view import Observation

BotLevel = Literal["easy", "standard", "strong"]
LEVELS: tuple[BotLevel, ...] = ("easy", "standard", "strong")
DEFAULT_LEVEL: BotLevel = "standard"

# What the lobby says of each level, in a line (marked for the catalogs: app/i18n.py).
DESCRIPTIONS: dict[BotLevel, str] = {
    "easy": N_("plays by a club player's rules of thumb, without looking ahead"),
    "standard": N_("thinks each card through over dozens of imagined deals"),
    "strong": N_("thinks longer, over hundreds of deals, and bids by them: a challenge"),
}

# What each searching level may think, as served (easy does not search). The counts make a
# decision reproducible; the caps bound it on a loaded machine (a capped decision is the only
# one that may differ).
BUDGETS: dict[BotLevel, Budget] = {"standard": standard.BUDGET, "strong": strong.BUDGET}

__all__ = [
    "BOARD_BUDGETS",
    "BUDGETS",
    "DEFAULT_LEVEL",
    "DESCRIPTIONS",
    "LEVELS",
    "BotLevel",
    "Budget",
    "choose",
    "rng_for",
]


def rng_for(seed: int, version: int) -> random.Random:
    """The bots' generator for the decision at ``version`` of the game dealt from ``seed``."""
    return random.Random(f"allfours-bots:{seed}:{version}")


# R34: at a board a decision is counted in worlds alone, never cut by the wall clock (a
# capped search is the one decision that could differ between two tables).
BOARD_BUDGETS: dict[BotLevel, Budget] = {
    level: dataclasses.replace(budget, ms=None, cap_ms=None) for level, budget in BUDGETS.items()
}


def never_renege(observation: Observation) -> Observation:
    """R26: a computer player never reneges: it chooses among the cards R14 allows."""
    marked = observation.renege_cards
    legal = tuple(a for a in observation.legal if a.card is None or not marked >> a.card & 1)
    return dataclasses.replace(observation, legal=legal, renege_cards=0)


def choose(
    observation: Observation,
    level: BotLevel,
    *,
    rng: random.Random | None = None,
    budget: Budget | None = None,
) -> Action:
    """The action a bot of ``level`` takes; ``observation.legal`` must not be empty.

    ``budget`` replaces the level's own (tests and the arena pass one counted in worlds, with
    no cap, so a decision never depends on the machine's load).
    """
    if not observation.legal:
        raise ValueError("the bot has no action to take")
    if observation.renege_cards:
        observation = never_renege(observation)
    if level == "easy":
        return easy.choose(observation)
    if level == "standard":
        return standard.choose(observation, rng or random.Random(), budget or standard.BUDGET)
    if level == "strong":
        return strong.choose(observation, rng or random.Random(), budget or strong.BUDGET)
    raise ValueError(f"unknown bot level {level!r}")
