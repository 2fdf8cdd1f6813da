"""The turn timer lives in the database: a server killed (SIGKILL) while a decision's timer
runs, then started again, still makes that decision for the seat when the timer runs out, and
the player keeps the seat."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx

from tests.api.table import bearer
from tests.live.server import ServerProcess

DEADLINE_S = 120  # a bound on waiting, not a speed requirement


def test_a_turn_timer_survives_a_kill_and_makes_the_decision(
    database_url: str, tmp_path: Path
) -> None:
    # 120 s shortened to 12 s: long enough for the kill and the restart to come first.
    env = {"ALLFOURS_AWAY_S": "3600", "ALLFOURS_TURN_TIMER_SCALE": "0.1"}
    server = ServerProcess(database_url, tmp_path / "server.log", **env).start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as api:
            r = api.post("/api/rooms", json={"options": {"turn_timer_s": 120}})
            code = r.json()["code"]
            tokens = [
                api.post(f"/api/rooms/{code}/join", json={"name": n}).json()["token"]
                for n in ("Ann", "Ben", "Cal", "Dee")
            ]
            started = api.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0])).json()
            started_at = time.monotonic()
            seat = started["turn"]
            assert started["turn_deadline"] is not None and started["turn_deadline"] <= 12
        server.kill()
        # The killed server lived under the timer's 12 s: it cannot have made the decision.
        assert time.monotonic() - started_at < 12
        server.start()
        with httpx.Client(base_url=server.url, timeout=30) as api:
            after_restart = api.get(f"/api/rooms/{code}").json()
            # The decision is the restarted server's, made once (on a loaded machine its
            # start-up may take the 12 s: then it is made before this first answer).
            assert after_restart["version"] in (started["version"], started["version"] + 1)
            end = time.monotonic() + DEADLINE_S
            moved: dict[str, Any] = after_restart
            while moved["version"] == started["version"]:
                assert time.monotonic() < end, "the timer's decision was never made"
                time.sleep(0.1)
                moved = api.get(f"/api/rooms/{code}").json()
            assert moved["version"] == started["version"] + 1
            mine = api.get(f"/api/rooms/{code}", headers=bearer(tokens[seat])).json()
            assert mine["you"] == seat  # the seat is still theirs
            assert mine["seats"][seat]["auto"] is False and mine["seats"][seat]["bot"] is False
            assert len(mine["played_for_you"]) == 1  # one decision, made by the computer
            # The next decision has its own timer, counted from the new version.
            assert moved["turn_deadline"] is None or moved["turn_deadline"] <= 12
    finally:
        server.stop()


def test_a_stream_ends_when_the_host_moves_its_player(database_url: str, tmp_path: Path) -> None:
    """A player's stream never shows another seat's view: moved by the host, it ends, and the
    next connection shows the new seat."""
    server = ServerProcess(database_url, tmp_path / "server.log").start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as api:
            code = api.post("/api/rooms").json()["code"]
            ann, bob = (
                api.post(f"/api/rooms/{code}/join", json={"name": n}).json()["token"]
                for n in ("Ann", "Bob")
            )
            seen: list[int | None] = []
            with api.stream("GET", f"/api/rooms/{code}/events", headers=bearer(bob)) as events:
                lines = events.iter_lines()
                for line in lines:
                    if line.startswith("data:"):
                        seen.append(json.loads(line[5:])["you"])
                        break
                r = api.post(
                    f"/api/rooms/{code}/host/move", json={"seat": 1, "to": 3}, headers=bearer(ann)
                )
                assert r.status_code == 200, r.text
                for line in lines:  # to the stream's end (a read timeout would fail the test)
                    if line.startswith("data:") and '"you"' in line:
                        seen.append(json.loads(line[5:])["you"])
            assert seen == [1]
            again = api.get(f"/api/rooms/{code}", headers=bearer(bob)).json()
            assert again["you"] == 3
    finally:
        server.stop()


def test_two_processes_on_one_database_make_each_timed_out_decision_once(
    database_url: str, tmp_path: Path
) -> None:
    """Both processes keep the room and both try when a timer runs out: the conditional
    version update lets one move, so the log has each decision once and nothing fails."""
    if not database_url.startswith("postgresql"):
        return  # several processes share one database through PostgreSQL (LISTEN/NOTIFY)
    env = {"ALLFOURS_AWAY_S": "3600", "ALLFOURS_TURN_TIMER_SCALE": "0.02"}  # 30 s -> 0.6 s
    a = ServerProcess(database_url, tmp_path / "a.log", **env).start()
    b = ServerProcess(database_url, tmp_path / "b.log", **env).start()
    try:
        with httpx.Client(base_url=a.url, timeout=30) as api:
            code = api.post("/api/rooms", json={"options": {"turn_timer_s": 30}}).json()["code"]
            tokens = [
                api.post(f"/api/rooms/{code}/join", json={"name": n}).json()["token"]
                for n in ("Ann", "Ben", "Cal", "Dee")
            ]
            start = api.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0])).json()
            end = time.monotonic() + DEADLINE_S
            while True:  # nobody moves: the timers play a dozen decisions
                assert time.monotonic() < end, "the timers stopped deciding"
                v = api.get(f"/api/rooms/{code}").json()
                if v["version"] >= start["version"] + 12 or v["phase"] == "game_over":
                    break
                time.sleep(0.1)
            for seat, token in enumerate(tokens):
                mine = api.get(f"/api/rooms/{code}", headers=bearer(token)).json()
                assert mine["you"] == seat and not mine["seats"][seat]["auto"]
            record = api.get(f"/api/rooms/{code}/games/1").json()
            actions = record["actions"]
            assert [a["seq"] for a in actions] == list(range(1, len(actions) + 1))
            assert actions and all(a["auto"] for a in actions)  # every one by the timer
        for server in (a, b):
            assert "Traceback" not in server.log.read_text(errors="replace")
    finally:
        a.stop()
        b.stop()
