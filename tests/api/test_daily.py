"""Today's boards over HTTP (API.md § Fifth round; RULES.md R30-R34): twenty people, guests
and players, play the same day at their own tables; each sees only the travellers of the
boards they have played (R33); the ranking matches a count made here from the tables'
results (R32); once the day is over its seed reproduces every board (R30, and python -m
app.verify checks the answer); two people who play a board alike meet the same computer
play (R34). On SQLite and PostgreSQL."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app import verify
from app.main import create_app
from app.services.daily import Caller, Daily
from tests.api.conftest import app_settings
from tests.api.table import bearer
from tests.services.test_boards import _deck

Json = dict[str, Any]
BOARDS = 2
PEOPLE = 20


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    settings = app_settings(database_url, daily_boards=BOARDS)
    with TestClient(create_app(settings)) as c:
        yield c


def _view(c: TestClient, code: str, auth: dict[str, str]) -> Json:
    r = c.get(f"/api/rooms/{code}", headers=auth)
    assert r.status_code == 200, r.text
    out: Json = r.json()
    return out


def _play_board(c: TestClient, code: str, auth: dict[str, str], rng: random.Random) -> Json:
    """The person at seat 0 plays the board to its end (the computer players move on their
    own); the final view."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        v = _view(c, code, auth)
        if v["phase"] == "game_over":
            return v
        if v["turn"] == 0 and v["legal"]:
            move = {**rng.choice(v["legal"]), "version": v["version"]}
            r = c.post(f"/api/rooms/{code}/actions", json=move, headers=auth)
            assert r.status_code in (200, 409), r.text
            continue
        time.sleep(0.01)
    raise AssertionError("the board did not end")


def _person(c: TestClient, i: int) -> dict[str, str]:
    """Person i's credentials: even ones are players (their key), odd ones guests (their
    seat token at the day's table, given by the first press)."""
    if i % 2 == 0:
        r = c.post("/api/players", json={"handle": f"daily{i:02d}", "name": f"Player {i}"})
        assert r.status_code == 201, r.text
        return bearer(r.json()["key"])
    return {}


