"""What a command does to a club night, decided on the night as stored alone: the change it
makes (written by app/services/nights.py behind the night's version check), None when it
changes nothing, or the refusal raised (app/night/refusals.py).

Pure, as a room's decisions are (app/services/decide.py): no database, no clock (``now``
comes in), no randomness (a self-registered pair's fresh tokens come in the command), so
the same night and command always decide the same. The commands that change a room rather
than the night (a substitute, computer players, a player sitting down) are checked here too
(``substitute_at``, ``computer_tables``, ``table_seat``); the rooms' own decisions do the
rest.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from app.night import plan
from app.night import reasons as why
from app.night.pairing import Draw, seat_of
from app.night.refusals import Malformed, Missing, NotAllowed, Refused, Unsigned
from app.night.state import (
    NightState,
    NightTableRow,
    link_token,
    match_winner,
    pair_key,
    played_of,
    table_counts,
)

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Director:
    """A director's token as given, with its hash (the store keeps only the hash)."""

    token: str
    digest: str


# -- the commands ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Register:
    """A pair registers (anyone while registration is open), or the director adds one."""

    names: tuple[str, ...]  # cleaned
    team: str | None
    director: Director | None
    fresh: tuple[str, str]  # the links' tokens of a pair that registers itself
    # Partners registered by their handles (issue #34): their profiles' ids, seated by their
    # profile each round, no link needed.
    players: tuple[int | None, int | None] = (None, None)


@dataclass(frozen=True, slots=True)
class SetRegistration:
    director: Director | None
    open_: bool


@dataclass(frozen=True, slots=True)
class DrawRound:
    """The director asks for the next round (``force``: before every table has finished)."""

    director: Director | None
    force: bool = False
    # Pairs (two pair numbers) whose players are kept apart by a block: the draw keeps them at
    # different tables whenever another draw is possible (API.md § Fifth round).
    apart: frozenset[frozenset[int]] = frozenset()


@dataclass(frozen=True, slots=True)
class OpenRound:
    """The round drawn by ``DrawRound``, its rooms opened: the night records it, unless
    another click drew round ``number`` first."""

    number: int
    draw: Draw
    rooms: tuple[str, ...]  # one per table of the draw, in its order


@dataclass(frozen=True, slots=True)
class ForfeitTable:
    director: Director | None
    table: int
    pair: int


@dataclass(frozen=True, slots=True)
class Correct:
    director: Director | None
    round: int
    table: int
    bullseyes: tuple[int, int]


@dataclass(frozen=True, slots=True)
class RenewLinks:
    director: Director | None
    pair: int


@dataclass(frozen=True, slots=True)
class CountGames:
    """A table's finished games, read from its room's records, counted into its match."""

    room: str
    sheets: tuple[Json, ...]


@dataclass(frozen=True, slots=True)
class SubstituteSeat:
    director: Director | None
    table: int
    seat: int
    name: str | None
    bot: str | None


@dataclass(frozen=True, slots=True)
class SeatComputers:
    director: Director | None
    table: int | None  # None: every table still playing


Command = Register | SetRegistration | OpenRound | ForfeitTable | Correct | RenewLinks | CountGames


# -- the changes -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PairAdded:
    number: int
    names: tuple[str, ...]
    team: str | None
    key: str
    tokens: tuple[str, str]
    players: tuple[int | None, int | None] = (None, None)


@dataclass(frozen=True, slots=True)
class RegistrationSet:
    open_: bool


@dataclass(frozen=True, slots=True)
class RoundOpened:
    number: int
    bye: int | None
    at: datetime
    tables: tuple[tuple[int, str, int, int], ...]  # number, room, pair a, pair b


@dataclass(frozen=True, slots=True)
class TableSet:
    """A table's row rewritten: its games, winner, forfeit and corrected bullseyes."""

    table: NightTableRow


@dataclass(frozen=True, slots=True)
class LinksRenewed:
    pair: int
    tokens: tuple[str, str]


Change = PairAdded | RegistrationSet | RoundOpened | TableSet | LinksRenewed


