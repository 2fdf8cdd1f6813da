"""Clubs and seasons through the API (API.md § Fourth round, Clubs and seasons), on SQLite
and PostgreSQL: members, invites, admins, seasons, a club's nights and its standings."""

from __future__ import annotations

import csv
import io
import threading
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given
from hypothesis import settings as examples
from hypothesis import strategies as st

from app.api.context import Context
from app.main import create_app
from app.services import errors
from app.settings import Settings
from tests.api.table import bearer
from tests.clubs.helpers import (
    club,
    club_night,
    club_of,
    invite,
    join,
    open_club,
    profile,
    register_players,
    start_season,
)
from tests.night.helpers import bots_everywhere, next_round, night, open_night, round_over


def _code(r: object) -> str:
    return str(r.json()["code"])  # type: ignore[attr-defined]


def test_members_join_by_invite_admins_remove_and_name(client: TestClient) -> None:
    code, keys = club_of(client, ["amy", "ben"])
    found = club(client, code)
    assert found["members"] == [
        {"handle": "amy", "name": "Amy", "role": "admin"},
        {"handle": "ben", "name": "Ben", "role": "member"},
    ]
    assert found["seasons"] == [] and found["nights"] == [] and found["standings"] is None
    cyd = profile(client, "cyd")
    assert client.post("/api/clubs", json={"name": "X"}).status_code == 401
    r = client.post(f"/api/clubs/{code}/invites", headers=bearer(keys["ben"]))
    assert r.status_code == 403 and _code(r) == "club_admin_only"
    token = invite(client, code, keys["amy"])
    r = client.post(f"/api/clubs/{code}/join", json={"invite": "nope"}, headers=bearer(cyd))
    assert r.status_code == 404 and _code(r) == "club_no_invite"
    other = open_club(client, cyd, "Another club")
    r = client.post(f"/api/clubs/{other}/join", json={"invite": token}, headers=bearer(keys["ben"]))
    assert r.status_code == 404  # an invite opens its own club only
    r = client.delete(f"/api/clubs/{code}/invites", headers=bearer(keys["amy"]))
    assert r.status_code == 200 and r.json() == {"revoked": 2}  # club_of's and this one
    r = client.post(f"/api/clubs/{code}/join", json={"invite": token}, headers=bearer(cyd))
    assert r.status_code == 410 and _code(r) == "club_invite_gone"
    assert [m["handle"] for m in club(client, code)["members"]] == ["amy", "ben"]
    assert join(client, code, cyd, invite(client, code, keys["amy"]))["role"] == "member"
    # Only an admin names admins and removes others; the last admin stays.
    r = client.post(f"/api/clubs/{code}/admins", json={"handle": "cyd"}, headers=bearer(cyd))
    assert r.status_code == 403
    r = client.delete(f"/api/clubs/{code}/members/ben", headers=bearer(cyd))
    assert r.status_code == 403
    r = client.delete(f"/api/clubs/{code}/members/amy", headers=bearer(keys["amy"]))
    assert r.status_code == 409 and _code(r) == "club_last_admin"
    r = client.post(
        f"/api/clubs/{code}/admins", json={"handle": "BEN"}, headers=bearer(keys["amy"])
    )
    assert r.status_code == 200 and r.json()["role"] == "admin"
    r = client.delete(f"/api/clubs/{code}/members/cyd", headers=bearer(keys["ben"]))
    assert r.status_code == 204
    r = client.delete(f"/api/clubs/{code}/members/cyd", headers=bearer(keys["ben"]))
    assert r.status_code == 404 and _code(r) == "club_not_a_member"
    assert client.delete(f"/api/clubs/{code}/members/amy", headers=bearer(keys["amy"])).is_success
    assert club(client, code)["members"] == [{"handle": "ben", "name": "Ben", "role": "admin"}]
    assert client.get("/api/clubs/zzzz9999").status_code == 404
    assert client.get("/api/clubs/bad%00code").status_code in (404, 422)
    r = client.post("/api/clubs", json={"name": "   "}, headers=bearer(cyd))
    assert r.status_code == 422


