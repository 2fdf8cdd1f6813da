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
    import uvicorn

    from app.main import create_app
    from app.settings import SettingsError, load_settings

    try:
        settings = load_settings()
    except SettingsError as err:
        print(err, file=sys.stderr)
        sys.exit(2)
    try:
        migrate(settings.database_url)
    except Exception as err:  # an unreachable database: say so plainly, no traceback
        print(f"Cannot prepare the database at {settings.database_url}: {err}", file=sys.stderr)
        sys.exit(1)
    print(f"All Fours at http://{settings.host}:{settings.port}", flush=True)
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        workers=1,
        proxy_headers=True,
        timeout_graceful_shutdown=3,
    )


if __name__ == "__main__":
    main()
