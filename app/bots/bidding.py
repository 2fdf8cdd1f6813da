"""The standard player's bidding (R9-R12): stand or beg, give one or run the pack, judged by
playing sampled worlds out to the end of the deal.

A world deals the unseen cards to the other seats and puts the rest in the stock in a random
order, so the engine can run the pack on it too: three more cards each, turned cards and
their kick points (R7), until a new suit shows or the pack is out (R12). The other side's
choice is modelled by the easy player's rule of thumb; the dealer also assumes the beggar
held a hand the easy player would have begged with.
"""

from __future__ import annotations

import random

from app.bots import easy
from app.bots.budget import Budget, Clock, worlds_within
from app.bots.playout import play_out, worth
from app.rules.cards import FULL_DECK, Card, Hand, cards_in, mask_of
from app.rules.imagined import Imagined, imagined
from app.rules.legal import give_one_refusal
from app.rules.state import BEG, GIVE_ONE, RUN_PACK, STAND, Action, Phase
from app.rules.view import Observation

# A bidding world plays the deal out twice, the second time often after a run of the pack.
CARDS_PER_WORLD = 2 * 4 * 6 + 4 * 3


def worlds(budget: Budget) -> int | None:
    """The worlds a bid may sample within ``budget``'s counts."""
    return worlds_within(budget, CARDS_PER_WORLD)


class Deal:
    """One sampled world before trump is fixed: the four hands and the stock, top first."""

    __slots__ = ("hands", "stock")

    def __init__(self, hands: list[Hand], stock: list[Card]) -> None:
        self.hands = hands
        self.stock = stock


def sample_deal(obs: Observation, rng: random.Random) -> Deal:
    assert obs.seat is not None
    kicks = 0
    for k in obs.kicks:
        kicks |= 1 << k
    unseen = list(cards_in(FULL_DECK & ~obs.hand & ~kicks))
    rng.shuffle(unseen)
    hands = [0, 0, 0, 0]
    hands[obs.seat] = obs.hand
    at = 0
    for s in range(4):
        if s == obs.seat:
            continue
        for c in unseen[at : at + obs.hand_sizes[s]]:
            hands[s] |= 1 << c
        at += obs.hand_sizes[s]
    return Deal(hands, unseen[at:])


def play_deal(
    world: Imagined, decision: str, team: int, clock: Clock | None = None
) -> float | None:
    """What the deal is worth to ``team`` when it goes ``decision`` (stand, give_one,
    run_pack) in this world, every card then played by the easy player's habits; None if
    ``clock``'s hard cap struck first."""
    deal = world.clone()
    scores = deal.scores
    if decision == "stand":
        deal.stand()
    else:
        if deal.phase is Phase.BEG:
            deal.beg()
        if decision == "give_one":
            deal.give_one()
        else:
            deal.run_pack()
    # Played on unless ended by a kick or a give one, or redealt (R12).
    if deal.turn is not None and not play_out(deal, mask_of(deal.kicks), easy.play_card, -1, clock):
        return None
    return worth(deal, scores, team)


def choose(obs: Observation, rng: random.Random, clock: Clock, max_worlds: int | None) -> Action:
    """Stand or beg (the beggar), give one or run the pack (the dealer), whichever scores
    better on average over the sampled worlds."""
    assert obs.seat is not None
    team = obs.seat & 1
    beggar_phase = obs.phase is Phase.BEG
    table = imagined(obs)
    sums = [0.0, 0.0]  # (stand or give one, beg or run the pack)
    worlds = 0
    while True:
        deal = sample_deal(obs, rng)
        tries = 0
        while not beggar_phase and not _beggar_begs(obs, deal.hands[obs.beggar]) and tries < 20:
            deal = sample_deal(obs, rng)  # the beggar begged: he was not strong in the kick's suit
            tries += 1
        world = table.deal(deal.hands, deal.hands, deal.stock)
        if beggar_phase:
            first = play_deal(world, "stand", team, clock)
            dealer = "give_one" if _dealer_gives(obs, world) else "run_pack"
            second = play_deal(world, dealer, team, clock)
        else:
            first = play_deal(world, "give_one", team, clock)
            second = play_deal(world, "run_pack", team, clock)
        if first is None or second is None:
            break  # the hard cap: this world is not counted
        sums[0] += first
        sums[1] += second
        worlds += 1
        if max_worlds is not None and worlds >= max_worlds:
            break
        if clock.spent():
            break
    if not worlds:
        return easy.choose(obs)  # the cap struck before one world was played out
    if beggar_phase:
        return STAND if sums[0] >= sums[1] else BEG
    return GIVE_ONE if sums[0] > sums[1] else RUN_PACK


def _dealer_gives(obs: Observation, world: Imagined) -> bool:
    """The beggar's model of the dealer: the easy player's rule, where the rules let him."""
    if give_one_refusal(world) is not None:
        return False
    dealer_hand = world.hands[obs.dealer]
    return easy.give_wanted(dealer_hand, obs.kicks[0], obs.scores, obs.beggar, obs.rules)


def _beggar_begs(obs: Observation, beggar_hand: Hand) -> bool:
    return not easy.stand_wanted(beggar_hand, obs.kicks[0], obs.scores, obs.beggar, obs.rules)
