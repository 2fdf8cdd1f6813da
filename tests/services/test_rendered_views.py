"""A view is built once per version for what every viewer shares, and per seat only for what
differs: each seat's view, put together from the shared part, is exactly the view pydantic
validates whole (strict), differs from a spectator's only in the seat's own fields, and is
rendered once per ``ViewKey``."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from app.live.presence import Presence
from app.rules import legal_actions
from app.rules.config import preset_rules
from app.rules.state import Phase
from app.services import errors
from app.services.decide import Act, Command, OutOfTurn, Start, TakeSeat, decide
from app.services.identity import token_hash
from app.services.snapshot import RoomSnap
from app.services.view import RenderedViews, RoomView, json_renderer, room_view
from tests.services.test_decide import EMPTY

OWN = {"you", "hand", "legal", "refused", "played_for_you"}
CLOCK = "timed_at"  # when a view was put together: two views of a version differ in it


def _started(room: RoomSnap, seed: int) -> RoomSnap:
    """``room`` with four players seated and its first game started from ``seed``."""
    snap = room
    for seat in range(4):
        after = decide(snap, TakeSeat(None, f"P{seat}", seat, token_hash(f"t{seat}")))
        assert after is not None
        snap = after
    started = decide(snap, Start("t0", fresh_seed=seed))
    assert started is not None and started.game is not None
    return started


def _game(seed: int) -> list[RoomSnap]:
    """Every version of a room of four whose whole game is played at random, some moves made
    by the computer for an away player (so that played_for_you is not always empty)."""
    snaps, rng = [_started(EMPTY, seed)], random.Random(seed)
    while (state := snaps[-1].game.state).turn is not None:  # type: ignore[union-attr]
        move = Act(None, rng.choice(legal_actions(state)), seat=state.turn, auto=rng.random() < 0.3)
        after = decide(snaps[-1], move)
        assert after is not None
        snaps.append(after)
    return snaps


def test_each_seats_view_is_the_shared_one_with_its_own_part_and_valid_whole() -> None:
    presence = Presence()
    for snap in _game(3)[::7]:
        spectator = room_view(snap, None, presence)
        for seat in range(4):
            view = room_view(snap, seat, presence)
            assert RoomView.model_validate(view.model_dump()) == view  # valid as built
            mine, theirs = view.model_dump(), spectator.model_dump()
            assert {k for k in mine if mine[k] != theirs[k]} - {CLOCK} <= OWN
            assert json.loads(view.model_dump_json())["you"] == seat


def test_a_view_is_rendered_once_per_key_and_as_the_whole_view_would_be() -> None:
    presence, views = Presence(), RenderedViews()
    for played in _game(5)[:40]:
        snap = replace(played, at=datetime.now(UTC))  # committed now: the clocks count from it
        for seat in (None, 0, 1, 2, 3):
            text = views.text(snap, seat, presence, json_renderer)
            assert views.text(snap, seat, presence, json_renderer) is text
            whole = room_view(snap, seat, presence).model_dump()
            assert {**json.loads(text), CLOCK: None} == {**whole, CLOCK: None}


def _renege_game(seed: int) -> list[RoomSnap]:
    """Every version of a renege-mode game (RULES.md R20-R27) played at random: any card, a
    call of renege on a random lift now and then, each reckoning ended by "score it" or by
    its clock (the lifts and the calls are in the views of those versions)."""
    renege = replace(EMPTY, rules=preset_rules("trinidad", {"renege": "one"}))
    snaps, rng = [_started(renege, seed)], random.Random(seed)
    while (game := snaps[-1].game) is not None and game.state.winner is None:
        state = game.state
        move: Command
        if state.phase is Phase.RECKONING:
            move = rng.choice([OutOfTurn(None, "score"), OutOfTurn(None, "reckoned", seat=0)])
        elif state.tricks and rng.random() < 0.1:
            lift = rng.randint(1, len(state.tricks))
            move = OutOfTurn(None, "call", lift=lift, seat=rng.randrange(4))
        else:
            assert state.turn is not None
            move = Act(None, rng.choice(legal_actions(state)), seat=state.turn)
        try:
            after = decide(snaps[-1], move)
        except (errors.NotOfferedNow, errors.IllegalMoveError):
            continue  # a call the rules do not take (R22) changes nothing
        if after is not None:
            snaps.append(after)
    return snaps


@pytest.mark.parametrize("game", [_game, _renege_game], ids=["standard", "renege"])
def test_the_json_is_written_as_pydantic_writes_the_whole_view(
    game: Callable[[int], list[RoomSnap]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """RenderedViews writes a view's JSON from its plain values: byte for byte the model's
    ``model_dump_json``, with every part a game shows (calls, reckonings, renege cards, the
    away clocks)."""
    monkeypatch.setattr(time, "time", lambda: 1_764_691_200.125)
    presence, views = Presence(), RenderedViews()
    shown: set[str] = set()
    for played in game(11):
        snap = replace(played, at=datetime.fromtimestamp(1_764_691_190, UTC))
        for seat in (None, 0, 1, 2, 3):
            text = views.text(snap, seat, presence, json_renderer)
            assert text == json_renderer(room_view(snap, seat, presence))
            shown |= {k for k, v in json.loads(text).items() if v not in (None, [], False)}
    assert {"last_hand", "timed_at"} <= shown
    if game is _renege_game:
        assert {"calls", "lifts", "renege_cards", "reckoned"} <= shown


def test_the_lobbys_json_is_written_as_pydantic_writes_the_whole_view() -> None:
    """Before the first game a seat's view differs from a spectator's only in ``you``: its
    hand and its moves are the lobby's, written from the shared part."""
    presence, views = Presence(), RenderedViews()
    snap = EMPTY
    for seat in range(4):
        after = decide(snap, TakeSeat(None, f"P{seat}", seat, token_hash(f"t{seat}")))
        assert after is not None
        snap = after
        for viewer in (None, 0, 1, 2, 3):
            text = views.text(snap, viewer, presence, json_renderer)
            assert text == json_renderer(room_view(snap, viewer, presence))
            assert json.loads(text)["you"] == viewer
