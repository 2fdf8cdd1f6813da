"""Privacy of unlisted and deleted profiles (security review round 5, findings 11, 13, 14):
an unlisted player's handle was shown in the lobby and to a club's strangers; sitting down
beside an unlisted player at a public table unlocked their profile; a deleted profile's chat
lines kept its handle and its club memberships stayed; a player could report a bystander who
never sat at the table. On SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select

from app.api.context import PLAYER_COOKIE
from app.store.db import read
from app.store.models import ChatMessage, ClubMember, Player
from tests.api.table import bearer, new_room
from tests.clubs.helpers import invite, join, open_club
from tests.players.test_careers import engine_of, play_games, seat_players
from tests.players.test_profiles import make
from tests.web.dom import having, parse

Json = dict[str, Any]


def unlisted(client: TestClient, handle: str, name: str) -> str:
    key = make(client, handle, name)
    r = client.patch("/api/me", json={"listed": False}, headers=bearer(key))
    assert r.status_code == 200, r.text
    return key


def lobby_seats(client: TestClient, code: str, key: str | None = None) -> list[Json]:
    r = client.get("/api/lobby", headers=bearer(key) if key else {})
    assert r.status_code == 200, r.text
    table = next(t for t in r.json()["tables"] if t["code"] == code)
    return [s for s in table["seats"] if s is not None]


def test_the_lobby_names_an_unlisted_player_without_their_handle(client: TestClient) -> None:
    """GET /api/lobby and the home page's lobby showed an unlisted player's handle to all."""
    shy = unlisted(client, "lob_shy", "Shy Sal")
    open_ = make(client, "lob_open", "Open Olu")
    stranger = make(client, "lob_other")
    code = new_room(client, {"options": {"public": True}})
    seat_players(client, code, [shy, open_])
    for viewer in (None, stranger, open_):
        seats = lobby_seats(client, code, viewer)
        assert [(s["name"], s["handle"]) for s in seats] == [
            ("Shy Sal", None),
            ("Open Olu", "lob_open"),
        ], viewer
    # The player themself sees their own handle.
    assert [s["handle"] for s in lobby_seats(client, code, shy)] == ["lob_shy", "lob_open"]
    # The home page's lobby, and its polled fragment, as a stranger sees them.
    for path in ("/", "/lobby"):
        page = client.get(path, headers=bearer(stranger))
        assert page.status_code == 200
        assert "lob_shy" not in page.text and "@lob_open" in page.text, path


def test_a_clubs_strangers_read_an_unlisted_members_name_only(client: TestClient) -> None:
    """GET /api/clubs/{code} and the club's page listed unlisted members' handles to anyone."""
    admin = make(client, "clu_admin", "Ada")
    shy = unlisted(client, "clu_shy", "Shy Sam")
    stranger = make(client, "clu_other")
    code = open_club(client, admin, "Quiet Corner")
    join(client, code, shy, invite(client, code, admin))
    for viewer in (None, stranger):
        r = client.get(f"/api/clubs/{code}", headers=bearer(viewer) if viewer else {})
        assert r.status_code == 200
        members = [(m["name"], m["handle"]) for m in r.json()["members"]]
        assert members == [("Ada", "clu_admin"), ("Shy Sam", None)], viewer
        browser = TestClient(client.app)
        if viewer:
            browser.cookies.set(PLAYER_COOKIE, viewer)
        page = browser.get(f"/c/{code}")
        assert "clu_shy" not in page.text and "Shy Sam" in page.text
        assert [li.get("data-member") for li in having(parse(page.text), "data-member")] == [
            "clu_admin",
            None,
        ]
    # The club's members (the player included) see every member's handle.
    for viewer in (admin, shy):
        r = client.get(f"/api/clubs/{code}", headers=bearer(viewer))
        assert [m["handle"] for m in r.json()["members"]] == ["clu_admin", "clu_shy"]


def test_sitting_down_beside_an_unlisted_player_does_not_unlock_their_profile(
    client: TestClient,
) -> None:
    """Joining the public table an unlisted player sat at showed their whole profile: "shared
    a table" counted being seated at one room now, not a game finished together."""
    shy = unlisted(client, "sha_shy", "Shy")
    joiner = make(client, "sha_joiner")
    code = new_room(client, {"rules": {"target": 7}})
    tokens = seat_players(client, code, [shy, joiner, None, None])
    assert client.get("/api/players/sha_shy", headers=bearer(joiner)).status_code == 404
    play_games(client, code, tokens, 1, seed=3)  # a game finished together: now they know
    r = client.get("/api/players/sha_shy", headers=bearer(joiner))
    assert r.status_code == 200 and r.json()["handle"] == "sha_shy"


def test_a_deleted_profiles_chat_lines_lose_the_handle_and_its_clubs_forget_it(
    client: TestClient,
) -> None:
    """After DELETE /api/me the chat still showed the profile's handle on its lines, and its
    club_members and chat rows still pointed at it."""
    erin = make(client, "del_erin", "Erin")
    admin = make(client, "del_admin", "Dee")
    club = open_club(client, admin, "Leavers' Club")
    join(client, club, erin, invite(client, club, admin))
    code = new_room(client)
    seat_players(client, code, [erin, admin])
    said = client.post(f"/api/rooms/{code}/chat", json={"text": "hi"}, headers=bearer(erin))
    assert said.status_code == 201, said.text
    assert client.get(f"/api/rooms/{code}/chat").json()["messages"][-1]["handle"] == "del_erin"
    assert client.delete("/api/me", headers=bearer(erin)).status_code == 204
    line = client.get(f"/api/rooms/{code}/chat").json()["messages"][-1]
    assert (line["name"], line["text"], line.get("handle")) == ("Erin", "hi", None)
    members = client.get(f"/api/clubs/{club}").json()["members"]
    assert [m["handle"] for m in members] == ["del_admin"]
    with read(engine_of(client)) as conn:
        erin_id = conn.execute(select(Player.id).where(Player.handle == "del_erin")).scalar_one()
        writer = conn.execute(
            select(ChatMessage.player_id).where(ChatMessage.text == "hi")
        ).scalar_one()
        clubs = conn.execute(select(ClubMember.id).where(ClubMember.player_id == erin_id)).all()
    assert writer is None and clubs == []


def test_a_report_names_a_player_who_sat_at_that_table(client: TestClient) -> None:
    """A player seated at a table reported a bystander who never sat there: 201."""
    ann = make(client, "rep_ann", "Ann")
    ben = make(client, "rep_ben", "Ben")
    make(client, "rep_bystander", "Bo")
    code = new_room(client, {"rules": {"target": 7}})
    seat_players(client, code, [ann, ben])
    body = {"reason": "abuse", "text": "rude", "room": code}
    r = client.post("/api/reports", json={**body, "handle": "rep_bystander"}, headers=bearer(ann))
    assert r.status_code == 409 and r.json()["code"] == "not_at_table", r.text
    assert (
        client.post(
            "/api/reports", json={**body, "handle": "rep_ben"}, headers=bearer(ann)
        ).status_code
        == 201
    )
