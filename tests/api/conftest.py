from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.databases import database_url  # noqa: F401 - a fixture

ADMIN = "test-admin-token"


@pytest.fixture
def settings(database_url: str) -> Settings:  # noqa: F811
    return Settings(
        database_url=database_url,
        admin_token=ADMIN,
        rate_limit=0,
        bot_delay_ms=0,
        away_s=3600,
    )


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as c:
        yield c
