"""A night played by computer players from the first round to the final through real
servers (bench.night, small): on SQLite, and on PostgreSQL with two app processes (the
director at one, the board at the other). The board sees every table over, and the standings
equal an independent count from the tables' game records. ``python -m bench.night`` is the
full 32 pairs."""

from __future__ import annotations

import pytest

from bench.night import run
from tests.databases import _postgres_or_skip


@pytest.mark.parametrize(("kind", "processes"), [("sqlite", 1), ("postgresql", 2)])
def test_a_night_of_eight_pairs_from_first_round_to_final(kind: str, processes: int) -> None:
    if kind == "postgresql":
        _postgres_or_skip()
    found = run(kind, processes, pairs=8, match=1, target=7)
    assert found["rounds"] == 6  # three Swiss rounds, then the quarter- and semi-finals, final
    assert found["tables"] == 4 * 3 + 4 + 2 + 1  # the board saw every table over
    assert found["standings_ok"]
    assert all(sample >= 0 for sample in found["samples"])
