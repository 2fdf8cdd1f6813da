"""Today's boards (API.md § Fifth round): each day a set of boards dealt from a seed drawn at
random that day, committed to from the start and revealed when the day ends; anyone plays
them once, at seat 0 with a `standard` computer partner against two more; each board's
traveller shown to those who have played it (R33), in matchpoints (R32).

A day's results are kept in SQL (recorded by the move that ends a board, in its commit:
app/services/persist.py); each process keeps a ``DayBook`` of a day's results as they arrive,
fed by the rows recorded since the last one it read (one indexed query a request), so a
traveller's matchpoints are binary searches over its kept scores, never recounted from
every record.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError

from app.reasons import N_, reason
from app.rules import Rules
from app.rules.board import board_dealer, board_deck, board_score
from app.rules.cards import code as card_code
from app.rules.matchpoints import Traveller, percent
from app.rules.shuffle import SEED_BITS, seed_commitment
from app.services import errors
from app.services.identity import token_hash
from app.services.options import RoomOptions
from app.services.players import SignedIn
from app.services.rooms import Rooms
from app.store import daily_repo
from app.store.daily_repo import DayRow
from app.store.db import read, write

BOARDS_FORMAT = "allfours-boards/1"  # what python -m app.verify checks (app/verify.py)
NO_DAY = reason("no_day", "no boards were dealt on {day!r}", N_("No boards were dealt that day."))
NO_BOARD = reason("no_board", "no board {board} that day", N_("That board was not dealt that day."))
NOT_PLAYED = reason(
    "board_not_played",
    "a board's traveller is shown to those who have played it (R33)",
    N_("You will see this board's results once you have played it."),
)
LEVEL = "standard"
Json = dict[str, Any]
P = ParamSpec("P")
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Caller:
    """Who asks: a player, or a guest known by the token of their seat at their day's table."""

    me: SignedIn | None
    guest_token: str | None = None

    @property
    def player_id(self) -> int | None:
        return self.me.player.id if self.me is not None else None

    @property
    def guest(self) -> str | None:
        if self.me is not None or not self.guest_token:
            return None
        return token_hash(self.guest_token)


@dataclass(frozen=True, slots=True)
class DailySeat:
    code: str
    token: str | None  # a guest's seat token (None for a player: their key stands for it)


@dataclass
class DayBook:
    """One day's results as this process has read them, kept as they arrive."""

    last: int = 0  # the id of the last result read
    travellers: dict[int, Traveller] = field(default_factory=dict)  # by board
    rows: dict[int, list[tuple[int, int, int]]] = field(
        default_factory=dict
    )  # board: entry, ns, ew
    played: dict[int, dict[int, int]] = field(default_factory=dict)  # entry: board: score
    people: dict[int, daily_repo.Person] = field(default_factory=dict)  # names read so far
    _ranking: tuple[int, list[tuple[int, float]]] = (-1, [])  # as of result ``last``

    def add(self, row: daily_repo.ResultRow) -> None:
        score = board_score((row.ns, row.ew))
        self.travellers.setdefault(row.board, Traveller()).add(score)
        self.rows.setdefault(row.board, []).append((row.entry_id, row.ns, row.ew))
        self.played.setdefault(row.entry_id, {})[row.board] = score
        self.last = max(self.last, row.id)

    def percent_of(self, entry: int) -> float | None:
        """R32-R33: the entry's percentage over the boards it has played (None: none yet)."""
        boards = self.played.get(entry)
        if not boards:
            return None
        made = tops = 0
        for board, score in boards.items():
            traveller = self.travellers[board]
            made += traveller.ns(score)
            tops += traveller.top
        return percent(made, tops)

    def ranking(self) -> list[tuple[int, float]]:
        """Every entry that played a board, best percentage first: (entry, percent); counted
        once for each new batch of results, whoever asks."""
        at, ranked = self._ranking
        if at == self.last:
            return ranked
        scored = [(entry, self.percent_of(entry)) for entry in self.played]
        ranked = sorted(
            ((e, p) for e, p in scored if p is not None), key=lambda ep: (-ep[1], ep[0])
        )
        self._ranking = (self.last, ranked)
        return ranked


