"""The strong player: the standard player's search, with more worlds and a searched bid.

Card play judges every legal card on several hundred sampled worlds (the standard player:
64), so close choices are no longer decided by the noise of the draw. Stand or beg, give one or
run the pack, are judged by playing the deal out both ways in sampled worlds (``bidding``).
A decision never thinks longer than ``CAP_MS`` on the wall clock.
"""

from __future__ import annotations

import random

from app.bots import bidding, easy
from app.bots.budget import Budget, Clock
from app.bots.standard import STAND_AT, search_play
from app.rules.state import Action, Phase
from app.rules.view import Observation

CAP_MS = 250.0
# At most 480 worlds, and at most about 150 ms of play-outs here (28000 cards, early in a
# deal), so that a loaded machine seldom brings a decision to the cap.
BUDGET = Budget(ms=None, cap_ms=CAP_MS, max_worlds=480, max_cards=28000, bidding="search")


def choose(obs: Observation, rng: random.Random, budget: Budget = BUDGET) -> Action:
    if len(obs.legal) == 1:
        return obs.legal[0]
    if obs.phase is not Phase.PLAY:
        if budget.bidding == "heuristic":
            return easy.choose(obs, stand_at=STAND_AT)
        return bidding.choose(obs, rng, Clock(budget, budget.bid_factor), bidding.worlds(budget))
    return search_play(obs, rng, budget, easy.play_card)
