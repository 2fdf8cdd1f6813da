from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.api.conftest import app_settings
from tests.databases import database_url  # noqa: F401 - a fixture
from tests.push.receiver import Receiver


@pytest.fixture(scope="module")
def receiver() -> Iterator[Receiver]:
    with Receiver().running() as running:
        yield running


@pytest.fixture
def settings(database_url: str, receiver: Receiver) -> Settings:  # noqa: F811
    return push_settings(database_url, receiver)


def push_settings(url: str, receiver: Receiver, **more: object) -> Settings:
    """The tests' server, allowed to push to the receiver only, telling a turn at once."""
    given: dict[str, object] = {
        "push_hosts": receiver.origin,
        "push_turn_after_s": 0.2,
        "push_timeout_s": 1.0,
    }
    return app_settings(url, **{**given, **more})


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as c:
        yield c
