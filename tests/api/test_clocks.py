"""Nobody stalls the table (issue 15): the away countdown and the turn timer in every view,
the decision the timer makes for a seat that keeps it, and what a returning player is told."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.rules import Action
from app.rules.cards import code
from app.services.snapshot import PLAYED_FOR_KEPT, with_played_for
from app.store.repo import ActionLog
from tests.api.conftest import app_settings
from tests.api.table import bearer, new_room, view

DEADLINE_S = 120  # a bound on waiting for the server, not a speed requirement
Json = dict[str, Any]


def wait_for(fetch: Any, ok: Any, what: str) -> Json:
    end = time.monotonic() + DEADLINE_S
    while True:
        got: Json = fetch()
        if ok(got):
            return got
        assert time.monotonic() < end, f"gave up waiting for {what}"
        time.sleep(0.02)


def one_human_three_bots(client: TestClient, options: Json | None = None) -> tuple[str, str]:
    code = new_room(client, {"options": options or {}})
    token = client.post(f"/api/rooms/{code}/join", json={"name": "Ann"}).json()["token"]
    for seat in (1, 2, 3):
        r = client.post(f"/api/rooms/{code}/bots", json={"seat": seat}, headers=bearer(token))
        assert r.status_code == 200, r.text
    assert client.post(f"/api/rooms/{code}/start", headers=bearer(token)).status_code == 200
    return code, token


def test_the_away_countdown_is_in_every_view_for_the_seat_to_act(client: TestClient) -> None:
    code, token = one_human_three_bots(client)
    watching = wait_for(lambda: view(client, code), lambda v: v["turn"] == 0, "Ann's turn")
    # Ann has no stream open: the computer will play for her once ALLFOURS_AWAY_S (3600 in
    # these tests) has passed since her last sign of life.
    assert watching["away"][1:] == [None, None, None]
    assert 0 < watching["away"][0] <= 3600
    assert watching["turn_deadline"] is None  # no turn timer in this room
    assert isinstance(watching["timed_at"], float)  # Unix seconds: count down from it
    mine = view(client, code, token)
    assert mine["away"][0] is not None and mine["played_for_you"] == []


def test_no_countdown_in_the_lobby_or_for_bots(client: TestClient) -> None:
    code = new_room(client)
    lobby = view(client, code)
    assert lobby["away"] == [None, None, None, None] and lobby["turn_deadline"] is None
    assert lobby["timed_at"] is None  # no clock runs: the view is the same whenever rendered
    assert lobby["played_for_you"] == []


@pytest.fixture
def timed_client(database_url: str) -> Iterator[TestClient]:
    # A 30 s timer shortened to 0.3 s: the test sees it run out many times.
    settings = app_settings(database_url, turn_timer_scale=0.01)
    with TestClient(create_app(settings)) as c:
        yield c


def test_the_turn_timer_decides_for_the_seat_and_the_player_keeps_it(
    timed_client: TestClient,
) -> None:
    client = timed_client
    code, token = one_human_three_bots(client, {"turn_timer_s": 30})
    # Ann never moves: each of her decisions is made by the computer when the timer runs out.
    mine = wait_for(
        lambda: view(client, code, token),
        lambda v: len(v["played_for_you"]) >= 2,
        "two decisions made by the timer",
    )
    assert mine["you"] == 0
    assert mine["seats"][0]["auto"] is False  # never covered: she keeps the seat
    assert mine["seats"][0]["bot"] is False
    assert len(mine["played_for_you"]) <= PLAYED_FOR_KEPT
    assert all(
        a["type"] in ("stand", "beg", "give_one", "run_pack", "play")
        for a in mine["played_for_you"]
    )
    # Spectators are not told what was played for a seat.
    assert view(client, code)["played_for_you"] == []
    # While it is her turn the timer counts, at most the scaled 30 s.
    turn = wait_for(lambda: view(client, code, token), lambda v: v["turn"] == 0, "her turn")
    if turn["turn_deadline"] is not None:
        assert 0 <= turn["turn_deadline"] <= 30


def test_the_returning_player_is_told_once_they_move_it_is_gone(
    timed_client: TestClient,
) -> None:
    client = timed_client
    code, token = one_human_three_bots(client, {"turn_timer_s": 30})
    wait_for(lambda: view(client, code, token), lambda v: v["played_for_you"], "a timed-out move")
    page = client.get(f"/r/{code}", headers=bearer(token))
    assert page.status_code == 200
    # The page tells her (and her own move, when she makes one, clears it: see below).
    assert "the computer" in page.text


def test_played_for_keeps_auto_moves_until_the_seat_moves_itself() -> None:
    def log(seq: int, seat: int, auto: bool) -> ActionLog:
        return ActionLog(seq, seat, "play", code(seq), seq, auto)

    kept: tuple[tuple[Action, ...], ...] = ((), (), (), ())
    kept = with_played_for(kept, log(1, 0, True))
    kept = with_played_for(kept, log(2, 1, True))
    assert [len(k) for k in kept] == [1, 1, 0, 0]
    kept = with_played_for(kept, log(3, 0, False))
    assert [len(k) for k in kept] == [0, 1, 0, 0]
    for n in range(40):
        kept = with_played_for(kept, log(4 + n, 2, True))
    assert len(kept[2]) == PLAYED_FOR_KEPT and kept[2][-1] == Action("play", 43)
