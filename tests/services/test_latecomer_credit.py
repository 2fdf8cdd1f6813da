"""A latecomer who takes a computer player's seat from the next deal (issue #46) finishes the
game in it: the game is credited to them (the room's stats, their career), the deals the
computer played before stay the computer's, and nothing "was played for them while they
were away" (they were not away: they arrived). As the server keeps it and as it reads it
back."""

from __future__ import annotations

import random
import secrets

from sqlalchemy import Engine

from app.live.hub import Hub
from app.live.notifier import LocalNotifier
from app.rules import Rules, legal_actions
from app.services.career import profile
from app.services.options import RoomOptions
from app.services.players import Players
from app.services.rebuild_careers import rebuild
from app.services.rooms import Rooms
from app.services.snapshot import GameInfo, RoomSnap, load
from app.services.stats import count_room
from app.store import repo
from app.store.db import make_engine, read


def _move(rooms: Rooms, snap: RoomSnap, tokens: dict[int, str], rng: random.Random) -> RoomSnap:
    """The seat to act moves: a person with their token, a computer player as the server
    moves it (a random legal move: the credit, not the play, is tested)."""
    assert snap.game is not None
    state = snap.game.state
    seat = state.turn
    assert seat is not None
    action = rng.choice(legal_actions(state))
    info = snap.seats[seat]
    assert info is not None
    if info.bot:
        return rooms.act(
            code=snap.code, token=None, action=action, expected=None, seat=seat, auto=True
        )
    return rooms.act(code=snap.code, token=tokens[seat], action=action, expected=None)


def _game(snap: RoomSnap) -> GameInfo:
    assert snap.game is not None
    return snap.game


def _reloaded(engine: Engine, code: str) -> RoomSnap:
    with read(engine) as conn:
        room = repo.room_by_code(conn, code)
        assert room is not None
        return load(conn, room)


def test_a_latecomer_is_credited_with_the_game_they_finish(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        _credited(engine)
    finally:
        engine.dispose()


def _credited(engine: Engine) -> None:
    rooms = Rooms(engine, LocalNotifier(Hub()))
    players = Players(engine, rooms, secrets.token_bytes(32))
    handle = f"late_{secrets.token_hex(3)}"
    ben = players.signed_in(players.create(address="t", handle=handle, name="Ben").key)
    assert ben is not None
    snap = rooms.create_room(rules=Rules(target=7), seed=46, options=RoomOptions(public=True))
    code = snap.code
    ann = rooms.join(code=code, name="Ann", seat=0, token=None).token
    for seat in (1, 2, 3):
        rooms.seat_bot(code=code, token=None, seat=seat, level=None, admin=True)
    snap = rooms.start(code=code, token=None, admin=True)
    tokens = {0: ann}
    rng = random.Random(46)
    for _ in range(3):  # the computer player in seat 1 plays a little of the first deal
        snap = _move(rooms, snap, tokens, rng)
    bot_name = snap.seats[1].name if snap.seats[1] else ""
    joined = rooms.join(
        code=code,
        name="Ben",
        seat=1,
        token=ben.seat_token(code),
        player=ben.seat_player,
    )
    assert joined.pending and joined.seat == 1
    tokens[1] = ben.seat_token(code)
    snap = joined.snap
    while _game(snap).state.hand_number == 1 and not _game(snap).over:
        snap = _move(rooms, snap, tokens, rng)
    assert not _game(snap).over, "seed 46 plays more than one deal"
    took = _game(snap).state.hand_number
    # Ben's first deal: the seat is his, and nothing was played "for him".
    seat1 = snap.seats[1]
    assert seat1 is not None and not seat1.bot and seat1.name == "Ben"
    for seen in (snap, _reloaded(engine, code)):
        assert seen.game is not None and seen.game.played_for[1] == ()
        assert seen.game.lineup is not None and seen.game.lineup[1].since == took
    while not _game(snap).over:
        snap = _move(rooms, snap, tokens, rng)
    history = _game(snap).state.history
    all_hands = sum(1 for h in history if not h.redeal)
    his_hands = sum(1 for h in history if not h.redeal and h.n >= took)

    # The room's stats: the game is Ben's in seat 1; the computer keeps its deals' figures.
    stats = count_room(rooms, snap)
    names = [p.name for p in stats.players]
    ben_stats = stats.players[names.index("Ben")]
    assert stats.games[0].seats[1] == ben_stats.player
    assert ben_stats.games == 1 and ben_stats.bot is False
    # The computer player of seat 1 is still counted, for its deals but not the game (those
    # of seats 2 and 3 played it all).
    computers = [p for p in stats.players if p.bot]
    assert {p.name for p in computers} == {bot_name}
    assert sorted(p.games for p in computers) == [0, 1, 1]
    assert ben_stats.bullseyes == (1 if _game(snap).state.winner == 1 else 0)

    # Ben's career: the game, and the deals he played.
    mine = profile(engine, handle, None)
    assert mine["stats"]["games"] == 1
    assert mine["stats"]["hands"] == his_hands < all_hands
    assert mine["recent"][0]["game"] == 1
    assert rebuild(engine) >= 1  # counted again from the records: the same
    assert profile(engine, handle, None)["stats"] == mine["stats"]
