"""The turn timer lives in the database: a server killed (SIGKILL) while a decision's timer
runs, then started again, still makes that decision for the seat when the timer runs out, and
the player keeps the seat."""

from __future__ import annotations

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
            seat = started["turn"]
            assert started["turn_deadline"] is not None and started["turn_deadline"] <= 12
        server.kill()
        server.start()
        with httpx.Client(base_url=server.url, timeout=30) as api:
            after_restart = api.get(f"/api/rooms/{code}").json()
            # The decision is still to be made: the restarted server must make it.
            assert after_restart["version"] == started["version"]
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
