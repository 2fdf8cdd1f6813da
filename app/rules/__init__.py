"""The pure rules engine of RULES.md: no I/O, no clock, no global RNG.

Every caller uses the same small API: ``new_game``, ``current_seat``, ``legal_actions``,
``apply`` and ``observe`` (the only door for private information). Beneath ``apply`` lies the
one implementation of the rules, ``working.WorkingState``: a State stepped in place, cheap to clone,
on which the bots play out the deals they imagine (``imagined.imagined``).
"""

from app.rules.config import DEFAULT_PRESET, DEFAULT_RULES, PRESETS, Rules, preset_of, preset_rules
from app.rules.engine import apply, current_seat, legal_actions, new_game, replay
from app.rules.errors import IllegalMove, NotOffered, RuleError
from app.rules.state import Action, Award, HandRecord, Phase, State, Trick
from app.rules.view import Observation, observe

__all__ = [
    "DEFAULT_PRESET",
    "DEFAULT_RULES",
    "PRESETS",
    "Action",
    "Award",
    "HandRecord",
    "IllegalMove",
    "NotOffered",
    "Observation",
    "Phase",
    "RuleError",
    "Rules",
    "State",
    "Trick",
    "apply",
    "current_seat",
    "legal_actions",
    "new_game",
    "observe",
    "preset_of",
    "preset_rules",
    "replay",
]
