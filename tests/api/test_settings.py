"""Settings from the environment; invalid ones stop the server with a clear message."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings, SettingsError, load_settings

ROOT = Path(__file__).resolve().parents[2]


def test_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DATABASE_URL", "HOST", "PORT", "ALLFOURS_ADMIN_TOKEN", "LOG_LEVEL"):
        monkeypatch.delenv(name, raising=False)
    s = load_settings()
    assert s.database_url == "sqlite:///./data/allfours.db"
    assert (s.host, s.port, s.admin_token, s.log_level) == ("127.0.0.1", 8000, None, "info")
    assert s.bot_delay_ms == 800 and s.away_s == 120


def test_environment_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PORT", "9001")
    monkeypatch.setenv("LOG_LEVEL", "DEBUG")
    monkeypatch.setenv("ALLFOURS_RATE_LIMIT", "0")
    monkeypatch.setenv("ALLFOURS_ADMIN_TOKEN", "s3cret")
    s = load_settings()
    assert (s.port, s.log_level, s.rate_limit, s.admin_token) == (9001, "debug", 0, "s3cret")


def test_invalid_settings_raise_a_readable_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PORT", "eighty")
    monkeypatch.setenv("ALLFOURS_RATE_LIMIT", "-1")
    with pytest.raises(SettingsError) as err:
        load_settings()
    text = str(err.value)
    assert "PORT" in text and "ALLFOURS_RATE_LIMIT" in text


def test_push_hosts_are_origins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ALLFOURS_PUSH_HOSTS", "https://push.example.org, push.example.net/x")
    with pytest.raises(SettingsError) as err:
        load_settings()
    assert "ALLFOURS_PUSH_HOSTS" in str(err.value) and "push.example.net/x" in str(err.value)
    monkeypatch.setenv("ALLFOURS_PUSH_HOSTS", "https://*.notify.windows.com,http://127.0.0.1:9")
    assert load_settings().push_hosts.startswith("https://*.notify.windows.com")


def test_the_server_refuses_invalid_settings_without_a_traceback() -> None:
    env = {**os.environ, "PORT": "eighty", "DATABASE_URL": "mysql://nope"}
    r = subprocess.run(
        [sys.executable, "-m", "app.serve"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode != 0
    assert "Traceback" not in r.stderr
    assert "PORT" in r.stderr and "DATABASE_URL" in r.stderr


def test_rate_limit_answers_429_per_client(database_url: str) -> None:
    settings = Settings(database_url=database_url, rate_limit=5, bot_delay_ms=0)
    with TestClient(create_app(settings)) as c:
        statuses = [c.get("/api/rooms/none").status_code for _ in range(8)]
        assert statuses[:5] == [404] * 5
        assert statuses[5:] == [429] * 3
        r = c.get("/api/rooms/none")
        assert r.json()["error"] == "too_many_requests"
        assert "retry-after" in r.headers
        assert c.get("/healthz").status_code == 200  # the health check is never limited


def test_healthz_is_503_when_the_database_does_not_answer() -> None:
    settings = Settings(database_url="postgresql://postgres@127.0.0.1:1/none", rate_limit=0)
    client = TestClient(create_app(settings))  # no lifespan: nothing else touches the database
    r = client.get("/healthz")
    assert r.status_code == 503
    assert r.json()["error"] == "database"
