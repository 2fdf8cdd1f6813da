"""The decision panel: stand or beg, give one or run the pack, for the player who decides."""

from __future__ import annotations

from app.rules.state import Phase
from app.web.panels.decision import DECISION_HINTS, decision
from app.web.panels.seats import seats
from tests.web.views import playthrough, server_view


def test_the_player_who_decides_gets_the_buttons_and_the_hint_nobody_else() -> None:
    seen = set()
    for version, state in enumerate(playthrough(3)):
        if state.phase not in (Phase.BEG, Phase.GIVE_OR_RUN):
            continue
        for viewer in (0, 1, 2, 3, None):
            view = server_view(state, viewer, version=version)
            panel = decision(view, seats(view))
            if viewer is not None and viewer == state.turn:
                offered = {a.type for a in view.legal}
                assert {b.action for b in panel.buttons if b.enabled} == offered
                assert all(b.reason for b in panel.buttons if not b.enabled)
                assert panel.hint == DECISION_HINTS[view.phase]
                seen.add(view.phase)
            else:
                assert panel.buttons == () and panel.hint is None
    assert seen == {"beg", "give_or_run"}


def test_the_beg_buttons_in_order_stand_first() -> None:
    state = next(s for s in playthrough(3) if s.phase is Phase.BEG)
    view = server_view(state, state.turn, version=1)
    panel = decision(view, seats(view))
    assert [(b.action, b.label) for b in panel.buttons] == [("stand", "Stand"), ("beg", "Beg")]


def test_no_decision_while_the_hand_is_played() -> None:
    state = next(s for s in playthrough(3) if s.phase is Phase.PLAY)
    view = server_view(state, state.turn, version=1)
    assert decision(view, seats(view)).buttons == ()