def test_today_s_boards_for_twenty_people(client: TestClient) -> None:
    c = client
    today = c.get("/api/daily").json()
    assert today["boards"] == BOARDS and today["you"] is None
    commitment = today["seed_commitment"]
    date = today["date"]
    people: list[dict[str, str]] = []
    codes: list[str] = []
    scores: dict[tuple[int, int], int] = {}  # (person, board): NS - EW
    records: dict[tuple[int, int], Json] = {}
    for i in range(PEOPLE):
        auth = _person(c, i)
        r = c.post("/api/daily/play", json={"name": f"Guest {i}"}, headers=auth)
        assert r.status_code == 200, r.text
        if r.json()["token"] is not None:
            auth = bearer(r.json()["token"])
        code = r.json()["code"]
        again = c.post("/api/daily/play", json={}, headers=auth)
        assert again.json()["code"] == code, "once a day: the same table"
        people.append(auth)
        codes.append(code)
        # People 0 and 1 (a player and a guest) play alike; the others as they please.
        rng = random.Random(7 if i < 2 else 100 + i)
        played = 1 if i % 3 == 2 else BOARDS  # every third stops after the first board
        for board in range(1, played + 1):
            v = _play_board(c, code, auth, rng)
            assert v["board"] == {"number": board, "dealer": (board - 1) % 4, "of": BOARDS}
            assert v["seed"] is None and v["seed_commitment"] == commitment
            scores[i, board] = v["scores"][0] - v["scores"][1]
            records[i, board] = c.get(f"/api/rooms/{code}/games/{board}", headers=auth).json()
            # R33: after each board its traveller, and only the boards played.
            mine = c.get(f"/api/daily/{date}", headers=auth).json()
            assert [b["board"] for b in mine["boards"]] == list(range(1, board + 1))
            assert mine["seed"] is None and not mine["over"]
            assert sum(1 for row in mine["boards"][-1]["results"] if row["you"]) == 1
            one = c.get(f"/api/daily/{date}/boards/{board}", headers=auth)
            assert one.status_code == 200 and one.json() == mine["boards"][-1]
            if board < BOARDS:
                ahead = c.get(f"/api/daily/{date}/boards/{board + 1}", headers=auth)
                assert ahead.status_code == 403, ahead.text
            if board < played:
                r = c.post(f"/api/rooms/{code}/rematch", headers=auth)
                assert r.status_code == 200, r.text
        summary = c.get("/api/daily", headers=auth).json()
        assert summary["you"]["played"] == list(range(1, played + 1))
    # R34: the two who played alike met the same computer play, board by board.
    for board in range(1, BOARDS + 1):
        assert records[0, board]["actions"] and [
            (a["seat"], a["type"], a["card"]) for a in records[0, board]["actions"]
        ] == [(a["seat"], a["type"], a["card"]) for a in records[1, board]["actions"]]
    # Someone who has not played sees no traveller.
    stranger = c.get(f"/api/daily/{date}").json()
    assert stranger["boards"] == [] and stranger["seed"] is None
    # R32: the ranking, counted again here from the tables' results.
    expected: dict[int, float] = {}
    for i in range(PEOPLE):
        made = tops = 0
        for (j, board), score in scores.items():
            if j != i:
                continue
            others = [s for (k, b), s in scores.items() if b == board and k != i]
            made += sum(2 if score > o else 1 if score == o else 0 for o in others)
            tops += 2 * len(others)
        expected[i] = round(100 * made / tops, 2)
    day = c.get(f"/api/daily/{date}", headers=people[0]).json()
    got = sorted(row["percent"] for row in day["ranking"])
    assert got == sorted(expected.values())
    assert [row["percent"] for row in day["ranking"]] == sorted(got, reverse=True)
    # A profile shows its days: its percentage and rank, as the ranking has them.
    ranked = next(row for row in day["ranking"] if row["you"])
    shown = c.get("/api/players/daily00").json()["daily"]
    assert shown == [{"date": date, "percent": ranked["percent"], "rank": ranked["rank"]}]
    names = [row["who"] for row in day["ranking"]]
    assert names.count("guest") == PEOPLE // 2
    assert {"handle": "daily00", "name": "Player 0"} in names
    # A restart: a fresh process's book, read from the database alone, answers the same.
    ctx = c.app.state.ctx  # type: ignore[attr-defined]
    fresh = Daily(ctx.engine, ctx.rooms, boards=BOARDS, day_s=86400)
    guest = Caller(None, people[1]["Authorization"].removeprefix("Bearer "))
    assert fresh.day_view(date, guest) == ctx.daily.day_view(date, guest)
    assert fresh.day_view(date, guest)["boards"], "the guest played: their travellers"
    # The day ends: its seed is revealed and deals every board, as the verifier checks.
    c.app.state.ctx.daily.clock = lambda: time.time() + 86400  # type: ignore[attr-defined]
    over = c.get(f"/api/daily/{date}").json()
    assert over["over"] and over["seed"] is not None
    assert [b["board"] for b in over["boards"]] == list(range(1, BOARDS + 1))
    assert verify.check(over)[-1].startswith(f"{BOARDS} boards and")
    seed = over["seed"]
    for (_, board), record in records.items():
        deck = _deck(seed, f"b{board}")
        first = record["hands"][0]
        assert first["kicks"][0] == _codes([deck[24]])[0]
        # The seat on the dealer's right is dealt positions 0-2 and 12-14 (and more when
        # the pack is run).
        assert set(_codes(deck[0:3] + deck[12:15])) <= set(first["dealt"][str(board % 4)])


def _codes(cards: list[int]) -> list[str]:
    from app.rules.cards import code

    return [code(c) for c in cards]


