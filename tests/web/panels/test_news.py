"""The news panel: what the live region says, made from the other panels it is given (no
hidden order: a call's verdict, the status, the match won come in as arguments)."""

from __future__ import annotations

from dataclasses import replace

from app.rules.state import Phase
from app.services.match import MatchView
from app.services.view import RoomView
from app.web.panels.away import Away
from app.web.panels.news import News, NewsItem, news
from app.web.panels.renege import CallShown, RenegeCalls
from app.web.table import TablePage, build
from tests.web.views import beg_with_last_lift, playthrough, server_view


def _news(page: TablePage, view: RoomView, **given: object) -> News:
    """The news of ``page`` with some of its panels replaced by ``given``."""
    panels = {
        "seats": page.seats,
        "kicks": page.kicks,
        "lifts": page.lifts,
        "awards": page.awards,
        "renege": page.renege,
        "away": page.away,
        "status": page.status,
        "match": page.match,
        **given,
    }
    return news(view, **panels)  # type: ignore[arg-type]


def _keys(said: News) -> list[str]:
    return [s.key.split(":")[0] for s in said.items]


def test_a_lift_being_played_each_card_once_in_order() -> None:
    state = next(s for s in playthrough(3) if s.phase is Phase.PLAY and len(s.trick) == 3)
    view = server_view(state, state.turn, version=4)
    said = build(view).news
    plays = [s for s in said.items if s.key.startswith("play:")]
    assert [s.key.split(":")[-1] for s in plays] == [p.card for p in view.trick]
    assert _keys(said)[-1] == "turn" and said.items[-1].text == "Your turn: play a card."
    assert "trump" in _keys(said) and "kick" in _keys(said)


def test_the_hand_over_and_the_last_lift_after_a_deal() -> None:
    view = beg_with_last_lift()
    said = build(view).news
    assert _keys(said).count("lift") == 1 and _keys(said).count("hand") == 1
    (over,) = [s for s in said.items if s.key.startswith("hand:")]
    assert over.text.startswith("Hand over. ")


def test_the_calls_and_the_away_cover_are_said_as_their_panels_word_them() -> None:
    view = beg_with_last_lift()
    page = build(view)
    shown = CallShown(key="call:1:2:0:1:3", lift=3, seat=1, upheld=True, card="4C", text="Hi.")
    said = _news(
        page,
        view,
        renege=RenegeCalls(on=True, calls=(shown,)),
        away=Away(played_for="While you were away.", key="k"),
    )
    assert NewsItem("call:1:2:0:1:3", "Hi.") in said.items
    assert NewsItem("auto:k", "While you were away.") in said.items
    keys = _keys(said)
    assert keys.index("hand") < keys.index("call") < keys.index("auto")


def test_the_game_over_then_the_match_won_last() -> None:
    over = list(playthrough(3))[-1]
    assert over.winner is not None
    bullseyes = [2, 1] if over.winner == 0 else [1, 2]
    view = server_view(over, 0, version=50).model_copy(
        update={"match": MatchView(bullseyes=bullseyes, to=2, winner=over.winner)}
    )
    page = build(view)
    said = page.news.items
    assert [s.key for s in said[-2:]] == ["over:50", "match:50"]
    assert said[-2].text == page.status.text + "."
    assert page.match is not None and said[-1].text == f"{page.match.over_text}."
    # The status panel's sentence is what is said: news words nothing of its own.
    other = replace(page.status, text="Something else")
    assert _news(page, view, status=other).items[-2].text == "Something else."
    assert "match" not in _keys(_news(page, view, match=None))
