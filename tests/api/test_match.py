"""The match (API.md § Second round, view key ``match``): bullseyes per partnership across
rematches, first to the room's ``match`` option wins it, Rematch then opens a new one; the
tally is kept in the database (a restart, another process) and shown on the result page."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from app.store import repo
from app.store.db import make_engine, read
from tests.api.table import bearer, new_room, play_random, seat_four, view

QUICK = {"rules": {"target": 7}}


def _rematch(client: TestClient, code: str, token: str) -> None:
    r = client.post(f"/api/rooms/{code}/rematch", headers=bearer(token))
    assert r.status_code == 200, r.text


def test_first_partnership_to_two_bullseyes_wins_the_match_then_a_new_one_starts(
    client: TestClient, settings: Settings
) -> None:
    rng = random.Random(15)
    code = new_room(client, {**QUICK, "options": {"match": 2}})
    assert view(client, code)["match"] == {"bullseyes": [0, 0], "to": 2, "winner": None}
    tokens = seat_four(client, code)
    assert client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0])).status_code == 200
    expected = [0, 0]
    games = 0
    while True:
        assert view(client, code)["match"]["bullseyes"] == expected  # while the game runs
        final = play_random(client, code, tokens, rng, check=False)
        games += 1
        expected[final["winner"]] += 1
        assert final["match"]["bullseyes"] == expected
        page = client.get(f"/r/{code}", headers=bearer(tokens[0])).text
        assert f"Bullseyes {expected[0]}\N{EN DASH}{expected[1]}" in page
        assert 'data-link="stats"' in page
        if max(expected) == 2:
            assert final["match"]["winner"] == final["winner"]
            assert "win the match!" in page
            break
        assert final["match"]["winner"] is None and "win the match" not in page
        _rematch(client, code, tokens[1])
    # The tally is the database's: a fresh server (no cache) says the same.
    with TestClient(create_app(settings)) as fresh:
        assert view(fresh, code)["match"] == final["match"]
    engine = make_engine(settings.database_url)
    with read(engine) as conn:
        room = repo.room_by_code(conn, code)
        assert room is not None
        rows = repo.finished_games(conn, room.id)
    engine.dispose()
    assert len(rows) == games and all(r.winner in (0, 1) for r in rows)
    assert all(r.lineup and [s["name"] for s in r.lineup] == ["Ann", "Ben", "Cal", "Dee"]
               for r in rows)  # fmt: skip
    # Rematch after a won match: a new match, 0-0.
    _rematch(client, code, tokens[0])
    assert view(client, code)["match"] == {"bullseyes": [0, 0], "to": 2, "winner": None}


def test_single_games_by_default_each_game_is_its_own_match(client: TestClient) -> None:
    rng = random.Random(3)
    code = new_room(client, QUICK)
    tokens = seat_four(client, code)
    client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    final = play_random(client, code, tokens, rng, check=False)
    one = [0, 0]
    one[final["winner"]] = 1
    assert final["match"] == {"bullseyes": one, "to": 1, "winner": final["winner"]}
    _rematch(client, code, tokens[0])
    assert view(client, code)["match"]["bullseyes"] == [0, 0]


def test_games_kept_before_winner_and_lineup_count_from_their_replay_and_the_seats(
    client: TestClient, settings: Settings
) -> None:
    """Games stored before migration 0007 have neither column: the tally and the stats take
    the winner from the replay and the players from the room's seats."""
    rng = random.Random(8)
    code = new_room(client, {**QUICK, "options": {"match": 3}})
    tokens = seat_four(client, code)
    client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    play_random(client, code, tokens, rng, check=False)
    _rematch(client, code, tokens[0])
    play_random(client, code, tokens, rng, check=False)
    kept = view(client, code)["match"]
    stats = client.get(f"/api/rooms/{code}/stats").json()
    engine = make_engine(settings.database_url)
    with engine.begin() as conn:
        room = repo.room_by_code(conn, code)
        assert room is not None
        conn.execute(
            repo.games.update()
            .where(repo.games.c.room_id == room.id)
            .values(winner=None, lineup=None)
        )
    engine.dispose()
    with TestClient(create_app(settings)) as fresh:
        assert view(fresh, code)["match"] == kept
        assert fresh.get(f"/api/rooms/{code}/stats").json() == stats
