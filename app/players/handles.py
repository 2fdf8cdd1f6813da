"""A player's handle (API.md § Players): 3-20 of a-z, 0-9, _ and -, typed in any case and
kept in lower case."""

from __future__ import annotations

import re

HANDLE_MIN, HANDLE_MAX = 3, 20
_HANDLE = re.compile(rf"[a-z0-9_-]{{{HANDLE_MIN},{HANDLE_MAX}}}")


def folded_handle(typed: str) -> str | None:
    """The handle as kept (lower case), or None when ``typed`` is not one."""
    handle = typed.strip().lower()
    return handle if _HANDLE.fullmatch(handle) else None
