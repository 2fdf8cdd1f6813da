"""The decisions of the write path, on snapshots alone: no database, the same answer for the
same snapshot and command, every refusal as the API answers it."""

from __future__ import annotations

import pytest

from app.rules import Action, Rules, legal_actions
from app.services import errors
from app.services.decide import Act, Rematch, SeatComputer, Start, TakeSeat, action_from, decide
from app.services.identity import token_hash
from app.services.snapshot import RoomSnap

EMPTY = RoomSnap(1, "abc", 0, Rules(), 7, (None, None, None, None), None)
TOKENS = ["t0", "t1", "t2", "t3"]


def _seated_four() -> RoomSnap:
    snap = EMPTY
    for seat, token in enumerate(TOKENS):
        after = decide(snap, TakeSeat(None, f"P{seat}", seat, token_hash(token)))
        assert after is not None
        snap = after
    return snap


def test_a_join_seats_the_fresh_token_and_a_rejoin_changes_nothing() -> None:
    after = decide(EMPTY, TakeSeat(None, "Ann", None, token_hash("t")))
    assert after is not None and after.version == 1
    seat = after.seats[0]
    assert seat is not None and (seat.name, seat.token_hash) == ("Ann", token_hash("t"))
    assert decide(after, TakeSeat("t", "Ann", 2, token_hash("other"))) is None
    with pytest.raises(errors.SeatTaken):
        decide(after, TakeSeat(None, "Ben", 0, token_hash("u")))


def test_the_same_snapshot_and_command_decide_the_same() -> None:
    snap = _seated_four()
    start = Start("t0", fresh_seed=99)
    first, second = decide(snap, start), decide(snap, start)
    assert first is not None and second is not None
    assert first.game is not None and second.game is not None
    assert first.game.seed == 7  # the room's own seed, not the fresh one
    assert first.game.state == second.game.state


def test_refusals_come_as_the_api_answers_them() -> None:
    snap = _seated_four()
    with pytest.raises(errors.Conflict):
        decide(snap, Rematch("t0", fresh_seed=1))  # no finished game
    with pytest.raises(errors.Unauthorized):
        decide(snap, Start("nobody", fresh_seed=1))
    with pytest.raises(errors.SeatTaken):
        decide(snap, SeatComputer("t0", 1, "easy"))
    started = decide(snap, Start("t0", fresh_seed=1))
    assert started is not None and started.game is not None
    turn = started.game.state.turn
    assert turn is not None
    waiting = TOKENS[(turn + 1) % 4]
    with pytest.raises(errors.NotYourTurn):
        decide(started, Act(waiting, Action("stand")))
    with pytest.raises(errors.NotOfferedNow):
        decide(started, Act(TOKENS[turn], Action("give_one")))
    (move, *_) = legal_actions(started.game.state)
    after = decide(started, Act(TOKENS[turn], move))
    assert after is not None and after.game is not None
    assert after.version == started.version + 1 and after.game.seq == 1


def test_moves_are_read_from_their_names_and_codes() -> None:
    assert action_from("play", "AS").card is not None
    assert action_from("stand", None) == Action("stand")
    with pytest.raises(errors.Invalid, match="unknown action"):
        action_from("fold", None)
    with pytest.raises(errors.Invalid, match="R3"):
        action_from("play", "ZZ")


def test_a_game_keeps_who_sat_where_and_a_rematch_the_results_before_it() -> None:
    import random

    from app.services.snapshot import GameResult, Occupant

    snap = decide(_seated_four(), Start("t0", fresh_seed=1))
    assert snap is not None and snap.game is not None and snap.results == ()
    assert snap.game.lineup == tuple(
        Occupant(f"P{s}", False, None, token_hash(t)) for s, t in enumerate(TOKENS)
    )
    rng = random.Random(1)
    game = snap.game
    while (state := game.state).turn is not None:
        after = decide(snap, Act(None, rng.choice(legal_actions(state)), seat=state.turn))
        assert after is not None and after.game is not None
        snap, game = after, after.game
    assert game.state.winner is not None
    again = decide(snap, Rematch("t2", fresh_seed=2))
    assert again is not None and again.game is not None
    assert again.results == (GameResult(1, game.lineup, game.state.winner),)
    assert again.game.lineup == game.lineup
