"""Two app processes on one PostgreSQL database send each notification once (issue #35):
both sign with the one VAPID key the first of them made, and each letter of the outbox is
sent by the process that claims it, whichever noted the event."""

from __future__ import annotations

import time
from collections.abc import Callable

import httpx

from tests.hosting.support import Server
from tests.push.receiver import Receiver

ADMIN = "push-admin"


def test_two_processes_send_each_notification_once(
    start_server: Callable[..., Server], postgres_url: str
) -> None:
    with Receiver().running() as receiver:
        env = {"ALLFOURS_PUSH_HOSTS": receiver.origin, "ALLFOURS_ADMIN_TOKEN": ADMIN}
        a = start_server(postgres_url, **env)
        b = start_server(postgres_url, **env)
        key_a = httpx.get(f"{a.url}/api/push/key").json()["public_key"]
        assert httpx.get(f"{b.url}/api/push/key").json()["public_key"] == key_a
        phones = []
        for n in range(8):
            here, there = (a, b) if n % 2 else (b, a)
            made = httpx.post(f"{here.url}/api/players", json={"handle": f"proc{n}", "name": "Pat"})
            assert made.status_code == 201, made.text
            auth = {"Authorization": f"Bearer {made.json()['key']}"}
            phone = receiver.browser()
            r = httpx.post(
                f"{here.url}/api/me/push",
                json={"subscription": phone.subscription(), "events": ["table"]},
                headers=auth,
            )
            assert r.status_code == 201, r.text
            room = httpx.post(
                f"{here.url}/api/rooms", json={}, headers={"Authorization": f"Bearer {ADMIN}"}
            ).json()["code"]
            joined = httpx.post(
                f"{here.url}/api/rooms/{room}/join", json={"name": "x", "seat": 0}, headers=auth
            )
            assert joined.status_code == 200, joined.text
            for seat in (1, 2, 3):
                httpx.post(f"{here.url}/api/rooms/{room}/bots", json={"seat": seat}, headers=auth)
            hidden = httpx.post(
                f"{here.url}/api/rooms/{room}/sight", json={"visible": False}, headers=auth
            )
            assert hidden.status_code == 204
            # Started on the other process: it notes the event, either may send it.
            started = httpx.post(f"{there.url}/api/rooms/{room}/start", headers=auth)
            assert started.status_code == 200, started.text
            phones.append(phone)
        for phone in phones:
            assert receiver.wait_for(phone, 1, timeout=30)[0]["type"] == "table"
        time.sleep(2.5)  # more than both processes' look at the outbox
        assert [len(receiver.heard_by(phone)) for phone in phones] == [1] * len(phones)
