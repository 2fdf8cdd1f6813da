"""Fast play-outs of the rest of a deal in one sampled world, and what the deal is worth.

This mirrors the engine's trick play (R14, R15) and scoring (R16-R18) on bare masks so a
bot can play thousands of cards per decision; tests check it against the engine.
"""

from __future__ import annotations

from collections.abc import Callable

from app.rules.cards import ACE, JACK, KING, QUEEN, SUIT_MASK, TEN, Card, Hand
from app.rules.config import Rules
from app.rules.scoring import game_total, seat_holding


def rank_mask(rank: int) -> Hand:
    return sum(1 << (s * 13 + rank) for s in range(4))


TENS, ACES, KINGS, QUEENS, JACKS = (rank_mask(r) for r in (TEN, ACE, KING, QUEEN, JACK))
VALUE = tuple({TEN: 10, ACE: 4, KING: 3, QUEEN: 2, JACK: 1}.get(c % 13, 0) for c in range(52))

WIN = 20.0  # the worth of ending the game, against points that only add to the score

Trick = list[tuple[int, Card]]
# (seat, hand, legal, trick, trump, out) -> card; ``out`` = cards no one holds any more.
Policy = Callable[[int, Hand, Hand, Trick, int, Hand], Card]


def legal_mask(hand: Hand, trick: Trick, trump: int, forbid_under: bool) -> Hand:
    """R14 and the undertrump option, as ``app.rules.tricks.legal_cards``."""
    if not trick:
        return hand
    led = trick[0][1] // 13
    trumps = hand & SUIT_MASK[trump]
    if led == trump:
        return trumps or hand
    follow = hand & SUIT_MASK[led]
    legal = (follow | trumps) if follow else hand
    if forbid_under and trumps != hand:
        top = -1
        for _, c in trick:
            if c // 13 == trump and c > top:
                top = c
        if top >= 0:
            legal &= ~(trumps & ((1 << top) - 1))
    return legal


def winner_of(trick: Trick, trump: int) -> tuple[int, Card]:
    """R15: the seat winning the trick so far, and its card."""
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if card // 13 == best // 13:
            if card > best:
                best_seat, best = seat, card
        elif card // 13 == trump:
            best_seat, best = seat, card
    return best_seat, best


def play_out(
    hands: list[Hand],
    trick: Trick,
    turn: int,
    won: list[Hand],
    trump: int,
    forbid_under: bool,
    out: Hand,
    policy: Policy,
    first: Card = -1,
) -> None:
    """Play the deal to its end from here, every seat by ``policy`` after the seat to play
    plays ``first`` (when given); fills ``won``."""
    while hands[turn]:
        hand = hands[turn]
        if first >= 0:
            card, first = first, -1
        else:
            legal = legal_mask(hand, trick, trump, forbid_under)
            if legal & (legal - 1):
                card = policy(turn, hand, legal, trick, trump, out)
            else:
                card = legal.bit_length() - 1
        hands[turn] = hand & ~(1 << card)
        out |= 1 << card
        trick.append((turn, card))
        if len(trick) == 4:
            turn = winner_of(trick, trump)[0]
            lifted = 0
            for _, c in trick:
                lifted |= 1 << c
            won[turn & 1] |= lifted
            trick = []
        else:
            turn = (turn + 1) & 3


def deal_awards(
    dealt: list[Hand], won: list[Hand], trump: int, dealer: int, rules: Rules
) -> list[tuple[int, int]]:
    """(team, points) of High, Low, Jack or hang jack, Game, in the order of R16-R18."""
    tm = SUIT_MASK[trump]
    in_play = (dealt[0] | dealt[1] | dealt[2] | dealt[3]) & tm
    if not in_play:
        awards = []
    else:
        high = in_play.bit_length() - 1
        low = (in_play & -in_play).bit_length() - 1
        awards = [(seat_holding(high, dealt) & 1, 1), (seat_holding(low, dealt) & 1, 1)]
        jack = trump * 13 + JACK
        if in_play >> jack & 1:
            capturers = 0 if won[0] >> jack & 1 else 1
            if capturers == seat_holding(jack, dealt) & 1:
                awards.append((capturers, 1))
            else:
                awards.append((capturers, 3))
    g0, g1 = game_total(won[0]), game_total(won[1])
    if g0 != g1:
        awards.append((0 if g0 > g1 else 1, rules.game_points))
    elif rules.game_tie == "non_dealer":
        awards.append(((dealer + 1) & 1, rules.game_points))
    return awards


def utility(
    awards: list[tuple[int, int]], scores: tuple[int, int], target: int, team: int
) -> float:
    """What the awards are worth to ``team``: the point difference, or +-WIN the moment a team
    reaches the target (R19: later awards are not given)."""
    s = [scores[0], scores[1]]
    diff = 0
    for t, points in awards:
        s[t] += points
        diff += points if t == team else -points
        if s[t] >= target:
            return WIN if t == team else -WIN
    return float(diff)
