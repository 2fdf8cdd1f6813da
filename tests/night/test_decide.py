"""Every night command decided on the night alone (app/night/decide.py), as a table: a night
as stored, a command, and what follows: the change it makes, nothing, or the refusal's
code. The HTTP tests beside this file keep the wiring."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app.night import decide as night
from app.night.decide import (
    CountGames,
    Director,
    DrawRound,
    ForfeitTable,
    LinksRenewed,
    OpenRound,
    PairAdded,
    Register,
    RegistrationSet,
    RenewLinks,
    RoundOpened,
    SeatComputers,
    SetRegistration,
    SubstituteSeat,
    TableSet,
    decide,
)
from app.night.options import NightOptions
from app.night.pairing import Draw, seat_of
from app.night.refusals import NightRefused
from app.night.state import (
    NightRow,
    NightState,
    NightTableRow,
    PairRow,
    RoundRow,
    link_token,
    pair_key,
)
from app.services.identity import token_hash

NOW = datetime(2026, 12, 5, 20, 0, tzinfo=UTC)
DIRECTOR = Director("the director", token_hash("the director"))
STRANGER = Director("someone", token_hash("someone"))
FRESH = ("fresh-a", "fresh-b")
NAMES = [("Ann", "Ben"), ("Cat", "Dan"), ("Eve", "Fay"), ("Gus", "Hal")]


def _night(format: str = "round_robin", registration_open: bool = True, **options: Any) -> NightRow:
    return NightRow(
        id=1,
        code="night1",
        name="Friday",
        format=format,
        preset=None,
        rules={},
        options=NightOptions.model_validate(options).model_dump(mode="json"),
        director_hash=DIRECTOR.digest,
        registration_open=registration_open,
        version=3,
    )


def _pairs(n: int, teams: tuple[str | None, ...] = ()) -> tuple[PairRow, ...]:
    return tuple(PairRow(i + 1, list(NAMES[i]), teams[i] if teams else None) for i in range(n))


def _table(number: int, room: str, a: int, b: int, **values: Any) -> NightTableRow:
    found = NightTableRow(0 + number, 1, 1, number, room, a, b, [], None, None, None)
    return replace(found, **values)


def _game(number: int, winner: int) -> dict[str, Any]:
    return {"number": number, "winner": winner, "scores": [7, 3], "hands": []}


OPEN = NightState(_night(), (), (), ())
CLOSED = replace(OPEN, row=_night(registration_open=False))
TWO = replace(OPEN, pairs=_pairs(2))
FOUR = replace(OPEN, pairs=_pairs(4))
ROUND_1 = (RoundRow(1, None, NOW - timedelta(seconds=600)),)
PLAYING = replace(
    FOUR,
    row=_night(registration_open=False),
    rounds=ROUND_1,
    tables=(_table(1, "r1", 1, 2), _table(2, "r2", 3, 4)),
)
IN_GRACE = replace(PLAYING, rounds=(RoundRow(1, None, NOW - timedelta(seconds=10)),))
ONE_GAME = replace(PLAYING, tables=(_table(1, "r1", 1, 2, games=[_game(1, 0)]), PLAYING.tables[1]))
ROUND_OVER = replace(
    PLAYING,
    tables=(
        _table(1, "r1", 1, 2, games=[_game(1, 0), _game(2, 0)], winner=1),
        _table(2, "r2", 3, 4, games=[_game(1, 1), _game(2, 1)], winner=4),
    ),
)
TWO_OVER = replace(
    TWO,
    rounds=ROUND_1,
    tables=(_table(1, "r1", 1, 2, games=[_game(1, 0), _game(2, 0)], winner=1),),
)
TEAMS_OPEN = replace(OPEN, row=_night(format="teams"))
TEAMS_UNEVEN = replace(TEAMS_OPEN, pairs=_pairs(3, ("Reds", "Reds", "Blues")))


def _derived(pair: int) -> tuple[str, str]:
    return link_token(DIRECTOR.token, pair, 0), link_token(DIRECTOR.token, pair, 1)


@dataclass(frozen=True)
class Refused:
    code: str


@dataclass(frozen=True)
class Case:
    name: str
    state: NightState
    decision: Callable[[NightState], object]
    expect: object  # the change (or the checked answer), None for none, or Refused(code)


def _cmd(command: night.Command) -> Callable[[NightState], object]:
    return lambda state: decide(state, command, NOW)


def _draw(command: DrawRound) -> Callable[[NightState], object]:
    return lambda state: night.round_draw(state, command)


def _sub(command: SubstituteSeat) -> Callable[[NightState], object]:
    return lambda state: night.substitute_at(state, command, NOW).number


def _computers(command: SeatComputers) -> Callable[[NightState], object]:
    return lambda state: [t.number for t in night.computer_tables(state, command, NOW)]


def _seat(pair: int, slot: int) -> Callable[[NightState], object]:
    def found(state: NightState) -> object:
        table, seat = night.table_seat(state, pair, slot)
        return table.number, seat

    return found


ANN = ("Ann", "Ben")
EVE = ("Eve", "Fay")

CASES = [
    # registering a pair
    Case("register: a pair registers itself", OPEN, _cmd(Register(EVE, None, None, FRESH)),
         PairAdded(1, EVE, None, pair_key(EVE, None), FRESH)),
    Case("register: the director adds one (links derived)", CLOSED,
         _cmd(Register(EVE, None, DIRECTOR, FRESH)),
         PairAdded(1, EVE, None, pair_key(EVE, None), _derived(1))),
    Case("register: numbered after the others", TWO, _cmd(Register(EVE, None, None, FRESH)),
         PairAdded(3, EVE, None, pair_key(EVE, None), FRESH)),
    Case("register: outside a team match the club is dropped", OPEN,
         _cmd(Register(EVE, "Reds", None, FRESH)),
         PairAdded(1, EVE, None, pair_key(EVE, None), FRESH)),
    Case("register: a team match's club, spaces folded", TEAMS_OPEN,
         _cmd(Register(EVE, "  The   Reds ", None, FRESH)),
         PairAdded(1, EVE, "The Reds", pair_key(EVE, "The Reds"), FRESH)),
    Case("register: closed", CLOSED, _cmd(Register(EVE, None, None, FRESH)),
         Refused("night_registration_closed")),
    Case("register: closed, a stranger's token", CLOSED, _cmd(Register(EVE, None, STRANGER, FRESH)),
         Refused("night_registration_closed")),
    Case("register: started", PLAYING, _cmd(Register(EVE, None, DIRECTOR, FRESH)),
         Refused("night_started")),
    Case("register: the same pair again", TWO, _cmd(Register(("ben", "ANN"), None, None, FRESH)),
         Refused("night_pair_registered")),
    Case("register: a team match's pair without a club", TEAMS_OPEN,
         _cmd(Register(EVE, None, None, FRESH)), Refused("night_team_needed")),
    # registration
    Case("registration: closed by the director", OPEN,
         _cmd(SetRegistration(DIRECTOR, False)), RegistrationSet(False)),
    Case("registration: no token", OPEN, _cmd(SetRegistration(None, False)),
         Refused("night_director_token_needed")),
    Case("registration: not the director", OPEN, _cmd(SetRegistration(STRANGER, False)),
         Refused("night_not_director")),
    # drawing a round, then opening it
    Case("draw: the first round", TWO, _draw(DrawRound(DIRECTOR)), (1, Draw(((1, 2),), None))),
    Case("draw: too few pairs", OPEN, _draw(DrawRound(DIRECTOR)), Refused("night_too_few_pairs")),
    Case("draw: not the director", TWO, _draw(DrawRound(STRANGER)), Refused("night_not_director")),
    Case("draw: a round still played", PLAYING, _draw(DrawRound(DIRECTOR)),
         Refused("night_round_unfinished")),
    Case("draw: uneven clubs", TEAMS_UNEVEN, _draw(DrawRound(DIRECTOR)),
         Refused("night_teams_uneven")),
    Case("draw: the night over", TWO_OVER, _draw(DrawRound(DIRECTOR)), Refused("night_over")),
    Case("open round", TWO, _cmd(OpenRound(1, Draw(((1, 2),), None), ("r1",))),
         RoundOpened(1, None, NOW, ((1, "r1", 1, 2),))),
    Case("open round: drawn first by another click", PLAYING,
         _cmd(OpenRound(1, Draw(((1, 2), (3, 4)), None), ("x1", "x2"))),
         Refused("night_round_drawn")),
    # the director's forfeits and corrections
    Case("forfeit", PLAYING, _cmd(ForfeitTable(DIRECTOR, 1, 1)),
         TableSet(_table(1, "r1", 1, 2, winner=2, forfeit=1, corrected=[0, 2]))),
    Case("forfeit: a game won counts", ONE_GAME, _cmd(ForfeitTable(DIRECTOR, 1, 2)),
         TableSet(_table(1, "r1", 1, 2, games=[_game(1, 0)], winner=1, forfeit=2,
                         corrected=[2, 0]))),
    Case("forfeit: in the grace time", IN_GRACE, _cmd(ForfeitTable(DIRECTOR, 1, 1)),
         Refused("night_in_grace")),
    Case("forfeit: a pair of another table", PLAYING, _cmd(ForfeitTable(DIRECTOR, 1, 3)),
         Refused("night_pair_not_at_table")),
    Case("forfeit: no such table", PLAYING, _cmd(ForfeitTable(DIRECTOR, 9, 1)),
         Refused("night_no_table")),
    Case("forfeit: the match over", ROUND_OVER, _cmd(ForfeitTable(DIRECTOR, 1, 1)),
         Refused("night_table_over")),
    Case("forfeit: not the director", PLAYING, _cmd(ForfeitTable(STRANGER, 1, 1)),
         Refused("night_not_director")),
    Case("correct", PLAYING, _cmd(night.Correct(DIRECTOR, 1, 2, (1, 2))),
         TableSet(_table(2, "r2", 3, 4, winner=4, corrected=[1, 2]))),
    Case("correct: no pair at the match's bullseyes", PLAYING,
         _cmd(night.Correct(DIRECTOR, 1, 1, (1, 1))), Refused("night_bad_correction")),
    Case("correct: no such round", PLAYING, _cmd(night.Correct(DIRECTOR, 4, 1, (2, 0))),
         Refused("night_no_table")),
    Case("correct: no token", PLAYING, _cmd(night.Correct(None, 1, 1, (2, 0))),
         Refused("night_director_token_needed")),
    # a pair's links
    Case("renew links", TWO, _cmd(RenewLinks(DIRECTOR, 2)), LinksRenewed(2, _derived(2))),
    Case("renew links: no such pair", TWO, _cmd(RenewLinks(DIRECTOR, 9)),
         Refused("night_no_pair")),
    Case("renew links: not the director", TWO, _cmd(RenewLinks(STRANGER, 1)),
         Refused("night_not_director")),
    # a table's games counted into its match
    Case("count: a first game", PLAYING, _cmd(CountGames("r1", (_game(1, 1),))),
         TableSet(_table(1, "r1", 1, 2, games=[_game(1, 1)]))),
    Case("count: the match won", ONE_GAME, _cmd(CountGames("r1", (_game(2, 0),))),
         TableSet(_table(1, "r1", 1, 2, games=[_game(1, 0), _game(2, 0)], winner=1))),
    Case("count: a game counted already", ONE_GAME, _cmd(CountGames("r1", (_game(1, 0),))), None),
    Case("count: the match over", ROUND_OVER, _cmd(CountGames("r1", (_game(3, 1),))), None),
    Case("count: no night's room", PLAYING, _cmd(CountGames("elsewhere", (_game(1, 0),))), None),
    # substitutes and computer players (the rooms seat them)
    Case("substitute: a person", PLAYING, _sub(SubstituteSeat(DIRECTOR, 2, 1, "Sub", None)), 2),
    Case("substitute: a computer player", PLAYING,
         _sub(SubstituteSeat(DIRECTOR, 1, 0, None, "standard")), 1),
    Case("substitute: both", PLAYING, _sub(SubstituteSeat(DIRECTOR, 1, 0, "Sub", "standard")),
         Refused("night_substitute_who")),
    Case("substitute: in the grace time", IN_GRACE,
         _sub(SubstituteSeat(DIRECTOR, 1, 0, "Sub", None)), Refused("night_in_grace")),
    Case("substitute: the match over", ROUND_OVER,
         _sub(SubstituteSeat(DIRECTOR, 1, 0, "Sub", None)), Refused("night_table_over")),
    Case("computer players: every table playing", PLAYING,
         _computers(SeatComputers(DIRECTOR, None)), [1, 2]),
    Case("computer players: one table", PLAYING, _computers(SeatComputers(DIRECTOR, 2)), [2]),
    Case("computer players: no round yet", TWO, _computers(SeatComputers(DIRECTOR, None)),
         Refused("night_no_round_now")),
    Case("computer players: between rounds", ROUND_OVER,
         _computers(SeatComputers(DIRECTOR, None)), Refused("night_no_round_now")),
    Case("computer players: in the grace time", IN_GRACE,
         _computers(SeatComputers(DIRECTOR, None)), Refused("night_in_grace")),
    # a player sitting down
    Case("sit: the second pair's second player", PLAYING, _seat(2, 1), (1, seat_of(1, 1))),
    Case("sit: a pair with no table", TWO, _seat(1, 0), Refused("night_no_table_now")),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_night_command_decides(case: Case) -> None:
    if isinstance(case.expect, Refused):
        with pytest.raises(NightRefused) as refused:
            case.decision(case.state)
        assert refused.value.code == case.expect.code
    else:
        assert case.decision(case.state) == case.expect


def test_every_night_command_has_a_row() -> None:
    named = {c.name.split(":")[0] for c in CASES}
    # each change app/services/nights.py makes, and each check before a room's change
    assert named == {
        "register",
        "registration",
        "draw",
        "open round",
        "forfeit",
        "correct",
        "renew links",
        "count",
        "substitute",
        "computer players",
        "sit",
    }


def test_the_same_night_and_command_decide_the_same() -> None:
    command = Register(ANN[::-1], None, None, FRESH)
    assert decide(OPEN, command, NOW) == decide(OPEN, command, NOW)
