"""The review in renege mode (R20-R27, issue #38): a renege is priced with its penalty, a call
is judged by the proof its seat had seen, "score it" over a proven renege gives the penalty
up, and none of it reads a card the seat had not seen. Hearts are trump (kick 3H), seat 1
leads; the hands are the computer players' calling catalogue's (tests/bots/catalogue.py)."""

from __future__ import annotations

import random

import pytest

from app.bots import choose, rng_for
from app.bots.renege import call_due
from app.bots.review import COSTLY, judge, judge_table_action, review_game, summarize
from app.rules import Rules, apply, observe
from app.rules.cards import parse
from app.rules.state import Action, Phase, State, call, reckoned
from tests.bots.catalogue import RENEGE_HANDS
from tests.bots.test_review import QUICK
from tests.rules.stack import act, do, game, stack

WORLDS = 48
ONE = Rules(renege="one")


def dealt(rules: Rules = ONE, hands: dict[int, str] = RENEGE_HANDS, moves: str = "") -> State:
    return do(game(0, stack(0, hands, "3H"), rules=rules), "stand", *([moves] if moves else []))


def to_the_reckoning(state: State) -> State:
    """The hand played on by fair cards (the first that does not renege) to its last."""
    while state.phase is Phase.PLAY:
        assert state.turn is not None
        obs = observe(state, state.turn)
        fair = [a for a in obs.legal if a.card is not None and not obs.renege_cards >> a.card & 1]
        state = apply(state, fair[0])
    assert state.phase is Phase.RECKONING
    return state


def play(code: str) -> Action:
    return Action("play", parse(code))


@pytest.mark.parametrize("rules", [ONE, Rules(renege="bullseye"), Rules(renege="trinidad")])
def test_a_renege_costs_its_penalty_and_a_fair_card_is_better(rules: Rules) -> None:
    """Seat 2 holds the two of clubs under the king: the spade is found out by the hand's
    end (he must play the club later), whatever the table's penalty."""
    obs = observe(dealt(rules, moves="KC"), 2)
    assert obs.renege_cards >> parse("2S") & 1
    judged = judge(obs, play("2S"), random.Random(1), WORLDS)
    assert judged.loss >= 1  # a point to the other side at least (R24)
    assert judged.best in (play("2C"), play("9H"))
    assert judged.why == "renege_found_out"
    if rules.renege == "bullseye":  # the game lost: every point the other side still needed
        assert judged.loss >= rules.target - 2


def test_a_renege_on_a_lift_the_other_side_has_called_cannot_be_caught() -> None:
    """They called lift 1 before seat 2's card (a wrong call, paid): lift 1 is called, so
    seat 2's spade there can never be; it costs no penalty, only what the card does."""
    state = apply(dealt(moves="KC"), call(1, 1))
    obs = observe(state, 2)
    assert judge(obs, play("2S"), random.Random(1), WORLDS).loss < 1


def test_a_call_the_seat_had_seen_proven_costs_nothing() -> None:
    state = dealt(moves="KC 2S 6D 3C AH 9H 7D TH 2D 2C 8D")
    judged = judge_table_action(observe(state, 3), call(3, 1), random.Random(1), WORLDS)
    assert judged.loss == 0 and judged.best == call(3, 1)


@pytest.mark.parametrize("false_call", ["penalty", "free"])
def test_a_call_nothing_had_proven_is_judged_as_a_wrong_one(false_call: str) -> None:
    """A spade on a club lead may be a void: calling on it costs R25's penalty, or nothing
    at a table where a wrong call is free."""
    rules = Rules(renege="one", false_call=false_call)
    state = dealt(rules, moves="KC 2S 6D 3C")
    judged = judge_table_action(observe(state, 3), call(3, 1), random.Random(1), WORLDS)
    if false_call == "free":
        assert judged.loss == 0
    else:
        assert judged.loss >= 1 and judged.best is None and judged.why == "call_unproven"


