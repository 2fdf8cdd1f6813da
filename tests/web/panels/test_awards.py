"""The awards panel: the last hand's awards with their cards, details and teams, keyed so the
page shows and says them once."""

from __future__ import annotations

from app.services.view import RoomView
from app.views.shapes import AwardView
from app.web.panels.awards import Awards, awards
from app.web.panels.score import score
from app.web.panels.seats import seats
from tests.web.views import beg_with_last_lift


def _awards(view: RoomView) -> Awards:
    placed = seats(view)
    return awards(view, placed, score(view, placed))


def _with(view: RoomView, *given: AwardView) -> RoomView:
    return view.model_copy(update={"last_hand": list(given), "last_hand_totals": [23, 17]})


def test_the_last_hands_awards_as_the_view_has_them() -> None:
    view = beg_with_last_lift()
    assert view.last_hand
    panel = _awards(view)
    assert [(a.kind, a.team, a.points, a.card) for a in panel.items] == [
        (a.kind, a.team, a.points, a.card) for a in view.last_hand
    ]
    assert panel.key is not None and len(panel.key) == 12
    you = view.you
    assert you is not None
    assert all(a.title and a.ours == (a.team == you % 2) for a in panel.items)


def test_each_award_says_where_it_came_from() -> None:
    view = _with(
        beg_with_last_lift().model_copy(update={"you": 0}),
        AwardView(kind="high", team=0, points=1, card="AS", seat=2),
        AwardView(kind="hang_jack", team=1, points=3, card="JS", seat=1),
        AwardView(kind="kick", team=1, points=1, card="6H"),
        AwardView(kind="game", team=0, points=1),
    )
    high, hang, kick, game = _awards(view).items
    assert high.detail == "dealt to Cy" and high.card_text == "A♠" and high.team_name == "Us"
    assert hang.detail == "Bob's jack hanged"
    assert hang.ours is False and hang.team_name == "Them" and hang.title == "Hang jack!"
    assert kick.detail == "turned up by the dealer"
    assert game.detail == "counted 23\N{EN DASH}17" and game.card is None


def test_a_spectator_reads_the_teams_by_name() -> None:
    view = _with(
        beg_with_last_lift().model_copy(update={"you": None}),
        AwardView(kind="low", team=1, points=1, card="2D", seat=1),
    )
    (low,) = _awards(view).items
    assert low.ours is None and "Bob" in low.team_name and low.detail == "dealt to Bob"


def test_no_awards_no_key_and_the_key_changes_with_the_hand() -> None:
    view = beg_with_last_lift()
    assert _awards(view.model_copy(update={"last_hand": None})) == Awards(items=(), key=None)
    later = view.model_copy(update={"hand_number": view.hand_number + 1})
    assert _awards(later).key != _awards(view).key
