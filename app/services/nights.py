"""Club nights (issue #27): a night's pairs, its rounds drawn by its format (app/night), a
room per table opened through the ordinary room services, and each table's match counted
from its room's games.

Everything lives in the database (nights and night_*), so a restart or a second process
loses nothing: any process may settle a table (the steward, app/services/night_steward.py,
calls ``settle`` after each version of a night's room), and what it writes is the same
whichever does. A night's ``version`` rises with every change to it; it is announced on the
notifier's channel as the room code ``night-<code>`` (app/live/notifier.py
``NIGHT_PREFIX``).
"""

from __future__ import annotations

import hashlib
import hmac
import unicodedata
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy.exc import IntegrityError

from app.bots import LEVELS
from app.live.notifier import NIGHT_PREFIX
from app.night import plan
from app.night import reasons as why
from app.night.awards import Award, Sheet, awards
from app.night.options import NightOptions
from app.night.pairing import Draw
from app.night.plan import Format, Played, Shape
from app.night.standings import MatchResult, Standing, standings
from app.reasons import N_, reason
from app.rules import Rules
from app.services import errors
from app.services.identity import check_code, new_room_code, new_token, token_hash
from app.services.names import clean_name
from app.services.options import RoomOptions
from app.services.records import load_record, record_json
from app.services.snapshot import RoomSnap
from app.services.tables import UNKNOWN_LEVEL, Joined, Tables
from app.store import night_repo as repo
from app.store.db import read, write

RETRIES = 8
TEAM_MAX = 40
Json = dict[str, Any]

NO_DIRECTOR_TOKEN = reason(
    "night_director_token_needed",
    "the director's token is needed (Authorization: Bearer <token>)",
    N_("Only this night's director may do that"),
)
NO_PLAYER_TOKEN = reason(
    "night_player_link_needed",
    "a player's night link is needed",
    N_("Open your own night link first"),
)
PAIR_REGISTERED = reason(
    "night_pair_registered",
    "that pair is registered already (pair {pair})",
    N_("That pair is registered already"),
)
NO_TABLE_NOW = reason(
    "night_no_table_now",
    "pair {pair} has no table now (no round is being played, or it sits this one out)",
    N_("Your pair has no table now"),
)
ROUND_DRAWN = reason(
    "night_round_drawn",
    "round {round} has just been drawn",
    N_("That round has just been drawn"),
)
BUSY = reason("night_busy", "the night is busy: try again", N_("The night is busy: try again"))
SUBSTITUTE_WHO = reason(
    "night_substitute_who",
    "a substitute is a person's name or a computer player's level, one of them",
    N_("A substitute is a person's name or a computer player, one of them"),
)


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
    token: str
    pending: bool = False


@dataclass(frozen=True, slots=True)
class NightState:
    """A night as stored: the row, its pairs, rounds and tables."""

    row: repo.NightRow
    pairs: tuple[repo.PairRow, ...]
    rounds: tuple[repo.RoundRow, ...]
    tables: tuple[repo.TableRow, ...]

    @property
    def code(self) -> str:
        return self.row.code

    @property
    def options(self) -> NightOptions:
        return NightOptions.model_validate(self.row.options)

    @property
    def shape(self) -> Shape:
        o = self.options
        return Shape(
            format=self.row.format,  # type: ignore[arg-type]
            swiss_rounds=o.rounds,
            knockout=o.knockout,
            team_target=o.team_target,
            order=o.standings,
        )

    @property
    def teams(self) -> list[tuple[int, str | None]]:
        return [(p.number, p.team) for p in self.pairs]

    def tables_of(self, round_: int) -> list[repo.TableRow]:
        return [t for t in self.tables if t.round == round_]

    @property
    def current(self) -> repo.RoundRow | None:
        return self.rounds[-1] if self.rounds else None


@dataclass(frozen=True, slots=True)
class Settled:
    """What settling a night's room found: its night, whether the night changed, and whether
    the table's next game should be dealt (a game over, the match not)."""

    night: str
    changed: bool = False
    deal_next: bool = False
    all_bots: bool = False


