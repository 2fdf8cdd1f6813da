"""Careers and ratings (API.md § Fourth round, *Players* and *Ratings*): a game counted when
it ends, rated when four different players held the four seats, checked against openskill
itself and against an independent count of the game records; the rebuild gives the same."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from fastapi.testclient import TestClient
from openskill.models import PlackettLuce

from app.api.profile_schemas import LeaderboardOut, ProfileOut
from app.api.record_schemas import GameRecordOut
from app.services.career import count_in, export
from app.services.rebuild_careers import rebuild
from app.services.snapshot import load
from app.store import career_repo, repo
from app.store.db import read, write
from tests.api.table import bearer, new_room, play_random, view
from tests.players.test_profiles import make

Json = dict[str, Any]
MODEL = PlackettLuce()


def seat_players(client: TestClient, code: str, keys: Sequence[str | None]) -> list[str]:
    """Seat each key's player (None: a guest) in seat order; the tokens that act for them."""
    tokens = []
    for seat, key in enumerate(keys):
        headers = bearer(key) if key else {}
        r = client.post(
            f"/api/rooms/{code}/join", json={"name": f"Guest{seat}", "seat": seat}, headers=headers
        )
        assert r.status_code == 200, r.text
        tokens.append(key or r.json()["token"])
    return tokens


def play_games(
    client: TestClient, code: str, tokens: list[str], games: int, seed: int
) -> list[Json]:
    """Play ``games`` games in the room; their records."""
    rng = random.Random(seed)
    r = client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    assert r.status_code == 200, r.text
    records = []
    for g in range(1, games + 1):
        if g > 1:
            r = client.post(f"/api/rooms/{code}/rematch", headers=bearer(tokens[0]))
            assert r.status_code == 200, r.text
        play_random(client, code, tokens, rng, check=False)
        record = client.get(f"/api/rooms/{code}/games/{g}").json()
        GameRecordOut.model_validate(record, strict=True)
        records.append(record)
    return records


def profile(client: TestClient, handle: str, key: str | None = None) -> Json:
    r = client.get(f"/api/players/{handle}", headers=bearer(key) if key else {})
    assert r.status_code == 200, r.text
    out: Json = r.json()
    ProfileOut.model_validate(out)
    return out


def count_game(
    engine: Any,
    *,
    room_id: int,
    number: int,
    players: Sequence[int | None],
    winner: int,
    rated: bool,
    at: datetime,
    left: frozenset[int] = frozenset(),
) -> None:
    """A finished game of a room written and counted in as a game's end counts it (its
    careers, its ratings), without playing it: the ratings' and leavers' tests' own games."""
    with write(engine) as conn:
        game_id = repo.insert_game(
            conn,
            room_id=room_id,
            number=number,
            rules={},
            seed=number,
            first_dealer=0,
            version=0,
            turn=None,
            shuffle=2,
        )
        count_in(
            conn,
            game_id=game_id,
            players=list(players),
            history=(),
            winner=winner,
            scores=(14, 9) if winner == 0 else (9, 14),
            rated_game=rated,
            at=at,
            left=left,
        )


def engine_of(client: TestClient) -> Any:
    return client.app.state.ctx.engine  # type: ignore[attr-defined]


