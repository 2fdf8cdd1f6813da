"""The strong player's own parts: worlds drawn to fit the bidding, and the race of cards."""

from __future__ import annotations

import random

from app.bots import strong
from app.bots.knowledge import knowledge_of
from app.rules import observe
from app.rules.cards import Hand
from tests.rules.stack import do, game, mask, stack

HANDS = {
    1: "2H 3H 7D 8D 4C 7S",
    2: "AS KS QS 8C 9D 2D",
    3: "6S 4H 5H 6C 5D 6H",
    0: "JS 5S 9C TD QD 7H",
}


def dealt_with(beggar: str, dealer: str) -> list[Hand]:
    hands = [mask(HANDS[s]) for s in range(4)]
    hands[1], hands[0] = mask(beggar), mask(dealer)
    return hands


def test_after_a_stand_the_worlds_give_the_beggar_a_holding_in_trumps() -> None:
    state = do(game(0, stack(0, HANDS, "4S")), "stand")
    told = strong.bidding_told(observe(state, 2))
    assert told is not None
    assert told(dealt_with("AS 3H 7D 8D 4C 5C", "JS 5S 9C TD QD 7H"))
    assert not told(dealt_with("2H 3H 7D 8D 4C 5C", "JS 5S 9C TD QD 7H"))


def test_after_a_give_the_beggar_was_short_and_the_dealer_held_trumps() -> None:
    state = do(game(0, stack(0, HANDS, "4S")), "beg give_one")
    told = strong.bidding_told(observe(state, 3))
    assert told is not None
    assert told(dealt_with("2H 3H 7D 8D 4C 5C", "AS KS 9C TD QD 7H"))
    assert not told(dealt_with("2H 3H 7D 8D 4C 5C", "7S 9C TD QD 7H 8H"))
    assert not told(dealt_with("AS KS 7D 8D 4C 5C", "JS QS 9C TD QD 7H"))


def test_after_a_run_of_the_pack_nothing_is_told() -> None:
    state = do(game(0, stack(0, HANDS, "4S 5C")), "beg run_pack")
    assert strong.bidding_told(observe(state, 2)) is None


def test_the_worlds_drawn_after_a_stand_fit_it() -> None:
    state = do(game(0, stack(0, HANDS, "4S")), "stand")
    obs = observe(state, 2)
    told = strong.bidding_told(obs)
    assert told is not None
    know = knowledge_of(obs)
    rng = random.Random(3)
    assert all(told(know.dealt(know.sample(rng, told))) for _ in range(50))
