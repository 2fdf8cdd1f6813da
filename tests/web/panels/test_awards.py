"""The awards panel: the last hand's awards with their cards, details and teams, keyed so the
page shows and says them once."""

from __future__ import annotations

from app import i18n
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


YOUR_AWARDS = {  # the viewer's own seat said to them: never "You's jack hanged"
    "en": ("your jack hanged", "dealt to you", "you reneged", "called by you"),
    "fr": ("votre valet pendu", "reçu par vous", "vous avez fait un renege", "réclamé par vous"),
    "de": (
        "dein Bube gehängt",
        "an dich ausgeteilt",
        "du hast einen Renege gespielt",
        "gerufen von dir",
    ),
    "ms": (
        "pekak anda digantung",
        "diterima oleh anda",
        "anda membuat renege",
        "dipanggil oleh anda",
    ),
    "lb": ("däi Bauer gehaangen", "un dech gedeelt", "du hues e Renege gespillt", "geruff vun dir"),
}


def test_the_viewers_own_seat_is_said_to_them_in_every_language() -> None:
    view = _with(
        beg_with_last_lift().model_copy(update={"you": 1}),
        AwardView(kind="hang_jack", team=0, points=3, card="JS", seat=1),
        AwardView(kind="low", team=1, points=1, card="2D", seat=1),
        AwardView(kind="renege", team=0, points=1, seat=1),
        AwardView(kind="false_call", team=0, points=1, seat=1),
    )
    for lang, said in YOUR_AWARDS.items():
        with i18n.reading(lang):
            details = tuple(a.detail for a in _awards(view).items)
        assert details == said, lang
    # a partner's is still named
    partner = _with(
        beg_with_last_lift().model_copy(update={"you": 3}),
        AwardView(kind="hang_jack", team=0, points=3, card="JS", seat=1),
    )
    assert _awards(partner).items[0].detail == "Bob's jack hanged"
