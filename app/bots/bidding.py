"""The standard player's bidding (R9-R12): stand or beg, give one or run the pack, judged by
playing sampled worlds out to the end of the deal.

A world deals the unseen cards to the other seats and puts the rest in the stock in a random
order, so running the pack can be played out too: three more cards each, turned cards and
their kick points (R7), until a new suit shows or the pack is out (R12). The other side's
choice is modelled by the easy player's rule of thumb; the dealer also assumes the beggar
held a hand the easy player would have begged with.
"""

from __future__ import annotations

import random

from app.bots import easy
from app.bots.budget import Clock
from app.bots.sim import deal_awards, play_out, utility
from app.rules.cards import FULL_DECK, SUIT_MASK, Card, Hand, cards_in, suit_of
from app.rules.config import Rules
from app.rules.scoring import kick_points
from app.rules.state import BEG, GIVE_ONE, RUN_PACK, STAND, Action, Phase
from app.rules.view import Observation

RUN_DEAL = 3


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


def play_deal(obs: Observation, deal: Deal, decision: str, team: int) -> float:
    """What the deal is worth to ``team`` when it goes ``decision`` (stand, give_one,
    run_pack) in this world, every card then played by the easy player's habits."""
    rules = obs.rules
    kick_suit = obs.kicks[0] // 13
    beggar = obs.beggar
    awards: list[tuple[int, int]] = []
    hands = list(deal.hands)
    out = 0
    for k in obs.kicks:
        out |= 1 << k
    trump = kick_suit
    if decision == "give_one":
        awards.append((beggar & 1, 1))
    elif decision == "run_pack":
        run = _run_pack(hands, deal.stock, obs.dealer, kick_suit, rules)
        trump, turned, kick_awards = run
        awards += kick_awards
        out |= turned
        if trump < 0:  # the game ended on a kick, or the pack ran out: a redeal
            return utility(awards, obs.scores, rules.target, team)
    dealt = list(hands)
    won = [0, 0]
    play_out(hands, [], beggar, won, trump, rules.undertrump == "forbidden", out, easy.play_card)
    awards += deal_awards(dealt, won, trump, obs.dealer, rules)
    return utility(awards, obs.scores, rules.target, team)


def _run_pack(
    hands: list[Hand], stock: list[Card], dealer: int, kick_suit: int, rules: Rules
) -> tuple[int, Hand, list[tuple[int, int]]]:
    """R10, R12 on a world: (trump or -1 for a redeal, turned cards, kick awards)."""
    awards: list[tuple[int, int]] = []
    turned = 0

    def turn_up(card: Card) -> bool:
        """R7: a turned card scores for the dealer; True when it shows a new suit."""
        nonlocal turned
        turned |= 1 << card
        points = kick_points(card, rules)
        if points:
            awards.append((dealer & 1, points))
        return card // 13 != kick_suit

    at = 0
    while len(stock) - at >= 4 * RUN_DEAL + 1:
        for i in range(4):
            seat = (dealer + 1 + i) % 4
            for c in stock[at : at + RUN_DEAL]:
                hands[seat] |= 1 << c
            at += RUN_DEAL
        card = stock[at]
        at += 1
        if turn_up(card):
            return card // 13, turned, awards
    if rules.flip_last_card:
        for card in stock[at:]:
            if turn_up(card):
                return card // 13, turned, awards
    return -1, turned, awards


def choose(obs: Observation, rng: random.Random, clock: Clock, max_worlds: int | None) -> Action:
    """Stand or beg (the beggar), give one or run the pack (the dealer), whichever scores
    better on average over the sampled worlds."""
    assert obs.seat is not None
    team = obs.seat & 1
    beggar_phase = obs.phase is Phase.BEG
    sums = [0.0, 0.0]  # (stand or give one, beg or run the pack)
    worlds = 0
    while True:
        deal = sample_deal(obs, rng)
        tries = 0
        while not beggar_phase and not _beggar_begs(obs, deal.hands[obs.beggar]) and tries < 20:
            deal = sample_deal(obs, rng)  # the beggar begged: he was not strong in the kick's suit
            tries += 1
        if beggar_phase:
            first = play_deal(obs, deal, "stand", team)
            if _dealer_gives(obs, deal.hands[obs.dealer]):
                second = play_deal(obs, deal, "give_one", team)
            else:
                second = play_deal(obs, deal, "run_pack", team)
        else:
            first = play_deal(obs, deal, "give_one", team)
            second = play_deal(obs, deal, "run_pack", team)
        sums[0] += first
        sums[1] += second
        worlds += 1
        if max_worlds is not None and worlds >= max_worlds:
            break
        if clock.spent():
            break
    if beggar_phase:
        return STAND if sums[0] >= sums[1] else BEG
    return GIVE_ONE if sums[0] > sums[1] else RUN_PACK


def _dealer_gives(obs: Observation, dealer_hand: Hand) -> bool:
    """The beggar's model of the dealer: the easy player's rule, where the rules let him."""
    rules = obs.rules
    if not rules.give_one_can_win and obs.scores[obs.beggar & 1] + 1 >= rules.target:
        return False
    if rules.give_one_needs_trump and not dealer_hand & SUIT_MASK[suit_of(obs.kicks[0])]:
        return False
    return easy.give_wanted(dealer_hand, obs.kicks[0], obs.scores, obs.beggar, rules)


def _beggar_begs(obs: Observation, beggar_hand: Hand) -> bool:
    return not easy.stand_wanted(beggar_hand, obs.kicks[0], obs.scores, obs.beggar, obs.rules)
