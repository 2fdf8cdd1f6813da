"""Play now and the lobby (API.md § Fourth round, issue #36): a seat at once at a public
table, the same seat when pressed again, fifty guests at once seated once each four to a
table, the host's switch; on SQLite and PostgreSQL."""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from app.main import create_app
from app.settings import Settings
from app.store.models import Room, Seat
from tests.api.conftest import app_settings
from tests.api.table import Json, bearer, new_room, view
from tests.databases import database_url  # noqa: F401 - a fixture


def play(client: TestClient, token: str | None = None, **body: object) -> Json:
    r = client.post("/api/play", json=body, headers=bearer(token) if token else {})
    assert r.status_code == 200, r.text
    out: Json = r.json()
    return out


def make(client: TestClient, handle: str) -> str:
    r = client.post("/api/players", json={"handle": handle, "name": handle.title()})
    assert r.status_code == 201, r.text
    key: str = r.json()["key"]
    return key


def lobby(client: TestClient) -> list[Json]:
    r = client.get("/api/lobby")
    assert r.status_code == 200, r.text
    tables: list[Json] = r.json()["tables"]
    return tables


def test_a_guest_alone_gets_a_new_table_with_three_computer_players_at_once(
    client: TestClient,
) -> None:
    first = play(client)
    assert first["url"] == f"/r/{first['code']}" and first["token"]
    v = view(client, first["code"], first["token"])
    assert v["you"] == first["seat"] and v["phase"] != "lobby" and v["hand_number"] >= 1
    assert sum(1 for s in v["seats"] if s["bot"]) == 3
    # Pressed again: the same seat, no new table.
    again = play(client, first["token"])
    assert (again["code"], again["seat"]) == (first["code"], first["seat"])
    # The second guest takes a computer player's seat there (from the next deal).
    second = play(client)
    assert second["code"] == first["code"] and second["seat"] != first["seat"]
    assert second.get("pending") is True
    tables = [t for t in lobby(client) if t["code"] == first["code"]]
    assert len(tables) == 1
    table = tables[0]
    assert table["preset"] == "trinidad" and table["phase"] != "lobby" and table["rated"]
    assert [s["bot"] for s in table["seats"]].count(True) == 3  # the claim is taken next deal
    assert table["spectators"] == 0


def test_a_nameless_guest_is_named_in_the_words_of_their_language(client: TestClient) -> None:
    """What broke: "Guest 455" at a Malay reader's table (the name was English, not the
    catalog's)."""
    alone = {"preset": "quick"}  # a preset no other test of the module plays: a new table
    r = client.post("/api/play", json=alone, headers={"Accept-Language": "ms"})
    assert r.status_code == 200, r.text
    seated = r.json()
    assert not seated.get("pending")
    name = view(client, seated["code"], seated["token"])["seats"][seated["seat"]]["name"]
    assert re.fullmatch(r"Tetamu [1-9]\d\d", name), name


def test_a_public_table_waiting_in_its_lobby_fills_first_and_four_players_start_it(
    client: TestClient,
) -> None:
    code = new_room(client, {"options": {"public": True}, "preset": "trinidad"})
    keys = [make(client, h) for h in ("ann", "ben", "cal", "dee")]
    seated = [play(client, k, preset="trinidad") for k in keys]
    assert {s["code"] for s in seated} == {code}
    assert sorted(s["seat"] for s in seated) == [0, 1, 2, 3]
    assert all(s["token"] is None for s in seated)  # a player's key acts for the seat
    v = view(client, code, keys[0])
    assert v["phase"] != "lobby"  # the fourth started it
    assert [s["player"] for s in v["seats"]] == ["ann", "ben", "cal", "dee"]
    assert v["seats"][0]["bot"] is False
    # A player pressing again gets their own seat.
    assert play(client, keys[2])["seat"] == seated[2]["seat"]


def test_presets_are_kept_apart(client: TestClient) -> None:
    one = play(client, preset="trinidad")
    other = play(client, preset="tobago")
    assert one["code"] != other["code"]
    by_code = {t["code"]: t for t in lobby(client)}
    assert by_code[other["code"]]["preset"] == "tobago"


def test_bad_input_is_refused_and_changes_nothing(client: TestClient) -> None:
    before = len(lobby(client))
    r = client.post("/api/play", json={"preset": "nowhere"})
    assert r.status_code == 422
    r = client.post("/api/play", json={"seat": 2})
    assert r.status_code == 422
    assert len(lobby(client)) == before


