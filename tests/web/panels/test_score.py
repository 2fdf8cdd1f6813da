"""The score panel: the partnerships named for the viewer, their chalk, the winner."""

from __future__ import annotations

from app.web.panels.score import score, tally
from app.web.panels.seats import seats
from tests.web.views import playthrough, server_view


def test_chalk_is_drawn_in_gates_of_five() -> None:
    assert tally(0) == () and tally(5) == (5,) and tally(12) == (5, 5, 2) and tally(-3) == ()


def test_the_viewers_team_is_us_and_comes_first() -> None:
    state = list(playthrough(3))[40]
    for you, partner in ((0, "Cy"), (1, "Dan"), (2, "Ann"), (3, "Bob")):
        view = server_view(state, you, version=1)
        panel = score(view, seats(view))
        ours, theirs = panel.for_viewer
        assert ours.team == you % 2 and ours.ours and theirs.ours is False
        assert ours.name == f"You & {partner}" and ours.partner == partner
        assert ours.short == "Us" and theirs.short == "Them"
        assert [t.score for t in panel.teams] == view.scores
        assert panel.teams[0].tally == tally(view.scores[0])


def test_a_spectator_reads_both_teams_by_name_team_0_first() -> None:
    view = server_view(list(playthrough(3))[40], None, version=1)
    panel = score(view, seats(view))
    assert [t.team for t in panel.for_viewer] == [0, 1]
    assert [t.short for t in panel.teams] == ["Team 1", "Team 2"]
    assert all(t.ours is None and t.partner is None for t in panel.teams)
    assert "Ann" in panel.teams[0].name and "Bob" in panel.teams[1].name


def test_the_winner_only_once_the_game_is_over() -> None:
    states = list(playthrough(3))
    over = states[-1]
    assert over.winner is not None
    view = server_view(over, 0, version=1)
    panel = score(view, seats(view))
    assert panel.winner is not None and panel.winner.team == over.winner
    assert [t.winner for t in panel.teams] == [over.winner == 0, over.winner == 1]
    running = server_view(states[40], 0, version=1)
    assert score(running, seats(running)).winner is None
    assert panel.target == over.rules.target
