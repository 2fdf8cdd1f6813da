"""The Mitchell movement of a duplicate night (RULES.md R30, API.md § Fifth round, Duplicate):
no pair plays a board twice, no two pairs meet twice, every table has a set of its own each
round; with an even number of tables the East-West pairs skip a table at half time."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.night.movement import full_length, mitchell


@given(tables=st.integers(2, 16), per_round=st.integers(1, 6))
def test_no_pair_plays_a_board_twice_and_no_two_pairs_meet_twice(
    tables: int, per_round: int
) -> None:
    movement = mitchell(tables, per_round)
    assert len(movement.rounds) == full_length(tables)
    boards_of: dict[tuple[str, int], list[int]] = {}
    met: set[tuple[int, int]] = set()
    for seatings in movement.rounds:
        assert [s.table for s in seatings] == list(range(1, tables + 1))
        # Each round: every pair at one table, every set at one table.
        assert sorted(s.ew for s in seatings) == list(range(1, tables + 1))
        assert sorted(s.board_set for s in seatings) == list(range(1, tables + 1))
        for s in seatings:
            assert s.ns == s.table  # North-South stay
            assert (s.ns, s.ew) not in met
            met.add((s.ns, s.ew))
            for pair in (("ns", s.ns), ("ew", s.ew)):
                boards_of.setdefault(pair, []).extend(movement.boards(s.board_set))
    for boards in boards_of.values():
        assert len(boards) == len(set(boards))  # no board twice
        assert len(boards) == full_length(tables) * per_round
    assert movement.board_count == tables * per_round


def test_three_tables_play_every_set_and_meet_every_pair() -> None:
    movement = mitchell(3, 2)
    assert movement.skip_after is None
    assert [[(s.ns, s.ew, s.board_set) for s in r] for r in movement.rounds] == [
        [(1, 1, 1), (2, 2, 2), (3, 3, 3)],
        [(1, 3, 2), (2, 1, 3), (3, 2, 1)],  # East-West up one table, the sets down one
        [(1, 2, 3), (2, 3, 1), (3, 1, 2)],
    ]
    assert list(movement.boards(2)) == [3, 4]


def test_four_tables_skip_a_table_at_half_time() -> None:
    movement = mitchell(4, 1)
    assert movement.skip_after == 2 and len(movement.rounds) == 3
    ew_at_table_1 = [r[0].ew for r in movement.rounds]
    assert ew_at_table_1 == [1, 4, 2]  # round 3: up two (the skip), not 3


def test_a_shorter_night_and_impossible_ones() -> None:
    assert len(mitchell(5, 3, rounds=2).rounds) == 2
    for tables, per_round, rounds in ((1, 3, None), (3, 0, None), (4, 2, 4), (3, 2, 0)):
        with pytest.raises(ValueError):
            mitchell(tables, per_round, rounds)
