"""The server secret: the key, kept outside the database, that every player's seat tokens
are derived with (app/players/keys.py ``seat_key``), so that a copy of the database (a
backup, a stolen file) lets no one act as a player (API.md § Fifth round, "Secrets at rest").

Where it is, first found first:

1. ``ALLFOURS_SECRET_KEY`` in the environment (several processes or hosts on one PostgreSQL
   database: each must be given the same one);
2. the file ``ALLFOURS_SECRET_KEY_FILE`` names;
3. the file ``secret.key`` in the data folder: beside the SQLite database, or ``./data`` for
   PostgreSQL.

A file that is not there is made at the first start (64 hex digits, mode 0600, its folder
0700 when made here). Two processes starting at once make one key between them: each writes
its own to a private file and links it into place, which only one link can do; both then
read what is there.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from app.settings import Settings, data_folder

KEY_FILE_NAME = "secret.key"
DEFAULT_FOLDER = Path("data")


class ServerKeyError(SystemExit):
    """A key file that cannot be read or made: a message for the operator, no traceback."""


@dataclass(frozen=True, slots=True)
class ServerSecret:
    key: bytes
    where: str  # for the operator: the environment variable, or the file's path

    @property
    def in_environment(self) -> bool:
        return self.where == "ALLFOURS_SECRET_KEY"


def key_path(settings: Settings) -> Path | None:
    """The key file's path (None: the key is in the environment, or the database lives in
    memory and so does its key)."""
    if settings.secret_key is not None:
        return None
    if settings.secret_key_file is not None:
        return Path(settings.secret_key_file)
    if settings.database_url.startswith("sqlite"):
        folder = data_folder(settings.database_url)
        return folder / KEY_FILE_NAME if folder is not None else None
    return DEFAULT_FOLDER / KEY_FILE_NAME


def server_key(settings: Settings) -> ServerSecret:
    """The server secret, the key file made if it is not there yet."""
    if settings.secret_key is not None:
        # Any text of 32 characters or more: hashed to the key's 32 bytes.
        digest = hashlib.sha256(settings.secret_key.encode()).digest()
        return ServerSecret(digest, "ALLFOURS_SECRET_KEY")
    path = key_path(settings)
    if path is None:  # an in-memory database: gone with the process, as its key
        return ServerSecret(secrets.token_bytes(32), "memory")
    try:
        if not path.exists():
            _make(path)
        text = path.read_text().strip()
    except OSError as err:
        raise ServerKeyError(
            f"The server secret's file {path} cannot be read or made ({err.strerror}): "
            "set ALLFOURS_SECRET_KEY, or ALLFOURS_SECRET_KEY_FILE to a writable place."
        ) from None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) < 32:
        raise ServerKeyError(
            f"The server secret's file {path} does not hold a key (64 hex digits)."
        )
    return ServerSecret(key, str(path.resolve()))


def _make(path: Path) -> None:
    """A new key at ``path``, unless another process made one first (then that one)."""
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    own = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(own, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(32) + "\n")
            out.flush()
            os.fsync(out.fileno())
        # Whole or not at all: a link fails if the name is taken, so the first one stays.
        with contextlib.suppress(FileExistsError):
            os.link(own, path)
    finally:
        own.unlink(missing_ok=True)
