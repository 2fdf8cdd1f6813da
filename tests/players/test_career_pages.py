"""The players' pages: ``/p/{handle}`` (the rating with its chart, the figures, partners,
opponents, the last games with their replays) and ``/players`` (the leaderboard)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.players.ratings import PROVISIONAL_BELOW
from tests.api.table import bearer, new_room
from tests.players.test_careers import play_games, seat_players
from tests.players.test_profiles import make


def test_a_profile_page_and_the_leaderboard(client: TestClient) -> None:
    handles = ["pg_ann", "pg_ben", "pg_cal", "pg_dee"]
    keys = [make(client, h, h[3:].title()) for h in handles]
    code = new_room(client, {"rules": {"target": 7}})
    play_games(client, code, seat_players(client, code, list(keys)), 2, seed=21)
    table = client.get(f"/r/{code}", headers=bearer(keys[0]))  # the result at game over
    assert table.status_code == 200
    assert "data-rating-changes" in table.text and table.text.count("data-rating-change>") == 4
    assert 'href="/p/pg_ben"' in table.text
    page = client.get("/p/pg_ann")
    assert page.status_code == 200, page.text
    text = page.text
    assert 'data-profile="pg_ann"' in text and "data-rating-chart" in text and "<polyline" in text
    assert f'href="/r/{code}/games/1/replay"' in text and f'href="/r/{code}/games/2/replay"' in text
    assert text.count("data-rating-change") == 2 and "data-provisional" in text
    assert 'href="/p/pg_cal"' in text  # the partner
    assert 'data-stat="kick_points"' in text
    for key in keys:  # no key nor seat token in a page
        assert key not in text
    french = client.get("/p/pg_ann", params={"lang": "fr"})
    assert french.status_code == 200 and 'lang="fr"' in french.text
    missing = client.get("/p/nobody_at_all")
    assert missing.status_code == 404 and "data-profile" in missing.text
    board = client.get("/players")
    assert board.status_code == 200
    assert all(f'data-player="{h}"' in board.text for h in handles)
    assert 'data-filter="me"' not in board.text  # only for a signed-in reader
    mine = client.get("/players", params={"with": "me"}, headers=bearer(keys[0]))
    assert mine.status_code == 200 and 'data-filter="all"' in mine.text
    loner = make(client, "pg_lone")
    alone = client.get("/players", params={"with": "me"}, headers=bearer(loner))
    assert 'data-player="pg_ann"' not in alone.text


def test_one_game_is_said_in_the_singular_and_provisional_is_explained(
    client: TestClient,
) -> None:
    """What broke: "1 games, 1 won" beside a partner, and a big "0 provisional" that said
    nothing of what provisional means nor for how long."""
    handles = ["one_ann", "one_ben", "one_cal", "one_dee"]
    keys = [make(client, h, h[4:].title()) for h in handles]
    code = new_room(client, {"rules": {"target": 7}})
    play_games(client, code, seat_players(client, code, list(keys)), 1, seed=21)
    text = client.get("/p/one_ann").text
    partners = text.split("data-partners", 1)[1].split("</section>", 1)[0]
    assert "1 game, " in partners and "1 games" not in text
    note = f"Provisional: a rating settles after {PROVISIONAL_BELOW} rated games."
    assert note in text and "data-provisional-note" in text
    french = client.get("/p/one_ann", params={"lang": "fr"}).text
    assert "1 partie, victoires" in french.split("data-partners", 1)[1]
    assert f"après {PROVISIONAL_BELOW} parties classées" in french
    board = client.get("/players", params={"lang": "en"}).text
    assert f'title="fewer than {PROVISIONAL_BELOW} rated games"' in board
