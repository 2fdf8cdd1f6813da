"""The one versioned write path, for rooms and nights alike.

A change is read, decided, written and announced in one walk: the current record is read
inside the write transaction, a pure decision turns it and the command into a change (or a
refusal, or nothing to do), the record's version is raised by a conditional UPDATE (the
first statement that writes, so racing writers serialise there and the loser decides
again on what the winner wrote), the change is written, the notifier is told inside the
transaction (PostgreSQL's NOTIFY goes out if and only if it commits) and, after the commit,
in this process. A lost race, a unique key taken meanwhile or a database lock are tried
again in ``retried``, the one retry loop; a new record's code is drawn in ``drew_code``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol, TypeVar

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError, OperationalError

from app.live.notifier import Notifier
from app.reasons import Reason
from app.services import errors
from app.services.identity import new_room_code
from app.store.db import write

RETRIES = 8

Snap = TypeVar("Snap")
Change = TypeVar("Change")
Done = TypeVar("Done")
T = TypeVar("T")


class LostRace(Exception):
    """The version moved between the read and the conditional UPDATE: decide again."""


class Book(Protocol[Snap, Change, Done]):
    """One versioned record's side of the walk (a room, a night)."""

    @property
    def channel(self) -> str:
        """Where the notifier announces its versions."""
        ...

    def read(self, conn: Connection) -> Snap:
        """The record now, inside the write transaction (or its NotFound)."""
        ...

    def decide(self, snap: Snap, now: datetime) -> Change | None:
        """Pure: the change the command makes, None for none, or the refusal raised."""
        ...

    def bump(self, conn: Connection, snap: Snap, now: datetime) -> bool:
        """The conditional version UPDATE: False when another writer moved it first."""
        ...

    def persist(self, conn: Connection, snap: Snap, change: Change, now: datetime) -> Done:
        """Write the change; what the walk answers."""
        ...

    def version(self, done: Done) -> int: ...

    def unchanged(self, snap: Snap) -> Done:
        """The answer when the command changes nothing."""
        ...

    def published(self, done: Done) -> None:
        """After the commit, before this process hears of it (a cache refreshed)."""
        ...

    def taken(self) -> None:
        """A unique key another writer took first: refuse, or return to try again."""
        ...


@dataclass(frozen=True, slots=True)
class Committer:
    """The walk on one database and one notifier."""

    engine: Engine
    notifier: Notifier

    def commit(self, book: Book[Snap, Change, Done], *, busy: Reason) -> Done:
        """Read, decide, bump, persist, announce: again after a lost race; ``busy`` after
        RETRIES tries."""

        def attempt() -> Done:
            with write(self.engine) as conn:
                snap = book.read(conn)
                now = datetime.now(UTC)
                change = book.decide(snap, now)
                if change is None:
                    return book.unchanged(snap)
                done = self.written(conn, book, snap, change, now)
            return self.announced(book, done)

        return retried(attempt, busy=busy, taken=book.taken)

    def written(
        self,
        conn: Connection,
        book: Book[Snap, Change, Done],
        snap: Snap,
        change: Change,
        now: datetime,
    ) -> Done:
        """The decided change written inside the caller's write transaction, behind the
        version check (LostRace when it fails)."""
        if not book.bump(conn, snap, now):
            raise LostRace
        done = book.persist(conn, snap, change, now)
        self.notifier.in_transaction(conn, book.channel, book.version(done))
        return done

    def announced(self, book: Book[Snap, Change, Done], done: Done) -> Done:
        book.published(done)
        self.notifier.after_commit(book.channel, book.version(done))
        return done


def retried(
    attempt: Callable[[], T],
    *,
    busy: Reason,
    taken: Callable[[], None] | None = None,
) -> T:
    """``attempt`` until it stands: again after a lost race, a unique key another writer
    took first (``taken`` may refuse instead) or a lock the database gave up on; refused
    with ``busy`` after RETRIES tries. A refusal raised by the attempt stands."""
    for _ in range(RETRIES):
        try:
            return attempt()
        except LostRace:
            continue
        except IntegrityError:
            if taken is not None:
                taken()
            continue
        except OperationalError as err:
            if _passing(err):
                continue
            raise
    raise errors.Conflict(busy)


def _passing(err: OperationalError) -> bool:
    """A lock or serialisation failure: the next try may pass."""
    text = str(err)
    return "locked" in text or "serializ" in text or "deadlock" in text


def drew_code(engine: Engine, insert: Callable[[Connection, str], T], *, busy: Reason) -> T:
    """A new record under a freshly drawn code (a room's, a night's): drawn again when the
    code is taken (the unique key says so)."""

    def attempt() -> T:
        code = new_room_code()
        with write(engine) as conn:
            return insert(conn, code)

    return retried(attempt, busy=busy)
