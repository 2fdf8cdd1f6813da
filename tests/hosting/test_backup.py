"""``python -m app.backup``: a copy taken while the server runs (and plays) restores into a
fresh server that answers a finished game's record byte for byte; a restore into a database
that is not empty is refused. On SQLite and on PostgreSQL."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from tests.hosting.conftest import ROOT, fresh_database
from tests.hosting.support import Server

ADMIN = "backup-admin-token"
DEADLINE_S = 120.0


def backup_command(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": database_url}
    return subprocess.run(
        [sys.executable, "-m", "app.backup", *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def four_bots(client: httpx.Client) -> str:
    """A room of four computer players, started: it plays itself."""
    admin = {"Authorization": f"Bearer {ADMIN}"}
    r = client.post("/api/rooms", json={"rules": {"target": 7}}, headers=admin)
    assert r.status_code == 201, r.text
    code = str(r.json()["code"])
    for seat in range(4):
        r = client.post(f"/api/rooms/{code}/bots", json={"seat": seat}, headers=admin)
        assert r.status_code == 200, r.text
    assert client.post(f"/api/rooms/{code}/start", headers=admin).status_code == 200
    return code


def wait_game_over(client: httpx.Client, code: str) -> None:
    end = time.monotonic() + DEADLINE_S
    while client.get(f"/api/rooms/{code}").json()["phase"] != "game_over":
        assert time.monotonic() < end, f"room {code} did not finish"
        time.sleep(0.05)


def round_trip(
    start_server: Callable[..., Server], source_url: str, fresh_url: str, file: Path
) -> None:
    server = start_server(source_url, ALLFOURS_ADMIN_TOKEN=ADMIN)
    with httpx.Client(base_url=server.url, timeout=10) as client:
        finished = four_bots(client)
        wait_game_over(client, finished)
        record = client.get(f"/api/rooms/{finished}/games/1")
        assert record.status_code == 200, record.text
        assert record.json()["seed"]  # a finished game: its seed is shown
        # Another table keeps writing while the copy is taken.
        four_bots(client)
        done = backup_command(source_url, str(file))
        assert done.returncode == 0, done.stderr
        assert file.stat().st_size > 0
        # The live server is untouched by the backup and still answers the same.
        assert client.get(f"/api/rooms/{finished}/games/1").content == record.content

    restored = backup_command(fresh_url, "--restore", str(file))
    assert restored.returncode == 0, restored.stderr
    again = start_server(fresh_url, ALLFOURS_ADMIN_TOKEN=ADMIN)
    with httpx.Client(base_url=again.url, timeout=10) as client:
        answer = client.get(f"/api/rooms/{finished}/games/1")
        assert answer.status_code == 200, answer.text
        assert answer.content == record.content

    # The restored database is no longer empty: a second restore is refused, plainly.
    refused = backup_command(fresh_url, "--restore", str(file))
    assert refused.returncode != 0
    assert "not empty" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_sqlite_backup_while_serving_restores_byte_for_byte(
    start_server: Callable[..., Server], tmp_path: Path
) -> None:
    source = f"sqlite:///{tmp_path / 'live' / 'allfours.db'}"
    fresh = f"sqlite:///{tmp_path / 'fresh' / 'allfours.db'}"
    round_trip(start_server, source, fresh, tmp_path / "allfours.backup")


@pytest.fixture
def second_postgres_url(postgres_admin: str) -> Iterator[str]:
    """A second fresh, empty database (postgres_url gives one per test)."""
    yield from fresh_database(postgres_admin)


def test_postgres_backup_while_serving_restores_byte_for_byte(
    start_server: Callable[..., Server],
    postgres_url: str,
    second_postgres_url: str,
    tmp_path: Path,
) -> None:
    round_trip(start_server, postgres_url, second_postgres_url, tmp_path / "allfours.dump")


def test_no_backup_file_and_no_database_say_so(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'none.db'}"
    missing = backup_command(url, str(tmp_path / "copy.db"))
    assert missing.returncode == 1
    assert "no database" in missing.stderr
    nothing = backup_command(url, "--restore", str(tmp_path / "absent.backup"))
    assert nothing.returncode == 1
    assert "no backup file" in nothing.stderr
    assert not (tmp_path / "none.db").exists()