def test_a_rated_game_end_to_end(client: TestClient) -> None:
    handles = ["r_ann", "r_ben", "r_cal", "r_dee"]
    keys = [make(client, h, h[2:].title()) for h in handles]
    code = new_room(client, {"rules": {"target": 7}})
    tokens = seat_players(client, code, list(keys))
    assert "rated" not in view(client, code)  # only at game over
    (record,) = play_games(client, code, tokens, 1, seed=1)
    winner = record["winner"]
    fresh = MODEL.rating()
    teams = [[MODEL.rating(), MODEL.rating()], [MODEL.rating(), MODEL.rating()]]
    (a, c), (b, d) = MODEL.rate(teams, ranks=[0, 1] if winner == 0 else [1, 0])
    expected = [a, b, c, d]
    final = view(client, code)
    assert final["rated"] is True and record["rated"] is True
    with read(engine_of(client)) as conn:  # as a restarted server reads it back
        room = repo.room_by_code(conn, code)
        assert room is not None
        again = load(conn, room).game
    assert again is not None and again.rated
    assert [(r.seat, r.handle) for r in again.ratings] == list(enumerate(handles))
    for shown in (final["ratings"], record["ratings"]):
        assert [r["handle"] for r in shown] == handles
        assert [r["seat"] for r in shown] == [0, 1, 2, 3]
        for seat, r in enumerate(shown):
            assert r["before"]["mu"] == fresh.mu and r["before"]["sigma"] == fresh.sigma
            assert abs(r["after"]["mu"] - expected[seat].mu) < 1e-9
            assert abs(r["after"]["sigma"] - expected[seat].sigma) < 1e-9
            assert abs(r["after"]["ordinal"] - (r["after"]["mu"] - 3 * r["after"]["sigma"])) < 1e-9
    for seat, handle in enumerate(handles):
        mine = profile(client, handle)
        assert mine["rating"]["games"] == 1 and mine["rating"]["provisional"] is True
        assert abs(mine["rating"]["mu"] - expected[seat].mu) < 1e-9
        (recent,) = mine["recent"]
        assert (recent["room"], recent["game"], recent["rated"]) == (code, 1, True)
        assert recent["won"] == (seat % 2 == winner)
        team = seat % 2
        assert recent["scores"] == [record["scores"][team], record["scores"][1 - team]]
        assert recent["partner"] == {"handle": handles[(seat + 2) % 4]}
        assert recent["opponents"] == [{"handle": handles[(seat + k) % 4]} for k in (1, 3)]
        before = round((fresh.mu - 3 * fresh.sigma) * 100)
        after = round((expected[seat].mu - 3 * expected[seat].sigma) * 100)
        assert recent["rating_change"] == after - before
        assert (recent["rating_change"] > 0) == recent["won"]
        assert mine["stats"]["games"] == 1 and mine["stats"]["wins"] == int(recent["won"])
    board = client.get("/api/players", params={"sort": "rating"}).json()
    LeaderboardOut.model_validate(board)
    ours = [p for p in board["players"] if p["handle"] in handles]
    assert len(ours) == 4 and all(p["rating"]["provisional"] for p in ours)
    ordinals = [p["rating"]["ordinal"] for p in board["players"]]
    assert ordinals == sorted(ordinals, reverse=True)
    assert [p["rank"] for p in board["players"]] == list(range(1, len(board["players"]) + 1))
    # the winners first
    assert {p["handle"] for p in ours[:2]} == {handles[winner], handles[winner + 2]}


def test_a_game_with_a_guest_or_the_option_off_is_not_rated(client: TestClient) -> None:
    keys = [make(client, h) for h in ("u_ann", "u_ben", "u_cal")]
    code = new_room(client, {"rules": {"target": 7}})
    tokens = seat_players(client, code, [*keys, None])
    (record,) = play_games(client, code, tokens, 1, seed=2)
    assert record["rated"] is False and record["ratings"] is None
    assert view(client, code)["rated"] is False and "ratings" not in view(client, code)
    ann = profile(client, "u_ann")
    assert ann["rating"]["games"] == 0 and ann["stats"]["games"] == 1
    assert ann["recent"][0]["opponents"][1] == {"name": "Guest3"}
    assert ann["recent"][0]["rating_change"] is None
    board = client.get("/api/players").json()
    assert "u_ann" not in [p["handle"] for p in board["players"]]

    more = make(client, "u_dee")
    off = new_room(client, {"rules": {"target": 7}, "options": {"rated": False}})
    tokens = seat_players(client, off, [*keys, more])
    (record,) = play_games(client, off, tokens, 1, seed=3)
    assert record["rated"] is False
    assert profile(client, "u_dee")["stats"]["games"] == 1


