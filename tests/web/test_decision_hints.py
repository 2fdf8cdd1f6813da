"""The hints under the two decisions (issue 14): the player who decides reads what stand and
beg, give one and run the pack do, in plain words; nobody else sees them."""

from __future__ import annotations

import re

from app.rules.state import Phase
from app.web.panels.decision import DECISION_HINTS
from app.web.render import render_table
from tests.web.dom import Element, parse
from tests.web.views import playthrough, server_view

VIEWERS = (0, 1, 2, 3, None)


def _hints(elements: list[Element]) -> list[str]:
    return [" ".join(e.all_text().split()) for e in elements if "decision-hint" in e.classes]


def test_each_decision_has_its_hint_for_the_player_who_decides_only() -> None:
    seen: set[str] = set()
    for seed in (2, 3, 9):
        for version, state in enumerate(playthrough(seed), 1):
            deciding_phase = state.phase in (Phase.BEG, Phase.GIVE_OR_RUN)
            if not deciding_phase and version % 7:
                continue  # a sample of the play: the renderer tests see every state
            for viewer in VIEWERS:
                elements = parse(render_table(server_view(state, viewer, version=version)))
                hints = _hints(elements)
                deciding = deciding_phase and viewer == state.turn
                if not deciding:
                    assert hints == []
                    continue
                assert hints == [DECISION_HINTS[state.phase.value]]
                form = next(e for e in elements if "beg-step" in e.classes)
                assert form.get("aria-describedby") == "decision-hint"
                seen.add(state.phase.value)
    assert seen == {"beg", "give_or_run"}


def test_the_hints_are_short_plain_and_name_both_choices() -> None:
    beg, give = DECISION_HINTS["beg"], DECISION_HINTS["give_or_run"]
    assert beg.startswith("Stand:") and "Beg:" in beg and "a point" in beg and "new trump" in beg
    assert give.startswith("Give one:") and "Run the pack:" in give and "three more" in give
    for hint in (beg, give):
        assert len(hint) <= 140 and not re.search(r"\bR\d+\b", hint)
