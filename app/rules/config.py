"""The house-rule options of RULES.md; the defaults are the rules as written."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Rules(BaseModel):
    """The rules a room plays by, fixed when the room is created."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    target: Literal[7, 10, 14, 21] = Field(14, description="R19: points needed to win")
    game_points: Literal[1, 2] = Field(1, description="R18: what the Game point is worth")
    game_tie: Literal["none", "non_dealer"] = Field(
        "none", description="R18: a tied Game scores nothing, or goes to the non-dealer's team"
    )
    give_one_can_win: bool = Field(
        False, description="R11: the dealer may give one even when it wins the game"
    )
    give_one_needs_trump: bool = Field(
        False,
        description="R10: the dealer may give one only while holding a card of the kick's suit",
    )
    undertrump: Literal["allowed", "forbidden"] = Field(
        "allowed",
        description="R14: after a plain lead was trumped, a lower trump may not be played "
        "unless the hand holds only trumps",
    )
    kick_two: bool = Field(
        False, description="R7 (Tobago): a turned 2 scores 2 points instead of the 6"
    )
    flip_last_card: bool = Field(
        False,
        description="R12: when the pack runs out, turn the last card(s) before redealing",
    )
    renege: Literal["off", "trinidad", "one", "bullseye"] = Field(
        "off",
        description="R20-R24: off, every card the rules forbid is refused; else any card may"
        " be played, the other side may call a renege, and an upheld call costs this penalty",
    )
    false_call: Literal["penalty", "free"] = Field(
        "penalty", description="R25: a wrong call costs the callers a penalty, or nothing"
    )


DEFAULT_RULES = Rules()


# RULES.md "Presets": named sets of house rules, each just a set of the options above (all
# others at their default). The first is the default; "custom" is any other combination.
PRESETS: dict[str, Rules] = {
    "trinidad": DEFAULT_RULES,
    "tournament": Rules(
        game_points=2, undertrump="forbidden", give_one_needs_trump=True, renege="bullseye"
    ),
    "tobago": Rules(kick_two=True),
    "quick": Rules(target=7),
}
DEFAULT_PRESET = "trinidad"
CUSTOM = "custom"


class UnknownPreset(ValueError):
    """A preset that RULES.md does not name."""


def preset_rules(preset: str | None, overrides: Mapping[str, Any] | None = None) -> Rules:
    """A preset's rules (the default preset when None), with ``overrides`` on top: the
    options a caller chose explicitly win over the preset's."""
    name = DEFAULT_PRESET if preset is None else preset
    if name not in PRESETS:
        known = ", ".join(PRESETS)
        raise UnknownPreset(f"no preset {name[:40]!r} (known: {known})")
    if not overrides:
        return PRESETS[name]
    return Rules(**{**PRESETS[name].model_dump(), **overrides})


def preset_of(rules: Rules | Mapping[str, Any]) -> str:
    """The name of the preset these rules are, or ``"custom"``."""
    if not isinstance(rules, Rules):
        rules = Rules(**rules)
    return next((name for name, preset in PRESETS.items() if preset == rules), CUSTOM)
