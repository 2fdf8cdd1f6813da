"""The match panel: a match of more than one game, its bullseyes the viewer's team first, and
the match won."""

from __future__ import annotations

from app.services.match import MatchView
from app.services.view import RoomView
from app.web.panels.match import Match, match
from app.web.panels.score import score
from app.web.panels.seats import seats
from tests.web.views import playthrough, server_view

DASH = "\N{EN DASH}"


def _match(seat: int | None, to: int, bullseyes: list[int], winner: int | None) -> Match | None:
    view: RoomView = server_view(list(playthrough(3))[-1], seat, version=1)
    view = view.model_copy(update={"match": MatchView(bullseyes=bullseyes, to=to, winner=winner)})
    return match(view, score(view, seats(view)))


def test_a_match_of_one_game_is_no_match() -> None:
    assert _match(0, 1, [1, 0], 0) is None


def test_the_tally_reads_the_viewers_team_first() -> None:
    for seat, text in ((0, f"Bullseyes 2{DASH}1"), (1, f"Bullseyes 1{DASH}2"),
                       (None, f"Bullseyes 2{DASH}1")):  # fmt: skip
        panel = _match(seat, 3, [2, 1], None)
        assert panel is not None and panel.text == text
        assert panel.bullseyes == (2, 1) and panel.to == 3
        assert panel.winner is None and panel.over_text is None


def test_the_match_won_in_the_viewers_words() -> None:
    won = _match(0, 2, [2, 1], 0)
    assert won is not None and won.winner is not None and won.winner.team == 0
    assert won.over_text == f"You and Cy win the match, 2{DASH}1"
    lost = _match(1, 2, [2, 1], 0)
    assert lost is not None and lost.over_text == f"Ann & Cy win the match, 2{DASH}1"
