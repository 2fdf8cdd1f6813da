"""Web Push sent from a process of its own (issue #47, app/services/post_office.py): the
serving process writes the letters, its post office sends them; what it sent is counted in
the serving process (``Push.sent``, ``/metrics``). ALLFOURS_PUSH_PROCESS=false sends from the
serving process's threads, as before."""

from __future__ import annotations

import os
import time

import pytest
from fastapi.testclient import TestClient
from prometheus_client import REGISTRY

from app.api.context import Context
from app.main import create_app
from tests.push.conftest import push_settings
from tests.push.receiver import Receiver
from tests.push.test_delivery import subscribed
from tests.push.test_subscriptions import profile


def _metric(name: str) -> float:
    """A counter as /metrics shows it (the process's registry, which /metrics reads)."""
    value = REGISTRY.get_sample_value(name)
    assert value is not None, name
    return value


@pytest.mark.parametrize("own_process", [True, False])
def test_pushes_are_sent_by_the_post_office_and_counted_by_the_server(
    database_url: str, receiver: Receiver, own_process: bool
) -> None:
    settings = push_settings(database_url, receiver, push_process=own_process)
    with TestClient(create_app(settings)) as client:
        ctx: Context = client.app.state.ctx  # type: ignore[attr-defined]
        office = ctx.push._office
        assert (office is not None) is own_process
        assert office is None or office.pid is None  # nothing posted: no process yet
        before = _metric("allfours_push_sent_total")
        keys = [profile(client, f"office_{own_process:d}_{n}") for n in range(3)]
        phones = [subscribed(client, receiver, key) for key in keys]
        players = [ctx.players.signed_in(key).player.id for key in keys]  # type: ignore[union-attr]
        for player in players:
            ctx.push.invited("room0000", player, "Ben")
        for phone in phones:
            assert receiver.wait_for(phone, 1)[0]["type"] == "invite"
        if office is not None:
            assert office.pid is not None and office.pid != os.getpid()
        end = time.monotonic() + 10  # counted within a moment of being sent
        while _metric("allfours_push_sent_total") < before + len(phones):
            assert time.monotonic() < end, "the pushes sent were not counted"
            time.sleep(0.05)
        assert ctx.push.sent >= len(phones)
    assert office is None or office.pid is None  # stopped with the app
