"""The bots' fast play-out agrees with the engine: legal cards, trick winners, scoring."""

from __future__ import annotations

import random

from app.bots import easy
from app.bots.sim import deal_awards, legal_mask, play_out, winner_of
from app.rules import Rules, apply, new_game
from app.rules.state import STAND, Phase, play
from app.rules.tricks import legal_cards, trick_winner


def test_legal_cards_and_trick_winners_agree_with_the_engine() -> None:
    rng = random.Random(1)
    for _ in range(20000):
        cards = rng.sample(range(52), 10)
        hand = sum(1 << c for c in cards[:6])
        trick = [(s, c) for s, c in zip(range(4), cards[6 : 6 + rng.randrange(4)], strict=False)]
        trump = rng.randrange(4)
        for forbid in (False, True):
            assert legal_mask(hand, trick, trump, forbid) == legal_cards(
                hand, tuple(trick), trump, forbid
            )
        if trick:
            assert winner_of(trick, trump)[0] == trick_winner(tuple(trick), trump)


def test_a_played_out_deal_scores_as_the_engine_scores_it() -> None:
    """Play deals in the engine with the easy player's cards, and the same deal with
    ``play_out``: the same lifts and the same awards."""
    for variant in (Rules(), Rules(undertrump="forbidden", game_tie="non_dealer")):
        for seed in range(60):
            state = apply(new_game(variant, seed), STAND)
            assert state.trump is not None
            trump, dealer = state.trump, state.dealer
            hands, dealt = list(state.hands), list(state.dealt)
            won = [0, 0]
            kicks = sum(1 << k for k in state.kicks)
            forbid = variant.undertrump == "forbidden"
            play_out(hands, [], state.turn or 0, won, trump, forbid, kicks, easy.play_card)
            awards = deal_awards(dealt, won, trump, dealer, variant)
            out = kicks
            while state.phase is Phase.PLAY and state.hand_number == 1:
                seat = state.turn
                assert seat is not None
                legal = legal_cards(state.hands[seat], state.trick, trump, forbid)
                card = easy.play_card(seat, state.hands[seat], legal, list(state.trick), trump, out)
                out |= 1 << card
                state = apply(state, play(card))
            record = state.history[-1]
            assert [(a.team, a.points) for a in record.awards if a.kind != "kick"] == awards
