"""Computer players' names on the pages (app/web/words.py computer_player): each told apart
and each said once as a computer player, in the reader's language."""

from __future__ import annotations

from typing import Any

from app.api.profile_schemas import TallyOut
from app.i18n import reading
from app.services.career import _who as career_who
from app.services.stats import StatsOut
from app.web.profile import _who as page_who
from app.web.stats import render_stats

FIGURES = {
    "games": 1, "bullseyes": 0, "hang_jacks_made": 0, "hang_jacks_made_with": {},
    "hang_jacks_suffered": 0, "hang_jacks_suffered_with": {}, "jacks_won_home": 0,
    "kick_points": 0, "high": 0, "low": 0, "game_won": 0, "highest_game_count": 3,
    "gave_one": 0, "ran_the_pack": 0,
}  # fmt: skip


def _stats(seats: list[tuple[str, bool, str | None]]) -> StatsOut:
    players: list[dict[str, Any]] = [
        {**FIGURES, "player": n, "name": name, "bot": bot, "level": level}
        for n, (name, bot, level) in enumerate(seats)
    ]
    return StatsOut.model_validate(
        {
            "room": "k3x9q2abcdef",
            "games": [
                {"game": 1, "winner": 0, "scores": [7, 3], "seats": [0, 1, 2, 3],
                 "replay": "/r/k3x9q2abcdef/games/1/replay",
                 "record": "/api/rooms/k3x9q2abcdef/games/1"}
            ],
            "partnerships": [
                {**FIGURES, "players": [0, 2], "names": [seats[0][0], seats[2][0]]},
                {**FIGURES, "players": [1, 3], "names": [seats[1][0], seats[3][0]]},
            ],
            "players": players,
        }
    )  # fmt: skip


def test_three_computer_players_in_the_stats_are_told_apart_and_said_once() -> None:
    bots = [("Bot (standard)", True, "standard"), ("Bot (standard)", True, "standard")]
    stats = _stats([("Ann", False, None), bots[0], bots[1], ("Bot (easy)", True, "easy")])
    html = render_stats(stats)
    # Numbered only where two of one level are there to tell apart.
    for name in ("Computer 1 (standard)", "Computer 2 (standard)", "Computer (easy)"):
        assert name in html
    assert "Bot (standard)" not in html and "(computer)" not in html
    assert "Ann &amp; Computer 2 (standard)" in html  # the partnerships and games too
    with reading("fr"):
        french = render_stats(stats)
    assert "Ordinateur 1 (standard)" in french and "Ordinateur (facile)" in french


def test_one_computer_player_is_not_numbered() -> None:
    html = render_stats(
        _stats([("Ann", False, None), ("Ben", False, None), ("Cal", False, None),
                ("Bot (strong)", True, "strong")])
    )  # fmt: skip
    assert "Computer (strong)" in html and "Computer 1" not in html


def test_a_computer_player_has_one_name_on_the_plate_the_stats_and_the_push() -> None:
    """The table's plate, the room's stats (results and records) and a push letter name a
    computer player alike (app/bots/names.py), in English and in French."""
    from app.bots.names import told_apart
    from app.push.words import table
    from app.web.panels.seats import seats
    from tests.web.views import lobby_view

    at_table = ["Ann", "Bot (standard)", "Cy", "Bot (standard)"]
    occupants = [(n, n.startswith("Bot"), "standard" if n.startswith("Bot") else None)
                 for n in at_table]  # fmt: skip
    for language, second in (("en", "Computer 2 (standard)"), ("fr", "Ordinateur 2 (standard)")):
        with reading(language):
            plate = seats(lobby_view(at_table, None, bots=(1, 3))).by_number[3].display_name
            stats = render_stats(_stats(occupants))
        letter = table(language, code="k3x9q2", table="K3X 9Q2",
                       others=lambda: told_apart(occupants)[1:], rematch=False)  # fmt: skip
        assert plate == second
        assert second in stats
        assert second in str(letter["body"])


def test_a_profiles_partners_and_games_name_a_computer_player_as_the_table_does() -> None:
    """The profile's partners, opponents and recent games said "Bot (standard)" (issue #46):
    the career keeps the seat's name, the page names it as every page does."""
    seat = {"name": "Bot (standard)", "bot": True, "level": "standard"}
    entry = career_who(seat, {})
    assert entry == {"name": "Bot (standard)", "bot": True, "level": "standard"}
    TallyOut.model_validate({**entry, "games": 1, "wins": 0})  # as GET /api/players/{h} says it
    with reading("en"):
        assert page_who(entry).text == "Computer (standard)"
    with reading("fr"):
        assert page_who(entry).text.startswith("Ordinateur")
    # A computer player standing in under a night player's name keeps that name; a person too.
    assert page_who(career_who({"name": "Ann", "bot": True, "level": "easy"}, {})).text == "Ann"
    assert page_who(career_who({"name": "Ben", "bot": False}, {})).text == "Ben"
