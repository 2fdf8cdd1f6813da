"""The stats players brag about (API.md § Second round, ``GET /api/rooms/{code}/stats``):
per partnership and per player over a room's finished games.

Computed from the action logs, the truth: each finished game is replayed on the engine and
its deals' records read (awards in the order they fell, each deal's dealer and decision, its
lifts and Game counts), so the figures cannot drift from what was played. A finished game
never changes, so the figures of a room are kept until its next game ends.

Who is who: the players who finished each game in its seats (``games.lineup``: those seated
when it started, or a latecomer who took a computer player's seat); a human by their
seat token, a computer player by its level and seat. A partnership is two such players.
Each game is counted by app/services/figures.py (who is credited with what), the same count
a player's career keeps; here the games' counts are added up per player and partnership.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict

from pydantic import Field

from app.rules.state import HandRecord
from app.services.figures import Count, count_game
from app.services.rooms import Rooms
from app.services.snapshot import (
    Lineup,
    Occupant,
    RoomSnap,
    deals_from,
    lineup_from,
    lineup_of,
    replay_game,
)
from app.store import repo
from app.store.db import read
from app.views.shapes import Shown, TeamNumber

# -- the response (the OpenAPI document is generated from these) ---------------------------


class Figures(Shown):
    games: int = Field(description="finished games played")
    bullseyes: int = Field(description="games won")
    hang_jacks_made: int = Field(description="jacks of trumps hanged: taken from the opponents")
    hang_jacks_made_with: dict[str, int] = Field(description="those hang jacks, by jack")
    hang_jacks_suffered: int = Field(description="own jacks of trumps the opponents hanged")
    hang_jacks_suffered_with: dict[str, int] = Field(description="those, by jack")
    jacks_won_home: int = Field(description="own jacks of trumps won in a lift (Jack, 1)")
    kick_points: int = Field(description="points of the cards turned up as dealer (R7)")
    high: int
    low: int
    game_won: int = Field(description="deals whose Game point the partnership won")
    highest_game_count: int | None = Field(
        description="the most the partnership counted for Game in one deal (null: no deal"
        " was played out)"
    )
    gave_one: int = Field(description="begged deals where the dealer gave one")
    ran_the_pack: int = Field(description="begged deals where the dealer ran the pack")
    reneges_caught: int = Field(0, description="renege mode: calls upheld (R22)")
    wrong_calls: int = Field(0, description="renege mode: calls that found no renege (R25)")
    reneges: int = Field(0, description="renege mode: reneges played, called or not (R21)")
    reneges_called: int = Field(0, description="those the other side caught")


class PlayerStats(Figures):
    player: int = Field(description="this player's index in players")
    name: str = Field(description="the name they last played under")
    bot: bool
    level: str | None


class PartnershipStats(Figures):
    players: list[int] = Field(min_length=2, max_length=2, description="indexes in players")
    names: list[str] = Field(min_length=2, max_length=2)


class GameStats(Shown):
    game: int = Field(description="the game's number in the room")
    winner: TeamNumber
    scores: list[int] = Field(min_length=2, max_length=2)
    seats: list[int] = Field(
        min_length=4, max_length=4, description="the player (index in players) in each seat"
    )
    replay: str = Field(description="the replay page of the game")
    record: str = Field(description="the game record (JSON)")


class StatsOut(Shown):
    """A room's finished games counted: per partnership and per player, and each game."""

    room: str
    games: list[GameStats]
    partnerships: list[PartnershipStats]
    players: list[PlayerStats]
    renege: bool = Field(
        False, description="a game counted was played in renege mode (R20): its figures count"
    )


# -- counting ------------------------------------------------------------------------------


def _figures(count: Count) -> dict[str, object]:
    return {
        "games": count.games,
        "bullseyes": count.bullseyes,
        "hang_jacks_made": sum(count.made.values()),
        "hang_jacks_made_with": dict(sorted(count.made.items())),
        "hang_jacks_suffered": sum(count.suffered.values()),
        "hang_jacks_suffered_with": dict(sorted(count.suffered.items())),
        "jacks_won_home": count.jacks_won_home,
        "kick_points": count.kick_points,
        "high": count.high,
        "low": count.low,
        "game_won": count.game_won,
        "highest_game_count": count.highest_game_count,
        "gave_one": count.gave_one,
        "ran_the_pack": count.ran_the_pack,
        "reneges_caught": count.reneges_caught,
        "wrong_calls": count.wrong_calls,
        "reneges": count.reneges,
        "reneges_called": count.reneges_called,
    }


def player_key(occupant: Occupant, seat: int) -> str:
    """A player as the stats tell them apart: two computer players are two players."""
    if occupant.bot:
        return f"bot:{occupant.level}:{seat}"
    return f"human:{occupant.who or occupant.name}"


