"""Club nights (issue #27): a night's pairs, its rounds drawn by its format (app/night), a
room per table opened through the ordinary room services, and each table's match counted
from its room's games.

Everything lives in the database (nights and night_*), so a restart or a second process
loses nothing: any process may settle a table (the steward, app/services/night_steward.py,
calls ``settle`` after each version of a night's room), and what it writes is the same
whichever does. A night changes as a room does, through the one versioned commit
(app/services/commit.py): the night read inside the write transaction, its pure decision
(app/night/decide.py), its ``version`` raised by a conditional UPDATE, the change written,
then announced on the notifier's channel as the room code ``night-<code>``
(app/live/notifier.py ``NIGHT_PREFIX``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, TypeVar

from sqlalchemy import Connection

from app.live.notifier import NIGHT_PREFIX
from app.night import club_reasons as club_why
from app.night import decide as night
from app.night import reasons as why
from app.night.options import NightOptions
from app.night.plan import Format
from app.night.refusals import NightRefused
from app.night.state import (
    Json,
    NightState,
    NightTableRow,
    PlayerRow,
    seat_player,
    seat_token,
    sheet_of,
)
from app.players.handles import folded_handle
from app.players.reasons import NO_PLAYER
from app.players.state import ProfileRow
from app.rules import Rules
from app.services import errors
from app.services.commit import Book, Committer, drew_code
from app.services.decide import BLOCKED
from app.services.herald import NightTableOpen
from app.services.identity import check_code, new_token, token_hash
from app.services.names import clean_name
from app.services.options import RoomOptions
from app.services.players import SignedIn
from app.services.records import load_record, record_json
from app.services.rooms import JoinedSeat, Rooms, known_level
from app.services.snapshot import RoomSnap
from app.store import club_repo, player_repo, social_repo
from app.store import night_repo as repo
from app.store.db import read

T = TypeVar("T")

# A night's refusal (app/night/refusals.py) as the services answer it, kind by kind.
_ANSWERS: dict[str, type[errors.ApiError]] = {
    "not_found": errors.NotFound,
    "unauthorized": errors.Unauthorized,
    "forbidden": errors.Forbidden,
    "conflict": errors.Conflict,
    "invalid": errors.Invalid,
}


@contextmanager
def answered() -> Iterator[None]:
    """A night's decision's refusal raised as the services' error of its kind."""
    try:
        yield
    except NightRefused as refused:
        raise _ANSWERS[refused.kind](refused.reason, **refused.params) from None


