"""The catalogue of partner faults (catalogue.py), asked of each level.

The searching levels are asked over several seeds of their own search, each with its level's
count of worlds and no clock, so the figures do not depend on the machine's load. The bars are
the issue's: ``standard`` right in at least 95% of its decisions, ``easy`` in 90%.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

import pytest

from app.bots import BUDGETS, BotLevel, choose
from app.bots.renege import call_due
from app.rules import apply, observe
from app.rules.state import call
from tests.bots.catalogue import CATALOGUE, RENEGE_CATALOGUE, CallSituation, Situation

# Seeds of each level's own search (easy has none); strong thinks longest, so fewer of them.
SEEDS: dict[BotLevel, range] = {"easy": range(1), "standard": range(4), "strong": range(1)}
BARS: dict[BotLevel, float] = {"easy": 0.90, "standard": 0.95, "strong": 0.95}


@cache
def decisions(level: BotLevel) -> dict[str, list[bool]]:
    """For each situation, whether each of the level's decisions was right."""
    budget = replace(BUDGETS[level], cap_ms=None) if level in BUDGETS else None
    out = {}
    for s in CATALOGUE:
        obs = s.observation()
        out[s.name] = [
            s.is_right(choose(obs, level, rng=random.Random(f"{s.name}:{seed}"), budget=budget))
            for seed in SEEDS[level]
        ]
    return out


def test_the_catalogue_has_thirty_named_situations() -> None:
    names = [s.name for s in CATALOGUE]
    assert len(names) >= 30
    assert len(set(names)) == len(names)
    assert all(s.groan and (s.right or s.fault) for s in CATALOGUE)


@pytest.mark.parametrize("situation", CATALOGUE, ids=lambda s: s.name)
def test_each_situation_is_a_decision_with_a_choice(situation: Situation) -> None:
    obs = situation.observation()
    assert any(situation.is_right(a) for a in obs.legal)
    assert not all(situation.is_right(a) for a in obs.legal)


@pytest.mark.parametrize("level", list(BARS))
def test_each_level_is_right_often_enough(level: BotLevel) -> None:
    results = decisions(level)
    right = sum(sum(r) for r in results.values())
    total = sum(len(r) for r in results.values())
    wrong = {name: r.count(False) for name, r in results.items() if not all(r)}
    print(f"{level}: {right}/{total} right; wrong in {wrong}")
    assert right / total >= BARS[level], wrong


@pytest.mark.parametrize("s", RENEGE_CATALOGUE, ids=lambda s: s.name)
def test_r26_a_bot_calls_a_proven_renege_and_nothing_else(s: CallSituation) -> None:
    state = s.state()
    if s.name == "no_second_call_on_a_lift_already_called":
        state = apply(state, call(1, 1))
    assert call_due(observe(state, s.seat)) == s.due, s.groan
    if s.due is not None:  # and the call it makes is upheld
        assert apply(state, call(s.seat, s.due)).calls[-1].upheld
