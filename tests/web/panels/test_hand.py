"""The hand panel: the viewer's cards in the order held, which may be played, why not, and
which takes the tab stop."""

from __future__ import annotations

from app.rules.state import Phase
from app.web.panels.hand import hand
from tests.web.test_render_renege import reneged
from tests.web.views import playthrough, server_view


def test_the_cards_are_the_views_and_the_legal_ones_are_those_the_view_offers() -> None:
    checked = 0
    for version, state in enumerate(playthrough(3)):
        if state.phase is not Phase.PLAY or state.turn is None:
            continue
        view = server_view(state, state.turn, version=version)
        panel = hand(view)
        assert [c.code for c in panel.cards] == view.hand
        playable = {a.card for a in view.legal if a.type == "play"}
        assert {c.code for c in panel.cards if c.legal} == playable
        refused = {a.card for a in view.refused if a.type == "play"}
        for c in panel.cards:
            assert (c.reason is not None) == (c.code in refused and not c.legal)
        assert panel.focus in playable
        checked += 1
    assert checked


def test_out_of_turn_nothing_is_legal_and_the_first_card_takes_the_tab_stop() -> None:
    state = next(s for s in playthrough(3) if s.phase is Phase.PLAY and s.turn is not None)
    other = (state.turn + 1) % 4  # type: ignore[operator]
    panel = hand(server_view(state, other, version=1))
    assert panel.cards and not any(c.legal or c.reason for c in panel.cards)
    assert panel.focus == panel.cards[0].code


def test_a_spectator_holds_nothing() -> None:
    state = next(s for s in playthrough(3) if s.phase is Phase.PLAY)
    panel = hand(server_view(state, None, version=1))
    assert panel.cards == () and panel.focus is None


def test_a_card_that_would_renege_is_marked_for_its_holder_and_asks_first() -> None:
    r = reneged()
    view = server_view(r.before, r.seat, version=1)
    panel = hand(view)
    marked = [c for c in panel.cards if c.renege]
    assert sorted(c.code for c in marked) == sorted(view.renege_cards or ())
    assert all(c.legal and c.renege_question.startswith("Renege with") for c in marked)
    # A card that keeps to the rules takes the tab stop when there is one.
    keeps = [c.code for c in panel.cards if c.legal and not c.renege]
    assert panel.focus == (keeps[0] if keeps else marked[0].code)
