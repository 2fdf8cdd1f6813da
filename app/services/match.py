"""The match: bullseyes (games won) per partnership across a room's rematches.

A partnership is two players, told apart by who sat in the seats when each game started
(``GameInfo.lineup``, kept per game): a human by the hash of their seat token, a computer
player by its level (two bots of one level play alike, so swapping them changes nothing).
The tally runs over the room's finished games in order and starts again at 0-0 when the
partnerships of a game differ from the match's (partners changed between games, whatever
moved the seats) and after a match is won: the first partnership to the room's ``match``
option (1-4) wins it, and the next game opens a new one. Pure: a snapshot in, a tally out.
"""

from __future__ import annotations

from typing import NamedTuple

from pydantic import Field

from app.services.snapshot import GameResult, Lineup, Occupant, RoomSnap, result_of
from app.views.shapes import Shown, TeamNumber

Side = frozenset[str]


class MatchTally(NamedTuple):
    bullseyes: tuple[int, int]  # team 0 (seats 0 and 2) first, as the current game sits
    to: int
    winner: int | None  # the team that has won the match, once it has


class MatchView(Shown):
    """API.md § Second round, the view's ``match``, plus the team that won it."""

    bullseyes: list[int] = Field(
        min_length=2,
        max_length=2,
        description="games won in this match by team 0 (seats 0 and 2) and team 1",
    )
    to: int = Field(ge=1, le=4, description="bullseyes that win the match (option match)")
    winner: TeamNumber | None = Field(
        description="the team that has won the match (its last game over), else null"
    )


def match_key(occupant: Occupant) -> str:
    """A player as the match tells them apart."""
    if occupant.bot:
        return f"bot:{occupant.level}"
    return f"human:{occupant.who or occupant.name}"


def sides(lineup: Lineup | None) -> tuple[Side, Side]:
    """The two partnerships of a game, team 0 first."""
    if lineup is None:
        return frozenset({"team:0"}), frozenset({"team:1"})
    first = frozenset({match_key(lineup[0]), match_key(lineup[2])})
    second = frozenset({match_key(lineup[1]), match_key(lineup[3])})
    if first == second:  # four alike computer players: tell the teams apart by their seats
        return first | {"team:0"}, second | {"team:1"}
    return first, second


def tally(results: list[GameResult], to: int) -> tuple[dict[Side, int], bool]:
    """The bullseyes of the last match of these games, and whether it is won."""
    count: dict[Side, int] = {}
    won = False
    for result in results:
        pair = sides(result.lineup)
        if won or set(pair) != set(count):
            count, won = {pair[0]: 0, pair[1]: 0}, False
        count[pair[result.winner]] += 1
        won = count[pair[result.winner]] >= to
    return count, won


def match_of(snap: RoomSnap) -> MatchTally:
    """The match the room's current game belongs to (0-0 in the lobby and when a game opens
    a new match)."""
    to = snap.options.match
    game = snap.game
    if game is None:
        return MatchTally((0, 0), to, None)
    done = list(snap.results)
    mine = result_of(game)
    if mine is not None:
        done.append(mine)
    count, won = tally(done, to)
    pair = sides(game.lineup)
    if set(pair) != set(count) or (won and mine is None):
        return MatchTally((0, 0), to, None)  # this game opened a new match
    bullseyes = (count[pair[0]], count[pair[1]])
    winner = next((t for t in (0, 1) if bullseyes[t] >= to), None) if won else None
    return MatchTally(bullseyes, to, winner)


def match_fields(snap: RoomSnap) -> dict[str, object]:
    found = match_of(snap)
    return {"bullseyes": list(found.bullseyes), "to": found.to, "winner": found.winner}
