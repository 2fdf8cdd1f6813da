"""The searching player: perfect-information Monte Carlo over sampled worlds.

For a card decision it deals the unseen cards at random consistently with what the table has
shown (``knowledge``), plays the deal out from each legal card with every seat following the
easy player's habits (``sim``), and keeps the card with the best mean outcome. It samples
worlds until its time budget is spent (anytime), and every legal card is judged on the same
worlds so their difference is not noise of the draw. An outcome is the deal's point
difference, or a win or loss outright when an award reaches the target (R19), so near the end
of a game the order High, Low, Jack, Game counts.

``Budget(engine="numpy")`` plays the worlds out with ``app.rules.fastsim`` instead (many more
worlds, cruder play in them); in the arena it was no stronger than the default.
"""

from __future__ import annotations

import random

import numpy as np

from app.bots import batch, bidding, easy
from app.bots.budget import DEFAULT_BUDGET, Budget, Clock
from app.bots.knowledge import knowledge_of
from app.bots.sim import deal_awards, play_out, utility
from app.rules.cards import Hand, mask_of
from app.rules.state import Action, Phase
from app.rules.view import Observation

# The standard player bids by the easy player's rule of thumb with a lower bar for standing
# (about half of easy's, as when the arena first tuned it: +0.07 points a deal, easy against
# easy): its search makes more of a weak trump holding. Judging bids by simulated deals
# (``bidding="search"``) did no better within the time budget: a run of the pack makes
# those play-outs too noisy.
STAND_AT = 0.5


def choose(obs: Observation, rng: random.Random, budget: Budget = DEFAULT_BUDGET) -> Action:
    if len(obs.legal) == 1:
        return obs.legal[0]
    if obs.phase is not Phase.PLAY:
        if budget.bidding == "heuristic":
            return easy.choose(obs, stand_at=STAND_AT)
        return bidding.choose(obs, rng, Clock(budget, budget.bid_factor), budget.max_worlds)
    if budget.engine == "numpy":
        return _search_play_numpy(obs, rng, budget)
    return _search_play(obs, rng, budget)


def _search_play(obs: Observation, rng: random.Random, budget: Budget) -> Action:
    clock = Clock(budget)
    assert obs.seat is not None and obs.trump is not None
    know = knowledge_of(obs)
    seat, trump, rules = obs.seat, obs.trump, obs.rules
    team = seat & 1
    forbid = rules.undertrump == "forbidden"
    won0 = won_so_far(obs)
    cards = [a.card for a in obs.legal if a.card is not None]
    totals = [0.0] * len(cards)
    worlds = 0
    policy = easy.play_card
    while True:
        hands = know.sample(rng)
        dealt = know.dealt(hands)
        scores = []
        for card in cards:
            won = [won0[0], won0[1]]
            play_out(list(hands), list(obs.trick), seat, won, trump, forbid, know.out, policy, card)
            awards = deal_awards(dealt, won, trump, obs.dealer, rules)
            scores.append(utility(awards, obs.scores, rules.target, team))
            if clock.capped():
                break
        else:
            for i, v in enumerate(scores):
                totals[i] += v
            worlds += 1
        if budget.max_worlds is not None and worlds >= budget.max_worlds:
            break
        if clock.capped() or (clock.spent() and worlds >= budget.min_worlds):
            break
    best = max(range(len(cards)), key=lambda i: totals[i])
    return obs.legal[best]


def _search_play_numpy(obs: Observation, rng: random.Random, budget: Budget) -> Action:
    clock = Clock(budget)
    assert obs.seat is not None
    know = knowledge_of(obs)
    nprng = np.random.default_rng(rng.getrandbits(64))
    won = won_so_far(obs)
    cards = [a.card for a in obs.legal if a.card is not None]
    totals = np.zeros(len(cards))
    worlds = 0
    while True:
        n = budget.batch
        if budget.max_worlds is not None:
            n = min(n, budget.max_worlds - worlds)
        sample = batch.sample_worlds(know, n, nprng)
        totals += batch.candidate_values(
            know,
            sample,
            cards,
            trick=list(obs.trick),
            won=(won[0], won[1]),
            dealer=obs.dealer,
            rules=obs.rules,
            scores=obs.scores,
            rng=nprng,
        )
        worlds += n
        if budget.max_worlds is not None and worlds >= budget.max_worlds:
            break
        if clock.spent():
            break
    return obs.legal[int(np.argmax(totals))]


def won_so_far(obs: Observation) -> list[Hand]:
    """The cards each team has lifted this deal, from the lifts on the table."""
    won = [0, 0]
    for t in obs.tricks:
        won[t.winner & 1] |= mask_of(c for _, c in t.cards)
    return won
