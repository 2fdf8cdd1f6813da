"""Trick play: which cards may be played (R14 and the undertrump option) and who wins (R15)."""

from __future__ import annotations

from collections.abc import Sequence

from app.reasons import N_, reason
from app.rules.cards import SUIT_MASK, SUITS, Card, Hand, code, highest, suit_of
from app.rules.errors import IllegalMove
from app.rules.state import RenegeKind

# The page's sentences have no full stop: each is also the tooltip of a card not allowed.
NOT_IN_HAND = reason(
    "not_in_hand", "{card} is not in your hand", N_("%(card)s is not in your hand")
)
TRUMPS_LED = reason(
    "trumps_led",
    "trumps ({suit}) were led: you must play a trump",
    N_("Trumps (%(suit)s) were led: you must play a trump"),
)
MUST_FOLLOW = reason(
    "must_follow",
    "you must follow {suit} or play a trump",
    N_("You must follow %(suit)s or play a trump"),
)
UNDERTRUMP = reason(
    "undertrump_forbidden",
    "you may not play a trump lower than {card} while you hold other cards",
    N_("You may not play a trump lower than %(card)s while you hold other cards"),
)

Plays = Sequence[tuple[int, Card]]  # a trick so far: (seat, card) in the order played


def legal_cards(hand: Hand, trick: Plays, trump: int, undertrump_forbidden: bool) -> Hand:
    """The mask of cards in ``hand`` that may be played to ``trick``."""
    if not trick:
        return hand
    led = trick[0][1] // 13  # its suit (cards.py), spelt out: the bots' play-outs call this often
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
    trick: Plays,
    trump: int,
    undertrump_forbidden: bool,
) -> IllegalMove | None:
    """The rule a card breaks, or None when it may be played."""
    if not hand >> card & 1:
        return IllegalMove("R13", NOT_IN_HAND, card=code(card))
    if legal_cards(hand, trick, trump, undertrump_forbidden) >> card & 1:
        return None
    led = suit_of(trick[0][1])
    if led == trump:
        return IllegalMove("R14", TRUMPS_LED, suit=SUITS[trump])
    if hand & SUIT_MASK[led] and suit_of(card) != trump:
        return IllegalMove("R14", MUST_FOLLOW, suit=SUITS[led])
    top = _top_trump(trick, trump)
    assert top is not None
    return IllegalMove("R14 (undertrump forbidden)", UNDERTRUMP, card=code(top))


def renege_kind(
    card: Card, hand: Hand, trick: Plays, trump: int, undertrump_forbidden: bool
) -> RenegeKind | None:
    """R21: the kind of renege playing ``card`` (held in ``hand``) to ``trick`` is, or None
    when R14 allows it: (a) a plain suit not followed, (b) trump led and not followed, (c) an
    undertrump forbidden."""
    if legal_cards(hand, trick, trump, undertrump_forbidden) >> card & 1:
        return None
    led = trick[0][1] // 13
    if led == trump:
        return "b"
    if hand & SUIT_MASK[led] and card // 13 != trump:
        return "a"
    return "c"


def trick_winner(trick: Plays, trump: int) -> int:
    """R15: the seat that wins the trick (so far)."""
    return winning_play(trick, trump)[0]


def winning_play(trick: Plays, trump: int) -> tuple[int, Card]:
    """R15: the highest trump, else the highest card of the suit led: (seat, card)."""
    best_seat, best = trick[0]  # ``card // 13`` is its suit, spelt out as in ``legal_cards``
    for seat, card in trick:
        if card // 13 == best // 13:
            if card > best:
                best_seat, best = seat, card
        elif card // 13 == trump:
            best_seat, best = seat, card
    return best_seat, best


def _top_trump(trick: Plays, trump: int) -> Card | None:
    trumps = 0
    for _, card in trick:
        if suit_of(card) == trump:
            trumps |= 1 << card
    return highest(trumps) if trumps else None
