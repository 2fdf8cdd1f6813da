"""The reviews' queries (app/store/models.py: game_reviews). Callers own the transaction.

A review is claimed like a lease: a conditional UPDATE takes a queued review, or a running
one whose lease ran out (its worker died), so of two processes that try at once one gets it,
and a restart loses no request.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Table, and_, func, insert, or_, select, update

from app.store.models import GameReview

reviews: Table = GameReview.__table__  # type: ignore[assignment]

QUEUED, RUNNING, DONE = "queued", "running", "done"


@dataclass(frozen=True, slots=True)
class ReviewRow:
    id: int
    key: str
    room: str
    number: int
    game: dict[str, Any]
    state: str
    progress: float
    result: dict[str, Any] | None


_COLUMNS = (
    reviews.c.id,
    reviews.c.key,
    reviews.c.room,
    reviews.c.number,
    reviews.c.game,
    reviews.c.state,
    reviews.c.progress,
    reviews.c.result,
)


def by_key(conn: Connection, key: str) -> ReviewRow | None:
    row = conn.execute(select(*_COLUMNS).where(reviews.c.key == key)).first()
    return None if row is None else ReviewRow(*row)


def ask(
    conn: Connection, key: str, room: str, number: int, game: dict[str, Any], now: datetime
) -> ReviewRow:
    """The review of ``key``, queued now unless it was asked before."""
    found = by_key(conn, key)
    if found is not None:
        return found
    conn.execute(
        insert(reviews).values(
            key=key,
            room=room,
            number=number,
            game=game,
            state=QUEUED,
            progress=0.0,
            created_at=now,
            updated_at=now,
        )
    )
    row = by_key(conn, key)
    assert row is not None
    return row


def _claimable(now: datetime) -> Any:
    return or_(
        reviews.c.state == QUEUED,
        and_(reviews.c.state == RUNNING, reviews.c.claimed_until < now),
    )


def waiting(conn: Connection, now: datetime) -> list[int]:
    """The reviews a worker may claim now, oldest first."""
    query = select(reviews.c.id).where(_claimable(now)).order_by(reviews.c.id)
    return [int(r[0]) for r in conn.execute(query)]


def claim(
    conn: Connection, review: int, worker: str, now: datetime, until: datetime
) -> ReviewRow | None:
    """The review, if ``worker`` claimed it; None if another has it or it is done."""
    taken = conn.execute(
        update(reviews)
        .where(reviews.c.id == review, _claimable(now))
        .values(state=RUNNING, claimed_by=worker, claimed_until=until, updated_at=now)
    ).rowcount
    if taken != 1:
        return None
    row = conn.execute(select(*_COLUMNS).where(reviews.c.id == review)).first()
    return None if row is None else ReviewRow(*row)


def advance(
    conn: Connection, review: int, worker: str, progress: float, now: datetime, until: datetime
) -> bool:
    """Progress written and the lease renewed; False if the review is no longer this
    worker's (its lease ran out and another took it over)."""
    return (
        conn.execute(
            update(reviews)
            .where(
                reviews.c.id == review, reviews.c.claimed_by == worker, reviews.c.state == RUNNING
            )
            .values(progress=progress, claimed_until=until, updated_at=now)
        ).rowcount
        == 1
    )


def finish(
    conn: Connection, review: int, worker: str, result: dict[str, Any], now: datetime
) -> bool:
    """The review done and kept; False if another worker had taken it over."""
    return (
        conn.execute(
            update(reviews)
            .where(
                reviews.c.id == review, reviews.c.claimed_by == worker, reviews.c.state == RUNNING
            )
            .values(
                state=DONE,
                progress=1.0,
                result=result,
                claimed_by=None,
                claimed_until=None,
                updated_at=now,
            )
        ).rowcount
        == 1
    )


def release(conn: Connection, review: int, worker: str, now: datetime) -> None:
    """A review left by its worker (stopping): queued again for the next one."""
    conn.execute(
        update(reviews)
        .where(reviews.c.id == review, reviews.c.claimed_by == worker, reviews.c.state == RUNNING)
        .values(state=QUEUED, claimed_by=None, claimed_until=None, updated_at=now)
    )


def seat_losses(
    conn: Connection, games: Sequence[tuple[str, int]]
) -> dict[tuple[str, int], list[float]]:
    """Each seat's average loss in the done reviews of these games (room code, number), as
    first asked for there: over the seat's own decisions, not the computer's moves for it
    while its player was away (``covered``)."""
    if not games:
        return {}
    rooms = {room for room, _ in games}
    query = select(reviews.c.room, reviews.c.number, reviews.c.result).where(
        reviews.c.state == DONE, reviews.c.room.in_(rooms)
    )
    wanted = set(games)
    out: dict[tuple[str, int], list[float]] = {}
    for room, number, result in conn.execute(query):
        if (room, number) in wanted and result:
            out[(room, number)] = [_own_average(result, seat) for seat in range(4)]
    return out


def _own_average(result: dict[str, Any], seat: int) -> float:
    losses = [
        float(d["loss"]) for d in result["decisions"] if d["seat"] == seat and not d.get("covered")
    ]
    return round(sum(losses) / len(losses), 3) if losses else 0.0


def count_unfinished(conn: Connection) -> int:
    """Reviews asked and not done yet (queued, or running in a worker)."""
    query = select(func.count()).select_from(reviews).where(reviews.c.state != DONE)
    return int(conn.execute(query).scalar_one())
