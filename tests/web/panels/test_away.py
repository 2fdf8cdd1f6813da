"""The away panel: what the computer did for the viewer while away, said once."""

from __future__ import annotations

from app.rules.state import Phase
from app.services.view import RoomView
from app.views.shapes import ActionView
from app.web.panels.away import away
from tests.web.views import playthrough, server_view


def _view(*done: ActionView) -> RoomView:
    state = next(s for s in playthrough(3) if s.phase is Phase.PLAY)
    return server_view(state, 0, version=1).model_copy(update={"played_for_you": list(done)})


def test_nothing_played_for_the_viewer_nothing_said() -> None:
    panel = away(_view())
    assert panel.played_for is None and panel.key is None


def test_one_card_played_for_the_viewer() -> None:
    panel = away(_view(ActionView(type="play", card="9S")))
    assert panel.played_for == "While you were away, the computer played 9♠ for you."
    assert panel.key is not None and panel.key.endswith(":1:play9S")


def test_a_decision_and_cards_said_in_one_sentence() -> None:
    panel = away(
        _view(
            ActionView(type="stand"),
            ActionView(type="play", card="9S"),
            ActionView(type="play", card="TH"),
        )
    )
    assert panel.played_for == (
        "While you were away, the computer stood, played 9♠ and played 10♥ for you."
    )
    assert panel.key is not None and panel.key.endswith(":3:standplay9SplayTH")
