"""A player's page whose event stream ends is out of sight (issue #35): with no page left
to say so (a phone that killed the tab, a lost connection), the seat's last stream ending
is enough for "your turn" to reach the player's push subscription."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from tests.live.server import ServerProcess
from tests.push.receiver import Receiver

ADMIN = "push-stream-admin"


@pytest.fixture(scope="module")
def receiver() -> Iterator[Receiver]:
    with Receiver().running() as running:
        yield running


@pytest.fixture(scope="module")
def server(
    database_url: str, tmp_path_factory: pytest.TempPathFactory, receiver: Receiver
) -> Iterator[ServerProcess]:
    log = tmp_path_factory.mktemp("server") / "server.log"
    proc = ServerProcess(
        database_url,
        log,
        ALLFOURS_ADMIN_TOKEN=ADMIN,
        ALLFOURS_PUSH_HOSTS=receiver.origin,
        ALLFOURS_PUSH_TURN_AFTER_S="0.5",
        ALLFOURS_AWAY_S="3600",
    ).start()
    yield proc
    proc.stop()


def test_the_seats_last_stream_ending_puts_its_page_out_of_sight(
    server: ServerProcess, receiver: Receiver
) -> None:
    base = server.url
    made = httpx.post(f"{base}/api/players", json={"handle": "streamy", "name": "Sam"})
    auth = {"Authorization": f"Bearer {made.json()['key']}"}
    phone = receiver.browser()
    r = httpx.post(
        f"{base}/api/me/push",
        json={"subscription": phone.subscription(), "events": ["turn"]},
        headers=auth,
    )
    assert r.status_code == 201, r.text
    room = httpx.post(f"{base}/api/rooms", json={}, headers={"Authorization": f"Bearer {ADMIN}"})
    code = room.json()["code"]
    assert httpx.post(
        f"{base}/api/rooms/{code}/join", json={"name": "x", "seat": 0}, headers=auth
    ).is_success
    for seat in (1, 2, 3):
        httpx.post(f"{base}/api/rooms/{code}/bots", json={"seat": seat}, headers=auth)
    # The page is in sight, its stream open: the game starts and comes to the player.
    assert httpx.post(
        f"{base}/api/rooms/{code}/sight", json={"visible": True}, headers=auth
    ).is_success
    with (
        httpx.Client(timeout=30) as client,
        client.stream(
            "GET",
            f"{base}/api/rooms/{code}/events",
            headers={**auth, "Accept": "text/event-stream"},
        ) as stream,
    ):
        assert stream.status_code == 200
        assert httpx.post(f"{base}/api/rooms/{code}/start", headers=auth).is_success
        deadline = time.monotonic() + 30
        while httpx.get(f"{base}/api/rooms/{code}", headers=auth).json()["turn"] != 0:
            assert time.monotonic() < deadline, "the turn never came to seat 0"
            time.sleep(0.05)
        time.sleep(1.5)  # three times the wait: nothing, the page is in sight
        assert receiver.heard_by(phone) == []
    # The stream is gone (and no page said anything): told.
    letter = receiver.wait_for(phone, timeout=30)[0]
    assert letter["type"] == "turn" and letter["tag"] == f"table-{code}"
