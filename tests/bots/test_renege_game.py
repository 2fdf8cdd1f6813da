"""The whole renege-mode game of bench.renege_game (three computer players and a scripted
person, through the server): it ends, its renege is caught, its wrong call costs, one
reckoning is scored by the clock, and the verifier agrees with every judgement."""

from __future__ import annotations

from bench.renege_game import play


def test_a_whole_renege_game_with_a_person_verifies() -> None:
    lines = play(seed=2612, renege="trinidad", false_call="penalty", level="easy", reckon_s=5)
    text = "\n".join(lines)
    assert "Ann reneges with" in text
    assert "calls renege on lift 1: upheld: Ann reneged" in text  # R26: a proven renege
    assert "Ann calls renege on lift 1: no renege, one from Ann & Cal" in text  # R25
    assert "lets the reckoning's clock run" in text  # R23: scored by the clock
    assert "game over" in text
    assert "every deal and kick matches the seed" in text
    assert "calls of renege judged as the plays say" in text
