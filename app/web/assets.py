"""The pages' static files under versioned URLs: ``static_url("app.css")`` is
``/static/app.css?v=<hash of its content>``, so a browser may keep each version for a year
(app/api/caching.py says so) and a changed file is a new URL the next page links to."""

from __future__ import annotations

import hashlib
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "static"
VERSION_LENGTH = 12  # hex digits of the SHA-256: plenty to tell two versions of a file apart

# relative path -> ((mtime_ns, size), version): a file edited under `make run` gets a new one.
_versions: dict[str, tuple[tuple[int, int], str]] = {}


def version(name: str) -> str:
    """The version of a file under app/static (a short hash of its content)."""
    path = (STATIC / name).resolve()
    if not path.is_relative_to(STATIC) or not path.is_file():
        raise FileNotFoundError(f"no static file {name!r}")
    stat = path.stat()
    stamp = (stat.st_mtime_ns, stat.st_size)
    known = _versions.get(name)
    if known is not None and known[0] == stamp:
        return known[1]
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:VERSION_LENGTH]
    _versions[name] = (stamp, digest)
    return digest


def static_url(name: str) -> str:
    """The URL a page links a static file by: its content's version in the query."""
    return f"/static/{name}?v={version(name)}"


# What a page may load from app/static (the vendored files' licences and notes are not).
PAGE_SUFFIXES = (".css", ".js", ".svg", ".png")


def page_files() -> list[str]:
    """Every static file a page may load, as relative paths, sorted."""
    return sorted(
        path.relative_to(STATIC).as_posix()
        for path in STATIC.rglob("*")
        if path.is_file() and path.suffix in PAGE_SUFFIXES
    )