def decide(state: NightState, command: Command, now: datetime) -> Change | None:
    """The change ``command`` makes to the night, None for none, or its refusal."""
    match command:
        case Register():
            return _register(state, command)
        case SetRegistration():
            check_director(state, command.director)
            return RegistrationSet(command.open_)
        case OpenRound():
            return _open_round(state, command, now)
        case ForfeitTable():
            return _forfeit(state, command, now)
        case Correct():
            return _correct(state, command)
        case RenewLinks():
            return _renew_links(state, command)
        case CountGames():
            return _count_games(state, command)


# -- who may ---------------------------------------------------------------------------------


def is_director(state: NightState, director: Director | None) -> bool:
    return director is not None and hmac.compare_digest(state.row.director_hash, director.digest)


def check_director(state: NightState, director: Director | None) -> Director:
    if director is None:
        raise Unsigned(why.NO_DIRECTOR_TOKEN)
    if not is_director(state, director):
        raise NotAllowed(why.NOT_DIRECTOR)
    return director


def pair_tokens(director: Director | None, pair: int, fresh: tuple[str, str]) -> tuple[str, str]:
    """A pair's links: derived from the director's token (their page shows them again), or
    the fresh ones of a pair that registered itself."""
    if director is None:
        return fresh
    return link_token(director.token, pair, 0), link_token(director.token, pair, 1)


# -- the decisions ---------------------------------------------------------------------------


def registering(state: NightState, director: Director | None) -> Director | None:
    """Whether a pair may register now (before the names are read): the director, when it
    is the director who registers it."""
    if state.rounds:
        raise Refused(why.STARTED)
    found = director if is_director(state, director) else None
    if not state.row.registration_open and found is None:
        raise Refused(why.REGISTRATION_CLOSED)
    return found


def _register(state: NightState, command: Register) -> PairAdded:
    director = registering(state, command.director)
    team = " ".join(command.team.split()) if command.team else None
    if state.row.format == "teams" and not team:
        raise Malformed(why.TEAM_NEEDED)
    if state.row.format != "teams":
        team = None
    key = pair_key(command.names, team)
    same = next((p for p in state.pairs if pair_key(p.names, p.team) == key), None)
    if same is not None:
        raise Refused(why.PAIR_REGISTERED, pair=same.number)
    number = len(state.pairs) + 1
    tokens = pair_tokens(director, number, command.fresh)
    return PairAdded(number, command.names, team, key, tokens, command.players)


def round_draw(state: NightState, command: DrawRound) -> tuple[int, Draw]:
    """The next round's number and draw, or why there is none yet."""
    check_director(state, command.director)
    rounds = played_of(state)
    if rounds and not rounds[-1].over and not command.force:
        raise Refused(why.ROUND_UNFINISHED, round=len(rounds))
    if len(state.pairs) < 2:
        raise Refused(why.TOO_FEW_PAIRS, pairs=len(state.pairs))
    if state.row.format == "teams":
        side_a, side_b = plan.clubs(state.teams)
        if (
            not side_a
            or len(side_a) != len(side_b)
            or len(side_a) + len(side_b) != len(state.pairs)
        ):
            raise Refused(why.TEAMS_UNEVEN)
    draw = plan.next_draw(state.shape, state.teams, rounds, command.apart)
    if draw is None:
        raise Refused(why.NIGHT_OVER)
    return len(rounds) + 1, draw


def _open_round(state: NightState, command: OpenRound, now: datetime) -> RoundOpened:
    if len(state.rounds) + 1 != command.number:
        # Another click drew it first: that round stands (our rooms stay empty and go).
        raise Refused(why.ROUND_DRAWN, round=command.number)
    tables = tuple(
        (t, room, a, b)
        for t, ((a, b), room) in enumerate(zip(command.draw.tables, command.rooms, strict=True), 1)
    )
    return RoundOpened(command.number, command.draw.bye, now, tables)


def open_table(state: NightState, number: int) -> NightTableRow:
    """Table ``number`` of the current round, its match still being played."""
    current = state.current
    found = (
        next((t for t in state.tables_of(current.number) if t.number == number), None)
        if current
        else None
    )
    if found is None or current is None:
        raise Missing(why.NO_SUCH_TABLE, round=current.number if current else 0, table=number)
    if found.winner is not None:
        raise Refused(why.TABLE_OVER, table=number)
    return found


