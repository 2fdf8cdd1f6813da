"""R5, R6: the documented shuffle (docs/fairness.md). The document's worked example and its
few lines of Python must agree with the engine, so a player's own check agrees with ours."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from app.rules import Rules, apply, new_game
from app.rules.cards import code, mask_codes
from app.rules.shuffle import first_dealer_for, seed_commitment, shuffled_deck
from app.rules.state import BEG, RUN_PACK

DOC = (Path(__file__).parents[2] / "docs" / "fairness.md").read_text()


def test_r5_r6_the_worked_example_of_docs_fairness_md() -> None:
    assert seed_commitment(12345) in DOC.replace("\n", "")
    assert "seat 3 deals first" in DOC and first_dealer_for(12345) == 3
    deck = " ".join(code(c) for c in shuffled_deck(12345, 1))
    assert deck in " ".join(DOC.split())
    state = new_game(Rules(), 12345)
    assert state.dealer == 3 and code(state.kicks[0]) == "7D"
    assert set(mask_codes(state.hands[0])) == {"3S", "JD", "AS", "2S", "AH", "6S"}
    assert set(mask_codes(state.hands[3])) == {"4D", "5D", "AC", "3D", "QD", "9C"}
    ran = apply(apply(state, BEG), RUN_PACK)
    assert set(mask_codes(ran.hands[0])) >= {"4S", "2H", "JH"}
    assert [code(c) for c in ran.kicks] == ["7D", "8H"] and ran.trump == 2


def test_r5_r6_the_documents_own_lines_of_python_deal_as_the_engine() -> None:
    block = re.search(r"```python\n(.*?)```", DOC, re.S)
    assert block is not None
    scope: dict[str, object] = {}
    source = block.group(1).replace("print(", "(lambda *a: None)(")
    exec(compile(source, "fairness.md", "exec"), scope)
    deck, draw, stream = scope["deck"], scope["draw"], scope["stream"]
    for seed in (0, 1, -7, 12345, 2**63 - 1, 2**128 - 1):
        assert draw(stream(seed, "dealer"), 4) == first_dealer_for(seed)  # type: ignore[operator]
        for n in (1, 2, 17):
            engine = [code(c) for c in shuffled_deck(seed, n)]
            assert deck(seed, n) == engine  # type: ignore[operator]


def test_r5_the_first_dealer_and_the_top_card_are_spread_evenly() -> None:
    dealers = Counter(first_dealer_for(seed) for seed in range(4000))
    assert set(dealers) == {0, 1, 2, 3} and min(dealers.values()) > 850  # 1000 expected each
    tops = Counter(shuffled_deck(seed, 1)[0] for seed in range(5200))
    assert len(tops) == 52 and min(tops.values()) > 50  # 100 expected each


def test_r6_every_deal_of_a_game_has_its_own_deck() -> None:
    decks = {shuffled_deck(99, n) for n in range(1, 40)}
    assert len(decks) == 39 and all(sorted(d) == list(range(52)) for d in decks)
    assert shuffled_deck(99, 1) != shuffled_deck(100, 1)
