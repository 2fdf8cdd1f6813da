"""R30-R31 at a room: a table with the option ``boards`` deals its set one board a game, each
from the event's seed (the room's) and the board's own stream, by the board's dealer, played
as one hand; its view names the board; after the last no next game. Read back from the
database (a restart) the same, on SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import random

import pytest
from pydantic import ValidationError
from sqlalchemy import Engine

from app.live.hub import Hub
from app.live.notifier import LocalNotifier
from app.live.presence import Presence
from app.rules import Rules, legal_actions, observe
from app.rules.cards import DECK_SIZE
from app.services import errors
from app.services.options import RoomOptions
from app.services.rooms import Rooms
from app.services.snapshot import RoomSnap, load
from app.services.view import room_view
from app.store import repo
from app.store.db import make_engine, read

SEED = 2**100 + 49


def _deck(seed: int, label: str) -> list[int]:
    """docs/fairness.md's deck of the stream ``label``, derived here again."""
    cards = list(range(DECK_SIZE))
    out = bytearray()
    block = 0
    for i in range(DECK_SIZE - 1, 0, -1):
        m = i + 1
        while True:
            if not out:
                text = f"allfours:{seed}:{label}:{block}".encode()
                out += hashlib.sha256(text).digest()
                block += 1
            b = out.pop(0)
            if b < 256 - 256 % m:
                break
        j = b % m
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _reloaded(engine: Engine, code: str) -> RoomSnap:
    with read(engine) as conn:
        room = repo.room_by_code(conn, code)
        assert room is not None
        return load(conn, room)


def _play_board(rooms: Rooms, snap: RoomSnap, rng: random.Random) -> RoomSnap:
    while snap.game is not None and not snap.game.over:
        state = snap.game.state
        if state.turn is None:  # a reckoning (renege mode): its time is up
            snap = rooms.table_act(code=snap.code, type="score", seat=None, expected=snap.version)
            continue
        action = rng.choice(legal_actions(state))
        snap = rooms.act(
            code=snap.code, token=None, action=action, expected=None, seat=state.turn, auto=True
        )
    return snap


def test_r30_r31_a_table_deals_its_boards_one_a_game(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        _deals_its_boards(engine)
    finally:
        engine.dispose()


def _deals_its_boards(engine: Engine) -> None:
    rooms = Rooms(engine, LocalNotifier(Hub()))
    boards = (4, 5, 6)
    options = RoomOptions(boards=boards, rated=False)
    snap = rooms.create_room(rules=Rules(renege="one"), seed=SEED, options=options)
    code = snap.code
    for seat in range(4):
        rooms.seat_bot(code=code, token=None, seat=seat, level="easy", admin=True)
    snap = rooms.start(code=code, token=None, admin=True)
    rng = random.Random(49)
    for number, board in enumerate(boards, 1):
        assert snap.game is not None and snap.game.number == number
        state = snap.game.state
        dealer = (board - 1) % 4
        assert state.board == board and state.dealer == dealer and state.hand_number == 1
        deck = _deck(SEED, f"b{board}")
        assert state.kicks[0] == deck[24]
        assert state.dealt[(dealer + 1) % 4] >> deck[0] & 1
        view = room_view(snap, None, Presence()).model_dump(mode="json")
        assert view["board"] == {"number": board, "dealer": dealer, "of": 3}
        snap = _play_board(rooms, snap, rng)
        assert snap.game is not None and snap.game.over
        assert len([h for h in snap.game.state.history if not h.redeal]) == 1
        # The event's seed deals the boards still to come: it is not shown at a board's end.
        assert observe(snap.game.state, 0).seed is None
        view = room_view(snap, 0, Presence()).model_dump(mode="json")
        assert view["seed"] is None and view["board"]["number"] == board
        again = _reloaded(engine, code)
        assert again.game is not None and again.game.state == snap.game.state
        if number < len(boards):
            snap = rooms.rematch(code=code, token=None, admin=True)
    with pytest.raises(errors.Conflict) as refused:
        rooms.rematch(code=code, token=None, admin=True)
    assert refused.value.code == "boards_done"


def test_r31_a_table_of_boards_plays_renege_off_or_one_only(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        rooms = Rooms(engine, LocalNotifier(Hub()))
        options = RoomOptions(boards=(1,))
        with pytest.raises(errors.Invalid):
            rooms.create_room(rules=Rules(renege="bullseye"), seed=SEED, options=options)
    finally:
        engine.dispose()


def test_r30_a_board_is_dealt_once_at_a_table() -> None:
    with pytest.raises(ValidationError):
        RoomOptions(boards=(1, 1))
    with pytest.raises(ValidationError):
        RoomOptions(boards=(0,))
