"""The status panel: the sentence that says what the table waits for, the page's title, and
whether the viewer may start the game or nudge the player to act."""

from __future__ import annotations

from app.rules.state import Phase
from app.services.view import RoomView
from app.web.panels.score import score
from app.web.panels.seats import seats
from app.web.panels.status import Status, status
from tests.web.views import lobby_view, playthrough, server_view


def _status(view: RoomView) -> Status:
    placed = seats(view)
    return status(view, placed, score(view, placed))


def test_the_lobby_counts_free_seats_and_offers_start_when_full() -> None:
    assert _status(lobby_view(["Ann"], 0)).text == "Waiting for players: 3 seats free"
    assert _status(lobby_view(["Ann", "Bob", "Cy"], 0)).text == ("Waiting for players: 1 seat free")
    full = _status(lobby_view(["Ann", "Bob", "Cy", "Dan"], 0))
    assert full.text == "Everyone is seated: press Start" and full.can_start
    watched = _status(lobby_view(["Ann", "Bob", "Cy", "Dan"], None))
    assert watched.text == "Waiting for the start" and not watched.can_start
    assert watched.title == "All Fours · Waiting for the start · k3x9q2"


def test_whose_turn_in_each_phase() -> None:
    seen = set()
    for version, state in enumerate(playthrough(3)):
        if state.turn is None or state.phase.value in seen:
            continue
        seen.add(state.phase.value)
        turn = state.turn
        mine = _status(server_view(state, turn, version=version))
        other = _status(server_view(state, (turn + 1) % 4, version=version))
        name = ("Ann", "Bob", "Cy", "Dan")[turn]
        if state.phase is Phase.BEG:
            assert mine.text == "Your call: stand or beg?"
            assert other.text == f"Waiting for {name} to stand or beg"
        elif state.phase is Phase.GIVE_OR_RUN:
            assert mine.text.endswith("begged: give one or run the pack?")
            assert other.text.endswith(f"Waiting for {name} to give one or run the pack")
        else:
            assert mine.text == "Your turn: play a card"
            assert other.text == f"Waiting for {name}"
        assert mine.title == "● Your turn · All Fours k3x9q2"
        assert other.title == f"All Fours · {other.text} · k3x9q2"
    assert {"beg", "give_or_run", "play"} <= seen


def test_the_game_over_names_the_winners_and_the_score() -> None:
    over = list(playthrough(3))[-1]
    assert over.winner is not None
    won = _status(server_view(over, over.winner, version=1)).text
    lost = _status(server_view(over, 1 - over.winner, version=1)).text
    assert won.startswith("You and ") and " win, " in won
    assert not lost.startswith("You") and " win, " in lost


def test_a_nudge_for_another_human_to_act_only() -> None:
    state = next(s for s in playthrough(3) if s.phase is Phase.PLAY and s.turn is not None)
    turn = state.turn
    assert turn is not None
    other = (turn + 1) % 4
    assert _status(server_view(state, other, version=1)).can_nudge
    assert not _status(server_view(state, turn, version=1)).can_nudge
    assert not _status(server_view(state, None, version=1)).can_nudge
    assert not _status(server_view(state, other, version=1, bots=(turn,))).can_nudge
