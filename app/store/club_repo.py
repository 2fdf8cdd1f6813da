"""The clubs' queries (app/store/models.py, clubs, club_* and seasons), read into the club's
records (app/night/club.py). Callers own the transaction (app.store.db.read/write)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Table, delete, func, insert, select, update

from app.night.club import ClubNightRow, ClubRow, MemberRow, SeasonRow
from app.store.models import Club, ClubInvite, ClubMember, ClubNight, Night, NightPlayer, Player
from app.store.models import Season as SeasonModel
from app.store.repo import as_utc

clubs: Table = Club.__table__  # type: ignore[assignment]
members: Table = ClubMember.__table__  # type: ignore[assignment]
invites: Table = ClubInvite.__table__  # type: ignore[assignment]
seasons: Table = SeasonModel.__table__  # type: ignore[assignment]
club_nights: Table = ClubNight.__table__  # type: ignore[assignment]
nights: Table = Night.__table__  # type: ignore[assignment]
players: Table = Player.__table__  # type: ignore[assignment]
night_players: Table = NightPlayer.__table__  # type: ignore[assignment]


def insert_club(conn: Connection, *, code: str, name: str, standings: str) -> int:
    done = conn.execute(insert(clubs).values(code=code, name=name, standings=standings))
    return int(done.inserted_primary_key[0])  # type: ignore[index]


def club_by_code(conn: Connection, code: str) -> ClubRow | None:
    row = conn.execute(
        select(clubs.c.id, clubs.c.code, clubs.c.name, clubs.c.standings).where(
            clubs.c.code == code
        )
    ).one_or_none()
    return ClubRow(*tuple[Any, ...](row)) if row is not None else None


def add_member(conn: Connection, club_id: int, player_id: int, role: str) -> None:
    conn.execute(insert(members).values(club_id=club_id, player_id=player_id, role=role))


def members_of(conn: Connection, club_id: int) -> list[MemberRow]:
    rows = conn.execute(
        select(players.c.id, players.c.handle, players.c.name, members.c.role, players.c.listed)
        .join(players, players.c.id == members.c.player_id)
        .where(members.c.club_id == club_id, players.c.deleted_at.is_(None))
        .order_by(members.c.joined_at, members.c.id)
    )
    return [MemberRow(*tuple[Any, ...](r)) for r in rows]


def set_role(conn: Connection, club_id: int, player_id: int, role: str) -> bool:
    done = conn.execute(
        update(members)
        .where(members.c.club_id == club_id, members.c.player_id == player_id)
        .values(role=role)
    )
    return bool(done.rowcount)


def remove_member(conn: Connection, club_id: int, player_id: int) -> bool:
    done = conn.execute(
        delete(members).where(members.c.club_id == club_id, members.c.player_id == player_id)
    )
    return bool(done.rowcount)


def lock_club(conn: Connection, club_id: int) -> None:
    """Holds the club's row until the transaction ends (PostgreSQL; SQLite's writer is one):
    two admins changing roles or seasons at once are served one after the other."""
    conn.execute(select(clubs.c.id).where(clubs.c.id == club_id).with_for_update())


def insert_invite(conn: Connection, club_id: int, digest: str) -> None:
    conn.execute(insert(invites).values(club_id=club_id, token_hash=digest))


def invite_by_hash(conn: Connection, digest: str) -> tuple[int, datetime | None] | None:
    """The club id an invite is for, and when it was revoked (None: it still works)."""
    row = conn.execute(
        select(invites.c.club_id, invites.c.revoked_at).where(invites.c.token_hash == digest)
    ).one_or_none()
    return (int(row[0]), row[1]) if row is not None else None


def revoke_invites(conn: Connection, club_id: int, now: datetime) -> int:
    done = conn.execute(
        update(invites)
        .where(invites.c.club_id == club_id, invites.c.revoked_at.is_(None))
        .values(revoked_at=now)
    )
    return int(done.rowcount)


def seasons_of(conn: Connection, club_id: int) -> list[SeasonRow]:
    rows = conn.execute(
        select(
            seasons.c.id, seasons.c.number, seasons.c.name, seasons.c.started_at, seasons.c.ended_at
        )
        .where(seasons.c.club_id == club_id)
        .order_by(seasons.c.number)
    )
    return [
        SeasonRow(id_, number, name, as_utc(started), as_utc(ended) if ended else None)
        for id_, number, name, started, ended in rows
    ]


def last_season_number(conn: Connection, club_id: int) -> int:
    found = conn.execute(
        select(func.max(seasons.c.number)).where(seasons.c.club_id == club_id)
    ).scalar_one()
    return int(found or 0)


def start_season(conn: Connection, club_id: int, number: int, name: str, now: datetime) -> int:
    """Ends the running season and starts season ``number`` (IntegrityError: another writer
    started that number first)."""
    conn.execute(
        update(seasons)
        .where(seasons.c.club_id == club_id, seasons.c.ended_at.is_(None))
        .values(ended_at=now)
    )
    done = conn.execute(
        insert(seasons).values(club_id=club_id, number=number, name=name, started_at=now)
    )
    return int(done.inserted_primary_key[0])  # type: ignore[index]


def add_night(conn: Connection, night_id: int, club_id: int, season_id: int) -> None:
    conn.execute(
        insert(club_nights).values(night_id=night_id, club_id=club_id, season_id=season_id)
    )


def club_of_night(conn: Connection, night_id: int) -> int | None:
    found = conn.execute(select(club_nights.c.club_id).where(club_nights.c.night_id == night_id))
    return found.scalar_one_or_none()


def nights_of(conn: Connection, club_id: int) -> list[ClubNightRow]:
    rows = conn.execute(
        select(nights.c.id, nights.c.code, nights.c.name, seasons.c.number)
        .join(club_nights, club_nights.c.night_id == nights.c.id)
        .join(seasons, seasons.c.id == club_nights.c.season_id)
        .where(club_nights.c.club_id == club_id)
        .order_by(nights.c.created_at, nights.c.id)
    )
    return [ClubNightRow(*tuple[Any, ...](r)) for r in rows]


def profiles_of_night(conn: Connection, night_id: int) -> dict[tuple[int, int], int]:
    """(pair, slot) -> the profile id of each player registered by their handle."""
    rows = conn.execute(
        select(night_players.c.pair, night_players.c.slot, night_players.c.player_id).where(
            night_players.c.night_id == night_id, night_players.c.player_id.is_not(None)
        )
    )
    return {(int(p), int(s)): int(pid) for p, s, pid in rows}


def handles_of(conn: Connection, ids: set[int]) -> dict[int, tuple[str, str, bool]]:
    """Each living profile's handle, name and whether it is listed (an erased one's players
    show as they played)."""
    if not ids:
        return {}
    rows = conn.execute(
        select(players.c.id, players.c.handle, players.c.name, players.c.listed).where(
            players.c.id.in_(ids), players.c.deleted_at.is_(None)
        )
    )
    return {int(i): (str(h), str(n), bool(listed)) for i, h, n, listed in rows}


def club_for_night(conn: Connection, night_id: int) -> tuple[str, str, int] | None:
    """The club (code, name) and season number a night belongs to, if any."""
    row = conn.execute(
        select(clubs.c.code, clubs.c.name, seasons.c.number)
        .join(club_nights, club_nights.c.club_id == clubs.c.id)
        .join(seasons, seasons.c.id == club_nights.c.season_id)
        .where(club_nights.c.night_id == night_id)
    ).one_or_none()
    return (str(row[0]), str(row[1]), int(row[2])) if row is not None else None


def clubs_of_player(conn: Connection, player_id: int) -> list[tuple[str, str, str]]:
    """The clubs a player is a member of: code, name and their role, oldest first."""
    rows = conn.execute(
        select(clubs.c.code, clubs.c.name, members.c.role)
        .join(members, members.c.club_id == clubs.c.id)
        .where(members.c.player_id == player_id)
        .order_by(members.c.joined_at, members.c.id)
    )
    return [(str(c), str(n), str(r)) for c, n, r in rows]