class _Tally:
    def __init__(self) -> None:
        self.players: dict[str, Count] = {}
        self.about: dict[str, Occupant] = {}
        self.pairs: dict[frozenset[str], Count] = {}
        self.pair_order: dict[frozenset[str], tuple[str, str]] = {}
        self.games: list[tuple[int, int, tuple[int, int], tuple[str, ...]]] = []
        self.renege = False  # a game was played in renege mode

    def game(
        self,
        number: int,
        lineup: Lineup,
        history: tuple[HandRecord, ...],
        winner: int,
        scores: tuple[int, int],
    ) -> None:
        keys = tuple(player_key(o, s) for s, o in enumerate(lineup))
        # The one scoring of a game (app/services/figures.py): a latecomer's seat is theirs
        # from the deal they took it, the deals before it the computer player's.
        counted = count_game(history, winner, deals_from(lineup))
        for seat, key in enumerate(keys):
            self.about[key] = lineup[seat]  # the latest name each player played under
            self.players.setdefault(key, Count()).add(counted.seats[seat])
            was = lineup[seat].before
            if was is not None:
                self.about.setdefault(player_key(was, seat), was)
                self.players.setdefault(player_key(was, seat), Count()).add(counted.before[seat])
        for team in (0, 1):
            pair = frozenset({keys[team], keys[team + 2]})
            self.pair_order.setdefault(pair, (keys[team], keys[team + 2]))
            self.pairs.setdefault(pair, Count()).add(counted.teams[team])
        self.games.append((number, winner, scores, keys))

    def out(self, room: str) -> StatsOut:
        index = {key: i for i, key in enumerate(self.players)}
        players = [
            PlayerStats.model_validate(
                {
                    **_figures(count),
                    "player": index[key],
                    "name": self.about[key].name,
                    "bot": self.about[key].bot,
                    "level": self.about[key].level,
                }
            )
            for key, count in self.players.items()
        ]
        pairs = [
            PartnershipStats.model_validate(
                {
                    **_figures(count),
                    "players": [index[k] for k in self.pair_order[pair]],
                    "names": [self.about[k].name for k in self.pair_order[pair]],
                }
            )
            for pair, count in self.pairs.items()
        ]
        games = [
            GameStats(
                game=number,
                winner=winner,
                scores=list(scores),
                seats=[index[k] for k in keys],
                replay=f"/r/{room}/games/{number}/replay",
                record=f"/api/rooms/{room}/games/{number}",
            )
            for number, winner, scores, keys in self.games
        ]
        return StatsOut(
            room=room, games=games, partnerships=pairs, players=players, renege=self.renege
        )


def count_room(rooms: Rooms, snap: RoomSnap) -> StatsOut:
    """Replay every finished game of the room and count."""
    tally = _Tally()
    with read(rooms.engine) as conn:
        rows = repo.finished_games(conn, snap.id)
        logs = [repo.actions_of(conn, row.id) for row in rows]
    for row, game_logs in zip(rows, logs, strict=True):
        game = replay_game(row, game_logs)
        state = game.state
        lineup = lineup_from(row.lineup) or lineup_of(snap.seats)
        if state.winner is None or lineup is None:
            continue
        tally.game(row.number, lineup, state.history, state.winner, state.scores)
        tally.renege |= state.rules.renege != "off"
    return tally.out(snap.code)


# -- kept per room until its next game ends ----------------------------------------------------


class _Kept:
    def __init__(self, rooms: int = 512) -> None:
        self._found: OrderedDict[tuple[str, int, int], StatsOut] = OrderedDict()
        self._rooms = rooms
        self._lock = threading.Lock()

    def get(self, key: tuple[str, int, int]) -> StatsOut | None:
        with self._lock:
            found = self._found.get(key)
            if found is not None:
                self._found.move_to_end(key)
            return found

    def put(self, key: tuple[str, int, int], stats: StatsOut) -> None:
        with self._lock:
            self._found[key] = stats
            while len(self._found) > self._rooms:
                self._found.popitem(last=False)


_KEPT: weakref.WeakKeyDictionary[Rooms, _Kept] = weakref.WeakKeyDictionary()
_KEPT_LOCK = threading.Lock()


def finished_key(snap: RoomSnap) -> tuple[str, int, int]:
    """What a room's stats depend on: its finished games (append-only, never changed)."""
    game = snap.game
    over = game is not None and game.over
    last = (
        game.number
        if game is not None and over
        else (snap.results[-1].number if snap.results else 0)
    )
    return snap.code, snap.id, last


def room_stats(rooms: Rooms, code: str) -> StatsOut:
    """The room's stats (404 for an unknown room), counted once per finished game."""
    snap = rooms.snapshot(code)
    with _KEPT_LOCK:
        kept = _KEPT.setdefault(rooms, _Kept())
    key = finished_key(snap)
    found = kept.get(key)
    if found is None:
        found = count_room(rooms, snap)
        kept.put(key, found)
    return found