def test_the_hosts_switch_turns_public_play_off(database_url: str) -> None:  # noqa: F811
    with TestClient(create_app(app_settings(database_url, public_play=False))) as c:
        r = c.post("/api/play", json={})
        assert r.status_code == 403 and r.json()["code"] == "public_play_off", r.text
        assert c.get("/api/lobby").json() == {"public_play": False, "tables": []}
        r = c.post("/api/rooms", json={"options": {"public": True}})
        assert r.status_code == 403 and r.json()["code"] == "public_play_off", r.text
        assert c.post("/api/rooms", json={}).status_code == 201  # a private table still opens
        home = c.get("/")
        assert home.status_code == 200 and 'data-public-play="off"' in home.text


@pytest.fixture
def two_apps(database_url: str) -> Iterator[tuple[TestClient, TestClient]]:  # noqa: F811
    """Two app instances on one database, standing for two processes (each its own locks,
    caches and pools)."""
    settings: Settings = app_settings(database_url, rooms_per_hour=0)
    with TestClient(create_app(settings)) as a, TestClient(create_app(settings)) as b:
        yield a, b


def test_fifty_guests_at_once_are_each_seated_once_four_to_a_table(
    two_apps: tuple[TestClient, TestClient],
) -> None:
    a, b = two_apps
    before = {t["code"] for t in lobby(a)}
    got: list[Json] = []
    failed: list[str] = []
    lock = threading.Lock()

    def press(i: int) -> None:
        client = a if i % 2 else b
        r = client.post("/api/play", json={"name": f"Guest {i}"})
        with lock:
            (got.append(r.json()) if r.status_code == 200 else failed.append(r.text))

    threads = [threading.Thread(target=press, args=(i,)) for i in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failed
    assert len(got) == 50
    places = Counter((g["code"], g["seat"]) for g in got)
    assert max(places.values()) == 1  # each seat (or claim on one) given once
    per_table = Counter(g["code"] for g in got)
    assert max(per_table.values()) <= 4
    # Four to a table: no more new tables than 50 guests fill (the module's earlier tables
    # with a computer player's seat free take a few first).
    assert len(set(per_table) - before) <= 13
    for code in per_table:
        v = view(a, code)
        humans = [s for s in v["seats"] if not s["bot"] or s.get("claimed")]
        assert len(humans) <= 4
        if code not in before:
            assert len(humans) == per_table[code]  # no empty public table left behind


def test_new_public_tables_count_against_the_room_quota(database_url: str) -> None:  # noqa: F811
    """Per address, play now opens tables within ALLFOURS_ROOMS_PER_HOUR; a seat at a table
    already open is never refused by it."""
    settings = app_settings(database_url, rooms_per_hour=1)
    with TestClient(create_app(settings)) as c:
        lone = {"preset": "tournament"}  # a preset no other test of the module plays
        c.post("/api/rooms", json={})  # the hour's one new table
        r = c.post("/api/play", json=lone)
        assert r.status_code == 429 and r.json()["code"] == "too_many_rooms", r.text
        assert int(r.headers["retry-after"]) >= 1


def test_a_table_whose_people_have_all_gone_seats_no_latecomer(database_url: str) -> None:  # noqa: F811
    """Play now's latecomer takes a computer player's seat from the next deal: at a table
    whose people have all gone, that deal waited on their away cover (minutes), so such a
    table is passed over; once one of its people is back, it seats latecomers again. The
    guest played at a process since gone (no heartbeat of its can race the test's clock);
    the latecomers press at another, which knows of the guest only what the seats say."""
    settings = app_settings(database_url)
    lone = {"preset": "quick"}  # a preset no other test of the module plays
    with TestClient(create_app(settings)) as gone:
        first = play(gone, **lone)
    with TestClient(create_app(settings)) as there:
        # A day on: the guest's tab closed, no request, no stream.
        engine = there.app.state.ctx.rooms.engine  # type: ignore[attr-defined]
        room = select(Room.id).where(Room.code == first["code"]).scalar_subquery()
        with engine.begin() as conn:
            a_day_ago = datetime.now(UTC) - timedelta(days=1)
            conn.execute(update(Seat).where(Seat.room_id == room).values(seen_at=a_day_ago))
        elsewhere = play(there, **lone)
        assert elsewhere["code"] != first["code"] and elsewhere.get("pending") is not True
        # The first guest is back (a request of theirs): their table seats a latecomer.
        view(there, first["code"], first["token"])
        late = play(there, **lone)  # the oldest table someone is at: the first guest's
        assert late["code"] == first["code"] and late.get("pending") is True
