"""Renege mode's reckoning (R23) survives a crash: SIGKILL the server while a hand is being
reckoned, start it again on the same database, and the hand is scored once, when the
deadline counted from the hand's last card (games.reckon_since) runs out, not later."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx

from tests.api.table import bearer
from tests.live.server import ServerProcess

DEADLINE_S = 60  # a bound on waiting, not a speed requirement


def to_reckoning(api: httpx.Client, code: str, tokens: list[str]) -> dict[str, Any]:
    """Strictly legal moves (never a renege) until the first hand's reckoning."""
    while True:
        v = api.get(f"/api/rooms/{code}").json()
        if v["phase"] == "reckoning":
            return dict(v)
        seat = v["turn"]
        mine = api.get(f"/api/rooms/{code}", headers=bearer(tokens[seat])).json()
        marked = set(mine.get("renege_cards") or ())
        move = next(m for m in mine["legal"] if m.get("card") not in marked)
        r = api.post(
            f"/api/rooms/{code}/actions",
            json={**move, "version": mine["version"]},
            headers=bearer(tokens[seat]),
        )
        assert r.status_code == 200, r.text


def test_sigkill_during_a_reckoning_scores_the_hand_once_on_time(
    database_url: str, tmp_path: Path
) -> None:
    log = tmp_path / "server.log"
    # reckon_s 20, scaled by 0.5: the hand is scored 10 s after its last card.
    env = {"ALLFOURS_AWAY_S": "3600", "ALLFOURS_TURN_TIMER_SCALE": "0.5"}
    server = ServerProcess(database_url, log, **env).start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as api:
            body = {"rules": {"renege": "one"}, "options": {"reckon_s": 20}}
            code = api.post("/api/rooms", json=body).json()["code"]
            tokens = [
                api.post(f"/api/rooms/{code}/join", json={"name": n}).json()["token"]
                for n in ("Ann", "Ben", "Cal", "Dee")
            ]
            api.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
            reckoning = to_reckoning(api, code, tokens)
            last_card = time.monotonic()
            r = api.post(f"/api/rooms/{code}/reckoned", headers=bearer(tokens[2]))
            assert r.status_code == 204
        server.kill()
        server.start()
        with httpx.Client(base_url=server.url, timeout=30) as api:
            v = api.get(f"/api/rooms/{code}").json()
            elapsed = time.monotonic() - last_card
            if v["phase"] == "reckoning":
                assert v["reckoned"] == [2]
                # counted from the last card, not from the restart
                assert v["reckon_deadline"] <= 10 - elapsed + 1
            end = time.monotonic() + DEADLINE_S
            while v["phase"] == "reckoning":
                assert time.monotonic() < end, "the reckoning was not ended after the restart"
                time.sleep(0.1)
                v = api.get(f"/api/rooms/{code}").json()
            scored_after = time.monotonic() - last_card
            assert scored_after >= 10 - 0.5  # not before its time
            assert v["hand_number"] == reckoning["hand_number"] + 1
            time.sleep(1)  # a second scoring would show by now
            again = api.get(f"/api/rooms/{code}").json()
            assert again["hand_number"] == v["hand_number"]
            assert again["version"] == v["version"]
            record = api.get(f"/api/rooms/{code}/hands/1").json()
            assert record["calls"] == [] and record["awards"]
    finally:
        server.stop()
