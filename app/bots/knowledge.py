"""What a seat can know from its Observation alone, and worlds sampled consistently with it.

The public facts are the cards played this deal (who played what, in which trick), the kicks
(out of play, R8) and the hand sizes; the private one is the seat's own hand. Following
(R14) leaks voids: a seat that played neither the suit led nor a trump had none of the suit
led. A trump played to a plain lead proves nothing (trumping is always allowed), and a plain
discard proves nothing about trumps (a seat without the suit led may play any card). With
undertrump forbidden, a trump played under a higher trump already in the trick proves the
seat held nothing but trumps.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from app.rules.cards import FULL_DECK, SUIT_MASK, Hand, cards_in, suit_of
from app.rules.view import Observation

ATTEMPTS = 30
TOLD_ATTEMPTS = 120  # then what the bidding suggested is set aside, as a model that failed

# What the bidding suggested of the hands as dealt: True if these four fit it.
Told = Callable[[list[Hand]], bool]


@dataclass(frozen=True, slots=True)
class Knowledge:
    seat: int
    trump: int
    dealer: int
    hand: Hand
    played_by: tuple[Hand, Hand, Hand, Hand]  # cards each seat has played this deal
    out: Hand  # cards no one holds any more: played this deal, and the kicks
    unseen: Hand  # cards the seat cannot place: in another hand or still in the stock
    barred: tuple[Hand, Hand, Hand, Hand]  # cards each seat is known not to hold
    sizes: tuple[int, int, int, int]

    @property
    def not_with_opponents(self) -> Hand:
        """Cards neither opponent can hold: out of play, or unseen in a suit both opponents
        have shown they lack (only partner, or the stock, may have those)."""
        both_void = self.barred[(self.seat + 1) % 4] & self.barred[(self.seat + 3) % 4]
        return self.out | (self.unseen & both_void)

    def sample(self, rng: random.Random, told: Told | None = None) -> list[Hand]:
        """Four hands: the seat's own, and the others dealt from the unseen cards at random
        within what the play so far proves (the rest stays in the stock). ``told``, when
        given, judges the four hands as dealt (``dealt``): what the bidding suggested of
        them. Worlds it refuses are drawn again, up to ``TOLD_ATTEMPTS`` times."""
        if told is not None:
            for _ in range(TOLD_ATTEMPTS):
                hands = self._try_sample(rng, strict=True)
                if hands is not None and told(self.dealt(hands)):
                    return hands
        for _ in range(ATTEMPTS):
            hands = self._try_sample(rng, strict=True)
            if hands is not None:
                return hands
        hands = self._try_sample(rng, strict=False)  # inconsistent inference: ignore it
        assert hands is not None
        return hands

    def _try_sample(self, rng: random.Random, *, strict: bool) -> list[Hand] | None:
        hands = [0, 0, 0, 0]
        hands[self.seat] = self.hand
        pool = self.unseen
        others = [s for s in range(4) if s != self.seat and self.sizes[s]]
        while others:
            # The seat with the least room to spare chooses first.
            others.sort(key=lambda s: (pool & ~self.barred[s]).bit_count() - self.sizes[s])
            s = others.pop(0)
            allowed = list(cards_in(pool & ~self.barred[s] if strict else pool))
            need = self.sizes[s]
            if len(allowed) < need:
                return None
            chosen = 0
            for c in rng.sample(allowed, need):
                chosen |= 1 << c
            hands[s] = chosen
            pool &= ~chosen
        return hands

    def dealt(self, hands: list[Hand]) -> list[Hand]:
        return [hands[s] | self.played_by[s] for s in range(4)]


def knowledge_of(obs: Observation) -> Knowledge:
    """The facts of ``obs`` for the seat to act (play phase: trump is fixed)."""
    assert obs.seat is not None and obs.trump is not None
    trump = obs.trump
    forbid_under = obs.rules.undertrump == "forbidden"
    played = [0, 0, 0, 0]
    barred = [0, 0, 0, 0]
    tricks = [t.cards for t in obs.tricks]
    if obs.trick:
        tricks.append(obs.trick)
    for cards in tricks:
        led = suit_of(cards[0][1])
        top_trump = cards[0][1] if led == trump else -1
        for seat, card in cards:
            played[seat] |= 1 << card
        for seat, card in cards[1:]:
            suit = suit_of(card)
            if suit == trump:
                if led != trump and forbid_under and 0 <= card < top_trump:
                    barred[seat] |= FULL_DECK & ~SUIT_MASK[trump]
                top_trump = max(top_trump, card)
            elif suit != led:
                barred[seat] |= SUIT_MASK[led]
    out = 0
    for p in played:
        out |= p
    for k in obs.kicks:
        out |= 1 << k
    unseen = FULL_DECK & ~out & ~obs.hand
    return Knowledge(
        seat=obs.seat,
        trump=trump,
        dealer=obs.dealer,
        hand=obs.hand,
        played_by=(played[0], played[1], played[2], played[3]),
        out=out,
        unseen=unseen,
        barred=(barred[0], barred[1], barred[2], barred[3]),
        sizes=obs.hand_sizes,
    )