def decided(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """``fn`` of app/night/decide.py, its refusal as the services answer it."""
    with answered():
        return fn(*args, **kwargs)


def director_of(token: str | None) -> night.Director | None:
    return night.Director(token, token_hash(token)) if token else None


@dataclass(frozen=True, slots=True)
class Opened:
    code: str
    director_token: str


@dataclass(frozen=True, slots=True)
class Registered:
    pair: int
    tokens: tuple[str, str]


@dataclass(frozen=True, slots=True)
class Seated:
    room: str
    seat: int
    token: str | None  # None: a player's seat, for which their key acts
    pending: bool = False


@dataclass(frozen=True, slots=True)
class Settled:
    """What settling a night's room found: its night, whether the night changed, and whether
    the table's next game should be dealt (a game over, the match not)."""

    night: str
    changed: bool = False
    deal_next: bool = False
    all_bots: bool = False


@dataclass(frozen=True, slots=True)
class Written:
    """A night's change as committed, at the night's new version (None: nothing changed)."""

    change: night.Change | None
    version: int


class _NightBook:
    """A night's side of the versioned commit (app/services/commit.py)."""

    def __init__(self, code: str, command: night.Command) -> None:
        self.code = code
        self.channel = NIGHT_PREFIX + code
        self.command = command

    def read(self, conn: Connection) -> NightState:
        return state_of(conn, self.code)

    def decide(self, snap: NightState, now: datetime) -> night.Change | None:
        return decided(night.decide, snap, self.command, now)

    def bump(self, conn: Connection, snap: NightState, now: datetime) -> bool:
        return repo.bump(conn, snap.row.id, snap.version)

    def persist(
        self, conn: Connection, snap: NightState, change: night.Change, now: datetime
    ) -> Written:
        _persist(conn, snap.row.id, change)
        return Written(change, snap.version + 1)

    def version(self, done: Written) -> int:
        return done.version

    def unchanged(self, snap: NightState) -> Written:
        return Written(None, snap.version)

    def published(self, done: Written) -> None:
        pass

    def taken(self) -> None:
        """Two writers took one key (a pair's number): decide again on what the first
        wrote."""


def state_of(conn: Connection, code: str) -> NightState:
    row = repo.night_by_code(conn, code)
    if row is None:
        raise errors.NotFound(why.NO_SUCH_NIGHT, code=code)
    return NightState(
        row,
        tuple(repo.pairs_of(conn, row.id)),
        tuple(repo.rounds_of(conn, row.id)),
        tuple(repo.tables_of(conn, row.id)),
    )


def _persist(conn: Connection, night_id: int, change: night.Change) -> None:
    """Write what a night's decision changed, inside the commit's transaction."""
    match change:
        case night.PairAdded():
            repo.insert_pair(
                conn, night_id, change.number, list(change.names), change.team, change.key
            )
            for slot, (name, token) in enumerate(zip(change.names, change.tokens, strict=True)):
                repo.insert_player(
                    conn,
                    night_id,
                    change.number,
                    slot,
                    name,
                    token_hash(token),
                    change.players[slot],
                )
        case night.RegistrationSet():
            repo.set_registration(conn, night_id, change.open_)
        case night.RoundOpened():
            repo.set_registration(conn, night_id, False)
            repo.insert_round(conn, night_id, change.number, change.bye, change.at)
            for number, room, a, b in change.tables:
                repo.insert_table(conn, night_id, change.number, number, room, a, b)
        case night.TableSet():
            t = change.table
            repo.update_table(
                conn, t.id, games=t.games, winner=t.winner, forfeit=t.forfeit, corrected=t.corrected
            )
        case night.LinksRenewed():
            for slot, token in enumerate(change.tokens):
                repo.update_player_hash(conn, night_id, change.pair, slot, token_hash(token))


class Nights:
    """The club nights of this server, on the rooms' database."""

    def __init__(self, rooms: Rooms) -> None:
        self.rooms = rooms
        self.engine = rooms.engine
        self._committer = Committer(rooms.engine, rooms.notifier)

    async def write(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """Run a night's use case from the event loop, in a worker thread: each may span
        several transactions (a round opens a room per table), which ``Rooms.write``'s
        inline attempt on SQLite must not start twice."""
        return await asyncio.to_thread(fn, *args, **kwargs)

    async def read(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """Run a read of the nights from the event loop, in a worker thread."""
        return await asyncio.to_thread(fn, *args, **kwargs)

    # -- reading -------------------------------------------------------------------------

    def load(self, code: str) -> NightState:
        check_code(code)
        with read(self.engine) as conn:
            return state_of(conn, code)

    def snapshot(self, room: str) -> RoomSnap:
        """A night's table's room now (its live score, its seats)."""
        return self.rooms.snapshot(room)

    def player(self, code: str, token: str | None) -> PlayerRow:
        """The player of this night holding ``token``: 401 without one, 403 for nobody's (a
        mangled link) and for another night's, each with its own reason."""
        state = self.load(code)
        if not token:
            raise errors.Unauthorized(why.NO_PLAYER_TOKEN)
        with read(self.engine) as conn:
            found = repo.player_by_hash(conn, token_hash(token))
        if found is None:
            raise errors.Forbidden(why.UNKNOWN_LINK)
        if found.night_id != state.row.id:
            raise errors.Forbidden(why.NOT_THIS_NIGHT)
        return found

    def pair_of(
        self, state: NightState, token: str | None, me: SignedIn | None = None
    ) -> int | None:
        """The pair of the player holding ``token`` at this night (or registered by the
        signed-in player's handle), if any."""
        if not token:
            by_profile = self.profile_player(state, me)
            return by_profile.pair if by_profile is not None else None
        with read(self.engine) as conn:
            found = repo.player_by_hash(conn, token_hash(token))
        return found.pair if found is not None and found.night_id == state.row.id else None

    def room_of_seat(self, token: str) -> str | None:
        """The room where ``token`` holds a seat (a substitute's link)."""
        with read(self.engine) as conn:
            return repo.room_of_seat_token(conn, token_hash(token))

    def is_director(self, state: NightState, token: str | None) -> bool:
        return night.is_director(state, director_of(token))

    def table_seat(self, state: NightState, pair: int, slot: int) -> tuple[NightTableRow, int]:
        """The current round's table of ``pair`` and the seat of its player ``slot``."""
        return decided(night.table_seat, state, pair, slot)

    # -- the director's and the players' changes -----------------------------------------

    def open(
        self,
        *,
        name: str,
        format: Format,
        preset: str | None,
        rules: Rules,
        options: NightOptions,
    ) -> Opened:
        director = new_token()

        def insert(conn: Connection, code: str) -> Opened:
            repo.insert_night(
                conn,
                code=code,
                name=name,
                format=format,
                preset=preset,
                rules=rules.model_dump(mode="json"),
                options=options.model_dump(mode="json"),
                director_hash=token_hash(director),
            )
            return Opened(code, director)

        return drew_code(self.engine, insert, busy=why.BUSY)

    def _commit(self, code: str, command: night.Command) -> Written:
        check_code(code)
        book: Book[NightState, night.Change, Written] = _NightBook(code, command)
        return self._committer.commit(book, busy=why.BUSY)

    def register(
        self,
        code: str,
        *,
        names: Sequence[str],
        team: str | None,
        director: str | None,
        handles: Sequence[str | None] = (None, None),
        by: int | None = None,
    ) -> Registered:
        """A pair (``handles``: partners with a profile, seated by it each round under its
        name; ``names`` gives the others'). ``by``: the profile registering them, whose
        consent a handle needs (the player themself, a friend, or at a club's night an admin
        of that club they belong to: else 403 no_consent); a club night's handles are its
        members' (422), and two players kept apart by a block are no pair (409 blocked).
        The one path in: the JSON route and both forms come here."""
        # Refused before the names are judged: no such night, started, registration closed.
        state = self.load(code)
        decided(night.registering, state, director_of(director))
        cleaned = list(names)
        profiles: list[int | None] = [None, None]
        chosen = [
            (slot, self._registered_profile(state, h)) for slot, h in enumerate(handles[:2]) if h
        ]
        if chosen:
            self._consented(state, [p for _, p in chosen], by, self.is_director(state, director))
        for slot, found in chosen:
            profiles[slot], cleaned[slot] = found.id, found.name
        cleaned = [clean_name(n) for n in cleaned]
        command = night.Register(
            tuple(cleaned),
            team,
            director_of(director),
            (new_token(), new_token()),
            (profiles[0], profiles[1]),
        )
        done = self._commit(code, command)
        assert isinstance(done.change, night.PairAdded)
        return Registered(done.change.number, done.change.tokens)

    def _registered_profile(self, state: NightState, handle: str) -> ProfileRow:
        """The living profile of ``handle``, not in a pair of this night yet."""
        folded = folded_handle(handle)
        with read(self.engine) as conn:
            found = player_repo.player_by_handle(conn, folded) if folded else None
            if found is None or found.deleted:
                raise errors.Invalid(NO_PLAYER, handle=handle[:40])
            if repo.player_by_profile(conn, state.row.id, found.id) is not None:
                raise errors.Conflict(why.PLAYER_IN_A_PAIR, handle=found.handle)
        return found

    def _consented(
        self, state: NightState, found: Sequence[ProfileRow], by: int | None, director: bool
    ) -> None:
        """The rules of registration by handle (API.md § Fifth round): a club night's
        members only; each handle with consent; no pair of two players kept apart. A club
        night's director acts for the club's admin who opened it (only an admin opens one)."""
        with read(self.engine) as conn:
            club = club_repo.club_of_night(conn, state.row.id)
            members = (
                {m.player_id: m.role for m in club_repo.members_of(conn, club)} if club else {}
            )
            friends = social_repo.asked(conn, by) & social_repo.asked_by(conn, by) if by else set()
        for profile in found:
            if club is not None and profile.id not in members:
                raise errors.Invalid(club_why.NOT_A_MEMBER, handle=profile.handle)
        for profile in found:
            admin = club is not None and (
                director or (by is not None and members.get(by) == "admin")
            )
            if not (profile.id == by or profile.id in friends or admin):
                raise errors.Forbidden(why.NO_CONSENT, handle=profile.handle)
        if self.rooms.warden.apart([p.id for p in found]):
            raise errors.Conflict(BLOCKED)

    def set_registration(self, code: str, *, director: str | None, open_: bool) -> NightState:
        self._commit(code, night.SetRegistration(director_of(director), open_))
        return self.load(code)

    def next_round(self, code: str, *, director: str | None, force: bool = False) -> NightState:
        state = self.load(code)
        apart = self._pairs_apart(state)
        number, draw = decided(
            night.round_draw, state, night.DrawRound(director_of(director), force, apart)
        )
        rules = Rules.model_validate(state.row.rules)
        room_options = RoomOptions(match=state.options.match, reserved=True)
        rooms = tuple(
            self.rooms.create_room(rules=rules, seed=None, options=room_options).code
            for _ in draw.tables
        )
        self._commit(code, night.OpenRound(number, draw, rooms))
        opened = self.load(code)
        self._herald_round(opened, number)
        return opened

    def _pairs_apart(self, state: NightState) -> frozenset[frozenset[int]]:
        """The night's pairs whose players are kept apart by a block (the warden's rule),
        for the draw to keep at different tables."""
        with read(self.engine) as conn:
            by_pair = repo.profiles_by_pair(conn, state.row.id)
        owner = {player: pair for pair, ids in by_pair.items() for player in ids}
        blocks = self.rooms.warden.blocks_among(owner)
        return frozenset(frozenset((owner[a], owner[b])) for a, b in blocks if owner[a] != owner[b])

    def _herald_round(self, state: NightState, number: int) -> None:
        """Tell the players registered by handle that their table of round ``number`` is
        open (if the round is the one this call opened: another click may have drawn it)."""
        with read(self.engine) as conn:
            by_pair = repo.profiles_by_pair(conn, state.row.id)
        tables = [
            NightTableOpen(
                t.room_code,
                t.number,
                by_pair.get(t.pair_a, ()) + by_pair.get(t.pair_b, ()),
            )
            for t in state.tables_of(number)
        ]
        self.rooms.herald.night_round(state.row.code, state.row.name, number, tables)

    def sit(self, code: str, token: str | None, me: SignedIn | None = None) -> Seated:
        """The player of ``token`` takes their seat at their table this round (again, from
        any device; a computer player's seat from its next deal, as any latecomer; a person
        substitute's from the match's next game, the substitute finishing the one in play).
        Without a link's token, a player registered by their handle (``me``) is seated by
        their profile: every device of theirs acts for the seat."""
        if not token and me is not None:
            return self._sit_by_profile(code, me)
        player = self.player(code, token)
        assert token is not None
        state = self.load(code)
        table, seat = self.table_seat(state, player.pair, player.slot)
        mine = seat_token(token, table.room_code)
        joined: JoinedSeat = self.rooms.join(
            code=table.room_code,
            name=player.name,
            seat=seat,
            token=mine,
            reserved=True,
            own_seat=True,
        )
        return Seated(table.room_code, joined.seat, joined.token, joined.pending)

    def profile_player(self, state: NightState, me: SignedIn | None) -> PlayerRow | None:
        """The night's player registered by the signed-in player's handle, if any."""
        if me is None:
            return None
        with read(self.engine) as conn:
            return repo.player_by_profile(conn, state.row.id, me.player.id)

    def _sit_by_profile(self, code: str, me: SignedIn) -> Seated:
        state = self.load(code)
        player = self.profile_player(state, me)
        if player is None:
            raise errors.Forbidden(why.UNKNOWN_LINK)
        table, seat = self.table_seat(state, player.pair, player.slot)
        joined = self.rooms.join(
            code=table.room_code,
            name=me.player.name,
            seat=seat,
            token=me.seat_token(table.room_code),
            reserved=True,
            own_seat=True,
            player=me.seat_player,
        )
        return Seated(table.room_code, joined.seat, None, joined.pending)

    def forfeit(self, code: str, *, director: str | None, table: int, pair: int) -> NightState:
        """``pair`` gives up its match at ``table`` (after the grace time): the other pair wins
        it with the match's bullseyes."""
        self._commit(code, night.ForfeitTable(director_of(director), table, pair))
        return self.load(code)

    def substitute(
        self,
        code: str,
        *,
        director: str | None,
        table: int,
        seat: int,
        name: str | None,
        bot: str | None,
    ) -> Seated | None:
        """A substitute in an absent player's seat (after the grace time): a person by name
        (the answer holds their seat token) or a computer player, shown as such. The player
        who comes back takes the seat again (a computer player's from its next deal, a
        person's from the match's next game: ``sit``)."""
        state = self.load(code)
        command = night.SubstituteSeat(director_of(director), table, seat, name, bot)
        found = decided(night.substitute_at, state, command, datetime.now(UTC))
        room = found.room_code
        held = self.rooms.snapshot(room).seats[seat]
        if held is not None and not held.bot:
            raise errors.Conflict(why.SEAT_HELD, seat=seat)
        if bot is not None:
            known_level(bot)
            if held is None:
                self._seat_computer(state, found, seat, bot)
            return None
        assert name is not None
        token = new_token()
        joined = self.rooms.join(code=room, name=name, seat=seat, token=token, reserved=True)
        return Seated(room, joined.seat, joined.token, joined.pending)

    def pair_links(self, state: NightState, director: str) -> dict[int, tuple[str, str] | None]:
        """Each pair's two link tokens, for the director's page (``director`` checked by the
        caller): those of a pair the director registered, derived again from their token;
        None for a pair that registered itself (its links are its players' alone)."""
        with read(self.engine) as conn:
            stored = repo.player_hashes(conn, state.row.id)
        found: dict[int, tuple[str, str] | None] = {}
        for p in state.pairs:
            tokens = night.pair_tokens(director_of(director), p.number, ("", ""))
            found[p.number] = tokens if all(token_hash(t) in stored for t in tokens) else None
        return found

    def renew_links(self, code: str, *, director: str | None, pair: int) -> Registered:
        """New links for ``pair``'s players, derived from the director's token (so their page
        shows them from now on): for a pair that registered itself, or a lost link. The old
        links stop working; a seat taken with one is the player's again through the new
        link, as a comeback's (``sit``)."""
        done = self._commit(code, night.RenewLinks(director_of(director), pair))
        assert isinstance(done.change, night.LinksRenewed)
        return Registered(pair, done.change.tokens)

    def computer_players(
        self, code: str, *, director: str | None, table: int | None, level: str
    ) -> NightState:
        """A computer player of ``level`` in every empty seat of ``table`` this round, or of
        every table still playing when ``table`` is None (after the grace time, as one seat
        at a time by ``substitute``): a seat someone holds keeps them."""
        state = self.load(code)
        decided(night.check_director, state, director_of(director))
        known_level(level)
        command = night.SeatComputers(director_of(director), table)
        for t in decided(night.computer_tables, state, command, datetime.now(UTC)):
            for seat, held in enumerate(self.rooms.snapshot(t.room_code).seats):
                if held is None:
                    # A player who sat down meanwhile keeps the seat.
                    with suppress(errors.SeatTaken):
                        self._seat_computer(state, t, seat, level)
        return self.load(code)

    def _seat_computer(self, state: NightState, t: NightTableRow, seat: int, level: str) -> None:
        """A computer player of ``level`` in an empty seat, named for the player whose seat it
        keeps (the director's substitute: the pages say it is a computer player)."""
        self.rooms.seat_bot(
            code=t.room_code,
            token=None,
            seat=seat,
            level=level,
            admin=True,
            stands_in=seat_player(state, t, seat),
        )

    def correct(
        self,
        code: str,
        *,
        director: str | None,
        round_: int | None,
        table: int,
        bullseyes: list[int],
    ) -> NightState:
        """The director sets a match's result by hand (shown as corrected): at ``table`` of
        ``round_``, or of the current round when None."""
        if round_ is None:
            current = self.load(code).current
            round_ = current.number if current else 1
        a, b = bullseyes
        self._commit(code, night.Correct(director_of(director), round_, table, (a, b)))
        return self.load(code)

    # -- the tables' matches ---------------------------------------------------------------

    def settle(self, room: str) -> Settled | None:
        """Bring a night's table up to date with its room: deal the first game once the four
        seats are filled, count each finished game into the table's match, and say whether
        the match's next game is due. None: the room is no night's."""
        with read(self.engine) as conn:
            found = repo.table_by_room(conn, room)
            row = repo.night_by_id(conn, found.night_id) if found else None
        if found is None or row is None:
            return None
        if found.winner is not None:
            return Settled(row.code)
        snap = self.rooms.snapshot(room)
        game = snap.game
        if game is None:
            if snap.full:
                with suppress(errors.Conflict):  # another process dealt it first
                    self.rooms.start(code=room, token=None, admin=True)
            return Settled(row.code)
        finished = [r.number for r in snap.results]
        if game.state.winner is not None:
            finished.append(game.number)
        known = {int(g["number"]) for g in found.games}
        new = [n for n in finished if n not in known]
        changed = False
        winner = None
        if new:
            sheets = tuple(sheet_of(self._record(room, n)) for n in new)
            done = self._commit(row.code, night.CountGames(room, sheets))
            if isinstance(done.change, night.TableSet):
                winner = done.change.table.winner
                changed = True
            else:  # another process counted them first
                with read(self.engine) as conn:
                    again = repo.table_by_room(conn, room)
                winner = again.winner if again else None
        deal_next = winner is None and game.state.winner is not None
        all_bots = all(s is not None and s.bot for s in snap.seats)
        return Settled(row.code, changed, deal_next, all_bots)

    def deal_next(self, room: str) -> RoomSnap | None:
        """The match's next game at a night's table (the players may also press for it)."""
        try:
            return self.rooms.rematch(code=room, token=None, admin=True)
        except errors.Conflict:
            return None  # dealt already (a player, or another process)

    def _record(self, room: str, number: int) -> Json:
        return record_json(load_record(self.rooms, room, number))

    def record(self, room: str, number: int) -> Json:
        """A night's table's game record as JSON (its export)."""
        return self._record(room, number)

    def open_tables(self) -> list[tuple[str, str]]:
        with read(self.engine) as conn:
            return repo.open_tables(conn)

    def table_of_room(self, room: str) -> TableOfNight | None:
        """Which night a room is a table of, and its club's name: the room's page links back
        to the night (and says the club) from the lobby to the result. None: no night's."""
        with read(self.engine) as conn:
            found = repo.table_by_room(conn, room)
            row = repo.night_by_id(conn, found.night_id) if found else None
            club = club_repo.club_for_night(conn, row.id) if row else None
        if found is None or row is None:
            return None
        return TableOfNight(
            row.code, row.name, found.round, found.number, club[1] if club else None
        )

    def night_of_room(self, room: str) -> str | None:
        with read(self.engine) as conn:
            found = repo.table_by_room(conn, room)
            row = repo.night_by_id(conn, found.night_id) if found else None
        return row.code if row else None


@dataclass(frozen=True, slots=True)
class TableOfNight:
    night: str  # the night's code
    name: str
    round: int
    number: int  # the table's number in its round
    club: str | None  # the club's name, for a club's night


TableState = Literal["waiting", "playing", "over"]
