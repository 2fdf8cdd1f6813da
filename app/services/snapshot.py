"""A room at one version: seats, rules and the replayed game. Built from the action log.

Snapshots are immutable and cached by (room, version), so open streams render each new
version from memory; any version can be rebuilt from the log when it is not cached.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import Connection

from app.players.ratings import Rating
from app.rules import Action, Phase, Rules, State, apply, new_game
from app.rules.cards import parse
from app.rules.state import TABLE_ACTION_TYPES
from app.services.options import DEFAULT_OPTIONS, RoomOptions
from app.store import career_repo, repo


@dataclass(frozen=True, slots=True)
class Claim:
    """A latecomer taking a computer player's seat while a hand is in play: the seat becomes
    theirs when the next deal starts; or a club night's player back at the seat a person
    substitutes in: theirs when the game ends (app/services/decide.py)."""

    name: str
    token_hash: str
    player: SeatPlayer | None = None


@dataclass(frozen=True, slots=True)
class SeatPlayer:
    """The profile a seat is held under (issue #34): its token is derived from the
    profile's secret (app/players/keys.py), and the view names its handle."""

    id: int
    handle: str


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    name: str
    bot: bool
    level: str | None
    token_hash: str | None
    # A bot's seat, or a club night substitute's (its player back: theirs at the game's end).
    claim: Claim | None = None
    player: SeatPlayer | None = None


@dataclass(frozen=True, slots=True)
class Occupant:
    """Who holds a seat for a game: what the match tally, the stats and the careers credit
    the game to (app/services/match.py, stats.py, career.py). ``who`` is a human's token
    hash, None for a bot. The person who finishes the game in a seat is credited with it: a
    latecomer who took a computer player's seat from deal ``since`` on (``handed_over``),
    the computer player (``before``) keeping the figures of the deals it played."""

    name: str
    bot: bool
    level: str | None
    who: str | None
    player: int | None = None  # the profile's id, when a player held the seat
    since: int = 1  # the first deal this occupant played (1: from the game's start)
    before: Occupant | None = None  # who played the seat's deals before ``since``


Lineup = tuple[Occupant, Occupant, Occupant, Occupant]


def lineup_of(seats: tuple[SeatInfo | None, ...]) -> Lineup | None:
    """The seats' occupants as a game starts (None while a seat is empty)."""
    out = [
        Occupant(s.name, s.bot, s.level, s.token_hash, s.player.id if s.player else None)
        for s in seats
        if s is not None
    ]
    return (out[0], out[1], out[2], out[3]) if len(out) == 4 else None


def lineup_json(lineup: Lineup | None) -> list[dict[str, object]] | None:
    if lineup is None:
        return None
    return [_occupant_json(o) for o in lineup]


def _occupant_json(o: Occupant) -> dict[str, object]:
    out: dict[str, object] = {"name": o.name, "bot": o.bot, "level": o.level, "who": o.who}
    if o.player is not None:
        out["player"] = o.player
    if o.before is not None:
        out |= {"since": o.since, "before": _occupant_json(o.before)}
    return out


def lineup_from(stored: list[dict[str, object]] | None) -> Lineup | None:
    if not stored or len(stored) != 4:
        return None
    out = [_occupant_from(o) for o in stored]
    return (out[0], out[1], out[2], out[3])


def _occupant_from(o: Mapping[str, object]) -> Occupant:
    before = o.get("before")
    return Occupant(
        str(o.get("name", "")),
        bool(o.get("bot")),
        str(o["level"]) if o.get("level") is not None else None,
        str(o["who"]) if o.get("who") is not None else None,
        int(str(o["player"])) if o.get("player") is not None else None,
        since=int(str(o.get("since", 1))),
        before=_occupant_from(before) if isinstance(before, Mapping) else None,
    )


def handed_over(lineup: Lineup | None, seat: int, taker: SeatInfo, deal: int) -> Lineup | None:
    """``lineup`` once a latecomer (``taker``) took a computer player's seat at deal ``deal``:
    the game is theirs to finish, so it is credited to them; the deals the computer played
    stay the computer's (``Occupant.before``)."""
    if lineup is None:
        return None
    held = lineup[seat]
    was = held.before if held.before is not None else held
    player = taker.player.id if taker.player else None
    took = Occupant(taker.name, False, None, taker.token_hash, player, since=deal, before=was)
    seats = list(lineup)
    seats[seat] = took
    return (seats[0], seats[1], seats[2], seats[3])


def deals_from(lineup: Lineup | None) -> tuple[int, int, int, int]:
    """Per seat, the first deal its occupant played (what each is credited with from)."""
    if lineup is None:
        return (1, 1, 1, 1)
    a, b, c, d = (o.since for o in lineup)
    return (a, b, c, d)


def handed_over_now(
    played_for: tuple[tuple[Action, ...], ...], lineup: Lineup | None, deal: int
) -> tuple[tuple[Action, ...], ...]:
    """``played_for`` at the start of deal ``deal``: a seat a latecomer took at this deal
    was never theirs while the computer played it (they were not away: they arrived), so
    nothing was played for them."""
    if lineup is None or all(o.since != deal for o in lineup):
        return played_for
    a, b, c, d = (() if o.since == deal else p for o, p in zip(lineup, played_for, strict=True))
    return (a, b, c, d)


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game of the room: who played it and which team won."""

    number: int
    lineup: Lineup | None
    winner: int


@dataclass(frozen=True, slots=True)
class SeatRating:
    """A rated game's change to one seat's player (API.md § Ratings): ``handle`` None once
    the profile is deleted."""

    seat: int
    player: int
    handle: str | None
    before: Rating
    after: Rating
    left: bool = False  # the player left the game (app/services/career.py ``leavers``)


def seat_ratings(
    stored: list[dict[str, Any]] | None, handles: Mapping[int, str]
) -> tuple[SeatRating, ...]:
    """``games.ratings`` as read back, each player named by their handle if still theirs."""
    out = []
    for entry in stored or ():
        player = int(entry["player"])
        before, after = entry["before"], entry["after"]
        out.append(
            SeatRating(
                int(entry["seat"]),
                player,
                handles.get(player),
                Rating(float(before["mu"]), float(before["sigma"])),
                Rating(float(after["mu"]), float(after["sigma"])),
                bool(entry.get("left")),
            )
        )
    return tuple(out)


@dataclass(frozen=True, slots=True)
class GameInfo:
    id: int
    number: int
    seed: int
    first_dealer: int
    started_version: int
    seq: int  # actions applied so far
    last: repo.ActionLog | None  # the last action applied
    state: State
    lineup: Lineup | None = None  # who sat where when it started
    # Per seat, what the computer did for it (auto) since its own last move in this game: what
    # a returning player is told ("the computer played 9♠ for you").
    played_for: tuple[tuple[Action, ...], ...] = ((), (), (), ())
    # When the current hand's reckoning began (R23), as committed (games.reckon_since).
    reckon_since: datetime | None = None
    # Once over (app/services/career.py): whether it was rated, and each seat's change.
    rated: bool = False
    ratings: tuple[SeatRating, ...] = ()

    @property
    def over(self) -> bool:
        return self.state.winner is not None


@dataclass(frozen=True, slots=True)
class ReplayOf:
    """The finished game a room plays again: game ``number`` of room ``code``."""

    code: str
    number: int


@dataclass(frozen=True, slots=True)
class RoomSnap:
    id: int
    code: str
    version: int
    rules: Rules
    seed: int | None  # the admin's seed, or the seed of the game a replay deals again
    seats: tuple[SeatInfo | None, SeatInfo | None, SeatInfo | None, SeatInfo | None]
    game: GameInfo | None
    first_dealer: int | None = None  # a replay's first game: the replayed game's first dealer
    replay_of: ReplayOf | None = None
    options: RoomOptions = DEFAULT_OPTIONS
    # The room's finished games before the current one, in order: the match tally's input.
    results: tuple[GameResult, ...] = ()
    # When this version was committed (rooms.changed_at): the turn timer counts from it. None
    # for a past version rebuilt from the log, or a room last changed before migration 0006.
    at: datetime | None = None
    # The table's host (the player who opened it, or the first one seated): their seat.
    host: int | None = None

    @property
    def full(self) -> bool:
        return all(s is not None for s in self.seats)

    @property
    def in_play(self) -> bool:
        """A game is on: a seat is to act, or its hand is being reckoned (R23)."""
        return self.game is not None and self.game.state.phase is not Phase.GAME_OVER


def action_of(log: repo.ActionLog) -> Action:
    if log.type in TABLE_ACTION_TYPES:  # R22-R23: who called or said "score it", which lift
        seat = log.seat if log.type != "score" else None
        return Action(log.type, None, seat, log.lift)
    return Action(log.type, parse(log.card) if log.card is not None else None)  # type: ignore[arg-type]


def load_game(conn: Connection, row: repo.GameRow, at_version: int | None = None) -> GameInfo:
    """One game of a room, replayed from its log (up to ``at_version``)."""
    return replay_game(row, repo.actions_of(conn, row.id, at_version), handles_of(conn, row))


def handles_of(conn: Connection, row: repo.GameRow) -> dict[int, str]:
    """The handles a rated game's ratings name (one small query, for rated games only)."""
    if not row.ratings:
        return {}
    return career_repo.handles_of(conn, (int(e["player"]) for e in row.ratings))


def replay_game(
    row: repo.GameRow, logs: list[repo.ActionLog], handles: Mapping[int, str] | None = None
) -> GameInfo:
    """A game's state: its seeded deal, then every move of its log in order."""
    rules = Rules.model_validate(row.rules)
    state = new_game(rules, row.seed, row.first_dealer, shuffle=row.shuffle, board=row.board)
    played_for: tuple[tuple[Action, ...], ...] = ((), (), (), ())
    lineup = lineup_from(row.lineup)
    for log in logs:
        deal = state.hand_number
        state = apply(state, action_of(log))
        played_for = with_played_for(played_for, log)
        if state.hand_number != deal and state.winner is None:
            played_for = handed_over_now(played_for, lineup, state.hand_number)
    return GameInfo(
        id=row.id,
        number=row.number,
        seed=row.seed,
        first_dealer=row.first_dealer,
        started_version=row.started_version,
        seq=len(logs),
        last=logs[-1] if logs else None,
        state=state,
        lineup=lineup,
        played_for=played_for,
        reckon_since=row.reckon_since if state.phase is Phase.RECKONING else None,
        rated=row.rated,
        ratings=seat_ratings(row.ratings, handles or {}),
    )


# A returning player is told the last few moves made for them, not a whole evening's.
PLAYED_FOR_KEPT = 13


def with_played_for(
    played_for: tuple[tuple[Action, ...], ...], log: repo.ActionLog
) -> tuple[tuple[Action, ...], ...]:
    """``played_for`` after ``log``: an auto move joins its seat's list, the seat's own move
    empties it (they are back, and have seen the table)."""
    if log.type in TABLE_ACTION_TYPES:
        return played_for  # a call or a "score it" is no move made for anyone
    seats = list(played_for)
    seats[log.seat] = (*seats[log.seat], action_of(log))[-PLAYED_FOR_KEPT:] if log.auto else ()
    return tuple(seats)


def _player(player_id: int | None, handle: str | None) -> SeatPlayer | None:
    return SeatPlayer(player_id, handle) if player_id is not None and handle else None


def load(conn: Connection, room: repo.RoomRow, at_version: int | None = None) -> RoomSnap:
    """The room as it was at ``at_version`` (default: the version of ``room``), replayed from
    the log: nothing written after that version is read, even where the transaction could
    see it."""
    version = room.version if at_version is None else at_version
    seat_list: list[SeatInfo | None] = [None, None, None, None]
    for s in repo.seats_of(conn, room.id, version):
        claim = None
        if s.claim_name and s.claim_hash:
            claim = Claim(s.claim_name, s.claim_hash, _player(s.claim_player, s.claim_handle))
        player = _player(s.player, s.handle)
        seat_list[s.seat] = SeatInfo(s.seat, s.name, s.bot, s.level, s.token_hash, claim, player)
    row = repo.latest_game(conn, room.id, version)
    game = load_game(conn, row, version) if row is not None else None
    seats = (seat_list[0], seat_list[1], seat_list[2], seat_list[3])
    if game is not None and game.lineup is None:
        # A game stored before games.lineup: its players are the seats' (the best we know).
        game = replace(game, lineup=lineup_of(seats))
    results = results_of(conn, room.id, row.number, seats) if row is not None else ()
    replay_of = None
    if room.replay_of_code is not None and room.replay_of_game is not None:
        replay_of = ReplayOf(room.replay_of_code, room.replay_of_game)
    return RoomSnap(
        id=room.id,
        code=room.code,
        version=version,
        rules=Rules.model_validate(room.rules),
        seed=room.seed,
        seats=seats,
        game=game,
        first_dealer=room.first_dealer,
        replay_of=replay_of,
        options=RoomOptions.model_validate(room.options or {}),
        results=results,
        at=room.changed_at if at_version is None or at_version >= room.version else None,
        host=room.host_seat,
    )


def results_of(
    conn: Connection,
    room_id: int,
    before: int,
    seats: tuple[SeatInfo | None, ...],
) -> tuple[GameResult, ...]:
    """The room's finished games numbered below ``before``: one small query; a game kept
    before games.winner is replayed for its winner, and takes the seats' players."""
    out = []
    for row in repo.finished_games(conn, room_id, before):
        winner = row.winner
        if winner is None:
            winner = load_game(conn, row).state.winner
        if winner is None:
            continue
        out.append(GameResult(row.number, lineup_from(row.lineup) or lineup_of(seats), winner))
    return tuple(out)


def result_of(game: GameInfo) -> GameResult | None:
    """A game's result, once it is over."""
    winner = game.state.winner
    return None if winner is None else GameResult(game.number, game.lineup, winner)


class SnapCache:
    """The last few versions of recently used rooms (thread-safe)."""

    def __init__(self, rooms: int = 4096, per_room: int = 16) -> None:
        self._rooms: OrderedDict[str, OrderedDict[int, RoomSnap]] = OrderedDict()
        self._max_rooms = rooms
        self._per_room = per_room
        self._lock = threading.Lock()

    def get(self, code: str, version: int | None = None) -> RoomSnap | None:
        with self._lock:
            versions = self._rooms.get(code)
            if not versions:
                return None
            self._rooms.move_to_end(code)
            if version is None:
                return next(reversed(versions.values()))
            return versions.get(version)

    def put(self, snap: RoomSnap) -> None:
        with self._lock:
            versions = self._rooms.get(snap.code)
            if versions is None:
                versions = self._rooms[snap.code] = OrderedDict()
                while len(self._rooms) > self._max_rooms:
                    self._rooms.popitem(last=False)
            self._rooms.move_to_end(snap.code)
            versions[snap.version] = snap
            # Keep them ordered by version, newest last.
            if len(versions) > 1 and next(reversed(versions)) != max(versions):
                ordered = sorted(versions.items())
                versions.clear()
                versions.update(ordered)
            while len(versions) > self._per_room:
                versions.popitem(last=False)