def after_grace(state: NightState, now: datetime) -> None:
    """Refused while the current round's grace time runs (the absent may still come)."""
    current = state.current
    assert current is not None
    left = state.options.grace_s - (now - current.started_at).total_seconds()
    if left > 0:
        raise Refused(why.IN_GRACE, seconds=int(left) + 1)


def _forfeit(state: NightState, command: ForfeitTable, now: datetime) -> TableSet:
    """The pair gives up its match (after the grace time): the other wins it with the
    match's bullseyes."""
    check_director(state, command.director)
    found = open_table(state, command.table)
    pair = command.pair
    if pair not in (found.pair_a, found.pair_b):
        raise Refused(why.NOT_AT_TABLE, pair=pair, table=command.table)
    after_grace(state, now)
    (a, b), _, _ = table_counts(found)
    to = state.options.match
    winner = found.pair_b if pair == found.pair_a else found.pair_a
    bulls = [a, max(b, to)] if pair == found.pair_a else [max(a, to), b]
    return TableSet(replace(found, winner=winner, forfeit=pair, corrected=bulls))


def _correct(state: NightState, command: Correct) -> TableSet:
    check_director(state, command.director)
    found = next((t for t in state.tables_of(command.round) if t.number == command.table), None)
    if found is None:
        raise Missing(why.NO_SUCH_TABLE, round=command.round, table=command.table)
    to = state.options.match
    a, b = command.bullseyes
    if max(a, b) != to or min(a, b) >= to or min(a, b) < 0:
        raise Malformed(why.BAD_CORRECTION, to=to)
    winner = found.pair_a if a > b else found.pair_b
    return TableSet(replace(found, winner=winner, corrected=[a, b], forfeit=None))


def _renew_links(state: NightState, command: RenewLinks) -> LinksRenewed:
    director = check_director(state, command.director)
    if command.pair not in {p.number for p in state.pairs}:
        raise Missing(why.NO_SUCH_PAIR, pair=command.pair)
    return LinksRenewed(command.pair, pair_tokens(director, command.pair, ("", "")))


def _count_games(state: NightState, command: CountGames) -> TableSet | None:
    """The new ones of the room's finished games into its table's match (a game already
    counted, by this process or another, is not counted twice)."""
    found = next((t for t in state.tables if t.room_code == command.room), None)
    if found is None or found.winner is not None:
        return None
    known = {int(g["number"]) for g in found.games}
    new = [g for g in command.sheets if int(g["number"]) not in known]
    if not new:
        return None
    games = sorted([*found.games, *new], key=lambda g: int(g["number"]))
    counted = replace(found, games=games)
    winner = match_winner(counted, state.options, state.row.format)
    return TableSet(replace(counted, winner=winner))


def substitute_at(state: NightState, command: SubstituteSeat, now: datetime) -> NightTableRow:
    """The table a substitute may sit at (after the grace time): a person by name or a
    computer player, one of them. Whether the seat is free is the room's to say."""
    check_director(state, command.director)
    if (command.name is None) == (command.bot is None):
        raise Malformed(why.SUBSTITUTE_WHO)
    found = open_table(state, command.table)
    after_grace(state, now)
    return found


def computer_tables(
    state: NightState, command: SeatComputers, now: datetime
) -> list[NightTableRow]:
    """The tables whose empty seats take computer players (after the grace time): one, or
    every table of the current round still playing."""
    check_director(state, command.director)
    current = state.current
    if command.table is not None:
        found = [open_table(state, command.table)]
    elif current is None:
        raise Refused(why.NO_ROUND_NOW)
    else:
        found = [t for t in state.tables_of(current.number) if t.winner is None]
        if not found:
            raise Refused(why.NO_ROUND_NOW)  # between rounds
    after_grace(state, now)
    return found


def table_seat(state: NightState, pair: int, slot: int) -> tuple[NightTableRow, int]:
    """The current round's table of ``pair`` and the seat of its player ``slot``
    (partners opposite: the first pair at seats 0 and 2, the second at 1 and 3)."""
    current = state.current
    for t in state.tables_of(current.number) if current else []:
        if pair in (t.pair_a, t.pair_b):
            return t, seat_of(0 if pair == t.pair_a else 1, slot)
    raise Refused(why.NO_TABLE_NOW, pair=pair)
