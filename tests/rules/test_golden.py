"""Every golden playthrough in tests/rules/golden/ replays exactly as its notebook says."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.rules.golden import read, run

NOTEBOOKS = sorted((Path(__file__).parent / "golden").glob("*.txt"))


def test_there_are_golden_playthroughs() -> None:
    assert len(NOTEBOOKS) >= 10


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_golden_playthrough(path: Path) -> None:
    run(read(path))
