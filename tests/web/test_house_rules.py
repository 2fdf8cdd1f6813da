"""The create-table form offers every house rule of RULES.md, with its default and a line."""

from __future__ import annotations

from app.rules.config import Rules
from app.web.house_rules import in_force, options, rules_from_form
from app.web.render import render_home
from tests.web.dom import parse


def test_every_rule_option_is_offered_with_its_default() -> None:
    offered = {o.name: o for o in options()}
    assert set(offered) == set(Rules.model_fields)
    for name, field in Rules.model_fields.items():
        option = offered[name]
        assert option.explanation and option.label
        assert sum(c.default for c in option.choices) == 1
        if option.is_flag:
            assert option.default.value == ("true" if field.default else "false")
        else:
            assert option.default.value == str(field.default)


def test_the_default_form_gives_the_rules_as_written() -> None:
    form = {o.name: o.default.value for o in options() if not o.is_flag}
    assert Rules(**rules_from_form(form)) == Rules()


def test_every_choice_is_a_valid_rule() -> None:
    for option in options():
        for choice in option.choices:
            form = {option.name: choice.value}
            rules = Rules(**rules_from_form(form))  # raises if the form could send a bad value
            # and the choice really is the value it offers (a flag would quietly read "off")
            assert str(getattr(rules, option.name)).lower() == choice.value


def test_a_house_game_round_trips() -> None:
    form = {"target": "7", "game_points": "2", "kick_two": "true", "undertrump": "forbidden"}
    rules = Rules(**rules_from_form(form))
    assert rules.target == 7 and rules.game_points == 2 and rules.kick_two
    assert rules.undertrump == "forbidden" and not rules.flip_last_card
    changed = [r.label for r in in_force(rules.model_dump()) if r.changed]
    assert changed == ["Play to", "Game is worth", "Undertrumping", "Kick two (Tobago)"]


def test_home_page_has_a_field_per_option_and_a_join_by_code() -> None:
    elements = parse(render_home())
    names = {e.get("name") for e in elements if e.tag in ("input", "select")}
    assert set(Rules.model_fields) | {"code"} <= names
    forms = {e.get("action"): e.get("method") for e in elements if e.tag == "form"}
    # and "Keep my games", a profile in one step, for a browser signed in to none; and
    # "Play now" (issue #36)
    assert forms == {"/rooms": "post", "/join": "get", "/me/new": "post", "/play": "post"}
