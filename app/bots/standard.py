"""The searching player: perfect-information Monte Carlo over sampled worlds.

For a card decision it deals the unseen cards at random consistently with what the table has
shown (``knowledge``), plays the deal out on the engine from each legal card with every seat
following the easy player's habits (``playout``), and keeps the card with the best mean
outcome. It samples a fixed number of worlds (``WORLDS``; the wall-clock cap may stop it
sooner), and every legal card is judged on the same worlds so their difference is not noise
of the draw. An outcome is the
deal's point difference, or a win or loss outright when an award reaches the target (R19), so
near the end of a game the order High, Low, Jack, Game counts.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from app.bots import bidding, easy
from app.bots.budget import Budget, Clock, worlds_within
from app.bots.knowledge import knowledge_of
from app.bots.playout import Policy, play_out, worth
from app.rules.imagined import imagined
from app.rules.state import Action, Phase
from app.rules.view import Observation

# The standard player bids by the easy player's rule of thumb with a lower bar for standing
# (about half of easy's, as when the arena first tuned it: +0.07 points a deal, easy against
# easy): its search makes more of a weak trump holding. Judging bids by simulated deals
# (``bidding="search"``) did no better within the time budget: a run of the pack makes
# those play-outs too noisy.
STAND_AT = 0.5

# As served: 64 worlds (about 10 ms a decision here, 50 ms early in a deal), never more than
# 300 ms on the wall clock.
WORLDS = 64
BUDGET = Budget(ms=None, cap_ms=300.0, max_worlds=WORLDS)


def choose(obs: Observation, rng: random.Random, budget: Budget = BUDGET) -> Action:
    return decide(obs, rng, budget, _search_with_easy)


CardSearch = Callable[[Observation, random.Random, Budget], Action]


def decide(obs: Observation, rng: random.Random, budget: Budget, play: CardSearch) -> Action:
    """A searching player's decision: its only legal action, a bid (by rule of thumb or by
    search, as ``budget`` says), or the card ``play`` finds (strong races where this searches)."""
    if len(obs.legal) == 1:
        return obs.legal[0]
    if obs.phase is not Phase.PLAY:
        if budget.bidding == "heuristic":
            return easy.choose(obs, stand_at=STAND_AT)
        return bidding.choose(obs, rng, Clock(budget, budget.bid_factor), bidding.worlds(budget))
    return play(obs, rng, budget)


def _search_with_easy(obs: Observation, rng: random.Random, budget: Budget) -> Action:
    return search_play(obs, rng, budget, easy.play_card)


def search_play(obs: Observation, rng: random.Random, budget: Budget, policy: Policy) -> Action:
    """The legal card with the best mean outcome over sampled worlds, each played out by
    ``policy`` at every seat. A world cut short by the hard cap is not counted; with none
    counted the easy player's card is played."""
    clock = Clock(budget)
    assert obs.seat is not None
    know = knowledge_of(obs)
    team = obs.seat & 1
    table = imagined(obs)
    cards = [a.card for a in obs.legal if a.card is not None]
    totals = [0.0] * len(cards)
    worlds = 0
    most = worlds_within(budget, len(cards) * sum(obs.hand_sizes))
    while True:
        hands = know.sample(rng)
        world = table.deal(hands, know.dealt(hands))
        values = []
        for card in cards:
            deal = world.clone()
            if not play_out(deal, know.out, policy, card, clock):
                break
            values.append(worth(deal, obs.scores, team))
        else:
            for i, v in enumerate(values):
                totals[i] += v
            worlds += 1
        if most is not None and worlds >= most:
            break
        if clock.capped() or (clock.spent() and worlds >= budget.min_worlds):
            break
    if not worlds:
        return easy.choose(obs)
    best = max(range(len(cards)), key=lambda i: totals[i])
    return obs.legal[best]
