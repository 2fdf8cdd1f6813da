"""Playing an imagined deal out to its end on the engine, and what the outcome is worth.

The deal is an ``Imagined`` table (app.rules.imagined): a play-out runs the rules' own steps, so
legal cards (R14), lifts (R15) and the deal's scoring (R16-R19) are the engine's; the bot
only chooses the cards.
"""

from __future__ import annotations

from collections.abc import Callable

from app.bots.budget import Clock
from app.rules.cards import Card, Hand
from app.rules.imagined import Imagined
from app.rules.tricks import Plays, legal_cards

WIN = 20.0  # the worth of ending the game, against points that only add to the score

# (seat, hand, legal, trick, trump, out) -> card; ``out`` = cards no one holds any more.
Policy = Callable[[int, Hand, Hand, Plays, int, Hand], Card]


def play_out(
    deal: Imagined, out: Hand, policy: Policy, first: Card = -1, clock: Clock | None = None
) -> bool:
    """Play ``deal`` to its end, in place: the seat to play plays ``first`` (when given),
    then every card is the ``policy``'s (a forced card is played without asking).

    False if ``clock``'s hard cap struck first (the deal is left unfinished): it is read at
    every lift, so no decision overruns its cap by more than a few cards' work."""
    trump = deal.trump
    assert trump is not None
    forbid = deal.rules.undertrump == "forbidden"
    play = deal.play
    if first >= 0:
        play(first)
        out |= 1 << first
    while (seat := deal.turn) is not None:
        hand, trick = deal.hands[seat], deal.trick
        if not trick and clock is not None and clock.capped():
            return False
        legal = legal_cards(hand, trick, trump, forbid)
        if legal & (legal - 1):
            card = policy(seat, hand, legal, trick, trump, out)
        else:
            card = legal.bit_length() - 1  # a forced card: no need to ask
        out |= 1 << card
        play(card)
    return True


def worth(deal: Imagined, scores: tuple[int, int], team: int) -> float:
    """What the deal has been worth to ``team`` since the scores were ``scores``: the point
    difference, or +-WIN if a team reached the target (R19: the game ended there)."""
    if deal.winner is not None:
        return WIN if deal.winner == team else -WIN
    now = deal.scores
    return float((now[team] - scores[team]) - (now[1 - team] - scores[1 - team]))
