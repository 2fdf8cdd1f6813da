"""A duplicate night's movement (RULES.md R30, API.md § Fifth round, Duplicate): the Mitchell.

T tables, numbered 1..T. North-South pair n sits at table n all night; East-West pair n
starts at table n; board set n (boards ``per_round`` · (n - 1) + 1 … ``per_round`` · n) starts
at table n. After each round the East-West pairs move up one table (T to 1) and the board sets
down one (1 to T), so each East-West pair meets a new North-South pair on a new set.

With T odd that goes on for T rounds: every pair meets every pair of the other direction once
and plays every set once. With T even, after T/2 rounds an East-West pair would come back to a
set it played; so at half time the East-West pairs **skip** a table (move up two), and the
movement lasts T - 1 rounds: every pair plays T - 1 of the T sets, none twice, and meets no
pair twice (the skip Mitchell, as bridge clubs run it)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Seating:
    """Who plays what at one table in one round (pairs and sets numbered from 1)."""

    table: int
    ns: int
    ew: int
    board_set: int


@dataclass(frozen=True, slots=True)
class Movement:
    tables: int
    per_round: int
    rounds: tuple[tuple[Seating, ...], ...]  # each round's tables, table 1 first
    skip_after: int | None  # the round after which East-West skip a table (T even)

    def boards(self, board_set: int) -> range:
        """The boards of a set, in the order a table plays them."""
        return range(self.per_round * (board_set - 1) + 1, self.per_round * board_set + 1)

    @property
    def board_count(self) -> int:
        return self.tables * self.per_round


def full_length(tables: int) -> int:
    """The rounds of a whole movement: T for odd T, T - 1 for even (the skip)."""
    return tables if tables % 2 else tables - 1


def mitchell(tables: int, per_round: int, rounds: int | None = None) -> Movement:
    """The movement of ``tables`` tables playing ``per_round`` boards a round, for
    ``rounds`` rounds (None: the whole movement; never more)."""
    if tables < 2:
        raise ValueError("a duplicate movement needs two tables or more")
    if per_round < 1:
        raise ValueError("a round plays one board or more")
    length = full_length(tables)
    played = length if rounds is None else rounds
    if not 1 <= played <= length:
        raise ValueError(f"{tables} tables play 1 to {length} rounds")
    skip_after = tables // 2 if tables % 2 == 0 else None
    out = []
    for r in range(played):
        # East-West moved up r tables (one more after the skip), the sets down r tables.
        up = r + (1 if skip_after is not None and r >= skip_after else 0)
        out.append(
            tuple(
                Seating(
                    table=t,
                    ns=t,
                    ew=(t - 1 - up) % tables + 1,
                    board_set=(t - 1 + r) % tables + 1,
                )
                for t in range(1, tables + 1)
            )
        )
    return Movement(tables, per_round, tuple(out), skip_after)
