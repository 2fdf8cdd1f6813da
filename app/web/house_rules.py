"""The house-rule options as the interface names and explains them (RULES.md "House rules").

Values and defaults come from the ``Rules`` model itself, so a new option cannot be
forgotten here without a test noticing (tests/web/test_house_rules.py).
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.rules.config import Rules


@dataclass(frozen=True, slots=True)
class Choice:
    value: str  # as the form sends it
    label: str
    default: bool


@dataclass(frozen=True, slots=True)
class Option:
    name: str
    label: str
    explanation: str
    choices: tuple[Choice, ...]
    is_flag: bool  # a yes/no option: a checkbox on the form

    @property
    def default(self) -> Choice:
        return next(c for c in self.choices if c.default)


# name -> (label, one-line explanation, labels of the values)
_WORDS: dict[str, tuple[str, str, dict[Any, str]]] = {
    "target": (
        "Play to",
        "The first team to reach this many points wins (R19).",
        {7: "7 points", 10: "10 points", 14: "14 points", 21: "21 points"},
    ),
    "game_points": (
        "Game is worth",
        "Points for the team that lifts the most court cards and tens (R18).",
        {1: "1 point", 2: "2 points"},
    ),
    "game_tie": (
        "Tied Game",
        "When both teams count the same for Game (R18).",
        {"none": "nobody scores", "non_dealer": "the non-dealer's team scores"},
    ),
    "give_one_can_win": (
        "Give one can win",
        "The dealer may give one even when that point wins the game (R11).",
        {False: "no", True: "yes"},
    ),
    "give_one_needs_trump": (
        "Give one needs trump",
        "The dealer may give one only while holding a card of the kick's suit (R10).",
        {False: "no", True: "yes"},
    ),
    "undertrump": (
        "Undertrumping",
        "After a plain lead was trumped, may a lower trump be played? (R14)",
        {"allowed": "allowed", "forbidden": "forbidden unless you hold only trumps"},
    ),
    "kick_two": (
        "Kick two (Tobago)",
        "A turned-up 2 scores 2 for the dealer, instead of the 6 (R7).",
        {False: "no", True: "yes"},
    ),
    "flip_last_card": (
        "Flip the last card",
        "When the pack runs out, turn the last card before a redeal (R12).",
        {False: "no", True: "yes"},
    ),
}


def _form_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _values(name: str) -> tuple[Any, ...]:
    annotation = Rules.model_fields[name].annotation
    if annotation is bool:
        return (False, True)
    return typing.get_args(annotation)


def options() -> tuple[Option, ...]:
    out = []
    for name, field in Rules.model_fields.items():
        label, explanation, value_labels = _WORDS[name]
        out.append(
            Option(
                name=name,
                label=label,
                explanation=explanation,
                choices=tuple(
                    Choice(_form_value(v), value_labels[v], v == field.default)
                    for v in _values(name)
                ),
                is_flag=field.annotation is bool,
            )
        )
    return tuple(out)


@dataclass(frozen=True, slots=True)
class InForce:
    label: str
    value: str
    explanation: str
    changed: bool  # differs from the rules as written


def in_force(rules: Mapping[str, Any]) -> tuple[InForce, ...]:
    """The rules of a room, every option with its value, house changes marked."""
    out = []
    for name, field in Rules.model_fields.items():
        label, explanation, value_labels = _WORDS[name]
        value = rules.get(name, field.default)
        out.append(
            InForce(
                label=label,
                value=value_labels.get(value, _form_value(value)),
                explanation=explanation,
                changed=value != field.default,
            )
        )
    return tuple(out)


def rules_from_form(form: Mapping[str, str]) -> dict[str, Any]:
    """The options a create-table form chose, typed for ``Rules`` (validation is Rules' job).

    A checkbox that is absent from the form is ``False``; other absent options keep their
    default.
    """
    chosen: dict[str, Any] = {}
    for option in options():
        raw = form.get(option.name)
        if option.is_flag:
            chosen[option.name] = raw in ("true", "on", "1")
            continue
        if raw is None:
            continue
        for value in _values(option.name):
            if _form_value(value) == raw:
                chosen[option.name] = value
                break
        else:
            chosen[option.name] = raw  # let Rules reject it with a clear message
    return chosen
