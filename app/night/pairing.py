"""Who meets whom: round robin (the circle method), Swiss rounds, the knockout bracket, and
the team match's rotation. Pairs are numbered 1..N; a table is two pairs, the first at seats
0 and 2, the second at seats 1 and 3."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

Table = tuple[int, int]


def seat_of(side: int, slot: int) -> int:
    """The seat of a table's ``side`` (0: its first pair, 1: its second) player ``slot``:
    partners opposite, the first pair at seats 0 and 2, the second at 1 and 3."""
    return side + 2 * slot


def owner_of(seat: int) -> tuple[int, int]:
    """Whose seat it is, as (side, slot): ``seat_of`` turned round."""
    return seat % 2, seat // 2


@dataclass(frozen=True, slots=True)
class Draw:
    """One round's tables, in table order (table 1 first), and the pair sitting out."""

    tables: tuple[Table, ...]
    bye: int | None = None


def round_robin(pairs: Sequence[int]) -> list[Draw]:
    """Every pair meets every other once: N-1 rounds of N/2 tables for even N; for odd N, N
    rounds with one pair sitting out each (the circle method: the first pair stays put, the
    others turn one place a round)."""
    ring: list[int | None] = list(pairs)
    if len(ring) < 2:
        return []
    if len(ring) % 2:
        ring.append(None)  # the bye's place on the circle
    n = len(ring)
    draws = []
    for r in range(n - 1):
        tables: list[Table] = []
        bye = None
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is None or b is None:
                bye = b if a is None else a
                continue
            # Alternate who sits at seats 0+2, so no pair is always "first".
            tables.append((a, b) if (r + i) % 2 == 0 else (b, a))
        draws.append(Draw(tuple(tables), bye))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return draws


def met(history: Iterable[Draw]) -> set[frozenset[int]]:
    """The pairs that have already met (as a set of two-pair sets)."""
    return {frozenset(t) for draw in history for t in draw.tables}


def swiss(
    ranked: Sequence[int],
    history: Sequence[Draw],
    *,
    score: Callable[[int], int],
    apart: Iterable[frozenset[int]] = (),
) -> Draw | None:
    """The next Swiss round: pairs in standings order (``ranked``, best first) meet the
    nearest pair below them with the same record (``score``: wins) that they have not met,
    else the nearest they have not met; no pair meets another twice. For odd N the lowest
    pair that has not had a bye sits out. None: no such round exists (every pairing left
    would repeat a meeting). ``apart``: pairs that may not meet either."""
    seen = met(history) | set(apart)
    byes = {d.bye for d in history if d.bye is not None}
    order = list(ranked)
    bye = None
    if len(order) % 2:
        bye = next((p for p in reversed(order) if p not in byes), order[-1])
        order.remove(bye)
    found = _pair_up(order, seen, score)
    if found is None:
        return None
    return Draw(tuple(found), bye)


def _pair_up(
    order: list[int], seen: set[frozenset[int]], score: Callable[[int], int]
) -> list[Table] | None:
    """Backtracking over the standings order: the first pair left takes the closest
    opponent it may meet, equal records first."""
    if not order:
        return []
    first, rest = order[0], order[1:]
    mine = score(first)
    candidates = sorted(
        (p for p in rest if frozenset((first, p)) not in seen),
        key=lambda p: (abs(score(p) - mine), rest.index(p)),
    )
    for other in candidates:
        left = [p for p in rest if p != other]
        tail = _pair_up(left, seen, score)
        if tail is not None:
            return [(first, other), *tail]
    return None


BRACKETS = {
    4: ((1, 4), (2, 3)),
    8: ((1, 8), (4, 5), (3, 6), (2, 7)),
}
"""The knockout's first round by seed: 1-8, 4-5, 3-6, 2-7 (and 1-4, 2-3 for four), so the
top two seeds can meet only in the final."""


def bracket(seeded: Sequence[int]) -> Draw:
    """The knockout's first round: ``seeded`` lists the qualifiers, seed 1 first."""
    size = len(seeded)
    if size not in BRACKETS:
        raise ValueError(f"a knockout takes 4 or 8 pairs, not {size}")
    return Draw(tuple((seeded[a - 1], seeded[b - 1]) for a, b in BRACKETS[size]))


def next_knockout(winners: Sequence[int]) -> Draw | None:
    """The next knockout round from the last one's winners in table order (winners of tables
    1 and 2 meet, 3 and 4 meet...); None once one pair is left."""
    if len(winners) < 2:
        return None
    return Draw(tuple((winners[i], winners[i + 1]) for i in range(0, len(winners) - 1, 2)))


def team_round(side_a: Sequence[int], side_b: Sequence[int], r: int) -> Draw:
    """Round ``r`` (0-based) of a team match: at table i, the i-th pair of the first club
    against the (i + r)-th of the second, so over T rounds every pair meets each pair of the
    other club once."""
    if len(side_a) != len(side_b) or not side_a:
        raise ValueError("each club needs the same number of pairs, at least one")
    t = len(side_a)
    return Draw(tuple((side_a[i], side_b[(i + r) % t]) for i in range(t)))
