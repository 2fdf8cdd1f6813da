"""The kicks panel: trump, the kicks turned up, and whom a kick scored for."""

from __future__ import annotations

from app.rules.state import Phase, State
from app.services.view import RoomView
from app.web.cards import card_name
from app.web.panels.kicks import Kicks, kicks
from app.web.panels.score import score
from app.web.panels.seats import seats
from tests.web.views import lobby_view, playthrough, server_view


def _panel(state: State, viewer: int | None) -> tuple[RoomView, Kicks]:
    view = server_view(state, viewer, version=1)
    placed = seats(view)
    return view, kicks(view, placed, score(view, placed))


def test_trump_and_the_kicks_as_the_view_has_them() -> None:
    state = next(s for s in playthrough(3) if s.phase is Phase.PLAY)
    view, panel = _panel(state, 0)
    assert panel.trump == view.trump and panel.trump_name
    assert [k.code for k in panel.cards] == view.kicks
    assert [k.points for k in panel.cards] == view.kick_points
    assert [k.name for k in panel.cards] == [card_name(c) for c in view.kicks]


def test_a_kick_scores_for_the_dealers_team_in_the_viewers_words() -> None:
    state = next(s for s in playthrough(3) if s.phase is Phase.PLAY)
    dealer = state.dealer
    _, mine = _panel(state, dealer)
    _, theirs = _panel(state, (dealer + 1) % 4)
    _, watched = _panel(state, None)
    assert mine.ours is True and mine.team == "Us"
    assert theirs.ours is False and theirs.team == "Them"
    assert watched.ours is None and watched.team == f"Team {dealer % 2 + 1}"


def test_the_lobby_has_no_trump_no_kick_and_no_dealer_team() -> None:
    view = lobby_view(["Ann", "Bob", "Cy", "Dan"], 0)
    placed = seats(view)
    panel = kicks(view, placed, score(view, placed))
    assert panel.trump is None and panel.trump_name is None and panel.cards == ()
    assert panel.team is None and panel.ours is None
