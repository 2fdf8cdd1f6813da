"""Bots choose only legal actions, under every house-rule option, over thousands of deals."""

from __future__ import annotations

import random

import pytest

from app.bots import BotLevel, Budget, choose
from app.rules import Rules, apply, legal_actions, new_game, observe
from app.rules.state import Phase, State

# Every option away from its default, one at a time, and all of them at once.
VARIANTS = [
    Rules(),
    Rules(target=7),
    Rules(target=21),
    Rules(game_points=2),
    Rules(game_tie="non_dealer"),
    Rules(give_one_can_win=True),
    Rules(give_one_needs_trump=True),
    Rules(undertrump="forbidden"),
    Rules(kick_two=True),
    Rules(flip_last_card=True),
    Rules(
        target=10,
        game_points=2,
        game_tie="non_dealer",
        give_one_can_win=True,
        give_one_needs_trump=True,
        undertrump="forbidden",
        kick_two=True,
        flip_last_card=True,
    ),
]

# Reproducible and small: the search looks at two worlds per decision, with no clock.
TINY = Budget(ms=None, cap_ms=None, max_worlds=2)


def play_games(rules: Rules, levels: tuple[str, str, str, str], deals: int, seed: int) -> int:
    """Play games until ``deals`` deals were dealt; every bot action must be legal."""
    rng = random.Random(seed)
    dealt = 0
    game = 0
    while dealt < deals:
        state = new_game(rules, seed * 1000 + game)
        game += 1
        while state.phase is not Phase.GAME_OVER and dealt < deals:
            seat = state.turn
            assert seat is not None
            level = levels[seat]
            obs = observe(state, seat)
            if level == "random":
                action = rng.choice(obs.legal)
            else:
                action = choose(obs, level, rng=rng, budget=TINY)  # type: ignore[arg-type]
            assert action in legal_actions(state), (rules, level, action)
            before = state.hand_number
            state = apply(state, action)
            dealt += state.hand_number - before
    return dealt


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: repr(r)[6:-1] or "default")
def test_easy_bots_play_only_legal_actions(rules: Rules) -> None:
    assert play_games(rules, ("easy", "random", "easy", "easy"), 300, 1) == 300


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: repr(r)[6:-1] or "default")
def test_standard_bots_play_only_legal_actions(rules: Rules) -> None:
    assert play_games(rules, ("standard", "easy", "standard", "random"), 25, 2) == 25


def _play_legally(
    state: State, level: BotLevel, rng: random.Random, budget: Budget, *, moves: int
) -> None:
    """``level`` at every seat for up to ``moves`` actions: each one legal."""
    for _ in range(moves):
        if state.phase is Phase.GAME_OVER:
            return
        assert state.turn is not None
        action = choose(observe(state, state.turn), level, rng=rng, budget=budget)
        assert action in legal_actions(state)
        state = apply(state, action)


def test_the_search_bidding_plays_only_legal_actions() -> None:
    budget = Budget(ms=None, cap_ms=None, max_worlds=2, bidding="search")
    rng = random.Random(3)
    for variant in (
        Rules(),
        Rules(undertrump="forbidden", target=7, give_one_needs_trump=True),
        Rules(flip_last_card=True, give_one_can_win=True, kick_two=True),
    ):
        _play_legally(new_game(variant, 11), "standard", rng, budget, moves=400)


@pytest.mark.parametrize("level", ["standard", "strong"])
def test_each_level_with_its_own_capped_budget_chooses_legal_actions(level: str) -> None:
    from app.bots import DEFAULT_LEVEL, LEVELS

    assert DEFAULT_LEVEL == "standard" and LEVELS == ("easy", "standard", "strong")
    state = new_game(Rules(), 4)
    for _ in range(10):
        assert state.turn is not None
        obs = observe(state, state.turn)
        action = choose(obs, level, rng=random.Random(0))  # type: ignore[arg-type]
        assert action in legal_actions(state)
        state = apply(state, action)


def test_strong_bots_play_only_legal_actions() -> None:
    budget = Budget(ms=None, cap_ms=None, max_worlds=2, bidding="search")
    rng = random.Random(5)
    for variant in VARIANTS[:3]:
        _play_legally(new_game(variant, 12), "strong", rng, budget, moves=120)
