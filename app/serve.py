"""`make run`: bring the database schema up to date, then serve with uvicorn."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def unwritable_message(folder: Path, *, uid: int, gid: int) -> str:
    """What to do when the SQLite database's folder (or file) is not ours to write."""
    try:
        owner = f"it belongs to uid {folder.stat().st_uid}"
    except OSError:
        owner = "it cannot be read"
    return (
        f"The database folder {folder} is not writable: this server runs as uid {uid} "
        f"(gid {gid}) and {owner}.\n"
        f"Give the folder to that user, e.g. `chown -R {uid}:{gid} {folder}`. In Docker, when "
        f"{folder} is a folder of the host mounted into the container (a bind mount), run on "
        f"the host: `sudo chown -R {uid}:{gid} <the host folder>`, or use the named volume "
        "of compose.yaml instead."
    )


def data_folder_problem(database_url: str) -> str | None:
    """A message for the operator if the SQLite database cannot be written, else None."""
    from app.settings import data_folder

    folder = data_folder(database_url)
    if folder is None:
        return None
    folder = folder.absolute()
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent  # the folder is created at start: its parent must allow it
    uid, gid = os.getuid(), os.getgid()
    if not os.access(existing, os.W_OK | os.X_OK):
        return unwritable_message(existing, uid=uid, gid=gid)
    path = database_url.removeprefix("sqlite:///").split("?", 1)[0]
    for name in (path, path + "-wal", path + "-shm"):
        file = Path(name).absolute()
        if file.exists() and not os.access(file, os.R_OK | os.W_OK):
            return unwritable_message(folder, uid=uid, gid=gid).replace(
                f"The database folder {folder} is not writable",
                f"The database file {file} is not writable",
                1,
            )
    return None


def public_url_warning(public_url: str | None, host: str) -> str | None:
    """A warning for a server reached from other machines without ALLFOURS_PUBLIC_URL:
    passkeys then take their relying party from each request's Host (security review round
    5, finding 17)."""
    if public_url is not None or host in ("127.0.0.1", "localhost", "::1"):
        return None
    return (
        f"serving on {host} without ALLFOURS_PUBLIC_URL: passkeys are bound to whatever Host "
        "each request names; set it to the address players reach the site at"
    )


def migrate(database_url: str, revision: str = "head") -> None:
    """``alembic upgrade head`` (or to ``revision``) on ``database_url``."""
    from alembic import command
    from alembic.config import Config

    from app.settings import data_folder

    folder = data_folder(database_url)
    if folder is not None:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)  # the database's: owner only
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    config.attributes["configure_logger"] = False
    command.upgrade(config, revision)


def main() -> None:
    # Database calls run in worker threads and give up the GIL at every call into SQLite or
    # libpq; with the default 5 ms switch interval a busy event loop keeps them waiting
    # that long each time, while they hold the database's write lock (bench.live).
    sys.setswitchinterval(0.0005)
    import uvicorn

    from app import gcpolicy, logs, net
    from app.main import create_app
    from app.settings import SettingsError, load_settings

    try:
        settings = load_settings()
    except SettingsError as err:
        print(err, file=sys.stderr)
        sys.exit(2)
    logs.configure(settings.log_level, json_lines=settings.log_json)
    problem = data_folder_problem(settings.database_url)
    if problem is not None:
        print(problem, file=sys.stderr, flush=True)
        sys.exit(1)
    try:
        migrate(settings.database_url)
    except Exception as err:  # an unreachable database: say so plainly, no traceback
        print(f"Cannot prepare the database at {settings.database_url}: {err}", file=sys.stderr)
        sys.exit(1)
    print(f"All Fours at http://{settings.host}:{settings.port}", flush=True)
    if (warning := public_url_warning(settings.public_url, settings.host)) is not None:
        logging.getLogger("allfours").warning(warning)
    app = create_app(settings)
    gcpolicy.tune(settings.gc_policy)
    open_files = net.raise_open_file_limit()
    connections = net.connection_cap(settings.max_connections, open_files)
    if connections < settings.max_connections:
        logging.getLogger("allfours").warning(
            "at most %d connections (ALLFOURS_MAX_CONNECTIONS is %d): the open-file limit "
            "is %d; raise it (ulimit -n, or ulimits: nofile in compose) for more",
            connections,
            settings.max_connections,
            open_files,
        )
    limits = net.ConnectionLimits(
        header_timeout_s=settings.header_timeout_s,
        body_timeout_s=settings.body_timeout_s,
        send_timeout_s=settings.send_timeout_s,
        max_header_bytes=settings.max_header_bytes,
        max_per_address=settings.max_connections_per_address,
        max_total=connections,
    )
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        log_config=None,  # app.logs configured uvicorn's loggers with ours
        access_log=False,  # app.logs.RequestLog writes the request lines
        workers=1,
        proxy_headers=True,
        timeout_graceful_shutdown=3,
        http=net.guarded_protocol(limits),  # httptools, with the limits of app/net.py
        # app.net refuses connections over the cap at once; uvicorn's own check stays behind.
        limit_concurrency=connections + 1,
    )


if __name__ == "__main__":
    main()
