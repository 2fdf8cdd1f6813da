"""The strong player: the standard player's search, raced over many more worlds, and bids
judged by play-outs too.

Card play samples worlds as the standard player does (``knowledge``, ``playout``), but runs a
race: every few worlds, a card whose mean is behind the leader's by more than ``Z`` standard
errors of their paired difference is dropped, and a card that scored exactly as another in
every world so far (two small cards of a suit, say) is one choice, not two. The play-outs left
go to the cards still in contention, so a close choice gets several hundred worlds where the
standard player gives every card 64. The race ends when one card is left, or the budget's
counts (``max_worlds``, ``max_cards``) are used. Its worlds also fit what the bidding said
aloud (``bidding_told``): a beggar who stood holds trumps, a dealer who gave one holds some.
Stand or beg, give one or run the pack, are judged by playing the deal out both ways in
sampled worlds (``bidding``). A decision never thinks longer than ``CAP_MS`` on the wall
clock (read at every lift of every play-out).

Tried and measured worse or no better than this, against standard on the same duplicate deals
(seed 2, 75-200 boards each, the difference paired board by board): the standard player's
rule-of-thumb bids instead of searched ones (-0.105 points a deal), play-outs whose seats are
told the voids shown (-0.14) or see the opponents' hands (-0.04), a race that drops cards at 2
or 3 standard errors instead of 2.5 (-0.04, -0.02), and a dealer who takes a beggar who
begged to hold less than the searching players' bar rather than easy's (-0.035).
"""

from __future__ import annotations

import math
import random

from app.bots import easy, standard
from app.bots.budget import Budget, Clock
from app.bots.knowledge import Told, knowledge_of
from app.bots.playout import play_out, worth
from app.rules.cards import Hand, suit_of
from app.rules.imagined import imagined
from app.rules.state import Action
from app.rules.view import Observation

# Checked at every lift, so a decision ends within a lift's work of it: under 250 ms.
CAP_MS = 240.0
# At most 52000 cards played out (about 170 ms here early in a deal), a world's draw counted
# as ``DRAW_COST`` cards, and at most 1000 worlds (late in a deal the draws cost the most).
BUDGET = Budget(ms=None, cap_ms=CAP_MS, max_worlds=1000, max_cards=52000, bidding="search")
DRAW_COST = 16
Z = 2.5  # how many standard errors behind a card must be to leave the race
GAVE_ON = 1.0  # the trump holding a dealer who gave one is taken to have held (easy.trump_worth)
# Worlds drawn to see whether what the bidding suggested fits this deal often enough to draw
# to it (at least one in ``FIT``): rarely fitting, each world would take dozens of draws.
PROBE = 40
FIT = 8
FIRST_LOOK = 24  # worlds every card gets before any leaves
LOOK_EVERY = 8


def choose(obs: Observation, rng: random.Random, budget: Budget = BUDGET) -> Action:
    return standard.decide(obs, rng, budget, race_play)


def race_play(obs: Observation, rng: random.Random, budget: Budget) -> Action:
    clock = Clock(budget)
    assert obs.seat is not None
    know = knowledge_of(obs)
    team = obs.seat & 1
    table = imagined(obs)
    cards = [a.card for a in obs.legal if a.card is not None]
    told = bidding_told(obs)
    if told is not None:
        fits = sum(told(know.dealt(know.sample(rng))) for _ in range(PROBE))
        if fits * FIT < PROBE:
            told = None  # the bidding was not by the model's bars (a bold or a careful bidder)
    draws = [0]  # worlds drawn to fit the bidding, kept or not: each costs DRAW_COST cards

    def counted(dealt: list[Hand]) -> bool:
        draws[0] += 1
        return told is not None and told(dealt)

    fit = counted if told is not None else None

    n = len(cards)
    left = sum(obs.hand_sizes)  # cards each play-out plays
    active = list(range(n))
    totals = [0.0] * n
    # Paired differences between cards i < j over the worlds both were played in.
    diff = [[0.0] * n for _ in range(n)]
    square = [[0.0] * n for _ in range(n)]
    worlds = work = 0
    while len(active) > 1:
        hands = know.sample(rng, fit)
        world = table.deal(hands, know.dealt(hands))
        values: dict[int, float] = {}
        for i in active:
            deal = world.clone()
            if not play_out(deal, know.out, easy.play_card, cards[i], clock):
                break
            values[i] = worth(deal, obs.scores, team)
        else:
            for i in active:
                totals[i] += values[i]
                for j in active:
                    if i < j:
                        d = values[i] - values[j]
                        diff[i][j] += d
                        square[i][j] += d * d
            worlds += 1
            work += len(active) * left + DRAW_COST * max(1, draws[0])
            draws[0] = 0
            if worlds >= FIRST_LOOK and worlds % LOOK_EVERY == 0:
                active = _still_running(active, totals, diff, square, worlds)
        if budget.max_worlds is not None and worlds >= budget.max_worlds:
            break
        if budget.max_cards is not None and work >= budget.max_cards:
            break
        if clock.capped() or (clock.spent() and worlds >= budget.min_worlds):
            break
    if not worlds:
        return easy.choose(obs)
    best = max(active, key=lambda i: totals[i])
    return obs.legal[best]


def _still_running(
    active: list[int],
    totals: list[float],
    diff: list[list[float]],
    square: list[list[float]],
    worlds: int,
) -> list[int]:
    """The cards still in the race after ``worlds`` worlds (all of them played in each)."""
    lead = max(active, key=lambda i: totals[i])
    keep = []
    for c in active:
        if c == lead:
            keep.append(c)
            continue
        i, j, sign = (lead, c, 1.0) if lead < c else (c, lead, -1.0)
        mean = sign * diff[i][j] / worlds  # how far ``c`` is behind the leader
        var = max(0.0, square[i][j] / worlds - mean * mean)
        if var == 0.0 and mean == 0.0:
            continue  # the same outcome as the leader in every world: one choice
        if mean > Z * math.sqrt(var / worlds):
            continue
        keep.append(c)
    return keep


def bidding_told(obs: Observation) -> Told | None:
    """What the bid said aloud suggests of the other seats' hands as dealt (six cards each
    when no pack was run): a beggar who stood held a holding in the kick's suit that the
    standard player would stand on, one who begged did not, and a dealer who gave one held
    one worth keeping (``GAVE_ON``). None when nothing is suggested (the pack was run: who
    held which of the nine cards first is not known)."""
    if obs.decision not in ("stand", "give_one") or obs.seat is None:
        return None
    kick, beggar, dealer, seat = obs.kicks[0], obs.beggar, obs.dealer, obs.seat
    suit, stood = suit_of(kick), obs.decision == "stand"
    scores = obs.scores  # as they were at the bid: the give's point came after it
    if not stood:
        team = beggar & 1
        scores = (scores[0] - (team == 0), scores[1] - (team == 1))

    def told(dealt: list[Hand]) -> bool:
        if seat != beggar and stood != easy.stand_wanted(
            dealt[beggar], kick, scores, beggar, obs.rules, standard.STAND_AT
        ):
            return False
        return stood or seat == dealer or easy.trump_worth(dealt[dealer], suit) >= GAVE_ON

    return told
