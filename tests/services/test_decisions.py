"""Every room command decided on a snapshot alone (app/services/decide.py), as a table: a
room as it stands, a command, and what follows: the room after it (its version, who sits
where, the host, the game and its last move), nothing changed, or the refusal's code."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache

import pytest

from app.rules import Action, Phase, Rules, legal_actions
from app.rules.engine import NOT_OFFERED
from app.rules.renege import CALL_OUTSIDE_HAND
from app.services import errors
from app.services.decide import (
    Act,
    Banished,
    ClaimSeat,
    Command,
    ForgetPlayer,
    HostBot,
    HostFree,
    HostMove,
    OutOfTurn,
    Rematch,
    SeatComputer,
    Start,
    TakeSeat,
    action_from,
    decide,
)
from app.services.identity import seat_mark, token_hash
from app.services.options import RoomOptions
from app.services.snapshot import Claim, RoomSnap, SeatPlayer

TOKENS = ("t0", "t1", "t2", "t3")
ANN = SeatPlayer(7, "ann")  # a profile claiming a guest's seat
EMPTY = RoomSnap(1, "abc", 0, Rules(), 7, (None, None, None, None), None)
RESERVED = replace(EMPTY, options=RoomOptions(reserved=True))


def _h(token: str) -> str:
    return token_hash(token)


def _decided(snap: RoomSnap, *commands: Command) -> RoomSnap:
    for command in commands:
        after = decide(snap, command)
        assert after is not None, command
        snap = after
    return snap


def _seated(snap: RoomSnap, n: int) -> RoomSnap:
    return _decided(snap, *(TakeSeat(None, f"P{s}", s, _h(TOKENS[s])) for s in range(n)))


@cache
def _one() -> RoomSnap:
    return _seated(EMPTY, 1)


@cache
def _two() -> RoomSnap:
    return _seated(EMPTY, 2)


@cache
def _claimed() -> RoomSnap:
    """Two seated, the second's seat taken over by Ann's profile."""
    return _decided(_two(), ClaimSeat("t1", ANN, "Annie", _h("p1")))


@cache
def _four() -> RoomSnap:
    return _seated(EMPTY, 4)


@cache
def _started() -> RoomSnap:
    return _decided(_four(), Start("t0", fresh_seed=1))


def _turn(snap: RoomSnap) -> int:
    assert snap.game is not None and snap.game.state.turn is not None
    return snap.game.state.turn


@cache
def _moved() -> RoomSnap:
    """The started game after a move that passed the turn to another seat."""
    snap = _started()
    while True:
        assert snap.game is not None
        mover = _turn(snap)
        snap = _decided(snap, Act(TOKENS[mover], legal_actions(snap.game.state)[0]))
        if _turn(snap) != mover:
            return snap


def _played(snap: RoomSnap, until: Callable[[RoomSnap], bool], seed: int = 1) -> RoomSnap:
    rng = random.Random(seed)
    while not until(snap):
        assert snap.game is not None
        state = snap.game.state
        snap = _decided(snap, Act(None, rng.choice(legal_actions(state)), seat=state.turn))
    return snap


@cache
def _finished() -> RoomSnap:
    return _played(_started(), lambda s: s.game is not None and s.game.state.winner is not None)


@cache
def _reckoning() -> RoomSnap:
    """A renege-mode hand's last card played: the hand being reckoned (R23)."""
    renege = replace(_four(), rules=Rules(renege="one"))
    started = _decided(renege, Start("t0", fresh_seed=1))
    return _played(started, lambda s: s.game is not None and s.game.state.phase is Phase.RECKONING)


@cache
def _bot_in_play() -> RoomSnap:
    """Seat 3 a computer player's, a game in play."""
    snap = _decided(_seated(EMPTY, 3), SeatComputer("t0", 3, "standard"))
    return _decided(snap, Start("t0", fresh_seed=1))


@cache
def _bot_claimed() -> RoomSnap:
    return _decided(_bot_in_play(), TakeSeat(None, "Late", 3, _h("late")))


@cache
def _bot_in_lobby() -> RoomSnap:
    return _decided(_seated(EMPTY, 3), SeatComputer("t0", 3, "standard"))


@cache
def _reserved_one() -> RoomSnap:
    return _decided(RESERVED, TakeSeat(None, "P0", 0, _h("t0"), reserved=True))


# -- what a decision is expected to give ----------------------------------------------------


@dataclass(frozen=True)
class Room:
    """The parts of the room after that the table checks."""

    version: int
    seats: tuple[str | None, ...]
    host: int | None = 0
    game: int | None = None  # the game's number
    seq: int = 0  # its moves so far


def room_of(snap: RoomSnap) -> Room:
    return Room(
        snap.version,
        tuple(s.name if s is not None else None for s in snap.seats),
        snap.host,
        snap.game.number if snap.game is not None else None,
        snap.game.seq if snap.game is not None else 0,
    )


