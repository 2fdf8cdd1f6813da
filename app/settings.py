"""One Settings object, read from the environment (pydantic-settings)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import AliasChoices, Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

LogLevel = Literal["critical", "error", "warning", "info", "debug"]
ReviewSpeed = Literal["lie-low", "full"]  # app/services/review_worker.py


def _env(name: str, field: str) -> AliasChoices:
    return AliasChoices(name, field)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(populate_by_name=True, extra="ignore", frozen=True)

    database_url: str = Field(
        "sqlite:///./data/allfours.db", validation_alias=_env("DATABASE_URL", "database_url")
    )
    host: str = Field("127.0.0.1", validation_alias=_env("HOST", "host"))
    port: int = Field(8000, ge=1, le=65535, validation_alias=_env("PORT", "port"))
    admin_token: str | None = Field(
        None, validation_alias=_env("ALLFOURS_ADMIN_TOKEN", "admin_token")
    )
    log_level: LogLevel = Field("info", validation_alias=_env("LOG_LEVEL", "log_level"))
    # Requests per minute per client address; 0 turns the limit off (benchmarks, load tests).
    rate_limit: int = Field(6000, ge=0, validation_alias=_env("ALLFOURS_RATE_LIMIT", "rate_limit"))
    bot_delay_ms: int = Field(
        800, ge=0, le=60_000, validation_alias=_env("ALLFOURS_BOT_DELAY_MS", "bot_delay_ms")
    )
    away_s: float = Field(120.0, ge=0, validation_alias=_env("ALLFOURS_AWAY_S", "away_s"))
    # Tests only: shortens every turn timer (option turn_timer_s) by this factor, so a test
    # sees one run out; the API still offers only 0, 30, 60 and 120 seconds.
    turn_timer_scale: float = Field(
        1.0,
        gt=0,
        le=1,
        validation_alias=_env("ALLFOURS_TURN_TIMER_SCALE", "turn_timer_scale"),
    )
    max_body_bytes: int = Field(
        16_384, ge=1024, validation_alias=_env("ALLFOURS_MAX_BODY_BYTES", "max_body_bytes")
    )
    ping_s: float = Field(15.0, gt=0, le=15, validation_alias=_env("ALLFOURS_PING_S", "ping_s"))
    # Rooms with no change for this long are removed by the hourly sweep; 0 keeps them.
    room_ttl_days: float = Field(
        30.0, ge=0, validation_alias=_env("ALLFOURS_ROOM_TTL_DAYS", "room_ttl_days")
    )
    log_json: bool = Field(False, validation_alias=_env("ALLFOURS_LOG_JSON", "log_json"))
    # The collector's settings for serving (app/gcpolicy.py), or CPython's own.
    gc_policy: Literal["serving", "python"] = Field(
        "serving", validation_alias=_env("ALLFOURS_GC_POLICY", "gc_policy")
    )
    # Limits against one hostile client (app/net.py, app/api/limits.py); 0 turns a cap off.
    max_streams_per_address: int = Field(
        128,
        ge=0,
        validation_alias=_env("ALLFOURS_MAX_STREAMS_PER_ADDRESS", "max_streams_per_address"),
    )
    max_streams_per_room: int = Field(
        32, ge=0, validation_alias=_env("ALLFOURS_MAX_STREAMS_PER_ROOM", "max_streams_per_room")
    )
    max_connections: int = Field(
        4096, ge=16, validation_alias=_env("ALLFOURS_MAX_CONNECTIONS", "max_connections")
    )
    max_connections_per_address: int = Field(
        256,
        ge=0,
        validation_alias=_env(
            "ALLFOURS_MAX_CONNECTIONS_PER_ADDRESS", "max_connections_per_address"
        ),
    )
    header_timeout_s: float = Field(
        10.0, gt=0, validation_alias=_env("ALLFOURS_HEADER_TIMEOUT_S", "header_timeout_s")
    )
    body_timeout_s: float = Field(
        20.0, gt=0, validation_alias=_env("ALLFOURS_BODY_TIMEOUT_S", "body_timeout_s")
    )
    max_header_bytes: int = Field(
        32_768, ge=1024, validation_alias=_env("ALLFOURS_MAX_HEADER_BYTES", "max_header_bytes")
    )
    send_timeout_s: float = Field(
        30.0, gt=0, validation_alias=_env("ALLFOURS_SEND_TIMEOUT_S", "send_timeout_s")
    )
    rooms_per_hour: int = Field(
        30, ge=0, validation_alias=_env("ALLFOURS_ROOMS_PER_HOUR", "rooms_per_hour")
    )
    # New profiles per client address an hour (app/services/quotas.py): a club's venue may
    # sit behind one address; 0 turns the quota off.
    profiles_per_hour: int = Field(
        30, ge=0, validation_alias=_env("ALLFOURS_PROFILES_PER_HOUR", "profiles_per_hour")
    )
    # Today's boards (API.md § Fifth round): how many boards a day deals, and how long a
    # day lasts from midnight UTC (a test shortens it to see a day end).
    daily_boards: int = Field(
        8, ge=1, le=32, validation_alias=_env("ALLFOURS_DAILY_BOARDS", "daily_boards")
    )
    daily_day_s: int = Field(
        86400, ge=10, le=86400, validation_alias=_env("ALLFOURS_DAILY_DAY_S", "daily_day_s")
    )
    # Rooms never started, with no change for this long, are removed; 0 leaves them to
    # ALLFOURS_ROOM_TTL_DAYS.
    empty_room_ttl_hours: float = Field(
        6.0, ge=0, validation_alias=_env("ALLFOURS_EMPTY_ROOM_TTL_HOURS", "empty_room_ttl_hours")
    )
    # The address players reach the site at ("https://allfours.example.org"): passkeys are
    # bound to its host (the relying party's id) and origin. Unset, each request's own origin
    # is taken (http://localhost works: browsers allow passkeys there without HTTPS).
    public_url: str | None = Field(None, validation_alias=_env("ALLFOURS_PUBLIC_URL", "public_url"))
    # The server secret every seat token of a player is derived with (app/store/server_key.py),
    # kept outside the database: a text of 32 characters or more. Unset, a key file is made at
    # the first start (ALLFOURS_SECRET_KEY_FILE, else secret.key in the data folder). Several
    # processes or hosts on one database must all have the same one.
    secret_key: str | None = Field(
        None, min_length=32, validation_alias=_env("ALLFOURS_SECRET_KEY", "secret_key")
    )
    secret_key_file: str | None = Field(
        None, validation_alias=_env("ALLFOURS_SECRET_KEY_FILE", "secret_key_file")
    )
    # Web Push (app/push): the origins the server may send to, comma-separated
    # (scheme://host[:port], "*." for any subdomain); by default the browsers' push services.
    push_hosts: str = Field(
        "https://fcm.googleapis.com,https://updates.push.services.mozilla.com,"
        "https://web.push.apple.com,https://*.notify.windows.com",
        validation_alias=_env("ALLFOURS_PUSH_HOSTS", "push_hosts"),
    )
    # The VAPID private key (base64url of the raw P-256 key, or PEM); unset, one is made at
    # the first start and kept in the database.
    vapid_private_key: str | None = Field(
        None, validation_alias=_env("ALLFOURS_VAPID_PRIVATE_KEY", "vapid_private_key")
    )
    # How long no page of a player's may be visible while it is their turn before "your turn"
    # is pushed (tests shorten it), and how long one push may take.
    push_turn_after_s: float = Field(
        15.0, ge=0, validation_alias=_env("ALLFOURS_PUSH_TURN_AFTER_S", "push_turn_after_s")
    )
    push_timeout_s: float = Field(
        5.0, gt=0, le=60, validation_alias=_env("ALLFOURS_PUSH_TIMEOUT_S", "push_timeout_s")
    )
    # The review of a game (issue #38): imagined deals each decision is judged on (tests use
    # a few), and the worker processes this app starts for them (0: another process does).
    review_worlds: int = Field(
        384, ge=2, le=4096, validation_alias=_env("ALLFOURS_REVIEW_WORLDS", "review_worlds")
    )
    review_workers: int = Field(
        1, ge=0, le=16, validation_alias=_env("ALLFOURS_REVIEW_WORKERS", "review_workers")
    )
    # The workers run only on a core the server leaves idle (SCHED_IDLE, niced). Off: at the
    # usual priority, for a machine whose cores are never idle (a test suite beside another).
    review_lie_low: bool = Field(
        True, validation_alias=_env("ALLFOURS_REVIEW_LIE_LOW", "review_lie_low")
    )
    # How much of a busy machine the review workers may take (issue #47): "lie-low", never at
    # the players' expense (they rest while their server is busy, at the priority above);
    # "full", each a whole core at the usual priority, for a host with cores to spare.
    review_speed: ReviewSpeed = Field(
        "lie-low", validation_alias=_env("ALLFOURS_REVIEW_SPEED", "review_speed")
    )
    # Web Push sent from a process of its own (app/services/post_office.py, issue #47), the
    # serving process only writing the letters; off: sent by the serving process's threads.
    push_process: bool = Field(True, validation_alias=_env("ALLFOURS_PUSH_PROCESS", "push_process"))
    # Play now and the lobby's public tables (issue #36): the host's switch. Off, POST
    # /api/play answers 403 public_play_off and the home page offers a private table.
    public_play: bool = Field(True, validation_alias=_env("ALLFOURS_PUBLIC_PLAY", "public_play"))

    @field_validator("log_level", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.lower() if isinstance(value, str) else value

    @field_validator(
        "admin_token",
        "public_url",
        "vapid_private_key",
        "secret_key",
        "secret_key_file",
        mode="before",
    )
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        return None if value == "" else value

    @field_validator("public_url")
    @classmethod
    def _an_origin(cls, value: str | None) -> str | None:
        if value is None:
            return None
        parts = urlsplit(value.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("must be an http:// or https:// URL with a host")
        return f"{parts.scheme}://{parts.netloc}"

    @field_validator("push_hosts")
    @classmethod
    def _origins(cls, value: str) -> str:
        for item in filter(None, (part.strip() for part in value.split(","))):
            parts = urlsplit(item)
            if parts.scheme not in ("http", "https") or not parts.hostname or parts.path:
                raise ValueError(f"{item!r} is not an origin (scheme://host[:port])")
        return value

    @field_validator("database_url")
    @classmethod
    def _known_database(cls, value: str) -> str:
        if not value.startswith(("sqlite:", "postgresql:", "postgresql+psycopg:", "postgres:")):
            raise ValueError("must be a sqlite:/// or postgresql:// URL")
        return value


class SettingsError(SystemExit):
    """Invalid settings: a one-paragraph message for the operator, no traceback."""


def load_settings() -> Settings:
    try:
        return Settings()
    except ValidationError as err:
        lines = []
        for e in err.errors():
            name = str(e["loc"][0]) if e["loc"] else "?"
            lines.append(f"  {_ENV_NAMES.get(name, name)}: {e['msg']}")
        raise SettingsError("Invalid settings in the environment:\n" + "\n".join(lines)) from None


_ENV_NAMES = {
    name: (alias.choices[0] if isinstance(alias, AliasChoices) else name)
    for name, f in Settings.model_fields.items()
    if (alias := f.validation_alias) is not None
}


def data_folder(database_url: str) -> Path | None:
    """The folder of a SQLite database file, or None for memory and PostgreSQL."""
    if not database_url.startswith("sqlite:///"):
        return None
    path = database_url.removeprefix("sqlite:///").split("?", 1)[0]
    if not path or path == ":memory:":
        return None
    return Path(path).parent
