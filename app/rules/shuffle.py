"""The shuffle and the first dealer, from the game's seed: the algorithm docs/fairness.md
states, so anyone can recompute every deck of a game once its seed is public (R5, R6).

Nothing here depends on Python: the seed is written as its decimal digits, a SHA-256 counter
stream gives bytes, each byte either picks an index or is refused (rejection sampling, so no
index is likelier than another), and a Fisher-Yates shuffle of the deck in card-index order
(2C 3C ... AC 2D ... AS) uses those picks. The same few lines in any language give the same
decks; ``app/verify.py`` is such a second implementation, kept apart on purpose.
"""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Iterator

from app.rules.cards import DECK_SIZE, Card

SEED_BITS = 128  # a fresh game's seed: this many bits from ``secrets``
DOMAIN = "allfours"

# Which shuffle a game is dealt with, stored with the game. Games stored before the
# documented shuffle keep Python's, so their action logs still replay; they have no
# commitment and cannot be checked.
PYTHON_RANDOM = 1
SHUFFLE = 2  # the documented SHA-256 shuffle of docs/fairness.md
SHUFFLES = (PYTHON_RANDOM, SHUFFLE)


def seed_text(seed: int) -> str:
    """The seed as the stream and the commitment read it: decimal digits, '-' if negative."""
    return str(seed)


@functools.lru_cache(maxsize=4096)  # every view of a game shows its game's commitment
def seed_commitment(seed: int) -> str:
    """The hex SHA-256 of the seed's decimal text: shown from the first deal, so the seed
    revealed at the end is provably the one the game was dealt from."""
    return hashlib.sha256(seed_text(seed).encode("ascii")).hexdigest()


def stream(seed: int, label: str) -> Iterator[int]:
    """Bytes of SHA-256("allfours:<seed>:<label>:<i>") for i = 0, 1, 2, ..., in order."""
    prefix = f"{DOMAIN}:{seed_text(seed)}:{label}:"
    i = 0
    while True:
        yield from hashlib.sha256(f"{prefix}{i}".encode("ascii")).digest()
        i += 1


def draw(source: Iterator[int], n: int) -> int:
    """A uniform index in 0..n-1 (n <= 256): the next byte below the largest multiple of n
    not above 256, modulo n; a byte at or above that multiple is refused and the next read."""
    limit = 256 - 256 % n
    for byte in source:
        if byte < limit:
            return byte % n
    raise AssertionError("the stream is endless")


def shuffled_deck(seed: int, hand_number: int, shuffle: int = SHUFFLE) -> tuple[Card, ...]:
    """The deck of deal ``hand_number`` (1 for the first, redeals counted), top card first."""
    if shuffle == PYTHON_RANDOM:
        deck = list(range(DECK_SIZE))
        random.Random(f"allfours:{seed}:{hand_number}").shuffle(deck)
        return tuple(deck)
    return deck_from(seed, str(hand_number))


def deck_from(seed: int, label: str) -> tuple[Card, ...]:
    """The deck the byte stream ``label`` of ``seed`` shuffles (Fisher-Yates, from the end):
    a game's deal n from ``n``, a duplicate board's from ``b{n}`` (R30)."""
    deck = list(range(DECK_SIZE))
    source = stream(seed, label)
    for i in range(DECK_SIZE - 1, 0, -1):
        j = draw(source, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def first_dealer_for(seed: int, shuffle: int = SHUFFLE) -> int:
    """R5: the first dealer is drawn at random, from the game's seed, so replays agree."""
    if shuffle == PYTHON_RANDOM:
        return random.Random(f"allfours:{seed}:dealer").randrange(4)
    return draw(stream(seed, "dealer"), 4)