UNCHANGED = "unchanged"
P4 = ("P0", "P1", "P2", "P3")
BOT = "Bot (standard)"  # app/services/names.py bot_name


@dataclass(frozen=True)
class Case:
    name: str
    snap: Callable[[], RoomSnap]
    command: Callable[[RoomSnap], Command]
    expect: Room | str  # the room after, UNCHANGED, or the refusal's code


def _legal_move(snap: RoomSnap) -> Act:
    assert snap.game is not None
    return Act(TOKENS[_turn(snap)], legal_actions(snap.game.state)[0])


def _waiting(snap: RoomSnap) -> Act:
    assert snap.game is not None
    return Act(TOKENS[(_turn(snap) + 1) % 4], legal_actions(snap.game.state)[0])


def _resent(snap: RoomSnap) -> Act:
    """The move just accepted, sent again by the seat that made it."""
    assert snap.game is not None and snap.game.last is not None
    last = snap.game.last
    return Act(TOKENS[last.seat], action_from(last.type, last.card))


def _reckoner(snap: RoomSnap) -> OutOfTurn:
    return OutOfTurn("t1", "reckoned")


CASES = [
    # join
    Case("join: first free seat", lambda: EMPTY, lambda s: TakeSeat(None, "Ann", None, _h("a")),
         Room(1, ("Ann", None, None, None))),
    Case("join: a seat chosen", _one, lambda s: TakeSeat(None, "Ben", 2, _h("b")),
         Room(2, ("P0", None, "Ben", None))),
    Case("join: one's own seat again", _one, lambda s: TakeSeat("t0", "P0", 3, _h("x")), UNCHANGED),
    Case("join: a taken seat", _one, lambda s: TakeSeat(None, "Ben", 0, _h("b")), "seat_taken"),
    Case("join: a full table", _four, lambda s: TakeSeat(None, "Eve", None, _h("e")), "table_full"),
    Case("join: a night's seat without its link", lambda: RESERVED,
         lambda s: TakeSeat(None, "Eve", 0, _h("e")), "night_seats_reserved"),
    Case("join: a night's seat with its link", lambda: RESERVED,
         lambda s: TakeSeat(None, "P0", 0, _h("t0"), reserved=True),
         Room(1, ("P0", None, None, None))),
    Case("join: a computer's seat in the lobby", _bot_in_lobby,
         lambda s: TakeSeat(None, "Late", 3, _h("late")), Room(5, ("P0", "P1", "P2", "Late"))),
    Case("join: a computer's seat in play (a claim)", _bot_in_play,
         lambda s: TakeSeat(None, "Late", 3, _h("late")), Room(6, ("P0", "P1", "P2", BOT), game=1)),
    Case("join: a seat claimed already", _bot_claimed,
         lambda s: TakeSeat(None, "Other", 3, _h("o")), "seat_claimed"),
    # seat a computer player
    Case("seat_bot", _one, lambda s: SeatComputer("t0", 1, "standard"),
         Room(2, ("P0", BOT, None, None))),
    Case("seat_bot: a taken seat", _two, lambda s: SeatComputer("t0", 1, "standard"), "seat_taken"),
    Case("seat_bot: no token", _one, lambda s: SeatComputer(None, 1, "standard"), "token_needed"),
    Case("seat_bot: nobody's token", _one, lambda s: SeatComputer("x", 1, "standard"),
         "token_holds_no_seat"),
    Case("seat_bot: at a night's table", _reserved_one, lambda s: SeatComputer("t0", 1, "standard"),
         "night_director_seats"),
    Case("seat_bot: the night's director", _reserved_one,
         lambda s: SeatComputer(None, 1, "standard", admin=True), Room(2, ("P0", BOT, None, None))),
    # start and rematch
    Case("start", _four, lambda s: Start("t0", fresh_seed=1), Room(5, P4, game=1)),
    Case("start: seats empty", _one, lambda s: Start("t0", fresh_seed=1), "seats_empty"),
    Case("start: started already", _started, lambda s: Start("t0", fresh_seed=1), "game_started"),
    Case("start: nobody's token", _four, lambda s: Start("x", fresh_seed=1), "token_holds_no_seat"),
    Case("rematch", _finished, lambda s: Rematch("t2", fresh_seed=2),
         "rematch"),  # checked below: the version varies with the game played
    Case("rematch: game not over", _started, lambda s: Rematch("t0", fresh_seed=2),
         "game_not_finished"),
    # a seat's action
    Case("act", _started, _legal_move, Room(6, P4, game=1, seq=1)),
    Case("act: no game", _four, lambda s: Act("t0", Action("stand")), "not_started"),
    Case("act: not one's turn", _started, _waiting, "not_your_turn"),
    Case("act: the move just made, again", _moved, _resent, "move_already_made"),
    Case("act: the game over", _finished, lambda s: Act("t0", Action("stand")),
         NOT_OFFERED[Phase.GAME_OVER].code),
    Case("act: the hand being reckoned", _reckoning, lambda s: Act("t0", Action("stand")),
         "being_reckoned"),
    # renege calls and the reckoning (R22-R23)
    Case("call: no game", _four, lambda s: OutOfTurn("t0", "call", 1), CALL_OUTSIDE_HAND.code),
    Case("call: not seated", _started, lambda s: OutOfTurn("x", "call", 1), "call_needs_seat"),
    Case("reckoned", _reckoning, _reckoner, "reckoned"),  # checked below
    Case("score: time up", _reckoning, lambda s: OutOfTurn(None, "score"), "scored"),
    # the host's powers
    Case("host_bot", _two, lambda s: HostBot("t0", 1, "standard", away=True),
         Room(3, ("P0", BOT, None, None))),
    Case("host_bot: not away", _two, lambda s: HostBot("t0", 1, "standard", away=False),
         "player_not_away"),
    Case("host_bot: not the host", _two, lambda s: HostBot("t1", 0, "standard", away=True),
         "host_only"),
    Case("host_bot: the host's seat", _two, lambda s: HostBot("t0", 0, "standard", away=True),
         "host_keeps_seat"),
    Case("host_bot: an empty seat", _two, lambda s: HostBot("t0", 2, "standard", away=True),
         "no_player_to_replace"),
    Case("host_bot: a night's table", _reserved_one,
         lambda s: HostBot("t0", 1, "standard", away=True), "night_director_seats"),
    Case("host_free", _two, lambda s: HostFree("t0", 1), Room(3, ("P0", None, None, None))),
    Case("host_free: free already", _two, lambda s: HostFree("t0", 2), "seat_already_free"),
    Case("host_free: the host's seat", _two, lambda s: HostFree("t0", 0), "host_keeps_seat"),
    Case("host_free: in play", _started, lambda s: HostFree("t0", 1), "free_in_lobby"),
    Case("host_move", _two, lambda s: HostMove("t0", 1, 3), Room(3, ("P0", None, None, "P1"))),
    Case("host_move: the host moves", _two, lambda s: HostMove("t0", 0, 1),
         Room(3, ("P1", "P0", None, None), host=1)),
    Case("host_move: the same seat", _two, lambda s: HostMove("t0", 1, 1), "move_same_seat"),
    Case("host_move: nobody there", _two, lambda s: HostMove("t0", 2, 3), "seat_empty"),
    Case("host_move: in play", _started, lambda s: HostMove("t0", 1, 2), "move_between_games"),
    # claim a seat for a profile: by the guest's token, or by the home page's mark
    Case("claim: by token", _two, lambda s: ClaimSeat("t1", ANN, "Annie", _h("p1")),
         Room(3, ("P0", "Annie", None, None))),
    Case("claim: by mark", _two,
         lambda s: ClaimSeat(None, ANN, "Annie", _h("p1"), seat=1, mark=seat_mark("t1")),
         Room(3, ("P0", "Annie", None, None))),
    Case("claim: a mark of another seat", _two,
         lambda s: ClaimSeat(None, ANN, "Annie", _h("p1"), seat=0, mark=seat_mark("t1")),
         UNCHANGED),
    Case("claim: a token of no seat", _two, lambda s: ClaimSeat("zz", ANN, "Annie", _h("p1")),
         UNCHANGED),
    Case("forget a player: nobody's", _two, lambda s: ForgetPlayer(7, _h("n")), UNCHANGED),
    # a banned player's seats go to computer players
    Case("banish: the player's seat", _claimed, lambda s: Banished(7, "standard"),
         Room(4, ("P0", BOT, None, None))),
    Case("banish: nobody's", _two, lambda s: Banished(7, "standard"), UNCHANGED),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_room_command_decides(case: Case) -> None:
    snap = case.snap()
    command = case.command(snap)
    if isinstance(case.expect, Room):
        after = decide(snap, command)
        assert after is not None
        assert room_of(after) == case.expect
    elif case.expect == UNCHANGED:
        assert decide(snap, command) is None
    elif case.expect == "rematch":
        after = decide(snap, command)
        assert after is not None and after.game is not None
        assert (after.version, after.game.number, len(after.results)) == (snap.version + 1, 2, 1)
    elif case.expect == "reckoned":
        after = decide(snap, command)
        assert after is not None and after.game is not None
        assert after.game.state.reckoned >> 1 & 1 and after.version == snap.version + 1
        assert decide(after, command) is None  # said already: nothing changes
    elif case.expect == "scored":
        after = decide(snap, command)
        assert after is not None and after.game is not None
        assert after.game.state.phase is not Phase.RECKONING
    else:
        with pytest.raises(errors.ApiError) as refused:
            decide(snap, command)
        assert refused.value.code == case.expect


def test_a_claim_holds_the_seat_for_the_next_deal() -> None:
    seat = _bot_claimed().seats[3]
    assert seat is not None and seat.bot
    assert seat.claim == Claim("Late", _h("late"))


def test_every_room_command_has_a_row() -> None:
    decided = {type(c.command(c.snap())) for c in CASES}
    assert decided == set(Command.__args__)
