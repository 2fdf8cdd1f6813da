"""A crash (SIGKILL) mid-game loses nothing: after a restart on the same database every
seat's view is the same, the game plays on to the end, and a pending bot turn resumes."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import httpx

from tests.api.table import bearer
from tests.live.server import ServerProcess

DEADLINE_S = 60  # a bound on waiting, not a speed requirement


def views(api: httpx.Client, code: str, tokens: list[str]) -> list[dict[str, Any]]:
    out = [api.get(f"/api/rooms/{code}", headers=bearer(t)).json() for t in tokens]
    out.append(api.get(f"/api/rooms/{code}").json())
    for v in out:
        for clock in ("timed_at", "away", "turn_deadline"):
            v.pop(clock)  # the clocks run on (tests/live/test_clocks.py checks them)
        for seat in v["seats"]:
            seat.pop("connected")  # who is streaming right now is not game state
    return out


def move(api: httpx.Client, code: str, tokens: list[str], rng: random.Random) -> bool:
    v = api.get(f"/api/rooms/{code}").json()
    if v["turn"] is None:
        return False
    seat = v["turn"]
    mine = api.get(f"/api/rooms/{code}", headers=bearer(tokens[seat])).json()
    body = {**rng.choice(mine["legal"]), "version": mine["version"]}
    r = api.post(f"/api/rooms/{code}/actions", json=body, headers=bearer(tokens[seat]))
    assert r.status_code == 200, r.text
    return True


def test_sigkill_mid_game_then_restart_same_views_and_play_to_the_end(
    database_url: str, tmp_path: Path
) -> None:
    log = tmp_path / "server.log"
    server = ServerProcess(database_url, log, ALLFOURS_AWAY_S="3600").start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as api:
            code = api.post("/api/rooms").json()["code"]
            tokens = [
                api.post(f"/api/rooms/{code}/join", json={"name": n}).json()["token"]
                for n in ("Ann", "Ben", "Cal", "Dee")
            ]
            api.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
            rng = random.Random(3)
            for _ in range(25):
                move(api, code, tokens, rng)
            before = views(api, code, tokens)
        server.kill()
        server.start()
        with httpx.Client(base_url=server.url, timeout=30) as api:
            assert views(api, code, tokens) == before
            while move(api, code, tokens, rng):
                pass
            final = api.get(f"/api/rooms/{code}").json()
            assert final["phase"] == "game_over" and final["winner"] in (0, 1)
    finally:
        server.stop()


def test_a_pending_bot_turn_resumes_after_a_restart(database_url: str, tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    # Bots think for a long minute here: the server dies in the middle of a bot's turn.
    slow = ServerProcess(
        database_url, log, ALLFOURS_BOT_DELAY_MS="60000", ALLFOURS_AWAY_S="3600"
    ).start()
    try:
        with httpx.Client(base_url=slow.url, timeout=30) as api:
            code = api.post("/api/rooms").json()["code"]
            token = api.post(f"/api/rooms/{code}/join", json={"name": "Ann", "seat": 0}).json()[
                "token"
            ]
            for seat in (1, 2, 3):
                r = api.post(f"/api/rooms/{code}/bots", json={"seat": seat}, headers=bearer(token))
                assert r.status_code == 200
            started = api.post(f"/api/rooms/{code}/start", headers=bearer(token)).json()
            # Ann plays her turns; stop at the first bot turn.
            rng = random.Random(4)
            v = started
            while v["turn"] == 0:
                body = {**rng.choice(v["legal"]), "version": v["version"]}
                v = api.post(f"/api/rooms/{code}/actions", json=body, headers=bearer(token)).json()
            assert v["turn"] in (1, 2, 3)
            pending = v["version"]
        slow.kill()
    finally:
        slow.stop()
    fast = ServerProcess(database_url, log, ALLFOURS_AWAY_S="3600").start()
    try:
        with httpx.Client(base_url=fast.url, timeout=30) as api:
            end = time.monotonic() + DEADLINE_S
            while api.get(f"/api/rooms/{code}").json()["version"] == pending:
                assert time.monotonic() < end, "the bot's turn was not resumed"
                time.sleep(0.02)
    finally:
        fast.stop()
