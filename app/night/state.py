"""A club night as stored (its row, pairs, players, rounds and tables), and what follows
from it alone: each table's match as counted, the standings, the awards, whose seat is
whose. Plain data: the store reads it (app/store/night_repo.py), the night's decisions
(app/night/decide.py) and views read it."""

from __future__ import annotations

import hashlib
import hmac
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.night import plan
from app.night.awards import GameSheet, NightAward, awards
from app.night.options import NightOptions
from app.night.pairing import Draw, owner_of
from app.night.plan import Played, Shape
from app.night.standings import MatchResult, Standing, standings

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class NightRow:
    id: int
    code: str
    name: str
    format: str
    preset: str | None
    rules: dict[str, Any]
    options: dict[str, Any]
    director_hash: str
    registration_open: bool
    version: int


@dataclass(frozen=True, slots=True)
class PairRow:
    number: int
    names: list[str]
    team: str | None


@dataclass(frozen=True, slots=True)
class PlayerRow:
    night_id: int
    pair: int
    slot: int
    name: str
    player_id: int | None = None  # registered by their handle: seated by their profile


@dataclass(frozen=True, slots=True)
class RoundRow:
    number: int
    bye: int | None
    started_at: datetime


@dataclass(frozen=True, slots=True)
class NightTableRow:
    id: int
    night_id: int
    round: int
    number: int
    room_code: str
    pair_a: int
    pair_b: int
    games: list[dict[str, Any]]
    winner: int | None
    forfeit: int | None
    corrected: list[int] | None


@dataclass(frozen=True, slots=True)
class NightState:
    """A night as stored: the row, its pairs, rounds and tables."""

    row: NightRow
    pairs: tuple[PairRow, ...]
    rounds: tuple[RoundRow, ...]
    tables: tuple[NightTableRow, ...]

    @property
    def code(self) -> str:
        return self.row.code

    @property
    def version(self) -> int:
        return self.row.version

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

    def tables_of(self, round_: int) -> list[NightTableRow]:
        return [t for t in self.tables if t.round == round_]

    @property
    def current(self) -> RoundRow | None:
        return self.rounds[-1] if self.rounds else None


def seat_token(player_token: str, room: str) -> str:
    """A player's seat token at one of their night's rooms, derived from their own link: the
    link seats them again from any device, and the store keeps only hashes of both."""
    return hmac.new(player_token.encode(), room.encode(), hashlib.sha256).hexdigest()


def link_token(director_token: str, pair: int, slot: int) -> str:
    """The link token of a player of a pair the director registered, derived from the
    director's own token: the director's page shows every such link again at any time, and
    the store still keeps only hashes (a pair that registered itself holds random ones)."""
    message = f"player:{pair}:{slot}".encode()
    return hmac.new(director_token.encode(), message, hashlib.sha256).hexdigest()


def seat_player(state: NightState, table: NightTableRow, seat: int) -> str:
    """The name of the player whose seat ``seat`` of ``table`` is."""
    side, slot = owner_of(seat)
    pair = (table.pair_a, table.pair_b)[side]
    names = next(p.names for p in state.pairs if p.number == pair)
    return str(names[slot])


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


def table_counts(t: NightTableRow) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
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


def match_result(t: NightTableRow) -> MatchResult:
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


def night_awards(state: NightState) -> list[NightAward]:
    sheets = [
        GameSheet(t.round, t.number, int(g["number"]), (t.pair_a, t.pair_b), {"over": True, **g})
        for t in state.tables
        for g in t.games
    ]
    return awards(sheets)


def match_winner(t: NightTableRow, options: NightOptions, format_: str) -> int | None:
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
