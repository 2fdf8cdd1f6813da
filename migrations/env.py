"""Alembic environment: the URL from settings (or the caller's config), batch mode for SQLite."""

from __future__ import annotations

from logging.config import fileConfig

from alembic import context

from app.store.db import make_engine
from app.store.models import Base

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


def _url() -> str:
    url = config.get_main_option("sqlalchemy.url")
    if url:
        return url
    from app.settings import load_settings

    return load_settings().database_url


def run_migrations_offline() -> None:
    context.configure(
        url=_url(), target_metadata=target_metadata, literal_binds=True, render_as_batch=True
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    engine = make_engine(_url(), pool_size=1)
    try:
        with engine.connect() as connection:
            sqlite = connection.dialect.name == "sqlite"
            if sqlite:
                # Batch mode rebuilds a table by copying it and dropping the old one; with
                # foreign keys on, that drop would cascade to the rows that refer to it
                # (dropping ``rooms`` would delete every game). The pragma only takes effect
                # outside a transaction: on the driver's connection, before the migrations.
                connection.connection.driver_connection.execute(  # type: ignore[union-attr]
                    "PRAGMA foreign_keys=OFF"
                )
            context.configure(
                connection=connection, target_metadata=target_metadata, render_as_batch=True
            )
            with context.begin_transaction():
                context.run_migrations()
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        raise RuntimeError(f"the migration broke foreign keys: {broken[:5]}")
            if sqlite:
                connection.connection.driver_connection.execute(  # type: ignore[union-attr]
                    "PRAGMA foreign_keys=ON"
                )
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
