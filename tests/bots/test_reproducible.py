"""Reproducible bots: the same game, seed and budget give the same decisions; the hard cap
on the wall clock is read inside play-outs, and a search it cuts short still plays."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.bots import BUDGETS, BotLevel, Budget, choose, easy, rng_for
from app.bots.budget import Clock
from app.bots.knowledge import knowledge_of
from app.bots.playout import play_out
from app.rules import Rules, apply, new_game, observe
from app.rules.imagined import imagined
from app.rules.state import Action, Phase
from app.rules.view import Observation

# Small, so the test is quick; counted in worlds, with no cap, as in the arena.
SMALL: dict[BotLevel, Budget] = {
    level: replace(BUDGETS[level], cap_ms=None, max_worlds=6, max_cards=None)
    for level in ("standard", "strong")
}


def decisions(seed: int, levels: tuple[BotLevel, ...], moves: int) -> list[Action]:
    """The first ``moves`` actions of a game dealt from ``seed``, each bot seeded from the
    game's seed and the version its decision is for (the number of actions before it)."""
    state = new_game(Rules(), seed)
    actions: list[Action] = []
    while state.phase is not Phase.GAME_OVER and len(actions) < moves:
        assert state.turn is not None
        level = levels[state.turn]
        obs = observe(state, state.turn)
        budget = SMALL.get(level)
        action = choose(obs, level, rng=rng_for(seed, len(actions)), budget=budget)
        actions.append(action)
        state = apply(state, action)
    return actions


def test_the_same_game_seed_and_budget_give_the_same_decisions() -> None:
    levels: tuple[BotLevel, ...] = ("strong", "standard", "easy", "standard")
    first = decisions(42, levels, 60)
    assert len(first) == 60
    assert decisions(42, levels, 60) == first


def test_the_bots_generator_depends_on_the_games_seed_and_version() -> None:
    draws = {(s, v): rng_for(s, v).random() for s in (1, 2) for v in (7, 8)}
    assert len(set(draws.values())) == 4
    assert rng_for(1, 7).random() == draws[1, 7]


def _mid_deal_observation() -> Observation:
    """The first card decision of a seeded game with a choice in it."""
    state = new_game(Rules(), 5)
    while True:
        assert state.turn is not None
        obs = observe(state, state.turn)
        if state.phase is Phase.PLAY and len(obs.legal) > 1:
            return obs
        state = apply(state, choose(obs, "easy"))


def test_a_play_out_stops_at_the_cap_and_says_so() -> None:
    obs = _mid_deal_observation()
    know = knowledge_of(obs)
    hands = know.sample(rng_for(0, 0))
    deal = imagined(obs).deal(hands, know.dealt(hands))
    struck = Clock(Budget(ms=None, cap_ms=0.0))
    assert not play_out(deal.clone(), know.out, easy.play_card, -1, struck)
    finished = deal.clone()
    assert play_out(finished, know.out, easy.play_card, -1, Clock(Budget(ms=None, cap_ms=None)))
    assert finished.turn is None


@pytest.mark.parametrize("level", ["standard", "strong"])
def test_a_search_cut_short_by_the_cap_plays_the_easy_card(level: BotLevel) -> None:
    obs = _mid_deal_observation()
    capped = replace(BUDGETS[level], cap_ms=0.0, max_worlds=10_000, max_cards=None)
    assert choose(obs, level, rng=rng_for(0, 0), budget=capped) == easy.choose(obs)


def test_a_bid_cut_short_by_the_cap_is_the_easy_bid() -> None:
    state = new_game(Rules(), 9)
    assert state.phase is Phase.BEG and state.turn is not None
    obs = observe(state, state.turn)
    capped = replace(BUDGETS["strong"], cap_ms=0.0, max_worlds=10_000, max_cards=None)
    assert choose(obs, "strong", rng=rng_for(0, 0), budget=capped) == easy.choose(obs)
