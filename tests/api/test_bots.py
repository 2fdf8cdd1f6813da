"""Computer players at the table: seated by the API, driven by the server after each commit."""

from __future__ import annotations

import random
import time
from typing import Any

from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from app.store import repo
from app.store.db import make_engine, read
from tests.api.conftest import ADMIN
from tests.api.table import assert_no_leak, bearer, new_room, view

DEADLINE_S = 120  # a bound on waiting for the bots, not a speed requirement


def wait_for(predicate: Any, what: str) -> None:
    end = time.monotonic() + DEADLINE_S
    while not predicate():
        assert time.monotonic() < end, f"gave up waiting for {what}"
        time.sleep(0.02)


def test_three_bots_and_one_api_player_play_to_the_end(client: TestClient) -> None:
    code = new_room(client, {"rules": {"target": 7}})
    token = client.post(f"/api/rooms/{code}/join", json={"name": "Ann"}).json()["token"]
    me = bearer(token)
    for seat in (1, 2, 3):
        client.post(f"/api/rooms/{code}/bots", json={"seat": seat}, headers=me)
    client.post(f"/api/rooms/{code}/start", headers=me)
    rng = random.Random(5)
    versions = []
    end = time.monotonic() + DEADLINE_S
    while True:
        assert time.monotonic() < end, "the game did not finish"
        mine = view(client, code, token)
        versions.append(mine["version"])
        if mine["phase"] == "game_over":
            break
        assert_no_leak([mine, *[_blank(mine, s) for s in (1, 2, 3)]], view(client, code))
        if mine["turn"] == 0:
            move = dict(rng.choice(mine["legal"]))
            move["version"] = mine["version"]
            r = client.post(f"/api/rooms/{code}/actions", json=move, headers=me)
            assert r.status_code in (200, 409), r.text
        else:
            time.sleep(0.01)
    assert mine["winner"] in (0, 1)
    assert versions == sorted(versions)


def _blank(v: dict[str, Any], seat: int) -> dict[str, Any]:
    """A stand-in view of a bot seat (no hand known) for the leak check of seat 0's view."""
    sizes = list(v["hand_sizes"])
    sizes[seat] = 0
    return {"hand": [], "hand_sizes": sizes}


def test_a_room_of_four_bots_finishes(client: TestClient) -> None:
    """The admin token may seat bots and start without a seat: a table of four bots."""
    code = new_room(client, {"rules": {"target": 7}})
    admin = bearer(ADMIN)
    for seat in range(4):
        level = "easy" if seat % 2 else "standard"
        r = client.post(
            f"/api/rooms/{code}/bots", json={"seat": seat, "level": level}, headers=admin
        )
        assert r.status_code == 200, r.text
    assert client.post(f"/api/rooms/{code}/start", headers=admin).status_code == 200
    wait_for(lambda: view(client, code)["phase"] == "game_over", "four bots to finish")
    final = view(client, code)
    assert final["winner"] in (0, 1)
    assert all(s["bot"] for s in final["seats"])


def test_away_cover_takes_over_and_hands_back(database_url: str) -> None:
    settings = Settings(database_url=database_url, rate_limit=0, bot_delay_ms=0, away_s=0.3)
    with TestClient(create_app(settings)) as c:
        code = new_room(c)
        tokens = [
            c.post(f"/api/rooms/{code}/join", json={"name": n}).json()["token"]
            for n in ("Ann", "Ben", "Cal", "Dee")
        ]
        start = c.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0])).json()
        first = start["version"]
        # Nobody acts and nobody streams: after away_s the seat to act is played "(auto)".
        wait_for(lambda: view(c, code)["version"] > first, "the away cover")
        covered = [s["seat"] for s in view(c, code)["seats"] if s["auto"]]
        assert covered
        # A covered player comes back with any request of theirs: the seat is theirs again.
        back = covered[0]
        mine = view(c, code, tokens[back])
        assert mine["seats"][back]["auto"] is False


def test_no_process_covers_a_player_seen_by_another(database_url: str) -> None:
    """Two app processes on one database: B must not cover a player who is active on A."""
    settings = Settings(database_url=database_url, rate_limit=0, bot_delay_ms=0, away_s=0.5)
    app_a, app_b = create_app(settings), create_app(settings)
    for app in (app_a, app_b):
        app.state.ctx.keeper.shared_presence = True
    with TestClient(app_a) as a:
        code = new_room(a)
        tokens = [
            a.post(f"/api/rooms/{code}/join", json={"name": n}).json()["token"]
            for n in ("Ann", "Ben", "Cal", "Dee")
        ]
        started = a.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0])).json()
        turn = started["turn"]
        # Everyone polls A, often; B starts and resumes the game, but sees them through A.
        with TestClient(app_b):
            end = time.monotonic() + 4
            while time.monotonic() < end:
                for t in tokens:
                    assert view(a, code, t)["version"] == started["version"]
                time.sleep(0.05)
            # Now they all go quiet: after away_s the seat to act is covered (by A or B).
            wait_for(lambda: view(a, code)["version"] > started["version"], "the away cover")
    assert turn is not None


def test_two_processes_driving_the_same_bots_never_play_a_version_twice(
    database_url: str,
) -> None:
    """Both processes' keepers try every bot turn; the conditional UPDATE lets one through."""
    settings = Settings(
        database_url=database_url, admin_token=ADMIN, rate_limit=0, bot_delay_ms=0, away_s=3600
    )
    with TestClient(create_app(settings)) as a:
        code = new_room(a, {"rules": {"target": 7}})
        for seat in range(4):
            a.post(
                f"/api/rooms/{code}/bots",
                json={"seat": seat, "level": "easy"},
                headers=bearer(ADMIN),
            )
        app_b = create_app(settings)
        with TestClient(app_b) as b:
            assert b.portal is not None  # set while the client's lifespan runs
            # B resumes the game at its start, A drives it after each of its commits.
            start = a.post(f"/api/rooms/{code}/start", headers=bearer(ADMIN)).json()
            # B hears of no commit of A's (in-process notifiers): tell its keeper by polling.
            while view(b, code)["phase"] != "game_over":
                snap = app_b.state.ctx.rooms.snapshot(code)
                b.portal.call(_tell, app_b.state.ctx.keeper, code, snap.version)
                time.sleep(0.01)
        final = view(a, code)
    engine = make_engine(database_url)
    with read(engine) as conn:
        room = repo.room_by_code(conn, code)
        assert room is not None
        game = repo.latest_game(conn, room.id)
        assert game is not None
        logs = repo.actions_of(conn, game.id)
    engine.dispose()
    assert [log.seq for log in logs] == list(range(1, len(logs) + 1))
    assert [log.version for log in logs] == list(range(start["version"] + 1, final["version"] + 1))


async def _tell(keeper: Any, code: str, version: int) -> None:
    keeper.on_version(code, version)
