"""Web Push's queries (app/store/models.py: push_subscriptions, push_outbox, server_keys and
the seats' ``hidden_at`` / ``turn_told``). Callers own the transaction."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Table, and_, delete, func, insert, or_, select, update

from app.store.models import (
    Game,
    Player,
    PushOutbox,
    PushSubscription,
    Room,
    Seat,
    ServerKey,
)
from app.store.repo import as_utc

subscriptions: Table = PushSubscription.__table__  # type: ignore[assignment]
outbox: Table = PushOutbox.__table__  # type: ignore[assignment]
server_keys: Table = ServerKey.__table__  # type: ignore[assignment]
players: Table = Player.__table__  # type: ignore[assignment]
rooms: Table = Room.__table__  # type: ignore[assignment]
seats: Table = Seat.__table__  # type: ignore[assignment]
games: Table = Game.__table__  # type: ignore[assignment]


@dataclass(frozen=True, slots=True)
class SubscriptionRow:
    id: int
    player_id: int
    endpoint: str
    events: tuple[str, ...]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Subscriber:
    """A subscription to tell of an event, and the language its player reads."""

    subscription: int
    player_id: int
    language: str | None


@dataclass(frozen=True, slots=True)
class Letter:
    """A claimed notification, with what sending it needs."""

    id: int
    endpoint: str
    p256dh: str
    auth: str
    payload: dict[str, object]
    attempts: int
    subscription: int


@dataclass(frozen=True, slots=True)
class TurnToTell:
    seat_row: int
    code: str
    version: int
    seat: int
    player_id: int


# -- the server's keys --------------------------------------------------------------------


def kept_key(conn: Connection, name: str) -> str | None:
    found = conn.execute(select(server_keys.c.value).where(server_keys.c.name == name)).first()
    return None if found is None else str(found[0])


def keep_key(conn: Connection, name: str, value: str, at: datetime) -> None:
    """Raises IntegrityError if another process kept one first (read that one instead)."""
    conn.execute(insert(server_keys).values(name=name, value=value, created_at=at))


# -- subscriptions ------------------------------------------------------------------------


def _subscription(row: Any) -> SubscriptionRow:
    return SubscriptionRow(
        row.id, row.player_id, row.endpoint, tuple(row.events), as_utc(row.created_at)
    )


def save_subscription(
    conn: Connection,
    *,
    player_id: int,
    endpoint: str,
    p256dh: str,
    auth: str,
    events: Sequence[str],
    at: datetime,
) -> int:
    """The browser's subscription, kept for the player: a browser subscribing again for the
    same player (new keys, other events) replaces what it gave before. Another player's row
    of the same endpoint stays theirs."""
    values = {"player_id": player_id, "p256dh": p256dh, "auth": auth, "events": list(events)}
    found = conn.execute(
        select(subscriptions.c.id).where(
            subscriptions.c.player_id == player_id, subscriptions.c.endpoint == endpoint
        )
    ).first()
    if found is not None:
        conn.execute(update(subscriptions).where(subscriptions.c.id == found[0]).values(values))
        return int(found[0])
    result = conn.execute(insert(subscriptions).values(endpoint=endpoint, created_at=at, **values))
    return int(result.inserted_primary_key[0])  # type: ignore[index]


def drop_subscription(conn: Connection, player_id: int, endpoint: str) -> bool:
    query = delete(subscriptions).where(
        subscriptions.c.player_id == player_id, subscriptions.c.endpoint == endpoint
    )
    return conn.execute(query).rowcount > 0


def drop_subscription_by_id(conn: Connection, subscription: int) -> None:
    conn.execute(delete(subscriptions).where(subscriptions.c.id == subscription))


def count_subscriptions(conn: Connection, player_id: int, *, hold: bool = False) -> int:
    """The player's subscriptions; ``hold``: the player's row locked until the transaction
    ends (PostgreSQL; SQLite's writers are one at a time), so what is counted stays true."""
    if hold:
        conn.execute(select(players.c.id).where(players.c.id == player_id).with_for_update())
    query = select(func.count()).where(subscriptions.c.player_id == player_id)
    return int(conn.execute(query).scalar_one())


def has_subscription(conn: Connection, player_id: int, endpoint: str) -> bool:
    query = select(subscriptions.c.id).where(
        subscriptions.c.player_id == player_id, subscriptions.c.endpoint == endpoint
    )
    return conn.execute(query.limit(1)).first() is not None


def drop_subscriptions_of(conn: Connection, player_id: int) -> None:
    conn.execute(delete(subscriptions).where(subscriptions.c.player_id == player_id))


def subscriptions_of(conn: Connection, player_id: int) -> list[SubscriptionRow]:
    query = (
        select(subscriptions)
        .where(subscriptions.c.player_id == player_id)
        .order_by(subscriptions.c.id)
    )
    return [_subscription(row) for row in conn.execute(query)]


def subscribers(conn: Connection, player_ids: Iterable[int], event: str) -> list[Subscriber]:
    """The subscriptions of these players that asked to be told of ``event``."""
    wanted = sorted(set(player_ids))
    if not wanted:
        return []
    query = (
        select(subscriptions.c.id, subscriptions.c.player_id, subscriptions.c.events)
        .add_columns(players.c.language)
        .join(players, players.c.id == subscriptions.c.player_id)
        .where(subscriptions.c.player_id.in_(wanted), players.c.deleted_at.is_(None))
        .order_by(subscriptions.c.id)
    )
    return [
        Subscriber(row.id, row.player_id, row.language)
        for row in conn.execute(query)
        if event in row.events
    ]


# -- the outbox -----------------------------------------------------------------------------


def post(conn: Connection, letters: Sequence[tuple[int, dict[str, object]]], at: datetime) -> None:
    if letters:
        rows = [
            {"subscription_id": sub, "payload": payload, "attempts": 0, "due_at": at}
            for sub, payload in letters
        ]
        conn.execute(insert(outbox), rows)


def due(conn: Connection, now: datetime, limit: int) -> list[int]:
    query = (
        select(outbox.c.id)
        .where(
            outbox.c.due_at <= now,
            or_(outbox.c.claimed_until.is_(None), outbox.c.claimed_until < now),
        )
        .order_by(outbox.c.due_at, outbox.c.id)
        .limit(limit)
    )
    return [int(row[0]) for row in conn.execute(query)]


def claim(conn: Connection, letter: int, now: datetime, until: datetime) -> Letter | None:
    """The letter, if this process claimed it (a conditional UPDATE: of two processes that
    try at once, one gets it); None if another has it or it is gone."""
    taken = conn.execute(
        update(outbox)
        .where(
            outbox.c.id == letter,
            or_(outbox.c.claimed_until.is_(None), outbox.c.claimed_until < now),
        )
        .values(claimed_until=until)
    ).rowcount
    if taken != 1:
        return None
    row = conn.execute(
        select(
            outbox.c.id,
            subscriptions.c.endpoint,
            subscriptions.c.p256dh,
            subscriptions.c.auth,
            outbox.c.payload,
            outbox.c.attempts,
            subscriptions.c.id.label("subscription"),
        )
        .join(subscriptions, subscriptions.c.id == outbox.c.subscription_id)
        .where(outbox.c.id == letter)
    ).first()
    return None if row is None else Letter(*row)


def sent(conn: Connection, letter: int) -> None:
    conn.execute(delete(outbox).where(outbox.c.id == letter))


def again(conn: Connection, letter: int, attempts: int, due_at: datetime) -> None:
    conn.execute(
        update(outbox)
        .where(outbox.c.id == letter)
        .values(attempts=attempts, due_at=due_at, claimed_until=None)
    )


def waiting(conn: Connection) -> int:
    """Letters in the outbox (due, waiting their backoff, or being sent)."""
    return int(conn.execute(select(func.count()).select_from(outbox)).scalar_one())


# -- whose turn it is, unseen -------------------------------------------------------------


def set_hidden(conn: Connection, code: str, seat: int, at: datetime | None) -> None:
    """A page of the seat went out of sight (``at``; the first moment is kept) or came back
    into it (None)."""
    room = select(rooms.c.id).where(rooms.c.code == code).scalar_subquery()
    where = [seats.c.room_id == room, seats.c.seat == seat]
    if at is not None:
        where.append(seats.c.hidden_at.is_(None))
    conn.execute(update(seats).where(*where).values(hidden_at=at))


def turns_to_tell(conn: Connection, hidden_before: datetime, limit: int) -> list[TurnToTell]:
    """Players whose turn it is at a game in play, no page of whose has been seen since
    ``hidden_before``, not yet told of this room version, with a push subscription."""
    has_subscription = (
        select(subscriptions.c.id).where(subscriptions.c.player_id == seats.c.player_id).exists()
    )
    query = (
        select(seats.c.id, rooms.c.code, rooms.c.version, seats.c.seat, seats.c.player_id)
        .join(rooms, rooms.c.id == seats.c.room_id)
        .join(games, and_(games.c.room_id == rooms.c.id, games.c.turn == seats.c.seat))
        .where(
            games.c.over.is_(False),
            seats.c.bot.is_(False),
            seats.c.player_id.is_not(None),
            seats.c.hidden_at.is_not(None),
            seats.c.hidden_at <= hidden_before,
            or_(seats.c.turn_told.is_(None), seats.c.turn_told != rooms.c.version),
            has_subscription,
        )
        .limit(limit)
    )
    return [TurnToTell(*row) for row in conn.execute(query)]


def tell_turn(conn: Connection, seat_row: int, version: int) -> bool:
    """True if this process is the one to tell (no other told of this version first)."""
    return (
        conn.execute(
            update(seats)
            .where(
                seats.c.id == seat_row,
                or_(seats.c.turn_told.is_(None), seats.c.turn_told != version),
            )
            .values(turn_told=version)
        ).rowcount
        == 1
    )


def out_of_sight(conn: Connection, code: str) -> set[int]:
    """The room's seats no page of which is in sight now."""
    query = (
        select(seats.c.seat)
        .join(rooms, rooms.c.id == seats.c.room_id)
        .where(rooms.c.code == code, seats.c.hidden_at.is_not(None))
    )
    return {int(row[0]) for row in conn.execute(query)}
