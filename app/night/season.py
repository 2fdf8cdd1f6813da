"""A season's standings and awards, counted from its nights as stored (pure: no I/O).

One source of truth: each night's tables are counted as the night counts them
(app/night/state.py ``played_of``: forfeits, corrections, byes), then the matches of every
night are put together under the season's pairs and counted by the night's own standings
(app/night/standings.py) and awards (app/night/awards.py). A season's pair is the same two
players (``Who``: a profile's id, or a guest's folded name), whatever their number each night;
a substitute's games count for the pair they played for, as the night counts them. Nothing is
kept: a director's correction to a night changes the season on the next read.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from app.night import plan
from app.night.awards import GameSheet, NightAward, awards
from app.night.standings import Bye, MatchResult, Order, Standing, ranked, standings
from app.night.state import NightState, played_of

# A night has at most 16 Swiss rounds and a knockout: a night's round n is the season's
# round night * ROUNDS + n, so that byes are averaged over their own night's round only.
ROUNDS = 1000

Who = str  # "p:<profile id>" or "g:<folded name>"


def guest(name: str) -> Who:
    return "g:" + " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def profile(player_id: int) -> Who:
    return f"p:{player_id}"


@dataclass(frozen=True, slots=True)
class SeasonNight:
    """A night of the season and who played in each of its pairs (pair number -> the two)."""

    state: NightState
    partners: Mapping[int, tuple[Who, Who]]


@dataclass(frozen=True, slots=True)
class SeasonLine:
    """One line of the season's standings: the pair's two players (or one player), the nights
    they played, and the counts as a night's standings have them (``line.pair``: the index)."""

    who: tuple[Who, ...]
    nights: int
    line: Standing


@dataclass(frozen=True, slots=True)
class SeasonAward:
    who: tuple[Who, Who]
    award: NightAward
    night: int  # the index of the night in the season, where it tells (first hang jack, Game)


@dataclass(frozen=True, slots=True)
class SeasonTable:
    pairs: list[SeasonLine]
    players: list[SeasonLine]
    awards: list[SeasonAward]


class _Pairs:
    """The season's pairs, numbered 1.. in the order first met."""

    def __init__(self) -> None:
        self.number: dict[tuple[Who, Who], int] = {}

    def of(self, who: tuple[Who, Who]) -> int:
        key = (min(who), max(who))
        return self.number.setdefault(key, len(self.number) + 1)

    def who(self) -> dict[int, tuple[Who, Who]]:
        return {n: w for w, n in self.number.items()}


def _numbered(nights: Sequence[SeasonNight]) -> tuple[_Pairs, list[dict[int, int]]]:
    pairs = _Pairs()
    maps = [
        {p.number: pairs.of(night.partners[p.number]) for p in night.state.pairs}
        for night in nights
    ]
    return pairs, maps


def season_table(nights: Sequence[SeasonNight], order: Order = "wins_first") -> SeasonTable:
    """The season's standings per pair and per player and its awards, ``nights`` in the
    order they were played."""
    pairs, maps = _numbered(nights)
    results: list[MatchResult] = []
    byes: list[Bye] = []
    sheets: list[GameSheet] = []
    played: dict[int, set[int]] = {}
    for i, (night, to) in enumerate(zip(nights, maps, strict=True)):
        rounds = played_of(night.state)
        for r in plan.results_of(rounds):
            if r.winner is None:
                continue
            results.append(
                replace(
                    r,
                    round=i * ROUNDS + r.round,
                    pairs=(to[r.pairs[0]], to[r.pairs[1]]),
                    winner=to[r.winner],
                )
            )
            for p in r.pairs:
                played.setdefault(to[p], set()).add(i)
        for b in plan.byes_of(rounds):
            byes.append(Bye(i * ROUNDS + b.round, to[b.pair]))
            played.setdefault(to[b.pair], set()).add(i)
        for t in night.state.tables:
            for g in t.games:
                sheets.append(
                    GameSheet(
                        i * ROUNDS + t.round,
                        t.number,
                        int(g["number"]),
                        (to[t.pair_a], to[t.pair_b]),
                        {"over": True, **g},
                    )
                )
    who = pairs.who()
    pair_lines = standings(sorted(who), results, byes, order)
    return SeasonTable(
        [SeasonLine(who[s.pair], len(played.get(s.pair, ())), s) for s in pair_lines],
        _players(who, pair_lines, played, order),
        [
            SeasonAward(who[a.pair], a, a.round // ROUNDS if a.round is not None else -1)
            for a in awards(sheets)
        ],
    )


def _players(
    who: Mapping[int, tuple[Who, Who]],
    pair_lines: Sequence[Standing],
    played: Mapping[int, set[int]],
    order: Order,
) -> list[SeasonLine]:
    """Each player's line: the sum of their pairs' lines; head-to-head over the players of
    the pairs they beat."""
    people = sorted({w for two in who.values() for w in two})
    index = {w: n for n, w in enumerate(people, 1)}
    lines: dict[int, Standing] = {n: Standing(n) for n in index.values()}
    nights: dict[int, set[int]] = {n: set() for n in index.values()}
    for s in pair_lines:
        beaten = frozenset(index[w] for p in s.beaten for w in who[p])
        for w in who[s.pair]:
            n = index[w]
            old = lines[n]
            lines[n] = replace(
                old,
                played=old.played + s.played,
                wins=old.wins + s.wins,
                losses=old.losses + s.losses,
                bullseyes_for=old.bullseyes_for + s.bullseyes_for,
                bullseyes_against=old.bullseyes_against + s.bullseyes_against,
                hang_jacks_for=old.hang_jacks_for + s.hang_jacks_for,
                hang_jacks_against=old.hang_jacks_against + s.hang_jacks_against,
                chalk_difference=old.chalk_difference + s.chalk_difference,
                beaten=old.beaten | beaten,
            )
            nights[n] |= played.get(s.pair, set())
    return [
        SeasonLine((people[s.pair - 1],), len(nights[s.pair]), s)
        for s in ranked(list(lines.values()), order)
    ]
