"""A night's draw keeps two pairs kept apart by a block at different tables whenever another
draw is possible (API.md § Fifth round, "Blocks"); when none is, the draw is the usual one."""

from __future__ import annotations

from app.night import pairing


def _score(_: int) -> int:
    return 0


def test_a_swiss_round_keeps_pairs_apart_when_another_draw_is_possible() -> None:
    usual = pairing.swiss([1, 2, 3, 4], [], score=_score)
    assert usual is not None and (1, 2) in usual.tables
    kept = pairing.swiss([1, 2, 3, 4], [], score=_score, apart=[frozenset((1, 2))])
    assert kept is not None
    assert all({1, 2} != set(t) for t in kept.tables)


def test_a_swiss_round_with_no_other_draw_finds_none_with_the_constraint() -> None:
    """Two pairs only: the one table is the only draw (the plan then draws without it)."""
    assert pairing.swiss([1, 2], [], score=_score, apart=[frozenset((1, 2))]) is None
    assert pairing.swiss([1, 2], [], score=_score) is not None