# Seat 2 holds no club here (the two of clubs is seat 0's): its spade on the king of clubs is
# a fair discard. Seat 3 has seen neither hand, so its call weighs the same in both deals.
VOID = {**RENEGE_HANDS, 2: "6S 9H 2S 3S 4S 5S", 0: "3C 4C TH 2C 7S 8S"}


def test_a_call_is_judged_only_by_what_its_seat_had_seen() -> None:
    losses = []
    for hands in (RENEGE_HANDS, VOID):
        state = dealt(hands=hands, moves="KC 2S 6D 3C")
        judged = judge_table_action(observe(state, 3), call(3, 1), random.Random(1), WORLDS)
        losses.append((judged.loss, judged.best))
    assert losses[0] == losses[1]


def test_score_it_over_a_proven_renege_gives_its_penalty_up() -> None:
    state = to_the_reckoning(dealt(moves="KC 2S 6D 3C AH 9H 7D TH 2D 2C 8D"))
    let_go = judge_table_action(observe(state, 1), reckoned(1), random.Random(1), WORLDS)
    assert let_go.loss >= 1 and let_go.best == call(1, 1) and let_go.why == "renege_let_go"
    # Seat 0's side reneged; it has nothing to call: its "score it" is right.
    assert judge_table_action(observe(state, 0), reckoned(0), random.Random(1), WORLDS).loss == 0
    # Once called, "score it" is right for the other side too.
    called = apply(state, call(3, 1))
    assert judge_table_action(observe(called, 1), reckoned(1), random.Random(1), WORLDS).loss == 0


def test_a_whole_renege_game_reviews_every_call_and_score_it() -> None:
    """Seat 0 plays any card of its hand, reneges included; the others are standard players,
    who call what they see proven (R26) and say "score it" at once."""
    rules = Rules(renege="one", target=7)
    seed = 4
    state = game(0, rules=rules, seed=seed)
    pick = random.Random(seed)
    actions: list[Action] = []
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.RECKONING:
            seat = next(s for s in range(4) if not state.reckoned >> s & 1)
        else:
            assert state.turn is not None
            seat = state.turn
        obs = observe(state, seat)
        lift = call_due(obs) if seat != 0 else None
        if lift is not None:  # R26: what it has seen proven, before it acts
            action = call(seat, lift)
        elif state.phase is Phase.RECKONING:
            action = reckoned(seat)
        elif seat == 0 and state.phase is Phase.PLAY:
            action = play_any(obs.hand, pick)
        else:
            action = choose(obs, "standard", rng=rng_for(seed, len(actions)), budget=QUICK)
        actions.append(action)
        state = apply(state, action)
    judged = review_game(rules, seed, 0, actions, worlds=16)
    decided = [a for a in actions if a.type != "score"]
    assert [j.action for j in judged] == decided
    assert [actions[j.index] for j in judged] == decided
    assert any(a.type == "call" for a in decided) and any(a.type == "reckoned" for a in decided)
    reneged = [j for j in judged if j.why == "renege_found_out"]
    assert reneged and all(j.seat == 0 and j.loss >= COSTLY for j in reneged)
    seats = summarize(judged)
    assert seats[0].average_loss > max(s.average_loss for s in seats[1:])


def play_any(hand: int, pick: random.Random) -> Action:
    return Action("play", pick.choice([c for c in range(52) if hand >> c & 1]))


def test_a_stand_is_judged_as_before_in_renege_mode() -> None:
    state = game(0, stack(0, RENEGE_HANDS, "3H"), rules=ONE)
    judged = review_game(ONE, 0, 0, [act("stand")], stacked=[stack(0, RENEGE_HANDS, "3H")])
    assert judged[0].seat == state.turn == 1


def test_every_reason_a_review_gives_has_its_words() -> None:
    from app.bots.review import REASONS
    from app.web.review import review_words

    assert set(review_words(["A", "B", "C", "D"])["why"]) == set(REASONS)
