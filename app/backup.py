"""``python -m app.backup FILE``: a consistent copy of the database ``DATABASE_URL`` names,
safe while the server runs; ``python -m app.backup --restore FILE`` puts one back into an
empty database.

SQLite: the online backup API (``sqlite3.Connection.backup``) copies the pages under a read
transaction, so writers go on and the copy is one moment of the database (WAL included).
PostgreSQL: ``pg_dump --format=custom`` (one snapshot transaction) and ``pg_restore``; both
must be on the PATH (Debian's ``postgresql-client``). The connection's password, if any, goes
to them in the environment (``PGPASSWORD``), never on a command line others can read.

Every backup is made readable by its owner only (mode 0600): it holds the players' secrets.
It does not hold the server secret (app/store/server_key.py) those secrets are keyed with: the
command says where that is, to be kept (and moved) beside the backups, apart from them.

Exit codes: 0 done, 1 failed (the reason on stderr), 2 bad use or settings.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from sqlalchemy.engine import make_url

from app.settings import Settings, SettingsError, load_settings
from app.store.db import private_file
from app.store.server_key import key_path


class BackupError(Exception):
    """A backup or restore that cannot be done: the message is for the operator."""


def is_sqlite(database_url: str) -> bool:
    return database_url.startswith("sqlite:")


def sqlite_path(database_url: str) -> Path:
    path = database_url.removeprefix("sqlite:///").split("?", 1)[0]
    if not path or path == ":memory:" or not database_url.startswith("sqlite:///"):
        raise BackupError("an in-memory SQLite database cannot be backed up")
    return Path(path)


def backup_sqlite(database_url: str, target: Path) -> None:
    source_path = sqlite_path(database_url)
    if not source_path.exists():
        raise BackupError(f"there is no database at {source_path}")
    partial = _private_partial(target)
    # A plain connection (a read-only one cannot open a WAL database whose -shm is gone);
    # the backup only reads, and the file was checked to exist, so none is created.
    source = sqlite3.connect(source_path, timeout=10)
    try:
        copy = sqlite3.connect(partial)
        try:
            # All pages in one step: the copy is one read transaction's snapshot.
            source.backup(copy, pages=-1)
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        finally:
            copy.close()
    finally:
        source.close()
    partial.replace(target)


def _private_partial(target: Path) -> Path:
    """The file a backup is written to before it takes its name: new, empty, mode 0600."""
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    private_file(partial)
    return partial


def restore_sqlite(database_url: str, backup: Path) -> None:
    target_path = sqlite_path(database_url)
    _check_sqlite_backup(backup)
    if target_path.exists():
        with sqlite3.connect(f"file:{target_path}?mode=ro", uri=True) as conn:
            tables = _sqlite_tables(conn)
        conn.close()
        if tables:
            raise BackupError(
                f"the database at {target_path} is not empty ({len(tables)} tables): "
                "restore only into an empty database (stop the server, move the file away)"
            )
    private_file(target_path)
    source = sqlite3.connect(f"file:{backup}?mode=ro", uri=True)
    try:
        dest = sqlite3.connect(target_path)
        try:
            source.backup(dest, pages=-1)
        finally:
            dest.close()
    finally:
        source.close()


def _sqlite_tables(conn: sqlite3.Connection) -> list[str]:
    rows = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    ).fetchall()
    return [str(name) for (name,) in rows]


def _check_sqlite_backup(backup: Path) -> None:
    try:
        with sqlite3.connect(f"file:{backup}?mode=ro", uri=True) as conn:
            tables = _sqlite_tables(conn)
        conn.close()
    except sqlite3.DatabaseError as err:
        raise BackupError(f"{backup} is not a SQLite backup: {err}") from None
    if not tables:
        raise BackupError(f"{backup} holds no tables: not a backup of this server")


def _libpq(database_url: str) -> tuple[list[str], dict[str, str]]:
    """The connection as pg_dump/pg_restore options and environment (the password in
    ``PGPASSWORD``, never in argv)."""
    url = make_url(database_url)
    if not url.database:
        raise BackupError("DATABASE_URL names no database")
    args = ["--dbname", url.database, "--no-password"]
    env = dict(os.environ)
    if url.host:
        env["PGHOST"] = url.host
    if url.port:
        env["PGPORT"] = str(url.port)
    if url.username:
        env["PGUSER"] = url.username
    if url.password is not None:
        env["PGPASSWORD"] = str(url.password)
    for key, value in url.query.items():  # e.g. sslmode=require
        if key == "sslmode":
            env["PGSSLMODE"] = str(value)
    return args, env


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(
            f"{name} is not installed: PostgreSQL backups need PostgreSQL's client tools "
            "(Debian: apt-get install postgresql-client), of the server's major version or newer"
        )
    return found


def _run(argv: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupError(f"{Path(argv[0]).name} failed: {done.stderr.strip()}")


def backup_postgres(database_url: str, target: Path) -> None:
    args, env = _libpq(database_url)
    partial = _private_partial(target)  # pg_dump writes into it, keeping its mode
    # --no-owner/--no-acl: the copy restores under whichever role the new host uses.
    _run(
        [
            _tool("pg_dump"),
            *args,
            "--format=custom",
            "--no-owner",
            "--no-acl",
            "--file",
            str(partial),
        ],
        env,
    )
    partial.replace(target)


def restore_postgres(database_url: str, backup: Path) -> None:
    args, env = _libpq(database_url)
    tables = _postgres_tables(database_url)
    if tables:
        raise BackupError(
            f"the database is not empty ({len(tables)} tables): restore only into an empty "
            "database (create a new one and point DATABASE_URL at it)"
        )
    _run(
        [
            _tool("pg_restore"),
            *args,
            "--no-owner",
            "--no-acl",
            "--exit-on-error",
            "--single-transaction",
            str(backup),
        ],
        env,
    )


def _postgres_tables(database_url: str) -> list[str]:
    from sqlalchemy import create_engine, text

    from app.store.db import normalize_url

    engine = create_engine(normalize_url(database_url))
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT table_name FROM information_schema.tables "
                    "WHERE table_schema NOT IN ('pg_catalog', 'information_schema')"
                )
            ).all()
    finally:
        engine.dispose()
    return [str(name) for (name,) in rows]


def backup(database_url: str, target: Path) -> None:
    if target.is_dir():
        raise BackupError(f"{target} is a folder: name the backup file")
    if is_sqlite(database_url):
        backup_sqlite(database_url, target)
    else:
        backup_postgres(database_url, target)


def restore(database_url: str, source: Path) -> None:
    if not source.is_file():
        raise BackupError(f"there is no backup file at {source}")
    if is_sqlite(database_url):
        restore_sqlite(database_url, source)
    else:
        restore_postgres(database_url, source)


def server_secret_note(settings: Settings) -> str:
    """Where the server secret is: not in the backup, and needed with it to restore."""
    path = key_path(settings)
    where = f"in the file {path.resolve()}" if path else "in ALLFOURS_SECRET_KEY"
    return (
        f"The server secret is {where}; it is not in the backup. Keep a copy of it apart "
        "from the backups: restored without it, every player's seat tokens change."
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m app.backup",
        description="Back up the database DATABASE_URL names (safe while the server runs), "
        "or restore a backup into an empty database.",
    )
    parser.add_argument("file", type=Path, help="the backup file to write (or to read)")
    parser.add_argument(
        "--restore", action="store_true", help="restore FILE into the (empty) database"
    )
    options = parser.parse_args(argv)
    try:
        settings = load_settings()
    except SettingsError as err:
        print(err, file=sys.stderr)
        return 2
    try:
        if options.restore:
            restore(settings.database_url, options.file)
            print(f"Restored {options.file}", flush=True)
        else:
            backup(settings.database_url, options.file)
            print(f"Backed up to {options.file}", flush=True)
            print(server_secret_note(settings), flush=True)
    except (BackupError, OSError, sqlite3.Error) as err:
        print(f"{'Restore' if options.restore else 'Backup'} failed: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
