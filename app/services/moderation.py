"""The host's tools against the player who spoils it (API.md § Fourth round, *Reports*):
a player reports another from a table they sat at, the report keeping the room's chat and
game records as they were; the admin reads the reports and bans or unbans a player.

What a ban keeps a player from (a seat at a public table, by any path) is judged where the
seat is taken: the rooms ask the warden (app/services/warden.py, app/services/place_rules.py)
for the player's standing, which reads the bans kept here."""

from __future__ import annotations

from contextlib import suppress
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from sqlalchemy import Engine

from app.players.handles import folded_handle
from app.players.reasons import NO_PLAYER
from app.players.state import ProfileRow
from app.reasons import N_, reason
from app.services import errors, records
from app.services.decide import BANNED as BANNED
from app.services.identity import check_code, token_hash, typed_code
from app.services.players import SignedIn
from app.services.rooms import Rooms
from app.services.talk import clean_text, messages_of
from app.store import moderation_repo as store
from app.store import player_repo, repo, social_repo
from app.store.db import read, write

Json = dict[str, Any]
ReportReason = Literal["cheating", "abuse", "other"]
REPORT_REASONS: tuple[ReportReason, ...] = ("cheating", "abuse", "other")
REPORT_TEXT_MAX = 500
BAN_REASON_MAX = 500
# Reports one player may make: a handful an hour is plenty for someone wronged, and a flood
# of them (each a copy of a room's chat and records) is refused.
REPORTS_PER_HOUR = 5
KEPT_CHAT = 1000  # the room's messages a report keeps, the newest
KEPT_GAMES = 10  # the room's games whose records a report keeps, the newest

NOT_AT_TABLE = reason(
    "not_at_table",
    "a report from room {code!r} is made by, and names, a player who sat at it",
    N_("A report from a table is made by, and names, a player who sat at it."),
)
REPORT_SELF = reason(
    "report_self", "a player cannot report themselves", N_("You cannot report yourself.")
)
TOO_MANY_REPORTS = reason(
    "too_many_reports",
    "more than {count} reports an hour",
    N_("Too many reports: try again later."),
)


def _now() -> datetime:
    return datetime.now(UTC)


def _player(engine: Engine, handle: str) -> ProfileRow:
    folded = folded_handle(handle)
    if folded is None:
        raise errors.NotFound(NO_PLAYER, handle=handle[:40])
    with read(engine) as conn:
        found = player_repo.player_by_handle(conn, folded)
    if found is None or found.secret is None:  # none, or a deleted profile
        raise errors.NotFound(NO_PLAYER, handle=handle)
    return found


def report(
    rooms: Rooms,
    me: SignedIn,
    *,
    handle: str,
    room: str,
    why: ReportReason,
    text: str,
    now: datetime | None = None,
) -> Json:
    """Report ``handle`` from ``room``, where both the reporter and the reported player sat
    (else 403, or 409 for the reported); keep the room's chat and its games' records as they
    are now. ``room`` as a person types it: the code as the table shows it ("vpxa mwrv 49x8"),
    any case, with spaces or dashes."""
    now = now or _now()
    words = clean_text(text, REPORT_TEXT_MAX)
    room = typed_code(room)
    check_code(room)
    reported = _player(rooms.engine, handle)
    if reported.id == me.player.id:
        raise errors.Invalid(REPORT_SELF)
    with read(rooms.engine) as conn:
        if repo.room_by_code(conn, room) is None:
            raise errors.NotFound(errors.NO_ROOM, code=room)
        if not store.sat_at(conn, room, me.player.id, token_hash(me.seat_token(room))):
            raise errors.Forbidden(NOT_AT_TABLE, code=room)
        # A bystander is no one to report from here (review round 5, finding 14): the
        # reported player held a seat in this room at some time (by their profile).
        if not store.sat_at(conn, room, reported.id):
            raise errors.Conflict(NOT_AT_TABLE, code=room)
    chat, kept = _kept(rooms, room)
    with write(rooms.engine) as conn:
        # Counted inside the write, the reporter's row held: two reports at once from one
        # player are one after the other here, so a flood never slips past the count.
        store.hold_player(conn, me.player.id)
        if store.reports_since(conn, me.player.id, now - timedelta(hours=1)) >= REPORTS_PER_HOUR:
            raise errors.TooMany(TOO_MANY_REPORTS, count=REPORTS_PER_HOUR)
        report_id = store.insert_report(
            conn,
            reporter_id=me.player.id,
            reported_id=reported.id,
            room=room,
            reason=why,
            text=words,
            at=now,
            chat=chat,
            records=kept,
        )
    return {
        "id": report_id,
        "handle": reported.handle,
        "room": room,
        "reason": why,
        "text": words,
        "at": now.isoformat(),
    }


