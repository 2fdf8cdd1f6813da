"""The house-rule options as the interface names and explains them (RULES.md "House rules").

Values and defaults come from the ``Rules`` model itself, so a new option cannot be
forgotten here without a test noticing (tests/web/test_house_rules.py).
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.i18n import N_, _
from app.rules.config import DEFAULT_PRESET, PRESETS, Rules, preset_rules


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


# name -> (label, one-line explanation, labels of the values). Player-facing words: no rule
# ids (RULES.md's ids are for the code and its tests).
_WORDS: dict[str, tuple[str, str, dict[Any, str]]] = {
    "target": (
        N_("Play to"),
        N_("The first team to reach this many points wins."),
        {7: N_("7 points"), 10: N_("10 points"), 14: N_("14 points"), 21: N_("21 points")},
    ),
    "game_points": (
        N_("Game is worth"),
        N_("Points for the team whose lifts count more in aces, court cards and tens."),
        {1: N_("1 point"), 2: N_("2 points")},
    ),
    "game_tie": (
        N_("Tied Game"),
        N_("When both teams count the same for Game."),
        {"none": N_("nobody scores"), "non_dealer": N_("the non-dealer's team scores")},
    ),
    "give_one_can_win": (
        N_("Give one can win"),
        N_("The dealer may give one even when that point wins the game."),
        {False: N_("no"), True: N_("yes")},
    ),
    "give_one_needs_trump": (
        N_("Give one needs trump"),
        N_("The dealer may give one only while holding a card of the kick's suit."),
        {False: N_("no"), True: N_("yes")},
    ),
    "undertrump": (
        N_("Undertrumping"),
        N_("After a plain lead was trumped, may a lower trump be played?"),
        {"allowed": N_("allowed"), "forbidden": N_("forbidden unless you hold only trumps")},
    ),
    "kick_two": (
        N_("Kick two (Tobago)"),
        N_("A turned-up 2 scores 2 for the dealer, instead of the 6."),
        {False: N_("no"), True: N_("yes")},
    ),
    "flip_last_card": (
        N_("Flip the last card"),
        N_("When the pack runs out, turn the last card before a redeal."),
        {False: N_("no"), True: N_("yes")},
    ),
    "renege": (
        N_("Renege"),
        N_("May a player play a card the rules forbid, for the other side to catch?"),
        {
            "off": N_("no: such a card is refused"),
            "trinidad": N_("yes: a trump renege holding an honour is bullseye, else 1 point"),
            "one": N_("yes: caught, it costs 1 point and Game"),
            "bullseye": N_("yes: caught, it loses the game (bullseye)"),
        },
    ),
    "false_call": (
        N_("A wrong call of renege"),
        N_("What calling renege where there was none costs the callers."),
        {"penalty": N_("as much as a renege"), "free": N_("nothing")},
    ),
}

# name -> the option told in full for a newcomer (the how-to-play page), default first.
GUIDE: dict[str, str] = {
    "target": (
        N_(
            "The game is played to 14 points. A table may play a shorter game to 7 or 10, "
            "or a longer one to 21."
        )
    ),
    "game_points": (
        N_(
            "Game is normally worth 1 point. In tournaments it is worth 2: the team with "
            "the higher count for Game scores as much as for High and Low together."
        )
    ),
    "game_tie": (
        N_(
            "When both teams count exactly the same for Game, nobody scores it. Some tables "
            "give the point to the team that did not deal instead."
        )
    ),
    "give_one_can_win": (
        N_(
            "Normally the dealer may not give one when that point would win the game for the "
            "beggar's team: he has to run the pack. With this house rule he may give it anyway, "
            "and the beggar's team wins."
        )
    ),
    "give_one_needs_trump": (
        N_(
            "Normally the dealer may always give one. With this house rule (played in "
            "tournaments) he may give one only while he holds a card of the kick's suit; "
            "otherwise he must run the pack."
        )
    ),
    "undertrump": (
        N_(
            "Normally you may trump with any trump. With undertrumping forbidden, once a plain "
            "suit lead has been trumped, you may not play a lower trump than the one already "
            "in the lift, unless trumps are all you hold."
        )
    ),
    "kick_two": (
        N_(
            "Played in Tobago: a 2 turned up as the kick scores 2 points for the dealer's team, "
            "and a turned-up 6 scores nothing."
        )
    ),
    "flip_last_card": (
        N_(
            "Normally, when the pack is too small to deal three more cards each and no new "
            "suit has shown, the cards are shuffled and dealt again. With this house rule the "
            "dealer first turns the last card or cards one at a time (each scores its kick "
            "points), and only deals again if none of them shows a new suit."
        )
    ),
    "renege": (
        N_(
            "Normally the table refuses a card the rules forbid. In renege mode you may play "
            "any card, as at a real table: playing a forbidden one is a renege, and nobody is "
            "told. The other side may call renege on any lift of the hand until it is scored; "
            "a renege caught costs 1 point to the other side and your Game for the hand, or "
            "the whole game (bullseye), as the table plays it."
        )
    ),
    "false_call": (
        N_(
            "Calling renege where there was none costs your side as much as a renege would. "
            "Some tables let a wrong call go free."
        )
    ),
}


@dataclass(frozen=True, slots=True)
class Preset:
    name: str  # RULES.md's name, as the form and the API send it
    title: str
    who: str  # who plays it
    changes: tuple[str, ...]  # the options it sets, in words ("Game is worth: 2 points")
    form: dict[str, str]  # every option's form value under this preset
    default: bool


# name -> (title, who plays it), in RULES.md's order.
_PRESET_WORDS: dict[str, tuple[str, str]] = {
    "trinidad": (N_("Trinidad"), N_("The rules as written: home and club games, to 14.")),
    "tournament": (
        N_("Tournament"),
        N_("T&T tournament rules: Game is 2, no undertrumping, no give one without trump."),
    ),
    "tobago": (N_("Tobago"), N_("Tobago's kick: a turned-up 2 scores 2, not the 6.")),
    "quick": (N_("Quick game"), N_("A short game to 7 points.")),
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
                label=_(label),
                explanation=_(explanation),
                choices=tuple(
                    Choice(_form_value(v), _(value_labels[v]), v == field.default)
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
                label=_(label),
                value=_(value_labels[value]) if value in value_labels else _form_value(value),
                explanation=_(explanation),
                changed=value != field.default,
            )
        )
    return tuple(out)


def presets() -> tuple[Preset, ...]:
    """The presets of RULES.md, each with what it changes from the rules as written."""
    out = []
    for name, rules in PRESETS.items():
        title, who = _PRESET_WORDS[name]
        chosen = rules.model_dump()
        changes = tuple(
            _("%(option)s: %(value)s") % {"option": r.label, "value": r.value}
            for r in in_force(chosen)
            if r.changed
        )
        form = {n: _form_value(v) for n, v in chosen.items()}
        out.append(Preset(name, _(title), _(who), changes, form, name == DEFAULT_PRESET))
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


def chosen_rules(form: Mapping[str, str]) -> Rules:
    """The rules a create-table form chose: its preset, with the house rules changed from
    the rules as written on top (the page's script keeps the fields on the preset's values,
    and sends no preset once they match none); without a preset, the house rules alone.

    Raises ``UnknownPreset`` or pydantic's ``ValidationError`` for a form the page never sends.
    """
    chosen = rules_from_form(form)
    preset = form.get("preset") or None
    if preset is None:
        return Rules(**chosen)
    changed = {k: v for k, v in chosen.items() if v != Rules.model_fields[k].default}
    return preset_rules(preset, changed)
