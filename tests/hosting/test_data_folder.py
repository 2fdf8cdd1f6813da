"""The database folder the server cannot write (issue 12): a root-owned bind mount at /data."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.serve import data_folder_problem, public_url_warning, unwritable_message

ROOT = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def unwritable(folder: Path) -> Iterator[None]:
    """``folder`` made unwritable for this process: immutable for root (root ignores modes),
    read-only for anyone else."""
    folder.mkdir()
    if os.getuid() != 0:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    made = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, check=False)
    if made.returncode != 0:
        pytest.skip(f"root cannot make a folder unwritable here: {made.stderr.decode()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def test_unwritable_data_folder_says_only_unable_to_open_database_file(tmp_path: Path) -> None:
    """The start failed with "unable to open database file" alone: no folder, user or fix."""
    folder = tmp_path / "data"
    with unwritable(folder):
        url = f"sqlite:///{folder / 'allfours.db'}"
        assert data_folder_problem(url) is not None
        started = subprocess.run(
            [sys.executable, "-m", "app.serve"],
            env={**os.environ, "DATABASE_URL": url, "PORT": "1"},
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert started.returncode == 1
    uid, gid = os.getuid(), os.getgid()
    assert f"The database folder {folder} is not writable" in started.stderr
    assert f"runs as uid {uid}" in started.stderr
    assert f"chown -R {uid}:{gid} {folder}" in started.stderr
    assert "Traceback" not in started.stderr


def test_the_message_names_the_image_user_for_a_bind_mount(tmp_path: Path) -> None:
    message = unwritable_message(tmp_path, uid=10001, gid=10001)
    assert f"The database folder {tmp_path} is not writable" in message
    assert "runs as uid 10001" in message
    assert "sudo chown -R 10001:10001 <the host folder>" in message
    assert "bind mount" in message


def test_writable_folders_and_other_databases_pass(tmp_path: Path) -> None:
    assert data_folder_problem(f"sqlite:///{tmp_path / 'new' / 'allfours.db'}") is None
    assert data_folder_problem("sqlite:///:memory:") is None
    assert data_folder_problem("postgresql+psycopg://u@127.0.0.1:1/x") is None


def test_serving_beyond_loopback_without_a_public_url_warns() -> None:
    """Passkeys took their relying party from any Host sent (review round 5, finding 17)."""
    assert "ALLFOURS_PUBLIC_URL" in (public_url_warning(None, "0.0.0.0") or "")
    assert public_url_warning(None, "127.0.0.1") is None
    assert public_url_warning("https://cards.example.org", "0.0.0.0") is None