def _at_once(ctx: Context, code: str, starts: list[tuple[Any, str]], after: int) -> list[object]:
    """Each admin starts a season in their own thread, all at the same moment."""
    barrier = threading.Barrier(len(starts))
    outcome: list[object] = []

    def start(me: Any, name: str) -> None:
        barrier.wait()
        try:
            outcome.append(ctx.clubs.start_season(me, code, name, after))
        except errors.Conflict as err:
            outcome.append(err.reason.code)

    threads = [threading.Thread(target=start, args=s) for s in starts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcome


def test_two_admins_starting_a_season_at_once_start_one(client: TestClient) -> None:
    code, keys = club_of(client, ["dee", "eli"])
    client.post(f"/api/clubs/{code}/admins", json={"handle": "eli"}, headers=bearer(keys["dee"]))
    ctx: Context = client.app.state.ctx  # type: ignore[attr-defined]
    me = {h: ctx.players.signed_in(k) for h, k in keys.items()}
    for after, names in ((0, ("Spring", "Spring 2027")), (1, ("Summer", "Summer"))):
        starts = [(me[h], n) for h, n in zip(keys, names, strict=True)]
        outcome = _at_once(ctx, code, starts, after)
        assert outcome.count("club_season_changed") == 1, outcome
    seasons = club(client, code)["seasons"]
    assert [s["number"] for s in seasons] == [1, 2]
    assert seasons[0]["ended_at"] is not None and seasons[1]["ended_at"] is None
    # The same name again while it runs is the same season: refused.
    r = client.post(
        f"/api/clubs/{code}/seasons", json={"name": seasons[1]["name"]}, headers=bearer(keys["eli"])
    )
    assert r.status_code == 409
    r = client.post(f"/api/clubs/{code}/seasons", json={"name": "A"}, headers=bearer(keys["eli"]))
    assert r.status_code == 201 and r.json()["number"] == 3


def test_a_club_night_counts_in_its_season(client: TestClient, settings: Settings) -> None:
    handles = ["fay", "gus", "hal", "ida", "jan", "kim"]
    code, keys = club_of(client, handles)
    admin = keys["fay"]
    stranger = profile(client, "lou")
    body = {"name": "Friday", "club": code}
    r = client.post("/api/nights", json=body, headers=bearer(admin))
    assert r.status_code == 409 and _code(r) == "club_no_season"
    start_season(client, code, admin, "Spring")
    assert client.post("/api/nights", json=body, headers=bearer(keys["gus"])).status_code == 403
    assert client.post("/api/nights", json=body).status_code == 403
    assert (
        client.post(
            "/api/nights", json={**body, "club": "nope1234"}, headers=bearer(admin)
        ).status_code
        == 404
    )

    # Night 1: played by computer players to the end, one match.
    first, director = club_night(client, code, admin, options={"grace_s": 0, "match": 1})
    r = register_players(client, first, director, ["fay", "lou"])
    assert r.status_code == 422 and _code(r) == "club_not_a_member"
    assert register_players(client, first, director, ["fay", "gus"]).status_code == 201
    r = register_players(client, first, director, ["GUS", "hal"])
    assert r.status_code == 409 and _code(r) == "night_player_in_a_pair"
    assert register_players(client, first, director, ["hal", "ida"]).status_code == 201
    assert len(night(client, first)["pairs"]) == 2
    next_round(client, first, director)
    bots_everywhere(client, first, director)
    done = round_over(client, first)
    season = club(client, code)["standings"]
    assert season["nights"] == 1 and season["order"] == "wins_first"
    by_night = {s["pair"]: s for s in done["standings"]}
    names = {p["pair"]: p["names"] for p in done["pairs"]}
    for line in season["pairs"]:
        mine = next(n for n, two in names.items() if [p["name"] for p in line["players"]] == two)
        for column in (
            "wins",
            "losses",
            "bullseyes_for",
            "bullseyes_against",
            "hang_jacks_for",
            "hang_jacks_against",
            "chalk_difference",
        ):
            assert line[column] == by_night[mine][column], column
    assert {a["kind"] for a in season["awards"]} >= {"most_bullseyes"}

    # Night 2: the same pair fay+gus, a new one; results set by the director. A member is
    # removed mid-night: the night goes on and their games stay counted.
    second, director2 = club_night(client, code, admin, options={"grace_s": 0})
    for two in (["gus", "fay"], ["jan", "kim"]):
        assert register_players(client, second, director2, two).status_code == 201
    table = next_round(client, second, director2)["rounds"][0]["tables"][0]
    r = client.post(f"/api/nights/{second}/sit", headers=bearer(keys["jan"]))
    assert r.status_code == 200 and r.json()["room"] == table["room"]  # by profile, no link
    assert client.delete(f"/api/clubs/{code}/members/kim", headers=bearer(admin)).is_success
    r = client.post(
        f"/api/nights/{second}/tables/1/result",
        json={"bullseyes": [0, 2]},
        headers=bearer(director2),
    )
    assert r.status_code == 200, r.text
    found = club(client, code)
    assert [n["code"] for n in found["nights"]] == [first, second]
    assert [n["state"] for n in found["nights"]] == ["over", "over"]
    assert found["nights"][1]["winner"] == "Jan & Kim"
    season = found["standings"]
    assert season["nights"] == 2
    lines = {tuple(p["handle"] for p in x["players"]): x for x in season["pairs"]}
    assert set(lines) == {("fay", "gus"), ("hal", "ida"), ("jan", "kim")}
    fay_gus = lines[("fay", "gus")]
    assert fay_gus["nights"] == 2 and fay_gus["played"] == 2
    assert lines[("jan", "kim")]["wins"] == 1 and lines[("jan", "kim")]["bullseyes_for"] == 2
    players = {x["players"][0]["handle"]: x for x in season["players"]}
    assert players["kim"]["wins"] == 1  # removed, still counted
    assert players["fay"]["played"] == 2 and players["fay"]["nights"] == 2

    # A correction changes the season at once.
    r = client.post(
        f"/api/nights/{second}/tables/1/result",
        json={"bullseyes": [2, 1]},
        headers=bearer(director2),
    )
    assert r.status_code == 200
    season = club(client, code)["standings"]
    lines = {tuple(p["handle"] for p in x["players"]): x for x in season["pairs"]}
    assert lines[("jan", "kim")]["wins"] == 0 and lines[("jan", "kim")]["bullseyes_for"] == 1

    # The exports, and a restart that loses nothing.
    export = client.get(f"/api/clubs/{code}/seasons/1/export.json")
    assert export.status_code == 200
    inside = export.json()["nights"]
    assert [n["night"]["code"] for n in inside] == [first, second]
    assert inside[0]["games"] and inside[0]["games"][0]["record"]["seed"]  # the records
    assert export.json()["standings"] == season
    rows = list(csv.reader(io.StringIO(client.get(f"/api/clubs/{code}/seasons/1/export.csv").text)))
    assert rows[0][:4] == ["kind", "rank", "players", "nights"]
    assert (
        len([r for r in rows if r[0] == "pair"]) == 3
        and len([r for r in rows if r[0] == "player"]) == 6
    )
    assert client.get(f"/api/clubs/{code}/seasons/9/export.csv").status_code == 404
    with TestClient(create_app(settings)) as fresh:
        assert club(fresh, code) == club(client, code)

    # A new season starts empty; the old one keeps its nights.
    start_season(client, code, admin, "Summer")
    assert club(client, code)["standings"]["nights"] == 0
    assert client.get(f"/api/clubs/{code}/seasons/1/export.json").json()["standings"] == season
    assert stranger


def test_a_night_never_moves_between_clubs(client: TestClient) -> None:
    code, keys = club_of(client, ["max", "ned"])
    other, other_keys = club_of(client, ["ozz", "pat"], "Another club")
    start_season(client, code, keys["max"])
    start_season(client, other, other_keys["ozz"])
    night_code, director = club_night(client, code, keys["max"])
    move = {"night": night_code, "director_token": director}
    r = client.post(f"/api/clubs/{other}/nights", json=move, headers=bearer(other_keys["ozz"]))
    assert r.status_code == 409 and _code(r) == "night_in_a_club"
    r = client.post(f"/api/clubs/{code}/nights", json=move, headers=bearer(keys["max"]))
    assert r.status_code == 409  # not even into its own club again
    assert [n["code"] for n in club(client, code)["nights"]] == [night_code]
    assert club(client, other)["nights"] == []
    # A night opened without a club: its director, an admin, puts it in the running season.
    plain, plain_director = open_night(client)
    take = {"night": plain, "director_token": "not-the-token"}
    r = client.post(f"/api/clubs/{other}/nights", json=take, headers=bearer(other_keys["ozz"]))
    assert r.status_code == 403
    r = client.post(
        f"/api/clubs/{other}/nights",
        json={**take, "director_token": plain_director},
        headers=bearer(other_keys["pat"]),
    )
    assert r.status_code == 403 and _code(r) == "club_admin_only"
    r = client.post(
        f"/api/clubs/{other}/nights",
        json={**take, "night": "nope1234", "director_token": plain_director},
        headers=bearer(other_keys["ozz"]),
    )
    assert r.status_code == 404
    take["director_token"] = plain_director
    r = client.post(f"/api/clubs/{other}/nights", json=take, headers=bearer(other_keys["ozz"]))
    assert r.status_code == 201 and r.json() == {"night": plain, "season": 1}
    assert [n["code"] for n in club(client, other)["nights"]] == [plain]
    # Its pairs by handle are members now; a night without a club takes a profile only with
    # its player's consent (API.md § Fifth round): its director alone is nobody's say.
    r = register_players(client, plain, plain_director, ["ozz", "ned"])
    assert r.status_code == 422 and _code(r) == "club_not_a_member"
    island, island_director = open_night(client)
    r = register_players(client, island, island_director, ["ozz", "ned"])
    assert r.status_code == 403 and _code(r) == "no_consent", r.text


def test_an_erased_member_leaves_the_club_and_their_games_stay(client: TestClient) -> None:
    code, keys = club_of(client, ["uma", "vic", "wes", "xia"])
    start_season(client, code, keys["uma"])
    night_code, director = club_night(client, code, keys["uma"])
    for two in (["uma", "vic"], ["wes", "xia"]):
        assert register_players(client, night_code, director, two).status_code == 201
    next_round(client, night_code, director)
    r = client.post(
        f"/api/nights/{night_code}/tables/1/result",
        json={"bullseyes": [2, 0]},
        headers=bearer(director),
    )
    assert r.status_code == 200
    assert client.delete("/api/me", headers=bearer(keys["vic"])).status_code == 204
    found = club(client, code)
    assert "vic" not in [m["handle"] for m in found["members"]]
    first = found["standings"]["pairs"][0]
    assert first["wins"] == 1 and first["players"][0] == {"handle": "uma", "name": "Uma"}
    assert first["players"][1] == {"name": "Vic"}  # as played, no longer linked


TEXT = st.text(max_size=50)
BODIES = (
    st.none()
    | st.fixed_dictionaries(
        {},
        optional={
            "name": TEXT | st.integers(),
            "handle": TEXT,
            "invite": TEXT,
            "after": st.integers(-5, 10**12) | TEXT,
            "order": TEXT,
            "night": TEXT,
            "director_token": TEXT,
            "players": st.lists(TEXT, max_size=3),
            "club": TEXT,
        },
    )
    | st.recursive(st.integers() | TEXT, lambda c: st.lists(c) | st.dictionaries(TEXT, c))
)


def test_random_requests_on_a_live_club_never_get_a_server_error(client: TestClient) -> None:
    code, keys = club_of(client, ["yan", "zed"])
    start_season(client, code, keys["yan"])
    night_code, director = club_night(client, code, keys["yan"])
    paths = [
        ("post", "/api/clubs"),
        ("post", f"/api/clubs/{code}/invites"),
        ("delete", f"/api/clubs/{code}/invites"),
        ("post", f"/api/clubs/{code}/join"),
        ("post", f"/api/clubs/{code}/admins"),
        ("delete", f"/api/clubs/{code}/members/zed"),
        ("post", f"/api/clubs/{code}/seasons"),
        ("post", f"/api/clubs/{code}/nights"),
        ("post", "/api/nights"),
        ("post", f"/api/nights/{night_code}/pairs"),
        ("get", f"/api/clubs/{code}"),
        ("get", f"/api/clubs/{code}/seasons/1/export.csv"),
    ]

    @given(
        where=st.sampled_from(paths),
        body=BODIES,
        who=st.sampled_from([None, "pk.bad", keys["yan"], keys["zed"], director]),
    )
    @examples(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    def poke(where: tuple[str, str], body: Any, who: str | None) -> None:
        method, path = where
        headers = bearer(who) if who else {}
        r = client.request(method.upper(), path, json=body, headers=headers)
        assert r.status_code < 500, (where, body, r.text)

    poke()
    assert club(client, code)["code"] == code
