"""A player key (and what a seat token is derived from) never appears in a page, an event, a
record, an export or a log (API.md § Players): tested as seat tokens are."""

from __future__ import annotations

import logging
import random

import pytest
from fastapi.testclient import TestClient

from app.logs import JsonFormatter
from app.players import keys
from app.store import player_repo
from app.store.db import read
from tests.api.table import bearer, new_room, play_random


def test_no_key_secret_or_derived_token_is_ever_shown(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    handles = ["pam", "quinn", "ray", "sue"]
    player_keys = []
    for handle in handles:
        made = client.post("/api/players", json={"handle": handle, "name": handle.title()})
        player_keys.append(made.json()["key"])
    code = new_room(client)
    for seat, key in enumerate(player_keys):
        joined = client.post(
            f"/api/rooms/{code}/join", json={"seat": seat, "name": "x"}, headers=bearer(key)
        )
        assert joined.json() == {"seat": seat, "token": None}
    assert (
        client.post(f"/api/rooms/{code}/start", headers=bearer(player_keys[0])).status_code == 200
    )
    final = play_random(client, code, player_keys, random.Random(34))
    assert final["phase"] == "game_over"
    link = client.post("/api/me/signin-links", headers=bearer(player_keys[0])).json()

    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    with read(ctx.engine) as conn:
        rows = [player_repo.player_by_handle(conn, h) for h in handles]
    secrets = [row.secret for row in rows if row is not None and row.secret]
    hidden = [*player_keys, *secrets]
    hidden += [ctx.players.seat_token(row, code) for row in rows if row is not None]
    hidden += [keys.hashed(k) for k in player_keys]

    shown = []
    for key in player_keys:
        client.cookies.set("allfours_player", key)
        for path in (
            f"/r/{code}",
            f"/api/rooms/{code}",
            f"/api/rooms/{code}/games/1",
            f"/api/rooms/{code}/stats",
            "/api/me",
            "/api/me/export",
            "/api/me/devices",
            "/",
        ):
            r = client.get(path)
            assert r.status_code == 200, (path, r.text)
            shown.append(r.text)
        client.cookies.clear()
    log = _server_log(caplog)
    assert '"path":"/api/me/export"' in log  # the request log is read, with its fields
    shown.append(log)
    shown.append(str(link))  # the sign-in link's answer holds its code, and nothing else
    for text in shown:
        for secret in hidden:
            assert secret not in text
    # the sign-in code itself is not in the request log
    client.get(f"/signin/{link['code']}")
    assert f"/signin/{link['code'][:3]}" not in _server_log(caplog)
    assert link["code"] not in _server_log(caplog)


def _server_log(caplog: pytest.LogCaptureFixture) -> str:
    """The server's log lines as it writes them (with their fields), not the test client's."""
    formatter = JsonFormatter()
    return "\n".join(
        formatter.format(record) for record in caplog.records if not record.name.startswith("httpx")
    )
