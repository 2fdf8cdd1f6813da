"""deal_worlds: random deals of the unseen cards for the playout (sizes, voids, known cards)."""

from __future__ import annotations

import numpy as np
import pytest

from app.rules.cards import SUIT_MASK
from app.rules.fastsim import deal_worlds

CLUBS, DIAMONDS, HEARTS, SPADES = SUIT_MASK


def _unseen(seed: int, count: int) -> int:
    cards = np.random.default_rng(seed).permutation(52)[:count]
    return sum(1 << int(c) for c in cards)


def test_every_world_deals_each_unseen_card_once_in_the_sizes_asked() -> None:
    unseen = _unseen(1, 17)
    own = (1 << 52) - 1 - unseen & SPADES
    worlds = deal_worlds(
        3000, unseen=unseen, sizes=(0, 6, 6, 5), rng=np.random.default_rng(2), known=(own, 0, 0, 0)
    )
    assert worlds.shape == (3000, 4) and worlds.dtype == np.uint64
    assert (worlds[:, 0] == own).all()
    assert (np.bitwise_count(worlds[:, 1:]) == [6, 6, 5]).all()
    union = worlds[:, 1] | worlds[:, 2] | worlds[:, 3]
    assert (union == unseen).all()
    assert ((worlds[:, 1] & worlds[:, 2]) | (worlds[:, 2] & worlds[:, 3]) == 0).all()


def test_without_voids_a_card_goes_to_each_seat_in_proportion_to_its_share() -> None:
    unseen = _unseen(3, 18)
    card = (unseen & -unseen).bit_length() - 1
    worlds = deal_worlds(30000, unseen=unseen, sizes=(0, 3, 6, 9), rng=np.random.default_rng(4))
    holds = [(worlds[:, s] >> np.uint64(card) & np.uint64(1)).mean() for s in (1, 2, 3)]
    assert holds == pytest.approx([3 / 18, 6 / 18, 9 / 18], abs=0.02)


def test_voids_are_respected() -> None:
    unseen = _unseen(5, 18)
    voids = (0, SPADES | HEARTS, CLUBS, 0)
    worlds = deal_worlds(
        3000, unseen=unseen, sizes=(0, 6, 6, 6), rng=np.random.default_rng(6), voids=voids
    )
    for seat in range(4):
        assert (worlds[:, seat] & np.uint64(voids[seat]) == 0).all()
    assert ((worlds[:, 1] | worlds[:, 2] | worlds[:, 3]) == unseen).all()


def test_an_impossible_deal_is_refused() -> None:
    unseen = SPADES & ((1 << 52) - 1)
    unseen &= ~(1 << 51)  # 12 spades
    with pytest.raises(ValueError, match="voids"):
        deal_worlds(
            10,
            unseen=unseen,
            sizes=(0, 4, 4, 4),
            rng=np.random.default_rng(0),
            voids=(0, SPADES, 0, 0),
        )
    with pytest.raises(ValueError, match="sizes"):
        deal_worlds(10, unseen=unseen, sizes=(0, 4, 4, 5), rng=np.random.default_rng(0))