class Daily:
    def __init__(
        self,
        engine: Engine,
        rooms: Rooms,
        *,
        boards: int,
        day_s: int,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.engine = engine
        self.rooms = rooms
        self.boards = boards
        self.day_s = day_s
        self.clock = clock
        self._books: dict[int, DayBook] = {}
        self._turn = asyncio.Lock()
        # A book is read and fed under this lock: a view never sees one half fed.
        self._lock = threading.RLock()

    # -- the routes' doors: each use case in a worker thread (it reads and writes SQL) -------

    async def press(
        self, caller: Caller, name: str, may_open: Callable[[], None] = lambda: None
    ) -> DailySeat:
        """``play`` from the event loop: one press of this process at a time."""
        async with self._turn:
            return await asyncio.to_thread(self.play, caller, name, may_open)

    async def read(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        return await asyncio.to_thread(fn, *args, **kwargs)

    # -- days ------------------------------------------------------------------------------

    def day_name(self, start: float) -> str:
        """A day by its start: its date when days are days, else its UTC timestamp."""
        if self.day_s == 86400:
            return datetime.fromtimestamp(start, UTC).date().isoformat()
        return str(int(start))

    def today(self) -> DayRow:
        """Today's row, made by the day's first caller (its seed drawn then, at random)."""
        now = self.clock()
        start = now - now % self.day_s
        name = self.day_name(start)
        with read(self.engine) as conn:
            found = daily_repo.day_named(conn, name)
        if found is not None:
            return found
        starts = datetime.fromtimestamp(start, UTC)
        try:
            with write(self.engine) as conn:
                daily_repo.insert_day(
                    conn,
                    day=name,
                    starts_at=starts,
                    ends_at=starts + timedelta(seconds=self.day_s),
                    seed=secrets.randbits(SEED_BITS),
                    boards=self.boards,
                )
        except IntegrityError:
            pass  # another caller made it first: theirs stands
        with read(self.engine) as conn:
            made = daily_repo.day_named(conn, name)
        assert made is not None
        return made

    def over(self, day: DayRow) -> bool:
        return self.clock() >= day.ends_at.timestamp()

    def day(self, name: str) -> DayRow:
        with read(self.engine) as conn:
            found = daily_repo.day_named(conn, name[:32])
        if found is None:
            raise errors.NotFound(NO_DAY, day=name[:32])
        return found

    def book(self, day: DayRow) -> DayBook:
        """The day's results read so far, brought up to date by the rows recorded since."""
        with self._lock:
            book = self._books.setdefault(day.id, DayBook())
            last = book.last
        with read(self.engine) as conn:
            fresh = daily_repo.results_of(conn, day.id, after=last)
        with self._lock:
            for row in fresh:
                if row.id > book.last:
                    book.add(row)
        return book

    # -- a person's table ------------------------------------------------------------------

    def entry(self, day: DayRow, caller: Caller) -> daily_repo.EntryRow | None:
        if caller.player_id is None and caller.guest is None:
            return None
        with read(self.engine) as conn:
            return daily_repo.entry_of(conn, day.id, player_id=caller.player_id, guest=caller.guest)

    def play(
        self, caller: Caller, name: str, may_open: Callable[[], None] = lambda: None
    ) -> DailySeat:
        """The caller's table today: made at the first press (the person at seat 0, three
        computer players, today's boards in order), the same one at every later press.
        ``may_open`` refuses a new table (the per-address room quota) by raising."""
        day = self.today()
        if self.over(day):  # the day ended between reading and playing: tomorrow's
            day = self.today()
        found = self.entry(day, caller)
        if found is not None:
            return DailySeat(found.room_code, caller.guest_token if caller.me is None else None)
        may_open()
        options = RoomOptions(boards=tuple(range(1, day.boards + 1)), rated=False)
        snap = self.rooms.create_room(rules=Rules(), seed=day.seed, options=options)
        code = snap.code
        me = caller.me
        if me is None:
            joined = self.rooms.join(code=code, name=name, seat=0, token=None)
        else:
            joined = self.rooms.join(
                code=code,
                name=me.player.name,
                seat=0,
                token=me.seat_token(code),
                player=me.seat_player,
            )
        for seat in (1, 2, 3):
            self.rooms.seat_bot(code=code, token=None, seat=seat, level=LEVEL, admin=True)
        guest = None if me is not None else token_hash(joined.token)
        try:
            with write(self.engine) as conn:
                daily_repo.insert_entry(
                    conn,
                    day_id=day.id,
                    room_code=code,
                    player_id=caller.player_id,
                    guest=guest,
                    at=datetime.now(UTC),
                )
        except IntegrityError:  # pressed twice at once: the first table stands
            again = self.entry(day, caller)
            assert again is not None
            return DailySeat(again.room_code, caller.guest_token if me is None else None)
        self.rooms.start(code=code, token=None, admin=True)
        return DailySeat(code, joined.token if me is None else None)

    # -- what a caller sees ----------------------------------------------------------------

    def summary(self, caller: Caller) -> Json:
        """GET /api/daily: today, its commitment, and the caller's progress."""
        day = self.today()
        entry = self.entry(day, caller)
        you = None
        if entry is not None:
            book = self.book(day)
            with self._lock:
                played = sorted(book.played.get(entry.id, {}))
                mine = book.percent_of(entry.id)
            you = {"played": played, "percent": mine, "code": entry.room_code}
        return {
            "date": day.day,
            "boards": day.boards,
            "seed_commitment": seed_commitment(day.seed),
            "ends_at": day.ends_at.isoformat(),
            "you": you,
        }

    def day_view(self, name: str, caller: Caller) -> Json:
        """GET /api/daily/{date}: the boards the caller played, each with its traveller (R33);
        once the day is over every board, dealt, and the seed (python -m app.verify checks
        it); the day's ranking by percent."""
        day = self.day(name)
        over = self.over(day)
        book = self.book(day)
        entry = self.entry(day, caller)
        you = entry.id if entry is not None else None
        people = self._people(book)
        with self._lock:
            ranking = book.ranking()
            mine = book.played.get(you, {}) if you is not None else {}
            shown = range(1, day.boards + 1) if over else sorted(mine)
            boards = [self._board(day, book, n, you, people, over) for n in shown]
        out: Json = {
            "format": BOARDS_FORMAT,
            "date": day.day,
            "boards_dealt": day.boards,
            "over": over,
            "seed_commitment": seed_commitment(day.seed),
            "seed": day.seed if over else None,
            "boards": boards,
            "ranking": _ranked(ranking, people, you),
        }
        return out

    def traveller(self, name: str, board: int, caller: Caller) -> Json:
        """GET /api/daily/{date}/boards/{n}: one board's traveller, to a caller who has played
        it (R33), or to anyone once the day is over."""
        day = self.day(name)
        if not 1 <= board <= day.boards:
            raise errors.NotFound(NO_BOARD, board=board)
        over = self.over(day)
        book = self.book(day)
        entry = self.entry(day, caller)
        you = entry.id if entry is not None else None
        people = self._people(book)
        with self._lock:
            if not over and (you is None or board not in book.played.get(you, {})):
                raise errors.Forbidden(NOT_PLAYED)
            return self._board(day, book, board, you, people, over)

    def _people(self, book: DayBook) -> dict[int, daily_repo.Person]:
        """Who each entry that played is, read once for each (a profile's name as it was
        then: a day's page does not follow a later change of name)."""
        with self._lock:
            missing = set(book.played) - set(book.people)
        if missing:
            with read(self.engine) as conn:
                found = daily_repo.people_of(conn, missing)
            with self._lock:
                book.people.update(found)
        return book.people

    def _board(
        self,
        day: DayRow,
        book: DayBook,
        n: int,
        entry: int | None,
        people: dict[int, daily_repo.Person],
        over: bool,
    ) -> Json:
        traveller = book.travellers.get(n) or Traveller()
        results = []
        for who, ns, ew in book.rows.get(n, []):
            score = board_score((ns, ew))
            mp = traveller.pair(score)
            results.append(
                {
                    "who": _who(people.get(who)),
                    "you": who == entry,
                    "points": [ns, ew],
                    "score": score,
                    "matchpoints": list(mp),
                    "percent": percent(mp[0], traveller.top),
                }
            )
        shown: Json = {"board": n, "dealer": board_dealer(n), "top": traveller.top}
        if over:  # the seed is public: so is every board's deal
            deck = board_deck(day.seed, n)
            dealer = board_dealer(n)
            dealt: list[list[str]] = [[], [], [], []]
            for rnd in range(2):
                for i in range(4):
                    seat = (dealer + 1 + i) % 4
                    start = 12 * rnd + 3 * i
                    dealt[seat] += [card_code(c) for c in deck[start : start + 3]]
            shown["dealt"] = dealt
            shown["kick"] = card_code(deck[24])
        shown["results"] = results
        return shown

    def days_of_handle(self, handle: str) -> list[Json]:
        """A profile's days: each day's percentage and rank (its days with a board played)."""
        with read(self.engine) as conn:
            found = daily_repo.days_of_player(conn, handle)
        out = []
        for day, entry in found:
            book = self.book(day)
            with self._lock:
                mine = book.percent_of(entry)
                if mine is None:
                    continue
                rank = 1 + sum(1 for _, p in book.ranking() if p > mine)
            out.append({"date": day.day, "percent": mine, "rank": rank})
        return out


def _who(person: daily_repo.Person | None) -> Json | str:
    if person is None or person.handle is None:
        return "guest"
    return {"handle": person.handle, "name": person.name}


def _ranked(
    ranking: list[tuple[int, float]], people: dict[int, daily_repo.Person], entry: int | None
) -> list[Json]:
    out: list[Json] = []
    for i, (who, pct) in enumerate(ranking):
        rank = i + 1 if i == 0 or ranking[i - 1][1] != pct else out[-1]["rank"]
        out.append(
            {"rank": rank, "who": _who(people.get(who)), "percent": pct, "you": who == entry}
        )
    return out
