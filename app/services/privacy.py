"""Who is shown an unlisted profile's handle (API.md § Fifth round, "Privacy"): the one rule
the lobby, a club's pages and its JSON all ask. An unlisted player's name is shown as it is at
a table; its handle (which finds the profile) only to the player themself and to those they
chose to be among (the members of a club they joined), never to strangers."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Engine

from app.store import player_repo
from app.store.db import read


def shown_handle(
    handle: str, *, listed: bool, player: int, viewer: int | None, among: bool = False
) -> str | None:
    """The handle ``viewer`` is shown of profile ``player``: None to a stranger when it is
    unlisted. ``among``: the viewer is of a circle the player joined (a club's member)."""
    if listed or among or (viewer is not None and viewer == player):
        return handle
    return None


def unlisted_among(engine: Engine, ids: Iterable[int]) -> frozenset[int]:
    """The unlisted profiles among ``ids`` (one query, none for no one)."""
    wanted = set(ids)
    if not wanted:
        return frozenset()
    with read(engine) as conn:
        return frozenset(player_repo.unlisted_among(conn, wanted))
