"""The standings, counted from the tables' results.

A match counts once it is over (its table's pair reached the match's bullseyes, or the
director forfeited or corrected it). A pair's line: matches played, won and lost; bullseyes
(games won) for and against; hang jacks made and suffered; chalk difference (the game points
it scored less those scored against it, over every game of its matches). A bye counts as a
match won with the round's average bullseyes (over the pairs that played that round's
finished matches), rounded down, and nothing against.

Order (``wins_first``): wins, bullseyes for, bullseyes against (fewer first), hang jacks for,
hang jacks against (fewer first), head-to-head (wins over the pairs still level), chalk
difference; ``bullseyes_first`` puts bullseyes for ahead of wins. Pairs level on everything
share a rank.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

Order = Literal["wins_first", "bullseyes_first"]


@dataclass(frozen=True, slots=True)
class MatchResult:
    """One table's match: its two pairs (seats 0+2 first), per pair its bullseyes, hang jacks
    made and chalk (game points scored over the match's games), and the winning pair."""

    round: int
    table: int
    pairs: tuple[int, int]
    bullseyes: tuple[int, int]
    hang_jacks: tuple[int, int] = (0, 0)
    chalk: tuple[int, int] = (0, 0)
    winner: int | None = None  # None: not over yet


@dataclass(frozen=True, slots=True)
class Bye:
    round: int
    pair: int


@dataclass(frozen=True, slots=True)
class Standing:
    pair: int
    rank: int = 0
    played: int = 0
    wins: int = 0
    losses: int = 0
    bullseyes_for: int = 0
    bullseyes_against: int = 0
    hang_jacks_for: int = 0
    hang_jacks_against: int = 0
    head_to_head: int = 0
    chalk_difference: int = 0
    beaten: frozenset[int] = field(default=frozenset(), compare=False, repr=False)


def bye_bullseyes(results: Iterable[MatchResult], round_: int) -> int:
    """The round's average bullseyes per pair over its finished matches, rounded down."""
    scored = [b for r in results if r.round == round_ and r.winner is not None for b in r.bullseyes]
    return sum(scored) // len(scored) if scored else 0


def standings(
    pairs: Sequence[int],
    results: Sequence[MatchResult],
    byes: Sequence[Bye] = (),
    order: Order = "wins_first",
) -> list[Standing]:
    lines = {p: Standing(p) for p in pairs}
    for r in results:
        if r.winner is None:
            continue
        for side in (0, 1):
            me, them = r.pairs[side], r.pairs[1 - side]
            if me not in lines:
                continue
            won = r.winner == me
            old = lines[me]
            lines[me] = replace(
                old,
                played=old.played + 1,
                wins=old.wins + won,
                losses=old.losses + (not won),
                bullseyes_for=old.bullseyes_for + r.bullseyes[side],
                bullseyes_against=old.bullseyes_against + r.bullseyes[1 - side],
                hang_jacks_for=old.hang_jacks_for + r.hang_jacks[side],
                hang_jacks_against=old.hang_jacks_against + r.hang_jacks[1 - side],
                chalk_difference=old.chalk_difference + r.chalk[side] - r.chalk[1 - side],
                beaten=old.beaten | {them} if won else old.beaten,
            )
    for bye in byes:
        if bye.pair in lines:
            old = lines[bye.pair]
            lines[bye.pair] = replace(
                old,
                played=old.played + 1,
                wins=old.wins + 1,
                bullseyes_for=old.bullseyes_for + bye_bullseyes(results, bye.round),
            )
    return ranked(list(lines.values()), order)


def _before_head_to_head(s: Standing, order: Order) -> tuple[int, ...]:
    """The sort key before head-to-head, biggest first (fewer-is-better columns negated)."""
    tail = (-s.bullseyes_against, s.hang_jacks_for, -s.hang_jacks_against)
    if order == "bullseyes_first":
        return (s.bullseyes_for, s.wins, *tail)
    return (s.wins, s.bullseyes_for, *tail)


def ranked(lines: list[Standing], order: Order) -> list[Standing]:
    """``lines`` ranked as a night's (a season's players are ranked so too)."""
    groups: dict[tuple[int, ...], list[Standing]] = {}
    for s in lines:
        groups.setdefault(_before_head_to_head(s, order), []).append(s)
    counted = []
    for group in groups.values():
        level = {s.pair for s in group}
        for s in group:
            h2h = len(s.beaten & level) if len(group) > 1 else 0
            counted.append(replace(s, head_to_head=h2h))

    def key(s: Standing) -> tuple[int, ...]:
        return (*_before_head_to_head(s, order), s.head_to_head, s.chalk_difference)

    counted.sort(key=lambda s: (tuple(-k for k in key(s)), s.pair))
    ranked: list[Standing] = []
    for i, s in enumerate(counted):
        level_with_last = ranked and key(ranked[-1]) == key(s)
        ranked.append(replace(s, rank=ranked[-1].rank if level_with_last else i + 1))
    return ranked
