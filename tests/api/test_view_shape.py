"""The lobby's view carries the same keys as a game's, so clients need no special case."""

from app.rules import DEFAULT_RULES, new_game, observe
from app.services.view import lobby_json


def test_the_lobby_view_has_every_key_of_a_game_view() -> None:
    in_play = observe(new_game(DEFAULT_RULES, 1), None).to_json()
    assert set(lobby_json()) == set(in_play)
