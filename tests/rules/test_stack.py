"""The deck-stacking helper deals exactly what it is told (the other tests rest on it)."""

from __future__ import annotations

import random

import pytest

from app.rules import DEFAULT_RULES, new_game
from app.rules.cards import codes, mask_codes
from tests.rules.stack import do, game, mask, stack


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_stack_deals_hands_kicks_and_runs_where_asked(dealer: int) -> None:
    hands = {(dealer + 1) % 4: "AS KS QS JS TS 9S", dealer: "2C 3C 4C"}
    runs = [{(dealer + 2) % 4: "AH KH QH"}, {(dealer + 3) % 4: "2H 3H"}]
    deck = stack(dealer, hands, "5D 6D 7S", runs)
    assert sorted(deck) == list(range(52))
    g = game(dealer, deck)
    assert g.hands[(dealer + 1) % 4] == mask("AS KS QS JS TS 9S")
    assert g.hands[dealer] & mask("2C 3C 4C") == mask("2C 3C 4C")
    g = do(g, "beg run_pack")
    assert codes(g.kicks) == ["5D", "6D", "7S"]
    assert g.hands[(dealer + 2) % 4] & mask("AH KH QH") == mask("AH KH QH")
    assert g.hands[(dealer + 3) % 4] & mask("2H 3H") == mask("2H 3H")
    assert [len(mask_codes(h)) for h in g.hands] == [12, 12, 12, 12]


def test_stack_refuses_a_card_named_twice_or_too_many() -> None:
    with pytest.raises(ValueError):
        stack(0, {1: "AS KS"}, "AS")
    with pytest.raises(ValueError):
        stack(0, {1: "AS KS QS JS TS 9S 8S"}, "2C")
    with pytest.raises(ValueError):
        stack(0, {}, "2C", [{1: "AS"}])  # a run needs the kick it turns


def test_the_shuffle_comes_from_the_games_seed_not_the_global_rng() -> None:
    random.seed(1)
    a = new_game(DEFAULT_RULES, 12345)
    random.seed(2)
    random.random()
    b = new_game(DEFAULT_RULES, 12345)
    assert a == b
    assert new_game(DEFAULT_RULES, 12346).hands != a.hands
