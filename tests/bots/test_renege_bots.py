"""R26: computer players never renege, at every level, with every card of the hand legal."""

from __future__ import annotations

import random

import pytest

from app.bots import Budget, choose
from app.rules import Rules, apply, new_game, observe
from app.rules.state import Phase, reckoned

TINY = Budget(ms=None, cap_ms=None, max_worlds=2)


@pytest.mark.parametrize(("level", "moves"), [("easy", 3000), ("standard", 400), ("strong", 120)])
@pytest.mark.parametrize("renege", ["trinidad", "one", "bullseye"])
def test_bots_never_renege(level: str, moves: int, renege: str) -> None:
    rules = Rules(renege=renege, undertrump="forbidden")
    rng = random.Random(7)
    state = new_game(rules, 21)
    for _ in range(moves):
        if state.phase is Phase.GAME_OVER:
            state = new_game(rules, rng.randrange(2**32))
        if state.phase is Phase.RECKONING:
            for seat in range(4):
                state = apply(state, reckoned(seat))
            continue
        assert state.turn is not None
        obs = observe(state, state.turn)
        action = choose(obs, level, rng=rng, budget=TINY)  # type: ignore[arg-type]
        assert action.card is None or not obs.renege_cards >> action.card & 1
        state = apply(state, action)
        assert state.reneges == () and all(r.reneges == () for r in state.history)
