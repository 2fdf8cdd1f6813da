"""Queries on one open connection. Callers own the transaction (app.store.db.read/write)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Connection,
    Table,
    and_,
    bindparam,
    delete,
    exc,
    func,
    insert,
    or_,
    select,
    update,
)

from app.store.models import ActionRow, ChatMessage, Game, Player, Room, Seat

rooms: Table = Room.__table__  # type: ignore[assignment]
seats: Table = Seat.__table__  # type: ignore[assignment]
games: Table = Game.__table__  # type: ignore[assignment]
actions: Table = ActionRow.__table__  # type: ignore[assignment]
chat: Table = ChatMessage.__table__  # type: ignore[assignment]
players: Table = Player.__table__  # type: ignore[assignment]


@dataclass(frozen=True, slots=True)
class RoomRow:
    id: int
    code: str
    rules: dict[str, Any]
    seed: int | None
    version: int
    first_dealer: int | None = None  # a replay's: the first dealer of the game it replays
    replay_of_code: str | None = None
    replay_of_game: int | None = None
    options: dict[str, Any] | None = None
    changed_at: datetime | None = None  # when ``version`` was committed
    host_seat: int | None = None


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    name: str
    bot: bool
    level: str | None
    token_hash: str | None
    claim_name: str | None = None
    claim_hash: str | None = None
    player: int | None = None  # the profile holding the seat, and its handle
    handle: str | None = None
    claim_player: int | None = None
    claim_handle: str | None = None


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    number: int
    rules: dict[str, Any]
    seed: int
    first_dealer: int
    started_version: int
    over: bool
    shuffle: int
    winner: int | None = None  # None: not over, or over before games.winner was kept
    lineup: list[dict[str, Any]] | None = None  # who sat where at its start (0007 on)
    reckon_since: datetime | None = None  # when its hand's reckoning began (0008 on)
    # When it ended, whether it was rated and each seat's rating before and after (0010 on).
    ended_at: datetime | None = None
    rated: bool = False
    ratings: list[dict[str, Any]] | None = None


@dataclass(frozen=True, slots=True)
class ActionLog:
    seq: int
    seat: int
    type: str
    card: str | None
    version: int
    auto: bool
    lift: int | None = None  # a call of renege: the lift it names (R22)


def insert_room(
    conn: Connection,
    *,
    code: str,
    rules: dict[str, Any],
    seed: int | None,
    first_dealer: int | None = None,
    replay_of: tuple[str, int] | None = None,
    options: dict[str, Any] | None = None,
    listed: bool | None = None,
) -> int:
    """A new room's id; ``listed`` False keeps a public table out of the lobby for now."""
    public = bool(options and options.get("public")) if listed is None else listed
    result = conn.execute(
        insert(rooms)
        .values(
            code=code,
            rules=rules,
            seed=seed,
            version=0,
            first_dealer=first_dealer,
            replay_of_code=replay_of[0] if replay_of else None,
            replay_of_game=replay_of[1] if replay_of else None,
            options=options,
            public=public,
        )
        .returning(rooms.c.id)
    )
    return int(result.scalar_one())


# The statements of every move, built once (building them is most of their cost).
_ROOM_BY_CODE = select(
    rooms.c.id,
    rooms.c.code,
    rooms.c.rules,
    rooms.c.seed,
    rooms.c.version,
    rooms.c.first_dealer,
    rooms.c.replay_of_code,
    rooms.c.replay_of_game,
    rooms.c.options,
    rooms.c.changed_at,
    rooms.c.host_seat,
).where(rooms.c.code == bindparam("code"))
_BUMP = (
    update(rooms)
    .where(rooms.c.id == bindparam("room_id"), rooms.c.version == bindparam("old"))
    .values(version=bindparam("new"), changed_at=bindparam("at"))
)