def test_unlisted_and_deleted_profiles(client: TestClient) -> None:
    shy, friend, stranger = make(client, "v_shy"), make(client, "v_friend"), make(client, "v_other")
    r = client.patch("/api/me", json={"listed": False}, headers=bearer(shy))
    assert r.status_code == 200, r.text
    assert client.get("/api/players/v_shy").status_code == 404
    assert client.get("/api/players/v_shy", headers=bearer(stranger)).status_code == 404
    assert profile(client, "v_shy", shy)["listed"] is False  # their own
    code = new_room(client)
    seat_players(client, code, [shy, friend, None, None])
    # Seated at one table is not enough: a game finished together is
    # (tests/players/test_unlisted_privacy.py).
    assert client.get("/api/players/V_Shy", headers=bearer(friend)).status_code == 404
    assert client.delete("/api/me", headers=bearer(friend)).status_code == 204
    r = client.get("/api/players/v_friend")
    assert r.status_code == 404 and r.json()["code"] == "no_player"
    assert client.get("/api/players/nobody_here").status_code == 404
    assert client.get("/api/players/" + "x" * 60).status_code == 422
    assert client.get("/api/players", params={"sort": "name"}).status_code == 422
    assert client.get("/api/players", params={"with": "me"}).status_code == 401


def test_a_claimed_guests_earlier_games_count(client: TestClient) -> None:
    code = new_room(client, {"rules": {"target": 7}})
    tokens = seat_players(client, code, [None, None, None, None])
    records = play_games(client, code, tokens, 2, seed=4)
    r = client.post("/api/players", json={"handle": "w_guest", "name": "Wes", "claim": [tokens[1]]})
    assert r.status_code == 201, r.text
    wes = profile(client, "w_guest")
    assert wes["stats"]["games"] == 2 and wes["rating"]["games"] == 0
    assert [g["game"] for g in wes["recent"]] == [2, 1]
    assert wes["stats"]["wins"] == sum(rec["winner"] == 1 for rec in records)
    assert all(g["rated"] is False for g in wes["recent"])


def test_the_rebuild_gives_the_same_numbers(client: TestClient) -> None:
    keys = [make(client, h) for h in ("x_ann", "x_ben", "x_cal", "x_dee", "x_eve")]
    one = new_room(client, {"rules": {"target": 7}})
    play_games(client, one, seat_players(client, one, keys[:4]), 3, seed=5)
    two = new_room(client, {"rules": {"target": 7}})
    play_games(
        client, two, seat_players(client, two, [keys[4], keys[1], keys[0], keys[3]]), 2, seed=6
    )
    three = new_room(client, {"rules": {"target": 7}})
    guests = seat_players(client, three, [keys[2], None, None, keys[4]])
    play_games(client, three, guests, 1, seed=7)
    engine = engine_of(client)
    # a deleted profile: its career goes, its rated games keep counting for the others
    assert client.delete("/api/me", headers=bearer(keys[3])).status_code == 204
    record = client.get(f"/api/rooms/{one}/games/1").json()
    assert record["rated"] is True
    assert [r["handle"] for r in record["ratings"]] == ["x_ann", "x_ben", "x_cal", None]

    def everything() -> tuple[Any, ...]:
        with read(engine) as conn:
            return (
                career_repo.all_careers(conn),
                career_repo.all_ratings(conn),
                career_repo.games_rated(conn),
            )

    kept = everything()
    with read(engine) as conn:
        gone = career_repo.player_of(conn, "x_dee")
        cal = career_repo.player_of(conn, "x_cal")
    assert gone is not None and cal is not None
    assert not [r for r in kept[0] if r["player_id"] == gone.id]
    exported = export(engine, cal.id)  # rooms one (rated) and three (with guests)
    assert exported["stats"]["games"] == 4 and len(exported["games"]) == 4
    assert exported["rating"]["games"] == 3
    assert [g["rated"] for g in exported["games"]] == [True] * 3 + [False]
    assert any(r["rated"] for r in kept[0]) and any(not r["rated"] for r in kept[0])
    rebuild(engine)
    again = everything()
    assert again[0] == kept[0]
    assert again[1] == kept[1]
    assert again[2] == kept[2]
