"""Cards as small integers and hands as 52-bit masks (R2, R3).

A card is ``suit * 13 + rank`` with suits C D H S = 0..3 and ranks 2..A = 0..12, so a
higher rank index is a higher card (R2) and every suit occupies 13 consecutive bits of a
hand mask. Outside the engine cards are always their two-character codes (``"TH"``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
DECK_SIZE = 52

Card = int
Hand = int  # bitmask of cards

TWO, SIX, TEN, JACK, QUEEN, KING, ACE = 0, 4, 8, 9, 10, 11, 12

SUIT_MASK = tuple(0x1FFF << (13 * s) for s in range(4))
RANK_MASK = tuple(sum(1 << (13 * s + r) for s in range(4)) for r in range(13))  # by rank index
FULL_DECK: Hand = (1 << DECK_SIZE) - 1

_CODES = tuple(r + s for s in SUITS for r in RANKS)
_BY_CODE = {code: i for i, code in enumerate(_CODES)}


class BadCardCode(ValueError):
    """A string that is not a card code of R3."""


def suit_of(card: Card) -> int:
    return card // 13


def rank_of(card: Card) -> int:
    return card % 13


def make(rank: int, suit: int) -> Card:
    return suit * 13 + rank


def code(card: Card) -> str:
    return _CODES[card]


def parse(text: str) -> Card:
    """``"TH"`` -> card. Accepts only the exact codes of R3 (upper case)."""
    try:
        return _BY_CODE[text]
    except (KeyError, TypeError):
        raise BadCardCode(
            f"R3: {text!r} is not a card code (rank AKQJT98765432, suit CDHS)"
        ) from None


def bit(card: Card) -> Hand:
    return 1 << card


def mask_of(cards: Iterable[Card]) -> Hand:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_in(mask: Hand) -> Iterator[Card]:
    """The cards of a mask, lowest index first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def highest(mask: Hand) -> Card:
    return mask.bit_length() - 1


def lowest(mask: Hand) -> Card:
    return (mask & -mask).bit_length() - 1


def codes(cards: Iterable[Card]) -> list[str]:
    return [_CODES[c] for c in cards]


def mask_codes(mask: Hand) -> list[str]:
    return [_CODES[c] for c in cards_in(mask)]
