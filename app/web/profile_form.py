"""The "Keep my games" form as a page shows it (home, /me, a table's page)."""

from __future__ import annotations

import re
from dataclasses import dataclass

# A page of this site to go on to: one absolute path ("/c/ab12/join/…"), never "//host" or
# "/\\host" (which browsers read as another site), no scheme, no control characters.
_LOCAL_PATH = re.compile(r"/(?![/\\])[A-Za-z0-9\-._~/%?=&+:@,;]{0,300}")


@dataclass(frozen=True, slots=True)
class ProfileForm:
    """What was typed, where it posts, and why it was refused (in the reader's words)."""

    action: str = "/me/new"  # "/me/new" (home, /me) or "/r/{code}/profile" (a table)
    handle: str = ""
    name: str = ""
    error: str | None = None
    # The page the form is on, to show again with its refusal: "home" or "me" (both post to
    # /me/new), "table" (its own route).
    page: str = "home"
    # Where the form goes on to once the profile is made (a club's invite): a local path.
    next: str = ""


def local_path(asked: str) -> str:
    """``asked`` when it is a path on this site, else "": a ``next`` sent by a form is
    followed only within the site, never to another (no open redirect)."""
    return asked if _LOCAL_PATH.fullmatch(asked) else ""