def _kept(rooms: Rooms, code: str) -> tuple[list[Json], list[Json]]:
    """The room's chat and its newest games' records, as the API shows them now."""
    with read(rooms.engine) as conn:
        found = repo.room_by_code(conn, code)
        if found is None:
            raise errors.NotFound(errors.NO_ROOM, code=code)
        chat = [m.model_dump(mode="json") for m in messages_of(conn, found.id, limit=KEPT_CHAT)]
    snap = rooms.snapshot(code)
    played = snap.game.number if snap.game is not None else 0
    kept = [
        records.record_json(records.load_record(rooms, code, number))
        for number in range(max(1, played - KEPT_GAMES + 1), played + 1)
    ]
    return chat, kept


def reports(engine: Engine, *, limit: int, offset: int = 0) -> Json:
    """The reports, the newest first, each with what it kept, and whether the reported
    player is banned now."""
    with read(engine) as conn:
        total = store.count_reports(conn)
        found = store.recent_reports(conn, limit=limit, offset=offset)
        banned_now = {b.handle for b in store.all_bans(conn)}
    return {
        "total": total,
        "offset": offset,
        "reports": [
            {
                "id": r.id,
                "reporter": r.reporter,
                "handle": r.reported,
                "room": r.room,
                "reason": r.reason,
                "text": r.text,
                "at": r.at.isoformat(),
                "banned": r.reported in banned_now,
                "chat": r.chat,
                "records": r.records,
            }
            for r in found
        ],
    }


# Who banned (``bans.by``): the admin token is one shared token, so the ban keeps what is known
# of the admin, the door they came through.
BY_TOKEN = "admin token"  # the JSON route, the token as a bearer
BY_PAGE = "admin page"  # the admin's page, signed in with the token


def ban(
    engine: Engine, handle: str, why: str, now: datetime | None = None, by: str | None = None
) -> Json:
    """Ban a player (again: the newer reason stands); ``by``: BY_TOKEN or BY_PAGE."""
    words = clean_text(why, BAN_REASON_MAX)
    player = _player(engine, handle)
    at = now or _now()
    with write(engine) as conn:
        store.put_ban(conn, player.id, words, at, by)
    return {
        "handle": player.handle,
        "banned": True,
        "reason": words,
        "at": at.isoformat(),
        "by": by,
    }


def unban(engine: Engine, handle: str) -> Json:
    """Lift a player's ban (none: nothing to do, the same answer)."""
    player = _player(engine, handle)
    with write(engine) as conn:
        store.lift_ban(conn, player.id)
    return {"handle": player.handle, "banned": False}


def banned(engine: Engine, player_id: int) -> bool:
    """Whether the admin banned this player: no public play, no new public tables."""
    with read(engine) as conn:
        return store.ban_of(conn, player_id) is not None


def banish(rooms: Rooms, handle: str) -> list[str]:
    """A banned player's seats at public tables go to computer players (each table plays on
    without them); the codes of the tables they left."""
    player = _player(rooms.engine, handle)
    with read(rooms.engine) as conn:
        codes = social_repo.public_room_of(conn, player_id=player.id, digest=None)
    for code in codes:
        with suppress(errors.ApiError):  # the room went meanwhile
            rooms.banish(code=code, player=player.id)
    return codes


def bans(engine: Engine) -> list[Json]:
    with read(engine) as conn:
        return [
            {"handle": b.handle, "reason": b.reason, "at": b.at.isoformat(), "by": b.by}
            for b in store.all_bans(conn)
        ]
