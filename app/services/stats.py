"""The stats players brag about (API.md § Second round, ``GET /api/rooms/{code}/stats``):
per partnership and per player over a room's finished games.

Computed from the action logs, the truth: each finished game is replayed on the engine and
its deals' records read (awards in the order they fell, each deal's dealer and decision, its
lifts and Game counts), so the figures cannot drift from what was played. A finished game
never changes, so the figures of a room are kept until its next game ends.

Who is who: the players seated when each game started (``games.lineup``); a human by their
seat token, a computer player by its level and seat. A partnership is two such players.
Credit: High, Low and a jack won home go to the player who was dealt the card; a hang jack
is made by the player whose card took the lift holding it and suffered by the jack's holder;
kick points, gave one and ran the pack go to the dealer; bullseyes, Game won and the highest
Game count are a partnership's, and count for both of its players.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field

from pydantic import Field

from app.api.view_schemas import Shown, TeamNumber
from app.rules.cards import code
from app.rules.state import HandRecord
from app.services.snapshot import (
    Lineup,
    Occupant,
    RoomSnap,
    lineup_from,
    lineup_of,
    replay_game,
)
from app.services.tables import Tables
from app.store import repo
from app.store.db import read

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


@dataclass
class _Count:
    games: int = 0
    bullseyes: int = 0
    made: dict[str, int] = field(default_factory=dict)
    suffered: dict[str, int] = field(default_factory=dict)
    jacks_won_home: int = 0
    kick_points: int = 0
    high: int = 0
    low: int = 0
    game_won: int = 0
    highest_game_count: int | None = None
    gave_one: int = 0
    ran_the_pack: int = 0
    reneges_caught: int = 0
    wrong_calls: int = 0
    reneges: int = 0
    reneges_called: int = 0

    def figures(self) -> dict[str, object]:
        return {
            "games": self.games,
            "bullseyes": self.bullseyes,
            "hang_jacks_made": sum(self.made.values()),
            "hang_jacks_made_with": dict(sorted(self.made.items())),
            "hang_jacks_suffered": sum(self.suffered.values()),
            "hang_jacks_suffered_with": dict(sorted(self.suffered.items())),
            "jacks_won_home": self.jacks_won_home,
            "kick_points": self.kick_points,
            "high": self.high,
            "low": self.low,
            "game_won": self.game_won,
            "highest_game_count": self.highest_game_count,
            "gave_one": self.gave_one,
            "ran_the_pack": self.ran_the_pack,
            "reneges_caught": self.reneges_caught,
            "wrong_calls": self.wrong_calls,
            "reneges": self.reneges,
            "reneges_called": self.reneges_called,
        }


def player_key(occupant: Occupant, seat: int) -> str:
    """A player as the stats tell them apart: two computer players are two players."""
    if occupant.bot:
        return f"bot:{occupant.level}:{seat}"
    return f"human:{occupant.who or occupant.name}"


class _Tally:
    def __init__(self) -> None:
        self.players: dict[str, _Count] = {}
        self.about: dict[str, Occupant] = {}
        self.pairs: dict[frozenset[str], _Count] = {}
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
        for seat, key in enumerate(keys):
            self.about[key] = lineup[seat]  # the latest name each player played under
            self.players.setdefault(key, _Count())
        teams = []
        for team in (0, 1):
            pair = frozenset({keys[team], keys[team + 2]})
            self.pair_order.setdefault(pair, (keys[team], keys[team + 2]))
            teams.append(self.pairs.setdefault(pair, _Count()))
        seats = [self.players[k] for k in keys]

        def both(team: int) -> tuple[_Count, _Count, _Count]:
            return teams[team], seats[team], seats[team + 2]

        for team in (0, 1):
            for c in both(team):
                c.games += 1
        for c in both(winner):
            c.bullseyes += 1
        for hand in history:
            self._deal(hand, teams, seats)
        self.games.append((number, winner, scores, keys))

    def _deal(self, hand: HandRecord, teams: list[_Count], seats: list[_Count]) -> None:
        dealer = hand.dealer
        if hand.decision == "give_one":
            teams[dealer % 2].gave_one += 1
            seats[dealer].gave_one += 1
        elif hand.decision == "run_pack":
            teams[dealer % 2].ran_the_pack += 1
            seats[dealer].ran_the_pack += 1
        for award in hand.awards:
            kind, team = award.kind, award.team
            if kind == "kick":
                teams[team].kick_points += award.points
                seats[dealer].kick_points += award.points
            elif kind in ("high", "low") and award.seat is not None:
                for c in (teams[team], seats[award.seat]):
                    setattr(c, kind, getattr(c, kind) + 1)
            elif kind == "jack" and award.seat is not None:
                teams[team].jacks_won_home += 1
                seats[award.seat].jacks_won_home += 1
            elif kind == "hang_jack" and award.card is not None and award.seat is not None:
                jack = code(award.card)
                # made by the player whose card took the lift that held the jack
                taker = next(
                    t.winner for t in hand.tricks if any(c == award.card for _, c in t.cards)
                )
                for c in (teams[team], seats[taker]):
                    c.made[jack] = c.made.get(jack, 0) + 1
                for c in (teams[1 - team], seats[award.seat]):
                    c.suffered[jack] = c.suffered.get(jack, 0) + 1
            elif kind == "game":
                for c in (teams[team], seats[team], seats[team + 2]):
                    c.game_won += 1
        for called in hand.calls:  # R22: the caller's side and the caller
            for c in (teams[called.seat % 2], seats[called.seat]):
                if called.upheld:
                    c.reneges_caught += 1
                else:
                    c.wrong_calls += 1
        for renege in hand.reneges:  # finished games only: every renege is public (R27)
            for c in (teams[renege.seat % 2], seats[renege.seat]):
                c.reneges += 1
                c.reneges_called += renege.called
        if hand.game_totals is not None:
            for team in (0, 1):
                count = hand.game_totals[team]
                for c in (teams[team], seats[team], seats[team + 2]):
                    if c.highest_game_count is None or count > c.highest_game_count:
                        c.highest_game_count = count

    def out(self, room: str) -> StatsOut:
        index = {key: i for i, key in enumerate(self.players)}
        players = [
            PlayerStats.model_validate(
                {
                    **count.figures(),
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
                    **count.figures(),
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


def count_room(tables: Tables, snap: RoomSnap) -> StatsOut:
    """Replay every finished game of the room and count."""
    tally = _Tally()
    with read(tables.engine) as conn:
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


_KEPT: weakref.WeakKeyDictionary[Tables, _Kept] = weakref.WeakKeyDictionary()
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


def room_stats(tables: Tables, code: str) -> StatsOut:
    """The room's stats (404 for an unknown room), counted once per finished game."""
    snap = tables.snapshot(code)
    with _KEPT_LOCK:
        kept = _KEPT.setdefault(tables, _Kept())
    key = finished_key(snap)
    found = kept.get(key)
    if found is None:
        found = count_room(tables, snap)
        kept.put(key, found)
    return found
