"""Properties of whole random games in renege mode (R20-R27): players who renege at random,
calls at random moments by random seats, reckonings ended by "score it" or by the clock."""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules import (
    Action,
    Phase,
    RuleError,
    Rules,
    State,
    apply,
    legal_actions,
    new_game,
    observe,
    replay,
)
from app.rules.cards import FULL_DECK
from app.rules.engine import legal_play_mask
from app.rules.renege import lifts_begun
from app.rules.state import SCORE, call, reckoned
from app.views.game import game_view
from app.views.records import hand_records
from tests.rules.test_properties import GAMES, SETTINGS

rules_st = st.builds(
    Rules,
    target=st.sampled_from([7, 10, 14, 21]),
    game_points=st.sampled_from([1, 2]),
    game_tie=st.sampled_from(["none", "non_dealer"]),
    undertrump=st.sampled_from(["allowed", "forbidden"]),
    renege=st.sampled_from(["trinidad", "one", "bullseye"]),
    false_call=st.sampled_from(["penalty", "free"]),
)
game_st = st.tuples(rules_st, st.integers(0, 2**63), st.integers(0, 2**32))


def random_game(rules: Rules, seed: int, chooser: int) -> Iterator[tuple[State, Action, State]]:
    """(before, action, after) for each accepted action of a game to its end: a seat plays a
    legal card mostly and reneges now and then; a random seat calls a random lift now and
    then (refusals are checked to change nothing); the reckoning ends either way."""
    rng = random.Random(chooser)
    state = new_game(rules, seed, None)
    while state.phase is not Phase.GAME_OVER:
        action: Action
        if state.phase in (Phase.PLAY, Phase.RECKONING) and rng.random() < 0.08:
            action = call(rng.randrange(4), rng.randint(1, max(1, lifts_begun(state) + 1)))
        elif state.phase is Phase.RECKONING:
            missing = [s for s in range(4) if not state.reckoned >> s & 1]
            action = SCORE if rng.random() < 0.3 else reckoned(rng.choice(missing))
        elif state.phase is Phase.PLAY and rng.random() < 0.8:
            strict = legal_play_mask(state)
            action = rng.choice([a for a in legal_actions(state) if strict >> (a.card or 0) & 1])
        else:
            action = rng.choice(legal_actions(state))
        try:
            after = apply(state, action)
        except RuleError:
            assert action.type == "call"
            continue
        yield state, action, after
        state = after


def check_call(before: State, action: Action, after: State) -> None:
    """R22: a call is upheld exactly when its lift held an uncalled renege by the other team;
    R24: a team pays at most once a hand."""
    assert action.seat is not None and action.lift is not None
    judged = after.calls[-1] if after.phase is not Phase.GAME_OVER else after.history[-1].calls[-1]
    catchable = [
        r
        for r in before.reneges
        if r.lift == action.lift and r.seat % 2 != action.seat % 2 and not r.called
    ]
    assert judged.upheld == bool(catchable)
    if judged.upheld:
        assert (judged.card, judged.offender) == (catchable[0].card, catchable[0].seat)
    paid = [c.paid_by for c in before.calls if c.paid_by is not None]
    assert judged.paid_by not in paid or judged.paid_by is None


def check_views(state: State) -> None:
    """R20, R27: only the holder learns its would-be reneges; no view shows an uncalled
    renege before the game is over."""
    over = state.winner is not None
    for seat in (0, 1, 2, 3, None):
        obs = observe(state, seat)
        data = game_view(obs).model_dump()
        assert ("renege_cards" in data) == (seat is not None and seat == state.turn)
        for record in hand_records(obs):
            assert (record.reneges is not None) == over
        if not over:
            assert all(r.reneges == () for r in obs.history)


@settings(SETTINGS, max_examples=max(GAMES // 4, 1))
@given(game_st)
def test_random_renege_games_judge_every_call_and_hide_every_renege(
    drawn: tuple[Rules, int, int],
) -> None:
    rules, seed, chooser = drawn
    actions: list[Action] = []
    state = new_game(rules, seed, None)
    for before, action, after in random_game(rules, seed, chooser):
        actions.append(action)
        held = after.hands[0] | after.hands[1] | after.hands[2] | after.hands[3]
        lifted = after.won[0] | after.won[1]
        assert not held & lifted and (held | lifted | sum(1 << c for c in after.stock)) <= FULL_DECK
        if action.type == "call":
            check_call(before, action, after)
        if len(actions) % 7 == 0 or after.phase is Phase.GAME_OVER:
            check_views(after)
        state = after
    assert state.phase is Phase.GAME_OVER and state.winner is not None
    for record in state.history:
        payers = [c.paid_by for c in record.calls if c.paid_by is not None]
        assert len(payers) == len(set(payers))  # R24: at most one penalty a team a hand
        assert sum(r.called for r in record.reneges) == sum(c.upheld for c in record.calls)
    assert replay(rules, seed, None, actions) == state