def _sqlite(conn: Connection) -> sqlite3.Connection | None:
    """The driver's own connection on SQLite, for the few statements of every move: there
    SQLAlchemy's per-statement work (parameters, result set-up) costs more than SQLite's."""
    if conn.dialect.name != "sqlite":
        return None
    raw = conn.connection.driver_connection
    return raw if isinstance(raw, sqlite3.Connection) else None


def _raw_execute(raw: sqlite3.Connection, sql: str, params: Sequence[Any]) -> int:
    """Run one statement on the driver connection; errors as SQLAlchemy's, like the rest."""
    try:
        return raw.execute(sql, params).rowcount
    except sqlite3.IntegrityError as err:
        raise exc.IntegrityError(sql, params, err) from err
    except sqlite3.OperationalError as err:
        raise exc.OperationalError(sql, params, err) from err


_RAW_BUMP = "UPDATE rooms SET version = ?, changed_at = ? WHERE id = ? AND version = ?"
_RAW_SET_TURN = "UPDATE games SET turn = ?, over = ? WHERE id = ?"
_RAW_INSERT_ACTION = (
    "INSERT INTO actions (game_id, seq, seat, type, card, version, auto, lift)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


def as_utc(moment: datetime) -> datetime:
    """A time read back from the store, in UTC: SQLite hands back naive datetimes, and every
    time stored here was written in UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def room_by_code(conn: Connection, code: str) -> RoomRow | None:
    row = conn.execute(_ROOM_BY_CODE, {"code": code}).one_or_none()
    if row is None:
        return None
    # More columns than SQLAlchemy's typed rows spell out: the row's values, in order.
    room = RoomRow(*tuple[Any, ...](row))
    if room.changed_at is None:
        return room
    return replace(room, changed_at=as_utc(room.changed_at))


def bump_version(conn: Connection, room_id: int, version: int, at: datetime | None = None) -> bool:
    """The conditional UPDATE: True if the room was still at ``version`` (now version + 1,
    committed ``at``, default now: the turn timer counts from it)."""
    at = at or datetime.now(UTC)
    raw = _sqlite(conn)
    if raw is not None:
        # As SQLAlchemy writes a DateTime on SQLite: naive UTC text.
        stamp = at.astimezone(UTC).replace(tzinfo=None).isoformat(" ", "microseconds")
        return _raw_execute(raw, _RAW_BUMP, (version + 1, stamp, room_id, version)) == 1
    params = {"room_id": room_id, "old": version, "new": version + 1, "at": at}
    return conn.execute(_BUMP, params).rowcount == 1


def seats_of(conn: Connection, room_id: int, at_version: int | None = None) -> list[SeatRow]:
    holder, claimer = players.alias("holder"), players.alias("claimer")
    query = (
        select(
            seats.c.seat,
            seats.c.name,
            seats.c.bot,
            seats.c.level,
            seats.c.token_hash,
            seats.c.claim_name,
            seats.c.claim_hash,
            seats.c.player_id,
            holder.c.handle,
            seats.c.claim_player_id,
            claimer.c.handle,
        )
        .outerjoin(holder, holder.c.id == seats.c.player_id)
        .outerjoin(claimer, claimer.c.id == seats.c.claim_player_id)
        .where(seats.c.room_id == room_id)
    )
    if at_version is not None:
        query = query.where(seats.c.joined_version <= at_version)
    return [SeatRow(*row) for row in conn.execute(query.order_by(seats.c.seat))]


def insert_seat(
    conn: Connection,
    *,
    room_id: int,
    seat: int,
    name: str,
    bot: bool,
    level: str | None,
    token_hash: str | None,
    version: int,
    claim: tuple[str, str] | None = None,
    player: int | None = None,
    claim_player: int | None = None,
    sight: tuple[datetime | None] | None = None,
) -> None:
    """A seat's row. ``sight``: the seat's ``hidden_at`` to keep (a row written again for the
    same player); else a person's new seat has no page in sight yet, so it is out of sight
    from now (Web Push tells a player who joined by a link and locked the phone), until a
    page of it says it is seen (``POST /api/rooms/{code}/sight``)."""
    now = datetime.now(UTC)
    hidden_at = sight[0] if sight is not None else (None if bot else now)
    conn.execute(
        insert(seats).values(
            room_id=room_id,
            seat=seat,
            name=name,
            bot=bot,
            level=level,
            token_hash=token_hash,
            claim_name=claim[0] if claim else None,
            claim_hash=claim[1] if claim else None,
            player_id=player,
            claim_player_id=claim_player,
            joined_version=version,
            # Joining is a sign of life: no process covers a player who just sat down.
            seen_at=None if bot else now,
            hidden_at=hidden_at,
        )
    )


def hidden_at_of(conn: Connection, room_id: int, seat: int) -> datetime | None:
    """Since when no page of the seat has been in sight (None: one is)."""
    query = select(seats.c.hidden_at).where(seats.c.room_id == room_id, seats.c.seat == seat)
    value = conn.execute(query).scalar_one_or_none()
    return as_utc(value) if isinstance(value, datetime) else None


def delete_seat(conn: Connection, room_id: int, seat: int) -> None:
    """A seat given up, or about to be written again (a seat changed hands, a claim made)."""
    conn.execute(delete(seats).where(seats.c.room_id == room_id, seats.c.seat == seat))


def set_host(conn: Connection, room_id: int, seat: int | None) -> None:
    conn.execute(update(rooms).where(rooms.c.id == room_id).values(host_seat=seat))


_GAME_COLUMNS = (
    games.c.id,
    games.c.number,
    games.c.rules,
    games.c.seed,
    games.c.first_dealer,
    games.c.started_version,
    games.c.over,
    games.c.shuffle,
    games.c.winner,
    games.c.lineup,
    games.c.reckon_since,
    games.c.ended_at,
    games.c.rated,
    games.c.ratings,
)


def _game_row(row: Any) -> GameRow:
    *head, ended_at, rated, ratings = row
    game = GameRow(*head)
    ended = as_utc(ended_at) if ended_at is not None else None
    return replace(game, ended_at=ended, rated=bool(rated), ratings=ratings)


def latest_game(conn: Connection, room_id: int, at_version: int | None = None) -> GameRow | None:
    query = select(*_GAME_COLUMNS).where(games.c.room_id == room_id)
    if at_version is not None:
        query = query.where(games.c.started_version <= at_version)
    row = conn.execute(query.order_by(games.c.number.desc()).limit(1)).one_or_none()
    return _game_row(row) if row is not None else None


def game_by_id(conn: Connection, game_id: int) -> GameRow | None:
    row = conn.execute(select(*_GAME_COLUMNS).where(games.c.id == game_id)).one_or_none()
    return _game_row(row) if row is not None else None


def game_by_number(conn: Connection, room_id: int, number: int) -> GameRow | None:
    query = select(*_GAME_COLUMNS).where(games.c.room_id == room_id, games.c.number == number)
    row = conn.execute(query).one_or_none()
    return _game_row(row) if row is not None else None


def insert_game(
    conn: Connection,
    *,
    room_id: int,
    number: int,
    rules: dict[str, Any],
    seed: int,
    first_dealer: int,
    version: int,
    turn: int | None,
    shuffle: int,
    lineup: list[dict[str, Any]] | None = None,
) -> int:
    result = conn.execute(
        insert(games)
        .values(
            room_id=room_id,
            number=number,
            rules=rules,
            seed=seed,
            shuffle=shuffle,
            first_dealer=first_dealer,
            started_version=version,
            turn=turn,
            over=turn is None,
            lineup=lineup,
        )
        .returning(games.c.id)
    )
    return int(result.scalar_one())


_SET_TURN = (
    update(games)
    .where(games.c.id == bindparam("b_game_id"))
    .values(turn=bindparam("b_turn"), over=bindparam("b_over"))
)


def set_turn(conn: Connection, game_id: int, turn: int | None, *, over: bool) -> None:
    """The seat to act (None: no seat, the game over or its hand being reckoned, R23)."""
    raw = _sqlite(conn)
    if raw is not None:
        _raw_execute(raw, _RAW_SET_TURN, (turn, over, game_id))
        return
    conn.execute(_SET_TURN, {"b_game_id": game_id, "b_turn": turn, "b_over": over})


def set_reckon_since(conn: Connection, game_id: int, since: datetime) -> None:
    """R23: the hand's last card was played at ``since``: its reckoning counts from then."""
    conn.execute(update(games).where(games.c.id == game_id).values(reckon_since=since))


def relink_lineups(conn: Connection, room_id: int, old: str, new: str, player: int) -> None:
    """A guest's games at this room become a player's (a claim): their lineups' entries for
    the guest's token hash name the player's hash and the player."""
    query = select(games.c.id, games.c.lineup).where(games.c.room_id == room_id)
    for game_id, lineup in conn.execute(query).all():
        if not lineup or not any(o.get("who") == old for o in lineup):
            continue
        changed = [o | {"who": new, "player": player} if o.get("who") == old else o for o in lineup]
        conn.execute(update(games).where(games.c.id == game_id).values(lineup=changed))


def set_lineup(conn: Connection, game_id: int, lineup: list[dict[str, Any]] | None) -> None:
    """Who the game is credited to, seat by seat: a latecomer took a computer player's seat
    (app/services/snapshot.py ``handed_over``)."""
    conn.execute(update(games).where(games.c.id == game_id).values(lineup=lineup))


def set_winner(conn: Connection, game_id: int, winner: int) -> None:
    """The game is over: its winning team, written once, by the move that ended it."""
    conn.execute(update(games).where(games.c.id == game_id).values(winner=winner))


def finished_games(conn: Connection, room_id: int, before: int | None = None) -> list[GameRow]:
    """The room's finished games in order (those numbered below ``before``, if given)."""
    query = select(*_GAME_COLUMNS).where(games.c.room_id == room_id, games.c.over.is_(True))
    if before is not None:
        query = query.where(games.c.number < before)
    return [_game_row(row) for row in conn.execute(query.order_by(games.c.number))]


def actions_of(conn: Connection, game_id: int, at_version: int | None = None) -> list[ActionLog]:
    query = select(
        actions.c.seq,
        actions.c.seat,
        actions.c.type,
        actions.c.card,
        actions.c.version,
        actions.c.auto,
        actions.c.lift,
    ).where(actions.c.game_id == game_id)
    if at_version is not None:
        query = query.where(actions.c.version <= at_version)
    return [ActionLog(*row) for row in conn.execute(query.order_by(actions.c.seq))]


_INSERT_ACTION = insert(actions)


def insert_action(
    conn: Connection,
    *,
    game_id: int,
    seq: int,
    seat: int,
    type: str,
    card: str | None,
    version: int,
    auto: bool,
    lift: int | None = None,
) -> None:
    raw = _sqlite(conn)
    if raw is not None:
        _raw_execute(raw, _RAW_INSERT_ACTION, (game_id, seq, seat, type, card, version, auto, lift))
        return
    conn.execute(
        _INSERT_ACTION,
        {
            "game_id": game_id,
            "seq": seq,
            "seat": seat,
            "type": type,
            "card": card,
            "version": version,
            "auto": auto,
            "lift": lift,
        },
    )


def rooms_in_play(conn: Connection) -> list[str]:
    """Codes of rooms whose latest game waits for a seat to act (resumed after a restart)."""
    query = (
        select(rooms.c.code)
        .join(games, games.c.room_id == rooms.c.id)
        .where(games.c.over.is_(False))
    )
    return [row[0] for row in conn.execute(query)]


_SEEN = (
    update(seats)
    .where(
        seats.c.room_id
        == select(rooms.c.id).where(rooms.c.code == bindparam("b_code")).scalar_subquery(),
        seats.c.seat == bindparam("b_seat"),
    )
    .values(seen_at=bindparam("b_now"))
)


def mark_seen(conn: Connection, seen: list[tuple[str, int]], now: datetime) -> None:
    """Record a sign of life for each (room code, seat)."""
    if seen:
        conn.execute(_SEEN, [{"b_code": code, "b_seat": seat, "b_now": now} for code, seat in seen])


def people_seen_at(conn: Connection, code: str) -> datetime | None:
    """The latest sign of life of the people seated at a room (their seats' join or, with
    several processes, the heartbeats'), None when none was seen."""
    query = (
        select(func.max(seats.c.seen_at))
        .join(rooms, rooms.c.id == seats.c.room_id)
        .where(rooms.c.code == code, seats.c.bot.is_(False))
    )
    value = conn.execute(query).scalar_one_or_none()
    return as_utc(value) if isinstance(value, datetime) else None


def seen_at(conn: Connection, code: str, seat: int) -> datetime | None:
    query = (
        select(seats.c.seen_at)
        .join(rooms, rooms.c.id == seats.c.room_id)
        .where(rooms.c.code == code, seats.c.seat == seat)
    )
    value = conn.execute(query).scalar_one_or_none()
    return as_utc(value) if isinstance(value, datetime) else None


# -- table talk ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChatRow:
    id: int
    seat: int | None
    name: str
    text: str
    preset: str | None
    at: datetime
    handle: str | None = None  # the writer's profile's, when a player wrote it


_CHAT_COLUMNS = (chat.c.id, chat.c.seat, chat.c.name, chat.c.text, chat.c.preset, chat.c.at)


def insert_chat(
    conn: Connection,
    *,
    room_id: int,
    seat: int | None,
    name: str,
    text: str,
    preset: str | None,
    at: datetime,
    player: tuple[int, str] | None = None,
) -> ChatRow:
    """A message; ``player``: the writer's profile (id, handle), when a player wrote it."""
    new_id = conn.execute(
        insert(chat)
        .values(
            room_id=room_id,
            seat=seat,
            name=name,
            text=text,
            preset=preset,
            at=at,
            player_id=player[0] if player else None,
        )
        .returning(chat.c.id)
    ).scalar_one()
    return ChatRow(int(new_id), seat, name, text, preset, at, player[1] if player else None)


def chat_of(conn: Connection, room_id: int, *, limit: int) -> list[ChatRow]:
    """The room's last ``limit`` messages, oldest first; a deleted profile's lines keep the
    name as written and show no handle (those written before deletion cleared their link)."""
    query = (
        select(*_CHAT_COLUMNS, players.c.handle)
        .outerjoin(players, and_(players.c.id == chat.c.player_id, players.c.deleted_at.is_(None)))
        .where(chat.c.room_id == room_id)
        .order_by(chat.c.id.desc())
        .limit(limit)
    )
    rows = [ChatRow(*row) for row in conn.execute(query)]
    rows.reverse()
    return [replace(row, at=as_utc(row.at)) for row in rows]


def chat_count_since(conn: Connection, room_id: int, seat: int | None, since: datetime) -> int:
    """How many messages ``seat`` (None: the spectators) wrote in the room since ``since``."""
    by_seat = chat.c.seat.is_(None) if seat is None else chat.c.seat == seat
    query = select(func.count()).where(chat.c.room_id == room_id, by_seat, chat.c.at > since)
    return int(conn.execute(query).scalar_one())


def take_nudge(conn: Connection, room_id: int, seat: int, now: datetime, since: datetime) -> bool:
    """Record a nudge by ``seat`` unless it nudged after ``since``: one conditional UPDATE, so
    two processes cannot both let a second nudge through."""
    result = conn.execute(
        update(seats)
        .where(
            seats.c.room_id == room_id,
            seats.c.seat == seat,
            or_(seats.c.nudged_at.is_(None), seats.c.nudged_at <= since),
        )
        .values(nudged_at=now)
    )
    return bool(result.rowcount)