def seat_token(player_token: str, room: str) -> str:
    """A player's seat token at one of their night's rooms, derived from their own link: the
    link seats them again from any device, and the store keeps only hashes of both."""
    return hmac.new(player_token.encode(), room.encode(), hashlib.sha256).hexdigest()


def pair_key(names: Sequence[str], team: str | None) -> str:
    folded = sorted(" ".join(unicodedata.normalize("NFKC", n).casefold().split()) for n in names)
    return "\x1f".join([*folded, (team or "").casefold()])


def sheet_of(record: Json) -> Json:
    """What a night keeps of a finished game: its winner, scores and hands' awards (and renege
    calls, where the records carry them)."""
    hands = [
        {
            "awards": h.get("awards") or [],
            "game_totals": h.get("game_totals"),
            **({"calls": h["calls"]} if h.get("calls") else {}),
        }
        for h in record.get("hands") or []
    ]
    return {
        "number": record["game"],
        "winner": record["winner"],
        "scores": record["scores"],
        "hands": hands,
    }


def table_counts(t: repo.TableRow) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """A table's bullseyes, hang jacks made and chalk per pair (seats 0+2 first)."""
    bulls, hangs, chalk = [0, 0], [0, 0], [0, 0]
    for game in t.games:
        winner = game.get("winner")
        if winner in (0, 1):
            bulls[int(winner)] += 1
        for side, score in enumerate(game.get("scores") or (0, 0)):
            chalk[side] += int(score)
        for hand in game.get("hands") or []:
            for award in hand.get("awards") or []:
                if award.get("kind") == "hang_jack":
                    hangs[int(award["team"])] += 1
    if t.corrected is not None:
        bulls = list(t.corrected)
    return (bulls[0], bulls[1]), (hangs[0], hangs[1]), (chalk[0], chalk[1])


def match_result(t: repo.TableRow) -> MatchResult:
    bulls, hangs, chalk = table_counts(t)
    return MatchResult(t.round, t.number, (t.pair_a, t.pair_b), bulls, hangs, chalk, t.winner)


def played_of(state: NightState) -> list[Played]:
    found = []
    for r in state.rounds:
        mine = state.tables_of(r.number)
        draw = Draw(tuple((t.pair_a, t.pair_b) for t in mine), r.bye)
        found.append(Played(draw, tuple(match_result(t) for t in mine)))
    return found


def night_standings(state: NightState) -> list[Standing]:
    rounds = played_of(state)
    return standings(
        [p.number for p in state.pairs],
        plan.results_of(rounds),
        plan.byes_of(rounds),
        state.options.standings,
    )


def night_awards(state: NightState) -> list[Award]:
    sheets = [
        Sheet(t.round, t.number, int(g["number"]), (t.pair_a, t.pair_b), {"over": True, **g})
        for t in state.tables
        for g in t.games
    ]
    return awards(sheets)


def match_winner(t: repo.TableRow, options: NightOptions, format_: str) -> int | None:
    """The pair that has won the table's match, once one has: first to ``match`` bullseyes,
    or (a team match over a fixed number of games) the one ahead after them, a decider being
    played while they are level."""
    (a, b), _, _ = table_counts(t)
    if format_ == "teams" and options.games is not None:
        if len(t.games) < options.games or a == b:
            return None
        return t.pair_a if a > b else t.pair_b
    if max(a, b) < options.match:
        return None
    return t.pair_a if a > b else t.pair_b


