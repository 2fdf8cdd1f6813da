"""Scoring candidate cards on many sampled worlds at once with ``app.rules.fastsim``.

The numpy play-outs are cheap per world, so a decision can afford hundreds of worlds; their
seats play by fastsim's ``greedy`` rules of thumb.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from app.bots.knowledge import Knowledge
from app.bots.sim import WIN
from app.rules.cards import Card, Hand
from app.rules.config import Rules
from app.rules.fastsim import Scoring, deal_worlds, playout_traced

Floats = npt.NDArray[np.float64]


def sample_worlds(know: Knowledge, n: int, rng: np.random.Generator) -> npt.NDArray[np.uint64]:
    """(n, 4) hands: the seat's own and the unseen cards dealt within the known voids; the
    stock's share of the unseen cards is dealt to the seat itself and then dropped."""
    me = know.seat
    sizes = list(know.sizes)
    sizes[me] = know.unseen.bit_count() - sum(sizes[s] for s in range(4) if s != me)
    barred = [int(b) & know.unseen for b in know.barred]
    barred[me] = 0
    try:
        worlds = deal_worlds(n, unseen=know.unseen, sizes=sizes, rng=rng, voids=barred)
    except ValueError:  # no deal fits the voids often enough: deal without them
        worlds = deal_worlds(n, unseen=know.unseen, sizes=sizes, rng=rng)
    worlds[:, me] = np.uint64(know.hand)
    return worlds


def candidate_values(
    know: Knowledge,
    worlds: npt.NDArray[np.uint64],
    cards: list[Card],
    *,
    trick: list[tuple[int, Card]],
    won: tuple[Hand, Hand],
    dealer: int,
    rules: Rules,
    scores: tuple[int, int],
    rng: np.random.Generator,
) -> Floats:
    """Sum over the worlds of each candidate card's worth to the seat's team."""
    n, k = worlds.shape[0], len(cards)
    hands = np.repeat(worlds, k, axis=0)
    dealt = hands | np.array(know.played_by, dtype=np.uint64)
    won_m = np.tile(np.array(won, dtype=np.uint64), (n * k, 1))
    _, scoring, _ = playout_traced(
        dealt=dealt,
        hands=hands,
        won=won_m,
        trick=trick,
        turn=know.seat,
        trump=know.trump,
        dealer=dealer,
        rules=rules,
        rng=rng,
        policy="greedy",
        first=np.tile(np.array(cards, dtype=np.int64), n),
        record=False,
    )
    worth = utilities(scoring, scores, rules.target, know.seat & 1)
    sums: Floats = worth.reshape(n, k).sum(axis=0)
    return sums


def utilities(sc: Scoring, scores: tuple[int, int], target: int, team: int) -> Floats:
    """``sim.utility`` for a batch: the point difference, or +-WIN at the target (R19)."""
    n = sc.high.shape[0]
    mine = np.full(n, scores[team], dtype=np.int64)
    theirs = np.full(n, scores[1 - team], dtype=np.int64)
    diff = np.zeros(n, dtype=np.float64)
    result = np.zeros(n, dtype=np.float64)
    ended = np.zeros(n, dtype=bool)
    one = np.ones(n, dtype=np.int64)
    game = np.full(n, sc.game_points, dtype=np.int64)
    for who, points in ((sc.high, one), (sc.low, one), (sc.jack, sc.jack_points), (sc.game, game)):
        ours = np.where(who == team, points, 0)
        others = np.where(who == 1 - team, points, 0)
        mine += ours
        theirs += others
        diff += ours - others
        now = ~ended & ((mine >= target) | (theirs >= target))
        result[now] = np.where(mine[now] >= target, WIN, -WIN)
        ended |= now
    result[~ended] = diff[~ended]
    return result
