"""Trick play: which cards may be played (R14 and the undertrump option) and who wins (R15)."""

from __future__ import annotations

from app.rules.cards import SUIT_MASK, SUIT_NAMES, Card, Hand, code, highest, suit_of
from app.rules.errors import IllegalMove


def legal_cards(
    hand: Hand, trick: tuple[tuple[int, Card], ...], trump: int, undertrump_forbidden: bool
) -> Hand:
    """The mask of cards in ``hand`` that may be played to ``trick``."""
    if not trick:
        return hand
    led = suit_of(trick[0][1])
    trumps = hand & SUIT_MASK[trump]
    if led == trump:
        return trumps or hand
    follow = hand & SUIT_MASK[led]
    legal = (follow | trumps) if follow else hand
    if undertrump_forbidden and trumps != hand:
        top = _top_trump(trick, trump)
        if top is not None:
            legal &= ~(trumps & ((1 << top) - 1))
    return legal


def why_illegal(
    card: Card,
    hand: Hand,
    trick: tuple[tuple[int, Card], ...],
    trump: int,
    undertrump_forbidden: bool,
) -> IllegalMove | None:
    """The rule a card breaks, or None when it may be played."""
    if not hand >> card & 1:
        return IllegalMove("R13", f"{code(card)} is not in your hand")
    if legal_cards(hand, trick, trump, undertrump_forbidden) >> card & 1:
        return None
    led = suit_of(trick[0][1])
    if led == trump:
        return IllegalMove("R14", f"trumps ({SUIT_NAMES[trump]}) were led: you must play a trump")
    if hand & SUIT_MASK[led] and suit_of(card) != trump:
        return IllegalMove("R14", f"you must follow {SUIT_NAMES[led]} or play a trump")
    top = _top_trump(trick, trump)
    assert top is not None
    return IllegalMove(
        "R14 (undertrump forbidden)",
        f"you may not play a trump lower than {code(top)} while you hold other cards",
    )


def trick_winner(trick: tuple[tuple[int, Card], ...], trump: int) -> int:
    """R15: the highest trump, else the highest card of the suit led."""
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if suit_of(card) == suit_of(best):
            if card > best:
                best_seat, best = seat, card
        elif suit_of(card) == trump:
            best_seat, best = seat, card
    return best_seat


def _top_trump(trick: tuple[tuple[int, Card], ...], trump: int) -> Card | None:
    trumps = 0
    for _, card in trick:
        if suit_of(card) == trump:
            trumps |= 1 << card
    return highest(trumps) if trumps else None