def test_the_daily_page_shows_progress_travellers_and_ranking(client: TestClient) -> None:
    c = client
    page = c.get("/daily")
    assert page.status_code == 200 and 'data-action="play-daily"' in page.text
    assert 'href="/daily"' in c.get("/").text, "the home page links to today's boards"
    r = c.post("/daily/play", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/r/")
    code = r.headers["location"].removeprefix("/r/")
    token = c.cookies.get("allfours_daily")
    assert token
    _play_board(c, code, bearer(token), random.Random(1))
    page = c.get("/daily").text
    assert 'data-daily-board="1" data-played' in page and 'data-daily-board="2"' in page
    assert 'data-traveller="1"' in page and 'data-traveller="2"' not in page
    assert "data-ranking" in page and f'href="/r/{code}"' in page
    # Pressed again (the page's button or the API): the same table.
    again = c.post("/daily/play", follow_redirects=False)
    assert again.headers["location"] == f"/r/{code}"


def test_a_new_day_s_table_counts_against_the_room_quota(database_url: str) -> None:
    """Each guest's first press opens a table: per address within ALLFOURS_ROOMS_PER_HOUR,
    as any new table (a script without the cookie opened tables without end). Pressed again
    with the seat: the same table, never refused."""
    settings = app_settings(database_url, daily_boards=BOARDS, rooms_per_hour=1)
    with TestClient(create_app(settings)) as c:
        first = c.post("/api/daily/play", json={})
        assert first.status_code == 200, first.text
        token = first.json()["token"]
        again = c.post("/api/daily/play", json={}, headers=bearer(token))
        assert again.status_code == 200 and again.json()["code"] == first.json()["code"]
        c.cookies.clear()
        refused = c.post("/api/daily/play", json={})
        assert refused.status_code == 429 and refused.json()["code"] == "too_many_rooms"
        assert int(refused.headers["retry-after"]) >= 1
        page = c.post("/daily/play", headers={"Sec-Fetch-Site": "same-origin"})
        assert page.status_code == 429 and page.headers["content-type"].startswith("text/html")
        assert int(page.headers["retry-after"]) >= 1


def test_a_days_table_is_its_own_seats_and_no_one_elses(client: TestClient) -> None:
    """R33: no one learns a board's results before they have played it. A day's table read
    by a stranger (its link shared) answers nothing of it, by any door: its view, page,
    streams, records, notebook, replay, stats, chat; nobody takes a seat there. Its own
    player reads it all."""
    r = client.post("/api/daily/play", json={})
    code, token = r.json()["code"], r.json()["token"]
    mine = bearer(token)
    _play_board(client, code, mine, random.Random(33))
    client.cookies.clear()  # the stranger: no seat, no cookie
    reads = [
        f"/api/rooms/{code}",
        f"/api/rooms/{code}/hands/1",
        f"/api/rooms/{code}/games/1",
        f"/api/rooms/{code}/games/1/notebook.txt",
        f"/api/rooms/{code}/chat",
        f"/api/rooms/{code}/events",
        f"/r/{code}",
        f"/r/{code}/table",
        f"/r/{code}/sheet",
        f"/r/{code}/events",
        f"/r/{code}/stats",
        f"/r/{code}/replay",
        f"/r/{code}/games/1/replay",
        f"/r/{'-'.join(code[i : i + 4] for i in range(0, len(code), 4)).upper()}",  # as typed
    ]
    for path in reads:
        r = client.get(path)
        assert r.status_code == 403, (path, r.status_code, r.text[:200])
        assert "board_table_private" in r.text or "only its own players" in r.text, path
        assert "KC" not in r.text and "seed" not in r.text.lower(), path
    # A seat is not taken by a link either (a computer player's seat, from the next board).
    r = client.post(f"/api/rooms/{code}/join", json={"name": "Peek", "seat": 1})
    assert r.status_code == 403 and r.json()["code"] == "board_seats"
    # The table's own player reads every door.
    for path in reads:
        if path.endswith("/events"):
            continue  # a stream: its first event is the view, read above
        r = client.get(path, headers=mine)
        assert r.status_code == 200, (path, r.status_code, r.text[:200])
