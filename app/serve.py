"""`make run`: bring the database schema up to date, then serve with uvicorn."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def migrate(database_url: str) -> None:
    """``alembic upgrade head`` on ``database_url``."""
    from alembic import command
    from alembic.config import Config

    from app.settings import data_folder

    folder = data_folder(database_url)
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    config.attributes["configure_logger"] = False
    command.upgrade(config, "head")


def main() -> None:
    # Database calls run in worker threads and give up the GIL at every call into SQLite or
    # libpq; with the default 5 ms switch interval a busy event loop keeps them waiting
    # that long each time, while they hold the database's write lock (bench.live).
    sys.setswitchinterval(0.0005)
    import uvicorn

    from app import gcpolicy, logs
    from app.main import create_app
    from app.settings import SettingsError, load_settings

    try:
        settings = load_settings()
    except SettingsError as err:
        print(err, file=sys.stderr)
        sys.exit(2)
    logs.configure(settings.log_level, json_lines=settings.log_json)
    try:
        migrate(settings.database_url)
    except Exception as err:  # an unreachable database: say so plainly, no traceback
        print(f"Cannot prepare the database at {settings.database_url}: {err}", file=sys.stderr)
        sys.exit(1)
    print(f"All Fours at http://{settings.host}:{settings.port}", flush=True)
    app = create_app(settings)
    gcpolicy.tune_for_serving()
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
    )


if __name__ == "__main__":
    main()
