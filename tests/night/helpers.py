"""Driving a club night through its API, as a director's script would."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from tests.api.table import bearer

Json = dict[str, Any]
QUICK = {"target": 7}  # games to 7: a night of computer players in seconds


def open_night(client: TestClient, **body: Any) -> tuple[str, str]:
    body = {"name": "Friday at the club", "rules": QUICK, **body}
    r = client.post("/api/nights", json=body)
    assert r.status_code == 201, r.text
    found = r.json()
    return found["code"], found["director_token"]


def register(
    client: TestClient,
    code: str,
    names: list[str],
    director: str | None = None,
    team: str | None = None,
) -> Json:
    headers = bearer(director) if director else {}
    r = client.post(
        f"/api/nights/{code}/pairs", json={"names": names, "team": team}, headers=headers
    )
    assert r.status_code == 201, r.text
    return dict(r.json())


def substitute(client: TestClient, code: str, director: str, body: Json, table: int = 1) -> Any:
    """The director seats a substitute (``{"seat", "name"}`` or ``{"seat", "bot"}``)."""
    return client.post(
        f"/api/nights/{code}/tables/{table}/substitute", json=body, headers=bearer(director)
    )


def link_tokens(client: TestClient, code: str, names: list[str]) -> list[str]:
    """A pair registered: each partner's link token (their link's last part)."""
    return [link.rsplit("/", 1)[1] for link in register(client, code, names)["links"]]


def next_round(client: TestClient, code: str, director: str) -> Json:
    r = client.post(f"/api/nights/{code}/rounds", headers=bearer(director))
    assert r.status_code == 201, r.text
    return dict(r.json())


def night(client: TestClient, code: str) -> Json:
    r = client.get(f"/api/nights/{code}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def bots_everywhere(client: TestClient, code: str, director: str, level: str = "easy") -> None:
    """Computer players in every seat of the round, in one step."""
    r = client.post(
        f"/api/nights/{code}/computer-players", json={"level": level}, headers=bearer(director)
    )
    assert r.status_code == 200, r.text


def round_over(client: TestClient, code: str, timeout: float = 120.0) -> Json:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = night(client, code)
        if all(t["state"] == "over" for t in found["rounds"][-1]["tables"]):
            return found
        time.sleep(0.05)
    raise AssertionError(f"round not over: {night(client, code)['rounds'][-1]}")


def play_night_by_bots(client: TestClient, code: str, director: str) -> Json:
    while True:
        r = client.post(f"/api/nights/{code}/rounds", headers=bearer(director))
        if r.status_code == 409 and r.json()["code"] == "night_over":
            return night(client, code)
        assert r.status_code == 201, r.text
        bots_everywhere(client, code, director)
        round_over(client, code)
