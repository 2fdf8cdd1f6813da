"""Secrets at rest (API.md § Fifth round; security review round 5, finding 5): the database
file and every backup are their owner's alone (0600), and what derives a player's seat tokens
is keyed with a server secret kept outside the database, so that a copy of the database alone
acts for no one."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import multiprocessing
import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app import backup
from app.main import create_app
from app.serve import migrate
from app.settings import Settings
from app.store.server_key import server_key
from tests.api.conftest import ADMIN, app_settings
from tests.api.table import bearer, new_room
from tests.databases import make_database
from tests.hosting.test_backup import backup_command


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> Iterator[str]:
    yield from make_database("sqlite", tmp_path / "data")


def old_seat_token(secret: str, code: str) -> str:
    """How a seat token was derived before: from the database's ``players.secret`` alone."""
    mac = hmac.new(bytes.fromhex(secret), f"seat:{code}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).decode().rstrip("=")


def seated_with_bots(client: TestClient, key: str) -> str:
    code = new_room(client)
    r = client.post(f"/api/rooms/{code}/join", json={"name": "Ann", "seat": 0}, headers=bearer(key))
    assert r.status_code == 200, r.text
    for seat in (1, 2, 3):
        r = client.post(f"/api/rooms/{code}/bots", json={"seat": seat}, headers=bearer(ADMIN))
        assert r.status_code == 200, r.text
    assert client.post(f"/api/rooms/{code}/start", headers=bearer(key)).status_code == 200
    return code


def test_a_token_from_a_backups_secret_reads_no_hand(sqlite_url: str, tmp_path: Path) -> None:
    """A seat token computed from a backup's players.secret read that player's hidden cards
    from the live server. The server secret is not in the backup: now it reads none."""
    with TestClient(create_app(app_settings(sqlite_url))) as client:
        made = client.post("/api/players", json={"handle": "ann_sr", "name": "Ann"})
        key = made.json()["key"]
        code = seated_with_bots(client, key)
        own = client.get(f"/api/rooms/{code}", headers=bearer(key)).json()
        assert own["you"] == 0 and own["hand"]  # the player's own view: their seat, their cards

        copy = tmp_path / "copy.db"
        backup.backup(sqlite_url, copy)
        with sqlite3.connect(f"file:{copy}?mode=ro", uri=True) as conn:
            (secret,) = conn.execute("SELECT secret FROM players WHERE handle='ann_sr'").fetchone()
        conn.close()
        stolen = old_seat_token(secret, code)
        seen = client.get(f"/api/rooms/{code}", headers=bearer(stolen))
        assert seen.json()["you"] is None and seen.json()["hand"] == [], seen.text  # a spectator
        # The one derivation (with the server secret) is the player's own token.
        player = client.app.state.ctx.players  # type: ignore[attr-defined]
        me = player.signed_in(key)
        mine = client.get(f"/api/rooms/{code}", headers=bearer(player.seat_token(me.player, code)))
        # The bots play on between the reads (a beg, a run of the pack), so the cards are not
        # compared: the seat is what the token decides.
        assert mine.json()["you"] == 0 and mine.json()["hand"], mine.text


def test_the_database_its_journal_and_folder_are_the_owners_alone(tmp_path: Path) -> None:
    """The live db.sqlite, -wal and -shm were 0644 under umask 022."""
    old = os.umask(0o022)
    try:
        url = f"sqlite:///{tmp_path / 'fresh' / 'allfours.db'}"
        migrate(url)  # as the server's start does: the folder and the file made here
        with TestClient(create_app(app_settings(url))) as client:
            assert client.post("/api/players", json={"handle": "db_mode", "name": "D"}).is_success
            folder = tmp_path / "fresh"
            assert mode(folder) == 0o700
            for name in ("allfours.db", "allfours.db-wal", "allfours.db-shm", "secret.key"):
                assert mode(folder / name) == 0o600, name
    finally:
        os.umask(old)


def test_a_backup_is_its_owners_alone_and_says_where_the_secret_is(
    sqlite_url: str, tmp_path: Path
) -> None:
    """The backup was -rw-r--r-- under umask 022; it holds the players' secrets."""
    with TestClient(create_app(app_settings(sqlite_url))):
        pass  # a server started once: its key file made
    file = tmp_path / "backup.db"
    done = backup_command(sqlite_url, str(file))
    assert done.returncode == 0, done.stderr
    assert mode(file) == 0o600
    key_file = (tmp_path / "data" / "secret.key").resolve()
    assert f"The server secret is in the file {key_file}; it is not in the backup" in done.stdout
    assert key_file.read_text().strip() not in file.read_bytes().decode("latin-1")


def test_a_postgresql_backup_is_its_owners_alone(tmp_path: Path) -> None:
    with contextlib.contextmanager(make_database)("postgresql", tmp_path) as url:
        file = tmp_path / "pg.dump"
        old = os.umask(0o022)
        try:
            backup.backup(url, file)
        finally:
            os.umask(old)
    assert mode(file) == 0o600


def test_a_restored_database_is_its_owners_alone(sqlite_url: str, tmp_path: Path) -> None:
    file = tmp_path / "backup.db"
    backup.backup(sqlite_url, file)
    restored = tmp_path / "elsewhere" / "allfours.db"
    backup.restore(f"sqlite:///{restored}", file)
    assert mode(restored) == 0o600


def _key_of(path: str) -> bytes:
    settings = Settings(database_url="sqlite:///:memory:", secret_key_file=path)
    return server_key(settings).key


def test_processes_starting_at_once_make_one_key(tmp_path: Path) -> None:
    """Each process makes its own key and links it into place: only one link wins, and every
    process reads that one."""
    path = str(tmp_path / "keys" / "secret.key")
    with multiprocessing.get_context("spawn").Pool(6) as pool:
        found = pool.map(_key_of, [path] * 12)
    assert len(set(found)) == 1 and len(found[0]) == 32
    assert mode(Path(path)) == 0o600
    assert sorted(p.name for p in Path(path).parent.iterdir()) == ["secret.key"]


def test_a_key_in_the_environment_makes_no_file(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'allfours.db'}"
    given = Settings(database_url=url, secret_key="k" * 40)
    assert server_key(given).where == "ALLFOURS_SECRET_KEY"
    assert server_key(given).key == server_key(given).key
    assert not (tmp_path / "secret.key").exists()
    with pytest.raises(ValueError, match="at least 32"):
        Settings(database_url=url, secret_key="short")


def test_a_database_moved_with_its_secret_plays_on_and_without_it_not(
    sqlite_url: str, tmp_path: Path
) -> None:
    """Moving the database with its key file keeps every player's seats; restored without
    it, a new secret is made and the players' keys no longer act for their old seats (said
    in docs/self-hosting.md)."""
    with TestClient(create_app(app_settings(sqlite_url))) as client:
        key = client.post("/api/players", json={"handle": "mover", "name": "M"}).json()["key"]
        code = seated_with_bots(client, key)
        hand = client.get(f"/api/rooms/{code}", headers=bearer(key)).json()["hand"]
    copy = tmp_path / "copy.db"
    backup.backup(sqlite_url, copy)
    for name, with_key in (("moved", True), ("bare", False)):
        folder = tmp_path / name
        backup.restore(f"sqlite:///{folder / 'allfours.db'}", copy)
        if with_key:
            secret = (tmp_path / "data" / "secret.key").read_bytes()
            (folder / "secret.key").write_bytes(secret)
        with TestClient(create_app(app_settings(f"sqlite:///{folder / 'allfours.db'}"))) as c:
            seen = c.get(f"/api/rooms/{code}", headers=bearer(key)).json()["hand"]
        assert seen == (hand if with_key else []), name
