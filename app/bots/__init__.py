"""Computer players. A bot sees exactly what a human in its seat sees: an Observation.

``choose(observation, level)`` is the one entry point the server calls.
"""

from __future__ import annotations

import random
from typing import Literal

from app.rules.state import Action
from app.rules.view import Observation

BotLevel = Literal["easy", "standard"]
LEVELS: tuple[BotLevel, ...] = ("easy", "standard")
DEFAULT_LEVEL: BotLevel = "standard"


def choose(
    observation: Observation, level: BotLevel, *, rng: random.Random | None = None
) -> Action:
    """The action a bot of ``level`` takes; ``observation.legal`` must not be empty.

    Interim: a uniformly random legal action until the real players land.
    """
    if not observation.legal:
        raise ValueError("the bot has no action to take")
    return (rng or random.Random()).choice(observation.legal)
