"""The match on the page: the scoreboard's tally (matches of more than one game), the result
page's bullseyes and the match won, said once in the live region, and the stats link."""

from __future__ import annotations

from app.services.match import MatchView
from app.services.options import RoomOptions
from app.services.view import RoomView
from app.web.render import render_table
from app.web.table import build
from tests.web.views import playthrough, server_view

DASH = "\N{EN DASH}"


def _views(to: int, bullseyes: list[int], seat: int | None) -> tuple[RoomView, RoomView]:
    """A game in play and the same game over, with this match tally."""
    states = list(playthrough(3))
    over = states[-1]
    assert over.winner is not None
    winner = over.winner if max(bullseyes) >= to else None
    update = {
        "options": RoomOptions(match=to),
        "match": MatchView(bullseyes=bullseyes, to=to, winner=winner),
    }
    running = server_view(states[5], seat, version=5).model_copy(update=update)
    ended = server_view(over, seat, version=len(states)).model_copy(update=update)
    return running, ended


def test_a_match_shows_its_tally_on_the_scoreboard_the_viewers_team_first() -> None:
    running, _ = _views(3, [2, 1], seat=1)
    html = render_table(running)
    assert f"Bullseyes 1{DASH}2" in html and "match to 3" in html  # seat 1 is team 1
    running, _ = _views(3, [2, 1], seat=None)
    assert f"Bullseyes 2{DASH}1" in render_table(running)


def test_single_games_keep_the_scoreboard_as_it_was() -> None:
    running, ended = _views(1, [0, 0], seat=0)
    assert "data-match" not in render_table(running)
    html = render_table(ended.model_copy(update={"match": MatchView(bullseyes=[1, 0], to=1,
                                                                   winner=0)}))  # fmt: skip
    # A match of one game starts again after every game: its "Bullseyes 1-0" after a
    # rematch read as the table's tally when each side had won a game (issue 32).
    assert "data-match-result" not in html and "Bullseyes" not in html
    assert "win the match" not in html
    assert 'href="/r/k3x9q2/stats"' in html


def test_the_match_won_is_on_the_result_page_and_said_once() -> None:
    _, ended = _views(2, [2, 1], seat=0)
    winner = ended.winner
    assert winner is not None
    bullseyes = [2, 1] if winner == 0 else [1, 2]
    ended = ended.model_copy(update={"match": MatchView(bullseyes=bullseyes, to=2, winner=winner)})
    table = build(ended)
    html = render_table(ended)
    assert "data-match-over" in html and "win the match!" in html
    assert "Rematch starts a new match" in html
    said = [n for n in table.news.items if n.key.startswith("match:")]
    assert len(said) == 1 and "win the match, 2" in said[0].text
    # Not before the match is won.
    _, half = _views(2, [1, 0], seat=0)
    assert not [n for n in build(half).news.items if n.key.startswith("match:")]
    assert "data-match-over" not in render_table(half)
