"""A rule holds on every path (API.md § Fifth round, issue #43): for bans, blocks and consent,
a table of the ways a person can reach the guarded thing, and a test that tries every row.
A new way in added without the rule fails here instead of waiting for a review. On SQLite and
PostgreSQL. (A claim takes one way, Rooms.claim_seat: a new profile's ``claim``; a sign-in,
by link or by passkey, claims nothing.)

Bans: a banned player takes no seat at a public table (403 ``banned``).

| path                 | how                                               | answer        |
|----------------------|---------------------------------------------------|---------------|
| json_join            | POST /api/rooms/{code}/join                       | 403 banned    |
| page_join            | POST /r/{code}/join (the page's form)             | 403 banned    |
| claim                | a guest seat claimed for the profile (Rooms.claim_seat) | 403 banned  |
| rematch              | POST /api/rooms/{code}/rematch at a public table  | 403 banned    |
| play_now             | POST /api/play, the /play form                    | 403 banned    |
| public_table_json    | POST /api/rooms with options.public               | 403 banned    |
| public_table_form    | POST /rooms with public=1                         | 403 banned    |

Blocks: two players one of whom blocked the other never sit at one table (409 ``blocked``).

| path                 | how                                               | answer        |
|----------------------|---------------------------------------------------|---------------|
| json_join            | POST /api/rooms/{code}/join                       | 409 blocked   |
| page_join            | POST /r/{code}/join                               | 409 blocked   |
| claim                | a guest seat claimed for the profile (Rooms.claim_seat) | 409 blocked |
| rematch              | POST /api/rooms/{code}/rematch                    | 409 blocked   |
| play_now             | POST /api/play                                    | another table |
| invitation           | POST /api/rooms/{code}/invite                     | 409 blocked   |
| night_json           | POST /api/nights/{code}/pairs, the two as a pair  | 409 blocked   |
| night_register_form  | POST /n/{code}/register                           | 409 blocked   |
| night_director_form  | POST /n/{code}/direct/pairs                       | 409 blocked   |
| sit                  | POST /api/nights/{code}/sit at the blocker's table| 409 blocked   |
| draw                 | a Swiss round's draw                              | other tables  |

Consent: a profile is registered in a club night by handle only by itself, a friend of
theirs, or (at that club's nights) an admin of a club they belong to (403 ``no_consent``).

| path                 | how                                               | answer          |
|----------------------|---------------------------------------------------|-----------------|
| night_json           | POST /api/nights/{code}/pairs                     | 403 no_consent  |
| night_register_form  | POST /n/{code}/register                           | 403 no_consent  |
| night_director_form  | POST /n/{code}/direct/pairs                       | 403 no_consent  |
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api.context import Context
from app.services import errors
from app.store import moderation_repo
from app.store.db import write
from tests.api.conftest import ADMIN
from tests.api.table import bearer, new_room, view
from tests.clubs.helpers import club_night, invite, join, open_club, start_season
from tests.night.helpers import open_night
from tests.players.test_profiles import make

Answer = tuple[int, str]  # the status, and the reason's code ("" for none)


def _ctx(client: TestClient) -> Context:
    ctx: Context = client.app.state.ctx  # type: ignore[attr-defined]
    return ctx


def _answer(r: Any) -> Answer:
    try:
        code = str(r.json().get("code", ""))
    except ValueError:  # a page
        code = ""
    return r.status_code, code


def _public_table(client: TestClient) -> str:
    r = client.post("/api/rooms", json={"options": {"public": True}})
    assert r.status_code == 201, r.text
    return str(r.json()["code"])


def _claim(client: TestClient, key: str, code: str) -> Answer:
    """A guest's seat at ``code`` claimed for the profile of ``key``: the one way every
    claim takes (Players.claim, claim_marks: making a profile, a passkey's sign-in)."""
    guest = client.post(f"/api/rooms/{code}/join", json={"name": "Guest"})
    assert guest.status_code == 200, guest.text
    ctx = _ctx(client)
    me = ctx.players.signed_in(key)
    assert me is not None and me.player.secret is not None
    try:
        ctx.rooms.claim_seat(
            code=code,
            token=guest.json()["token"],
            player=me.seat_player,
            name=me.player.name,
            fresh=me.seat_token(code),
        )
    except errors.ApiError as refused:
        status = 403 if isinstance(refused, errors.Forbidden) else 409
        return status, refused.code
    return 200, ""


def _holds_no_seat(client: TestClient, code: str, handle: str) -> None:
    players = [s.get("player") for s in view(client, code)["seats"] if s is not None]
    assert handle not in players, players


# -- bans ------------------------------------------------------------------------------------


def _banned(client: TestClient, handle: str) -> str:
    key = make(client, handle, handle.title())
    r = client.post(f"/api/admin/players/{handle}/ban", json={"reason": "t"}, headers=bearer(ADMIN))
    assert r.status_code == 200, r.text
    return key


def _ban_json_join(client: TestClient, key: str, handle: str) -> Answer:
    code = _public_table(client)
    r = client.post(f"/api/rooms/{code}/join", json={"name": "x"}, headers=bearer(key))
    _holds_no_seat(client, code, handle)
    return _answer(r)


def _ban_page_join(client: TestClient, key: str, handle: str) -> Answer:
    code = _public_table(client)
    r = client.post(f"/r/{code}/join", data={"seat": "1"}, headers=bearer(key))
    _holds_no_seat(client, code, handle)
    return r.status_code, "banned" if r.status_code == 403 else ""


def _ban_claim(client: TestClient, key: str, handle: str) -> Answer:
    code = _public_table(client)
    answer = _claim(client, key, code)
    _holds_no_seat(client, code, handle)
    return answer


def _ban_rematch(client: TestClient, key: str, handle: str) -> Answer:
    """Seated at a public table before the ban was written (no banishment yet): no new game
    seats them there."""
    other = make(client, handle + "_2", "Other")
    r = client.post(f"/api/admin/players/{handle}/unban", headers=bearer(ADMIN))
    assert r.status_code == 200
    code = _public_table(client)
    for k in (key, other):
        assert client.post(
            f"/api/rooms/{code}/join", json={"name": "x"}, headers=bearer(k)
        ).is_success
    me = _ctx(client).players.signed_in(key)
    assert me is not None
    with write(_ctx(client).engine) as conn:
        moderation_repo.put_ban(conn, me.player.id, "t", _now())
    return _answer(client.post(f"/api/rooms/{code}/rematch", headers=bearer(other)))


def _now() -> Any:
    from datetime import UTC, datetime

    return datetime.now(UTC)


def _ban_play_now(client: TestClient, key: str, handle: str) -> Answer:
    return _answer(client.post("/api/play", json={}, headers=bearer(key)))


def _ban_public_table_json(client: TestClient, key: str, handle: str) -> Answer:
    r = client.post("/api/rooms", json={"options": {"public": True}}, headers=bearer(key))
    return _answer(r)


def _ban_public_table_form(client: TestClient, key: str, handle: str) -> Answer:
    r = client.post("/rooms", data={"public": "true"}, headers=bearer(key), follow_redirects=False)
    return r.status_code, "banned" if r.status_code == 403 else ""


BAN_PATHS: dict[str, Callable[[TestClient, str, str], Answer]] = {
    "json_join": _ban_json_join,
    "page_join": _ban_page_join,
    "claim": _ban_claim,
    "rematch": _ban_rematch,
    "play_now": _ban_play_now,
    "public_table_json": _ban_public_table_json,
    "public_table_form": _ban_public_table_form,
}


@pytest.mark.parametrize("path", list(BAN_PATHS))
def test_a_banned_player_takes_no_public_seat_by_any_path(client: TestClient, path: str) -> None:
    handle = f"ban_{path}"[:20]
    key = _banned(client, handle)
    assert BAN_PATHS[path](client, key, handle) == (403, "banned")


def test_a_banned_player_still_sits_at_a_private_table(client: TestClient) -> None:
    """A ban is of public play: a private table, by the same paths, still seats them."""
    key = _banned(client, "ban_private")
    code = new_room(client)
    r = client.post(f"/api/rooms/{code}/join", json={"name": "x"}, headers=bearer(key))
    assert r.status_code == 200, r.text


def test_a_banned_player_rejoins_the_public_table_the_ban_took_them_from(
    client: TestClient,
) -> None:
    """What broke (review round 5, finding 3): after a ban had given a banned player's public
    seat to a computer player, POST /api/rooms/{code}/join seated him there again."""
    key = make(client, "ban_back", "Back")
    seated = client.post("/api/play", json={}, headers=bearer(key)).json()
    r = client.post("/api/admin/players/ban_back/ban", json={"reason": "t"}, headers=bearer(ADMIN))
    assert r.status_code == 200
    again = client.post(
        f"/api/rooms/{seated['code']}/join", json={"name": "d", "seat": 1}, headers=bearer(key)
    )
    assert _answer(again) == (403, "banned")
    _holds_no_seat(client, seated["code"], "ban_back")


# -- blocks ----------------------------------------------------------------------------------


class Pair:
    """Two profiles, the first of whom blocked the second; and a third, a friend of each."""

    def __init__(self, client: TestClient, tag: str) -> None:
        self.a, self.b, self.c, self.d = (f"{tag}_{x}"[:20] for x in "abcd")
        self.keys = {h: make(client, h, h.title()) for h in (self.a, self.b, self.c, self.d)}
        for one, two in ((self.a, self.c), (self.b, self.d)):
            _befriend(client, self.keys[one], two)
            _befriend(client, self.keys[two], one)
        r = client.post(
            "/api/me/blocks", json={"handle": self.b}, headers=bearer(self.keys[self.a])
        )
        assert r.status_code == 204, r.text


def _befriend(client: TestClient, key: str, handle: str) -> None:
    r = client.post("/api/me/friends", json={"handle": handle}, headers=bearer(key))
    assert r.status_code == 200, r.text


def _table_of(client: TestClient, key: str, public: bool = False) -> str:
    code = _public_table(client) if public else new_room(client)
    r = client.post(f"/api/rooms/{code}/join", json={"name": "x"}, headers=bearer(key))
    assert r.status_code == 200, r.text
    return code


def _block_json_join(client: TestClient, p: Pair) -> Answer:
    code = _table_of(client, p.keys[p.a])
    r = client.post(f"/api/rooms/{code}/join", json={"name": "x"}, headers=bearer(p.keys[p.b]))
    return _answer(r)


def _block_page_join(client: TestClient, p: Pair) -> Answer:
    code = _table_of(client, p.keys[p.a])
    r = client.post(f"/r/{code}/join", data={"seat": "2"}, headers=bearer(p.keys[p.b]))
    _holds_no_seat(client, code, p.b)
    return r.status_code, "blocked" if r.status_code == 409 else ""


def _block_claim(client: TestClient, p: Pair) -> Answer:
    """What broke (review round 5, finding 2): the blocked one sat down as a guest, then the
    seat was claimed for the profile: both sat at one table under their profiles."""
    code = _table_of(client, p.keys[p.a])
    answer = _claim(client, p.keys[p.b], code)
    _holds_no_seat(client, code, p.b)
    return answer


def _block_rematch(client: TestClient, p: Pair) -> Answer:
    code = new_room(client)
    for h in (p.c, p.a):
        r = client.post(f"/api/rooms/{code}/join", json={"name": "x"}, headers=bearer(p.keys[h]))
        assert r.status_code == 200
    # The blocked one had sat down before the block (a friend's table): unblocked, seated,
    # blocked again.
    client.delete(f"/api/me/blocks/{p.b}", headers=bearer(p.keys[p.a]))
    assert client.post(
        f"/api/rooms/{code}/join", json={"name": "x"}, headers=bearer(p.keys[p.b])
    ).is_success
    client.post("/api/me/blocks", json={"handle": p.b}, headers=bearer(p.keys[p.a]))
    return _answer(client.post(f"/api/rooms/{code}/rematch", headers=bearer(p.keys[p.c])))


def _block_play_now(client: TestClient, p: Pair) -> Answer:
    first = client.post("/api/play", json={}, headers=bearer(p.keys[p.a])).json()
    second = client.post("/api/play", json={}, headers=bearer(p.keys[p.b])).json()
    assert first["code"] != second["code"]
    return 409, "blocked"  # kept apart: another table


def _block_invitation(client: TestClient, p: Pair) -> Answer:
    code = _table_of(client, p.keys[p.a])
    r = client.post(f"/api/rooms/{code}/invite", json={"handle": p.b}, headers=bearer(p.keys[p.a]))
    return _answer(r)


def _club_night_of(client: TestClient, p: Pair) -> tuple[str, str, str]:
    """A club whose admin is c, with a and b as members; its night's code and director."""
    admin = p.keys[p.c]
    club = open_club(client, admin)
    for h in (p.a, p.b):
        join(client, club, p.keys[h], invite(client, club, admin))
    start_season(client, club, admin)
    night, director = club_night(client, club, admin)
    return night, director, admin


def _block_night_json(client: TestClient, p: Pair) -> Answer:
    night, _, admin = _club_night_of(client, p)
    body = {"names": ["x", "y"], "handles": [p.a, p.b]}
    return _answer(client.post(f"/api/nights/{night}/pairs", json=body, headers=bearer(admin)))


def _block_night_register_form(client: TestClient, p: Pair) -> Answer:
    night, _, admin = _club_night_of(client, p)
    data = {"first": f"@{p.a}", "second": f"@{p.b}"}
    r = client.post(f"/n/{night}/register", data=data, headers=bearer(admin))
    return r.status_code, "blocked" if r.status_code == 409 else ""


def _block_night_director_form(client: TestClient, p: Pair) -> Answer:
    night, director, admin = _club_night_of(client, p)
    client.get(f"/n/{night}/d/{director}")  # the director's cookie
    data = {"first": f"@{p.a}", "second": f"@{p.b}"}
    r = client.post(f"/n/{night}/direct/pairs", data=data, headers=bearer(admin))
    client.cookies.clear()
    return r.status_code, "blocked" if r.status_code == 409 else ""


def _night_of_two_pairs(client: TestClient, p: Pair, **options: Any) -> tuple[str, str]:
    """a with c, b with d (each registered by themself, with a friend): a night to sit at."""
    code, director = open_night(client, options={"grace_s": 0}, **options)
    for one, two in ((p.a, p.c), (p.b, p.d)):
        body = {"names": ["x", "y"], "handles": [one, two]}
        r = client.post(f"/api/nights/{code}/pairs", json=body, headers=bearer(p.keys[one]))
        assert r.status_code == 201, r.text
    return code, director


def _block_sit(client: TestClient, p: Pair) -> Answer:
    code, director = _night_of_two_pairs(client, p)
    r = client.post(f"/api/nights/{code}/rounds", headers=bearer(director))
    assert r.status_code == 201, r.text  # one table: no other draw
    assert client.post(f"/api/nights/{code}/sit", headers=bearer(p.keys[p.a])).is_success
    return _answer(client.post(f"/api/nights/{code}/sit", headers=bearer(p.keys[p.b])))


def _block_draw(client: TestClient, p: Pair) -> Answer:
    """Four pairs in a Swiss night: the two with a block between them at different tables."""
    code, director = open_night(client, format="swiss_knockout", options={"grace_s": 0})
    for one, two in ((p.a, p.c), (p.b, p.d)):
        body = {"names": ["x", "y"], "handles": [one, two]}
        r = client.post(f"/api/nights/{code}/pairs", json=body, headers=bearer(p.keys[one]))
        assert r.status_code == 201, r.text
    for names in (["e", "f"], ["g", "h"]):
        r = client.post(f"/api/nights/{code}/pairs", json={"names": names})
        assert r.status_code == 201, r.text
    r = client.post(f"/api/nights/{code}/rounds", headers=bearer(director))
    assert r.status_code == 201, r.text
    tables = r.json()["rounds"][0]["tables"]
    together = [t for t in tables if {t["pairs"][0], t["pairs"][1]} == {1, 2}]
    return (409, "blocked") if not together else (200, "")


BLOCK_PATHS: dict[str, Callable[[TestClient, Pair], Answer]] = {
    "json_join": _block_json_join,
    "page_join": _block_page_join,
    "claim": _block_claim,
    "rematch": _block_rematch,
    "play_now": _block_play_now,
    "invitation": _block_invitation,
    "night_json": _block_night_json,
    "night_register_form": _block_night_register_form,
    "night_director_form": _block_night_director_form,
    "sit": _block_sit,
    "draw": _block_draw,
}


@pytest.mark.parametrize("path", list(BLOCK_PATHS))
def test_two_players_kept_apart_never_sit_together_by_any_path(
    client: TestClient, path: str
) -> None:
    pair = Pair(client, f"bk{list(BLOCK_PATHS).index(path)}")
    assert BLOCK_PATHS[path](client, pair) == (409, "blocked")


# -- consent ---------------------------------------------------------------------------------


def _consent_json(client: TestClient, night: str, director: str, key: str, target: str) -> Answer:
    body = {"names": ["x", "y"], "handles": [target, None]}
    return _answer(client.post(f"/api/nights/{night}/pairs", json=body, headers=bearer(key)))


def _consent_register_form(
    client: TestClient, night: str, director: str, key: str, target: str
) -> Answer:
    data = {"first": f"@{target}", "second": "Guest"}
    r = client.post(f"/n/{night}/register", data=data, headers=bearer(key))
    return r.status_code, "no_consent" if r.status_code == 403 else ""


def _consent_director_form(
    client: TestClient, night: str, director: str, key: str, target: str
) -> Answer:
    client.get(f"/n/{night}/d/{director}")  # the director's cookie
    data = {"first": f"@{target}", "second": "Guest"}
    r = client.post(f"/n/{night}/direct/pairs", data=data, headers=bearer(key))
    client.cookies.clear()
    return r.status_code, "no_consent" if r.status_code == 403 else ""


CONSENT_PATHS: dict[str, Callable[[TestClient, str, str, str, str], Answer]] = {
    "night_json": _consent_json,
    "night_register_form": _consent_register_form,
    "night_director_form": _consent_director_form,
}


@pytest.mark.parametrize("path", list(CONSENT_PATHS))
def test_a_stranger_registers_nobody_by_handle_by_any_path(client: TestClient, path: str) -> None:
    """What broke (review round 5, finding 6): anyone registered any profile by handle, and
    the club-member check was on the JSON route only."""
    n = list(CONSENT_PATHS).index(path)
    target, stranger = make(client, f"cs{n}_t", "Target"), make(client, f"cs{n}_s", "Stranger")
    night, director = open_night(client)
    answer = CONSENT_PATHS[path](client, night, director, stranger, f"cs{n}_t")
    assert answer == (403, "no_consent")
    assert client.get(f"/api/nights/{night}").json()["pairs"] == []
    # Themself, and a friend, may.
    me = make(client, f"cs{n}_m", "Me")
    assert CONSENT_PATHS[path](client, night, director, me, f"cs{n}_m")[0] in (200, 201)
    friend = make(client, f"cs{n}_f", "Friend")
    _befriend(client, friend, f"cs{n}_t")
    _befriend(client, target, f"cs{n}_f")
    assert CONSENT_PATHS[path](client, night, director, friend, f"cs{n}_t")[0] in (200, 201)
    assert len(client.get(f"/api/nights/{night}").json()["pairs"]) == 2


def test_a_clubs_admin_registers_its_members_and_nobody_else(client: TestClient) -> None:
    """At a club's night its admin registers a member by handle (consent by the club); a
    player outside the club: 422 club_not_a_member, by the JSON route and both forms."""
    admin, member, outsider = (make(client, h, h.title()) for h in ("cc_adm", "cc_mem", "cc_out"))
    del outsider
    club = open_club(client, admin)
    join(client, club, member, invite(client, club, admin))
    start_season(client, club, admin)
    night, director = club_night(client, club, admin)
    for path, run in CONSENT_PATHS.items():
        status, _ = run(client, night, director, admin, "cc_out")
        assert status == 422, path
    assert _consent_json(client, night, director, admin, "cc_mem") == (201, "")
