"""The server's warden (app/services/warden.py): the admin's bans (app/services/moderation.py)
and the players' blocks (app/services/social.py), asked of the database in one read each
time a seat is asked for, never at a move."""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import Engine

from app.services.warden import PlaceStanding
from app.store import moderation_repo, social_repo
from app.store.db import read


class PlaceRules:
    """The rules of the place a seat obeys (bans and blocks), read from the database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def standing(self, player: int) -> PlaceStanding:
        with read(self.engine) as conn:
            banned = moderation_repo.ban_of(conn, player) is not None
            shuns = frozenset(social_repo.shunned(conn, player))
        return PlaceStanding(banned, shuns)

    def apart(self, players: Collection[int]) -> bool:
        ids = set(players)
        if len(ids) < 2:
            return False
        with read(self.engine) as conn:
            return social_repo.blocked_among(conn, ids)

    def blocks_among(self, players: Collection[int]) -> set[tuple[int, int]]:
        ids = set(players)
        if len(ids) < 2:
            return set()
        with read(self.engine) as conn:
            return social_repo.blocks_among(conn, ids)

    def banned_among(self, players: Collection[int]) -> bool:
        ids = set(players)
        if not ids:
            return False
        with read(self.engine) as conn:
            return moderation_repo.banned_among(conn, ids)
