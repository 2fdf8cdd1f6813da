"""Points: kick points (R7) and the scoring of a played-out deal (R16-R18), in award order."""

from __future__ import annotations

from collections.abc import Sequence

from app.rules.cards import (
    ACE,
    JACK,
    KING,
    QUEEN,
    RANK_MASK,
    SIX,
    SUIT_MASK,
    TEN,
    TWO,
    Card,
    Hand,
    highest,
    lowest,
    make,
    rank_of,
)
from app.rules.config import Rules
from app.rules.state import Award

# R18: the cards that count for Game.
GAME_VALUE = {ACE: 4, KING: 3, QUEEN: 2, JACK: 1, TEN: 10}
# What each card counts for Game, by card index (the bots weigh a trick by it).
CARD_VALUE = tuple(GAME_VALUE.get(rank_of(card), 0) for card in range(52))
# (value, mask of that rank in all four suits): counting Game is five popcounts.
_GAME_RANKS = tuple((value, RANK_MASK[rank]) for rank, value in GAME_VALUE.items())


def kick_points(card: Card, rules: Rules) -> int:
    """R7: what a turned-up card scores for the dealer's team (`kick_two`: the 2 replaces the 6)."""
    rank = rank_of(card)
    if rank == ACE:
        return 1
    if rank == JACK:
        return 3
    if rank == (TWO if rules.kick_two else SIX):
        return 2
    return 0


def game_total(won: Hand) -> int:
    """R18: what a team's lifts count for Game."""
    total = 0
    for value, mask in _GAME_RANKS:
        total += value * (won & mask).bit_count()
    return total


def seat_holding(card: Card, dealt: Sequence[Hand]) -> int:
    for seat in range(4):
        if dealt[seat] >> card & 1:
            return seat
    raise ValueError("card was not dealt")


def hand_awards(
    *, dealt: tuple[Hand, ...], won: tuple[Hand, Hand], trump: int, dealer: int, rules: Rules
) -> list[Award]:
    """High, Low, Jack or hang jack, Game: every award of a played-out deal, in order.

    The caller applies them one at a time and stops at the target (R19).
    """
    awards: list[Award] = []
    in_play = (dealt[0] | dealt[1] | dealt[2] | dealt[3]) & SUIT_MASK[trump]
    if in_play:
        high, low = highest(in_play), lowest(in_play)
        high_seat, low_seat = seat_holding(high, dealt), seat_holding(low, dealt)
        awards.append(Award("high", high_seat % 2, 1, high, high_seat))
        awards.append(Award("low", low_seat % 2, 1, low, low_seat))
    jack = make(JACK, trump)
    if in_play >> jack & 1:
        holder = seat_holding(jack, dealt)
        capturers = 0 if won[0] >> jack & 1 else 1
        if capturers == holder % 2:
            awards.append(Award("jack", capturers, 1, jack, holder))
        else:
            awards.append(Award("hang_jack", capturers, 3, jack, holder))
    game0, game1 = game_total(won[0]), game_total(won[1])
    if game0 != game1:
        awards.append(Award("game", 0 if game0 > game1 else 1, rules.game_points))
    elif rules.game_tie == "non_dealer":
        awards.append(Award("game", (dealer + 1) % 2, rules.game_points))
    return awards
