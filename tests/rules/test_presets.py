"""RULES.md "Presets": named sets of house rules; any other combination is "custom"."""

from __future__ import annotations

import pytest

from app.rules import DEFAULT_PRESET, DEFAULT_RULES, PRESETS, Rules, preset_of, preset_rules
from app.rules.config import UnknownPreset


def test_the_presets_are_those_of_the_rule_book() -> None:
    assert list(PRESETS) == ["trinidad", "tournament", "tobago", "quick"]
    assert DEFAULT_PRESET == "trinidad" and PRESETS["trinidad"] == DEFAULT_RULES
    assert PRESETS["tournament"] == Rules(
        game_points=2, undertrump="forbidden", give_one_needs_trump=True, renege="bullseye"
    )
    assert PRESETS["tobago"] == Rules(kick_two=True)
    assert PRESETS["quick"] == Rules(target=7)


def test_each_preset_is_named_by_its_rules_and_anything_else_is_custom() -> None:
    for name, rules in PRESETS.items():
        assert preset_of(rules) == name
        assert preset_of(rules.model_dump()) == name  # the rules as a view carries them
    assert preset_of(Rules(target=21)) == "custom"
    assert preset_of(Rules(kick_two=True, target=7)) == "custom"


def test_explicit_options_override_the_preset() -> None:
    assert preset_rules(None) == DEFAULT_RULES
    assert preset_rules("quick", {"target": 21}) == Rules(target=21)
    mixed = preset_rules("tournament", {"undertrump": "allowed"})
    assert mixed == Rules(game_points=2, give_one_needs_trump=True, renege="bullseye")
    assert preset_of(mixed) == "custom"


def test_an_unknown_preset_is_refused() -> None:
    with pytest.raises(UnknownPreset, match="known: trinidad, tournament, tobago, quick"):
        preset_rules("bullseye")
