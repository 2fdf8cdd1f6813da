"""What a night's next round is, from its format, its pairs and the rounds played so far."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from app.night import pairing
from app.night.pairing import Draw
from app.night.standings import Bye, MatchResult, Order, standings

Format = Literal["round_robin", "swiss_knockout", "teams"]


@dataclass(frozen=True, slots=True)
class Played:
    """A round drawn: its tables and bye, and each table's match as it stands."""

    draw: Draw
    results: tuple[MatchResult, ...]

    @property
    def over(self) -> bool:
        return all(r.winner is not None for r in self.results)


@dataclass(frozen=True, slots=True)
class Shape:
    """A night's format and the options that decide its rounds."""

    format: Format
    swiss_rounds: int | None = None  # None: the default for the field (see swiss_rounds)
    knockout: Literal[4, 8] = 4
    team_target: int | None = None
    order: Order = "wins_first"


def swiss_rounds(shape: Shape, n_pairs: int) -> int:
    """Swiss rounds before the knockout: as asked, else ⌈log2 N⌉; never more than N/2
    (beyond that a round without a repeat meeting may not exist)."""
    wanted = shape.swiss_rounds or max(1, math.ceil(math.log2(max(n_pairs, 2))))
    return max(1, min(wanted, n_pairs // 2))


def results_of(rounds: Sequence[Played]) -> list[MatchResult]:
    return [r for played in rounds for r in played.results]


def byes_of(rounds: Sequence[Played]) -> list[Bye]:
    return [
        Bye(n, played.draw.bye) for n, played in enumerate(rounds, 1) if played.draw.bye is not None
    ]


def clubs(teams: Sequence[tuple[int, str | None]]) -> tuple[list[int], list[int]]:
    """A team match's two clubs (in the order their first pair registered), pairs in order."""
    names: list[str] = []
    for _, team in teams:
        if team is not None and team not in names:
            names.append(team)
    sides: tuple[list[int], list[int]] = ([], [])
    for pair, team in teams:
        if team in names[:2]:
            sides[names.index(team)].append(pair)
    return sides


def team_totals(
    teams: Sequence[tuple[int, str | None]], rounds: Sequence[Played]
) -> tuple[int, int]:
    """Each club's bullseyes so far, finished matches and those in play alike."""
    side_a, _ = clubs(teams)
    totals = [0, 0]
    for r in results_of(rounds):
        for side in (0, 1):
            totals[0 if r.pairs[side] in side_a else 1] += r.bullseyes[side]
    return totals[0], totals[1]


def knockout_size(shape: Shape, n_pairs: int) -> int:
    return shape.knockout if n_pairs >= shape.knockout else 0


def total_rounds(shape: Shape, teams: Sequence[tuple[int, str | None]]) -> int:
    n = len(teams)
    if shape.format == "round_robin":
        return n - 1 if n % 2 == 0 else n
    if shape.format == "teams":
        return len(clubs(teams)[0])
    k = knockout_size(shape, n)
    return swiss_rounds(shape, n) + (int(math.log2(k)) if k else 0)


def next_draw(
    shape: Shape,
    teams: Sequence[tuple[int, str | None]],
    rounds: Sequence[Played],
    apart: frozenset[frozenset[int]] = frozenset(),
) -> Draw | None:
    """The next round's draw; None when the night is over. ``teams``: each pair and its club
    (None outside a team match), in registration order. The caller checks that the last
    round is over. ``apart``: pairs kept at different tables when another draw is possible
    (a block between their players): a Swiss round pairs them as if they had met; the other
    formats' schedules have every pair meet (round robin, a team's match), or follow the
    bracket, and draw no other way."""
    pairs = [p for p, _ in teams]
    done = len(rounds)
    if shape.format == "round_robin":
        schedule = pairing.round_robin(pairs)
        return schedule[done] if done < len(schedule) else None
    if shape.format == "teams":
        side_a, side_b = clubs(teams)
        if shape.team_target is not None and max(team_totals(teams, rounds)) >= shape.team_target:
            return None
        return pairing.team_round(side_a, side_b, done) if done < len(side_a) else None
    swiss = swiss_rounds(shape, len(pairs))
    table = standings(pairs, results_of(rounds), byes_of(rounds), shape.order)
    if done < swiss:
        wins = {s.pair: s.wins for s in table}
        ranked, history = [s.pair for s in table], [p.draw for p in rounds]
        kept = (
            pairing.swiss(ranked, history, score=wins.__getitem__, apart=apart) if apart else None
        )
        return kept or pairing.swiss(ranked, history, score=wins.__getitem__)
    k = knockout_size(shape, len(pairs))
    if not k:
        return None
    if done == swiss:
        return pairing.bracket([s.pair for s in table[:k]])
    winners = [r.winner for r in rounds[-1].results if r.winner is not None]
    return pairing.next_knockout(winners)


def night_winner(
    shape: Shape, teams: Sequence[tuple[int, str | None]], rounds: Sequence[Played]
) -> int | str | None:
    """Who won the night once it is over: the club (a team match), the final's winner (a
    knockout), else the top of the standings. None while it runs."""
    if not rounds or not rounds[-1].over or next_draw(shape, teams, rounds) is not None:
        return None
    if shape.format == "teams":
        side_a = team_totals(teams, rounds)
        names = [t for _, t in teams if t is not None]
        first = names[0] if names else None
        second = next((t for t in names if t != first), None)
        if side_a[0] == side_a[1]:
            return None
        return first if side_a[0] > side_a[1] else second
    if shape.format == "swiss_knockout" and knockout_size(shape, len(teams)):
        return rounds[-1].results[0].winner
    pairs = [p for p, _ in teams]
    return standings(pairs, results_of(rounds), byes_of(rounds), shape.order)[0].pair
