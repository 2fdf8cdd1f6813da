from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.databases import database_url  # noqa: F401 - a fixture

ADMIN = "test-admin-token"


def app_settings(url: str, **overrides: object) -> Settings:
    """The tests' server: an admin token, no rate limit, bots at once, nobody covered, review
    workers at the usual priority (under SCHED_IDLE they wait for an idle core, which a
    machine running the other test lane beside this one never has)."""
    base: dict[str, object] = {
        "database_url": url,
        "admin_token": ADMIN,
        "rate_limit": 0,
        "bot_delay_ms": 0,
        "away_s": 3600,
        "review_lie_low": False,
    }
    return Settings(**{**base, **overrides})  # type: ignore[arg-type]


@pytest.fixture
def settings(database_url: str) -> Settings:  # noqa: F811
    return app_settings(database_url)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as c:
        yield c
