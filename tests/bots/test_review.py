"""The review of a game (app/bots/review.py): forced actions cost 0, a seat is judged only by
what it had seen, clear faults of the catalogue are costly with the right better choice, and
the same game always gets the same review. Small counts of imagined deals keep it quick."""

from __future__ import annotations

import random

import pytest

from app.bots import choose, rng_for
from app.bots.budget import Budget
from app.bots.review import COSTLY, judge, review_game, review_key, summarize
from app.rules import DEFAULT_RULES, Rules, apply, new_game, observe
from app.rules.state import Action, Phase, State
from tests.bots.catalogue import CATALOGUE, Situation
from tests.rules.stack import act, stack

WORLDS = 48
QUICK = Budget(ms=None, cap_ms=None, max_worlds=8)


def played(seed: int, deals: int = 2) -> tuple[State, list[Action]]:
    """A game played by standard bots with a small budget, cut after ``deals`` deals."""
    state = new_game(DEFAULT_RULES, seed)
    actions: list[Action] = []
    while state.phase is not Phase.GAME_OVER and state.hand_number <= deals:
        assert state.turn is not None
        obs = observe(state, state.turn)
        action = choose(obs, "standard", rng=rng_for(seed, len(actions)), budget=QUICK)
        actions.append(action)
        state = apply(state, action)
    return state, actions


def test_every_decision_is_reviewed_in_order_and_forced_ones_cost_nothing() -> None:
    _, actions = played(3)
    judged = review_game(DEFAULT_RULES, 3, None, actions, worlds=16)
    assert [j.action for j in judged] == actions
    state = new_game(DEFAULT_RULES, 3)
    forced = 0
    for action, j in zip(actions, judged, strict=True):
        assert j.seat == state.turn
        assert j.hand == state.hand_number
        if len(observe(state, state.turn).legal) == 1:
            forced += 1
            assert j.loss == 0 and j.best == action
        assert j.loss >= 0
        state = apply(state, action)
    assert forced > 0  # the last card of each deal at least
    seats = summarize(judged)
    assert sum(s.decisions for s in seats) == len(actions)
    for s in seats:
        mine = [j.loss for j in judged if j.seat == s.seat]
        assert s.costly == sum(1 for loss in mine if loss >= COSTLY)
        assert s.average_loss == pytest.approx(sum(mine) / len(mine), abs=1e-3)


def test_the_same_game_gets_the_same_review() -> None:
    _, actions = played(5, deals=1)
    first = review_game(DEFAULT_RULES, 5, None, actions, worlds=16)
    again = review_game(DEFAULT_RULES, 5, None, actions, worlds=16)
    assert first == again
    key = review_key(DEFAULT_RULES, 5, None, 1, actions)
    assert key == review_key(DEFAULT_RULES, 5, None, 1, list(actions))
    assert key != review_key(DEFAULT_RULES, 6, None, 1, actions)


# Seat 1 (the beggar, who stands and leads) sees its own hand and the kick; the two deals
# differ only in the hands of seats 2 and 3, which seat 1 has not seen when it leads.
SEEN = {1: "AS 9S KD QD 7C 2H", 0: "KS QS 2D 3D 9D TC"}
HIDDEN_A = {2: "3H 4H 5C 6C 7H 8H", 3: "JS 5H 2C 3C 4D 5D"}
HIDDEN_B = {2: "JS 4H 5C 6C 7H 2C", 3: "3H 5H 8H 3C 4D 5D"}


def _first_lead(hidden: dict[int, str], lead: str) -> tuple[float, Action | None]:
    deck = stack(0, {**SEEN, **hidden}, "4S")
    actions = [act("stand"), act(lead)]
    judged = review_game(DEFAULT_RULES, 11, 0, actions, stacked=[deck], worlds=WORLDS)
    assert judged[1].seat == 1
    return judged[1].loss, judged[1].best


@pytest.mark.parametrize("lead", ["AS", "7C", "2H"])
def test_a_decision_is_judged_only_by_what_its_seat_had_seen(lead: str) -> None:
    assert _first_lead(HIDDEN_A, lead) == _first_lead(HIDDEN_B, lead)


CLEAR = {
    "jack_thrown_on_opponents_trump": "jack_risked",
    "opponents_jack_taken_last": None,
    "opponents_jack_taken_second_with_the_ace": None,
    "ace_of_trumps_spent_on_an_empty_lift": "trump_wasted",
    "beggar_begs_on_top_trumps": "should_stand",
    "dealer_gives_on_nothing": "should_run",
}


def _situation(name: str) -> Situation:
    return next(s for s in CATALOGUE if s.name == name)


@pytest.mark.parametrize("name", list(CLEAR))
def test_a_clear_fault_is_costly_with_the_right_better_choice(name: str) -> None:
    situation = _situation(name)
    obs = situation.observation()
    for fault in (a for a in obs.legal if not situation.is_right(a)):
        j = judge(obs, fault, random.Random(name), WORLDS)
        assert j.loss >= COSTLY, (name, fault)
        assert j.best is not None and situation.is_right(j.best), (name, j.best)
        if CLEAR[name] is not None:
            assert j.why == CLEAR[name]


@pytest.mark.parametrize("name", list(CLEAR))
def test_the_right_choice_costs_nothing(name: str) -> None:
    situation = _situation(name)
    obs = situation.observation()
    for right in (a for a in obs.legal if situation.is_right(a)):
        assert judge(obs, right, random.Random(name), WORLDS).loss == 0


def test_a_random_player_loses_far_more_than_the_standard_player() -> None:
    """The issue's ranking in small (bench/review.py measures it at scale): seat 0 picks
    random legal actions, the others are standard players, three short games."""
    rules = Rules(target=7)
    losses: dict[bool, list[float]] = {True: [], False: []}
    for seed in (1, 2, 3):
        state = new_game(rules, seed)
        pick = random.Random(seed)
        actions: list[Action] = []
        while state.phase is not Phase.GAME_OVER:
            assert state.turn is not None
            obs = observe(state, state.turn)
            if state.turn == 0:
                action = pick.choice(obs.legal)
            else:
                action = choose(obs, "standard", rng=rng_for(seed, len(actions)), budget=QUICK)
            actions.append(action)
            state = apply(state, action)
        for j in review_game(rules, seed, None, actions, worlds=WORLDS):
            losses[j.seat == 0].append(j.loss)
    randomly = sum(losses[True]) / len(losses[True])
    standard = sum(losses[False]) / len(losses[False])
    assert randomly >= 3 * standard > 0
