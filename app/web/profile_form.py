"""The "Keep my games" form as a page shows it (home, /me, a table's page)."""

from __future__ import annotations

from dataclasses import dataclass


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