class Nights:
    """The club nights of this server, on the rooms' database."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.engine = tables.engine
        self.notifier = tables.notifier

    # -- reading -------------------------------------------------------------------------

    def load(self, code: str) -> NightState:
        check_code(code)
        with read(self.engine) as conn:
            row = repo.night_by_code(conn, code)
            if row is None:
                raise errors.NotFound(why.NO_SUCH_NIGHT, code=code)
            return NightState(
                row,
                tuple(repo.pairs_of(conn, row.id)),
                tuple(repo.rounds_of(conn, row.id)),
                tuple(repo.tables_of(conn, row.id)),
            )

    def player(self, code: str, token: str | None) -> repo.PlayerRow:
        """The player of this night holding ``token``: 401 without one, 403 for another
        night's (or nobody's)."""
        state = self.load(code)
        if not token:
            raise errors.Unauthorized(NO_PLAYER_TOKEN)
        with read(self.engine) as conn:
            found = repo.player_by_hash(conn, token_hash(token))
        if found is None or found.night_id != state.row.id:
            raise errors.Forbidden(why.NOT_THIS_NIGHT)
        return found

    def is_director(self, state: NightState, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(state.row.director_hash, token_hash(token or ""))

    def _director(self, state: NightState, token: str | None) -> None:
        if not token:
            raise errors.Unauthorized(NO_DIRECTOR_TOKEN)
        if not self.is_director(state, token):
            raise errors.Forbidden(why.NOT_DIRECTOR)

    def table_seat(self, state: NightState, pair: int, slot: int) -> tuple[repo.TableRow, int]:
        """The current round's table of ``pair`` and the seat of its player ``slot``
        (partners opposite: the first pair at seats 0 and 2, the second at 1 and 3)."""
        current = state.current
        for t in state.tables_of(current.number) if current else []:
            if pair in (t.pair_a, t.pair_b):
                return t, (0 if pair == t.pair_a else 1) + 2 * slot
        raise errors.Conflict(NO_TABLE_NOW, pair=pair)

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
        for _ in range(RETRIES):
            code = new_room_code()
            try:
                with write(self.engine) as conn:
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
            except IntegrityError:
                continue
            return Opened(code, director)
        raise errors.Conflict(BUSY)

    def register(
        self, code: str, *, names: Sequence[str], team: str | None, director: str | None
    ) -> Registered:
        state = self.load(code)
        if state.rounds:
            raise errors.Conflict(why.STARTED)
        if not state.row.registration_open and not self.is_director(state, director):
            raise errors.Conflict(why.REGISTRATION_CLOSED)
        cleaned = [clean_name(n) for n in names]
        team = " ".join(team.split()) if team else None
        if state.row.format == "teams" and not team:
            raise errors.Invalid(why.TEAM_NEEDED)
        if state.row.format != "teams":
            team = None
        key = pair_key(cleaned, team)
        tokens = (new_token(), new_token())
        for _ in range(RETRIES):
            try:
                with write(self.engine) as conn:
                    number = len(repo.pairs_of(conn, state.row.id)) + 1
                    repo.insert_pair(conn, state.row.id, number, cleaned, team, key)
                    for slot, (player, tok) in enumerate(zip(cleaned, tokens, strict=True)):
                        repo.insert_player(
                            conn, state.row.id, number, slot, player, token_hash(tok)
                        )
                    version = self._bumped(conn, state.row.id, code)
            except IntegrityError:
                again = self.load(code)
                same = next((p for p in again.pairs if pair_key(p.names, p.team) == key), None)
                if same is not None:
                    raise errors.Conflict(PAIR_REGISTERED, pair=same.number) from None
                continue  # two pairs took one number at once: count again
            self._announced(code, version)
            return Registered(number, tokens)
        raise errors.Conflict(BUSY)

    def set_registration(self, code: str, *, director: str | None, open_: bool) -> NightState:
        state = self.load(code)
        self._director(state, director)
        with write(self.engine) as conn:
            version = self._bumped(conn, state.row.id, code, registration_open=open_)
        self._announced(code, version)
        return self.load(code)

    def next_round(self, code: str, *, director: str | None, force: bool = False) -> NightState:
        state = self.load(code)
        self._director(state, director)
        rounds = played_of(state)
        if rounds and not rounds[-1].over and not force:
            raise errors.Conflict(why.ROUND_UNFINISHED, round=len(rounds))
        if len(state.pairs) < 2:
            raise errors.Conflict(why.TOO_FEW_PAIRS, pairs=len(state.pairs))
        if state.row.format == "teams":
            side_a, side_b = plan.clubs(state.teams)
            if (
                not side_a
                or len(side_a) != len(side_b)
                or len(side_a) + len(side_b) != len(state.pairs)
            ):
                raise errors.Conflict(why.TEAMS_UNEVEN)
        draw = plan.next_draw(state.shape, state.teams, rounds)
        if draw is None:
            raise errors.Conflict(why.NIGHT_OVER)
        number = len(rounds) + 1
        rules = Rules.model_validate(state.row.rules)
        room_options = RoomOptions(match=state.options.match, reserved=True)
        rooms = [
            self.tables.create_room(rules=rules, seed=None, options=room_options).code
            for _ in draw.tables
        ]
        try:
            with write(self.engine) as conn:
                repo.insert_round(conn, state.row.id, number, draw.bye, datetime.now(UTC))
                for t, ((a, b), room) in enumerate(zip(draw.tables, rooms, strict=True), 1):
                    repo.insert_table(conn, state.row.id, number, t, room, a, b)
                version = self._bumped(conn, state.row.id, code, registration_open=False)
        except IntegrityError:
            # Another click drew it first: that round stands (our rooms stay empty and go).
            raise errors.Conflict(ROUND_DRAWN, round=number) from None
        self._announced(code, version)
        return self.load(code)

    def sit(self, code: str, token: str | None) -> Seated:
        """The player of ``token`` takes their seat at their table this round (again, from
        any device; a computer player's seat from its next deal, as any latecomer; a person
        substitute's from the match's next game, the substitute finishing the one in play)."""
        player = self.player(code, token)
        assert token is not None
        state = self.load(code)
        table, seat = self.table_seat(state, player.pair, player.slot)
        mine = seat_token(token, table.room_code)
        joined: Joined = self.tables.join(
            code=table.room_code,
            name=player.name,
            seat=seat,
            token=mine,
            reserved=True,
            own_seat=True,
        )
        return Seated(table.room_code, joined.seat, joined.token, joined.pending)

    def _open_table(self, state: NightState, number: int) -> repo.TableRow:
        current = state.current
        found = (
            next((t for t in state.tables_of(current.number) if t.number == number), None)
            if current
            else None
        )
        if found is None or current is None:
            raise errors.NotFound(
                why.NO_SUCH_TABLE, round=current.number if current else 0, table=number
            )
        if found.winner is not None:
            raise errors.Conflict(why.TABLE_OVER, table=number)
        return found

    def _after_grace(self, state: NightState) -> None:
        current = state.current
        assert current is not None
        left = state.options.grace_s - (datetime.now(UTC) - current.started_at).total_seconds()
        if left > 0:
            raise errors.Conflict(why.IN_GRACE, seconds=int(left) + 1)

    def forfeit(self, code: str, *, director: str | None, table: int, pair: int) -> NightState:
        """``pair`` gives up its match at ``table`` (after the grace time): the other pair wins
        it with the match's bullseyes."""
        state = self.load(code)
        self._director(state, director)
        found = self._open_table(state, table)
        if pair not in (found.pair_a, found.pair_b):
            raise errors.Conflict(why.NOT_AT_TABLE, pair=pair, table=table)
        self._after_grace(state)
        (a, b), _, _ = table_counts(found)
        to = state.options.match
        winner = found.pair_b if pair == found.pair_a else found.pair_a
        bulls = [a, max(b, to)] if pair == found.pair_a else [max(a, to), b]
        with write(self.engine) as conn:
            repo.update_table(conn, found.id, winner=winner, forfeit=pair, corrected=bulls)
            version = self._bumped(conn, state.row.id, code)
        self._announced(code, version)
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
        self._director(state, director)
        if (name is None) == (bot is None):
            raise errors.Invalid(SUBSTITUTE_WHO)
        found = self._open_table(state, table)
        self._after_grace(state)
        room = found.room_code
        held = self.tables.snapshot(room).seats[seat]
        if held is not None and not held.bot:
            raise errors.Conflict(why.SEAT_HELD, seat=seat)
        if bot is not None:
            if bot not in LEVELS:
                raise errors.Invalid(UNKNOWN_LEVEL, levels=", ".join(LEVELS))
            if held is None:
                self.tables.seat_bot(code=room, token=None, seat=seat, level=bot, admin=True)
            return None
        assert name is not None
        token = new_token()
        joined = self.tables.join(code=room, name=name, seat=seat, token=token, reserved=True)
        return Seated(room, joined.seat, joined.token, joined.pending)

    def correct(
        self, code: str, *, director: str | None, round_: int, table: int, bullseyes: list[int]
    ) -> NightState:
        """The director sets a match's result by hand (shown as corrected)."""
        state = self.load(code)
        self._director(state, director)
        found = next((t for t in state.tables_of(round_) if t.number == table), None)
        if found is None:
            raise errors.NotFound(why.NO_SUCH_TABLE, round=round_, table=table)
        to = state.options.match
        a, b = bullseyes
        if max(a, b) != to or min(a, b) >= to or min(a, b) < 0:
            raise errors.Invalid(why.BAD_CORRECTION, to=to)
        winner = found.pair_a if a > b else found.pair_b
        with write(self.engine) as conn:
            repo.update_table(conn, found.id, winner=winner, corrected=[a, b], forfeit=None)
            version = self._bumped(conn, state.row.id, code)
        self._announced(code, version)
        return self.load(code)

    # -- the tables' matches ---------------------------------------------------------------

    def settle(self, room: str) -> Settled | None:
        """Bring a night's table up to date with its room: deal the first game once the four
        seats are filled, count each finished game into the table's match, and say whether
        the match's next game is due. None: the room is no night's."""
        with read(self.engine) as conn:
            found = repo.table_by_room(conn, room)
            night = repo.night_by_id(conn, found.night_id) if found else None
        if found is None or night is None:
            return None
        if found.winner is not None:
            return Settled(night.code)
        snap = self.tables.snapshot(room)
        game = snap.game
        if game is None:
            if snap.full:
                with suppress(errors.Conflict):  # another process dealt it first
                    self.tables.start(code=room, token=None, admin=True)
            return Settled(night.code)
        finished = [r.number for r in snap.results]
        if game.state.winner is not None:
            finished.append(game.number)
        known = {int(g["number"]) for g in found.games}
        new = [n for n in finished if n not in known]
        changed = False
        winner = None
        if new:
            games = [*found.games, *(sheet_of(self._record(room, n)) for n in new)]
            games.sort(key=lambda g: int(g["number"]))
            options = NightOptions.model_validate(night.options)
            updated = _with_games(found, games)
            winner = match_winner(updated, options, night.format)
            with write(self.engine) as conn:
                repo.update_table(conn, found.id, games=games, winner=winner)
                version = self._bumped(conn, night.id, night.code)
            self._announced(night.code, version)
            changed = True
        deal_next = winner is None and game.state.winner is not None
        all_bots = all(s is not None and s.bot for s in snap.seats)
        return Settled(night.code, changed, deal_next, all_bots)

    def deal_next(self, room: str) -> RoomSnap | None:
        """The match's next game at a night's table (the players may also press for it)."""
        try:
            return self.tables.rematch(code=room, token=None, admin=True)
        except errors.Conflict:
            return None  # dealt already (a player, or another process)

    def _record(self, room: str, number: int) -> Json:
        return record_json(load_record(self.tables, room, number))

    def open_tables(self) -> list[tuple[str, str]]:
        with read(self.engine) as conn:
            return repo.open_tables(conn)

    def night_of_room(self, room: str) -> str | None:
        with read(self.engine) as conn:
            found = repo.table_by_room(conn, room)
            night = repo.night_by_id(conn, found.night_id) if found else None
        return night.code if night else None

    # -- the one write path's announcements ------------------------------------------------

    def _bumped(self, conn: Any, night_id: int, code: str, **values: Any) -> int:
        """The night's next version, announced inside its transaction (PostgreSQL's NOTIFY
        goes out if and only if it commits)."""
        version = repo.bump(conn, night_id, **values)
        self.notifier.in_transaction(conn, NIGHT_PREFIX + code, version)
        return version

    def _announced(self, code: str, version: int) -> None:
        self.notifier.after_commit(NIGHT_PREFIX + code, version)


def _with_games(t: repo.TableRow, games: list[Json]) -> repo.TableRow:
    return replace(t, games=games)


TableState = Literal["waiting", "playing", "over"]
