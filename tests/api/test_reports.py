"""Reports and bans (API.md § Fourth round, *Reports*): a player who sat at a table reports
another from it, the report keeping the room's chat and records as they were, even once the
room is gone; a stranger to the table is refused (403), a flood of reports too (429); the
admin lists the reports and bans and unbans a player."""

from __future__ import annotations

import itertools
import threading
from typing import Any

from fastapi.testclient import TestClient

from app.main import create_app
from app.services import moderation
from app.services.moderation import REPORTS_PER_HOUR
from app.settings import Settings
from tests.api.conftest import ADMIN
from tests.api.table import bearer, new_room

_numbers = itertools.count()


def player(client: TestClient, name: str = "Ann") -> tuple[str, str]:
    """A new profile: (handle, key). Handles are new in each test (the database is the
    module's)."""
    handle = f"{name.lower()}_{next(_numbers)}_{id(client) % 997}"
    r = client.post("/api/players", json={"handle": handle, "name": name})
    assert r.status_code == 201, r.text
    return handle, str(r.json()["key"])


def sit(client: TestClient, code: str, key: str) -> None:
    r = client.post(f"/api/rooms/{code}/join", json={"name": "Guest"}, headers=bearer(key))
    assert r.status_code == 200, r.text


def report(client: TestClient, key: str | None, **body: Any) -> Any:
    headers = bearer(key) if key else {}
    return client.post(
        "/api/reports", json={"reason": "abuse", "text": "rude", **body}, headers=headers
    )


def admin_reports(client: TestClient) -> list[dict[str, Any]]:
    r = client.get("/api/admin/reports?limit=200", headers=bearer(ADMIN))
    assert r.status_code == 200, r.text
    found: list[dict[str, Any]] = r.json()["reports"]
    return found


def test_a_player_at_the_table_reports_and_the_report_keeps_chat_and_records(
    client: TestClient,
) -> None:
    ann, ann_key = player(client, "Ann")
    ben, ben_key = player(client, "Ben")
    code = new_room(client)
    sit(client, code, ann_key)
    sit(client, code, ben_key)
    said = client.post(
        f"/api/rooms/{code}/chat", json={"text": "you <b>cheat</b>"}, headers=bearer(ben_key)
    )
    assert said.status_code == 201, said.text
    for seat in (2, 3):
        client.post(f"/api/rooms/{code}/bots", json={"seat": seat}, headers=bearer(ann_key))
    started = client.post(f"/api/rooms/{code}/start", headers=bearer(ann_key))  # the host
    assert started.status_code == 200, started.text
    record = client.get(f"/api/rooms/{code}/games/1").json()

    r = report(
        client, ann_key, handle=ben.upper(), room=code, reason="cheating", text="  He\nreneged  "
    )
    assert r.status_code == 201, r.text
    made = r.json()
    assert (made["handle"], made["room"], made["reason"], made["text"]) == (
        ben,
        code,
        "cheating",
        "He reneged",
    )

    # The room goes (the admin closes it): the report still has what it kept.
    assert client.post(f"/api/admin/rooms/{code}/close", headers=bearer(ADMIN)).status_code == 200
    kept = next(k for k in admin_reports(client) if k["id"] == made["id"])
    assert (kept["reporter"], kept["handle"], kept["banned"]) == (ann, ben, False)
    assert [m["text"] for m in kept["chat"]] == ["you <b>cheat</b>"]
    assert len(kept["records"]) == 1
    assert kept["records"][0]["seed_commitment"] == record["seed_commitment"]
    assert kept["records"][0].get("seed") is None  # a game in play: no seed, as the API shows


def test_who_may_report_and_what(client: TestClient) -> None:
    ann, ann_key = player(client, "Ann")
    ben, ben_key = player(client, "Ben")
    _, stranger_key = player(client, "Cal")
    code = new_room(client)
    sit(client, code, ann_key)
    sit(client, code, ben_key)
    refusals = [
        (report(client, None, handle=ben, room=code), 401, "player_key_needed"),
        (report(client, stranger_key, handle=ben, room=code), 403, "not_at_table"),
        (report(client, ann_key, handle="nobody_here", room=code), 404, "no_player"),
        (report(client, ann_key, handle="N O", room=code), 404, "no_player"),
        (report(client, ann_key, handle=ben, room="zzzzzz"), 404, "no_room"),
        (report(client, ann_key, handle=ann, room=code), 422, "report_self"),
        (report(client, ann_key, handle=ben, room=code, text="   "), 422, "text_empty"),
        (report(client, ann_key, handle=ben, room=code, text="x" * 501), 422, "text_too_long"),
    ]
    for answer, status, code_ in refusals:
        assert answer.status_code == status, answer.text
        assert answer.json()["code"] == code_, answer.text
    wrong_reason = report(client, ann_key, handle=ben, room=code, reason="ugly")
    assert wrong_reason.status_code == 422
    assert not [k for k in admin_reports(client) if k["room"] == code]


def test_a_flood_of_reports_is_refused(client: TestClient) -> None:
    ann, ann_key = player(client, "Ann")
    ben, ben_key = player(client, "Ben")
    code = new_room(client)
    sit(client, code, ann_key)
    sit(client, code, ben_key)
    for _ in range(REPORTS_PER_HOUR):
        assert report(client, ann_key, handle=ben, room=code).status_code == 201
    flood = report(client, ann_key, handle=ben, room=code)
    assert flood.status_code == 429, flood.text
    assert flood.json()["code"] == "too_many_reports"
    # Another player is not held back by Ann's flood.
    assert report(client, ben_key, handle=ann, room=code).status_code == 201
    assert len([k for k in admin_reports(client) if k["room"] == code]) == REPORTS_PER_HOUR + 1


def test_the_admin_bans_and_unbans_a_player(client: TestClient, settings: Settings) -> None:
    ben, ben_key = player(client, "Ben")
    engine = client.app.state.ctx.engine  # type: ignore[attr-defined]
    me = client.app.state.ctx.players.signed_in(ben_key)  # type: ignore[attr-defined]
    assert moderation.banned(engine, me.player.id) is False

    path = f"/api/admin/players/{ben.upper()}/ban"
    assert client.post(path, json={"reason": "cheating"}).status_code == 401
    assert client.post(path, json={"reason": "x"}, headers=bearer("nope")).status_code == 403
    assert client.post(path, json={"reason": ""}, headers=bearer(ADMIN)).status_code == 422
    r = client.post(path, json={"reason": "reneged on purpose"}, headers=bearer(ADMIN))
    assert r.status_code == 200, r.text
    assert (r.json()["handle"], r.json()["banned"], r.json()["reason"]) == (
        ben,
        True,
        "reneged on purpose",
    )
    assert moderation.banned(engine, me.player.id) is True
    again = client.post(path, json={"reason": "and again"}, headers=bearer(ADMIN))
    assert again.status_code == 200 and again.json()["reason"] == "and again"
    assert moderation.bans(engine)[0]["reason"] == "and again"

    unban = f"/api/admin/players/{ben}/unban"
    assert client.post(unban).status_code == 401
    r = client.post(unban, headers=bearer(ADMIN))
    assert r.status_code == 200 and r.json() == {
        "handle": ben,
        "banned": False,
        "reason": None,
        "at": None,
        "by": None,
    }
    assert moderation.banned(engine, me.player.id) is False
    assert client.post(unban, headers=bearer(ADMIN)).status_code == 200  # not banned: the same
    missing = client.post(
        "/api/admin/players/nobody_here/ban", json={"reason": "x"}, headers=bearer(ADMIN)
    )
    assert missing.status_code == 404 and missing.json()["code"] == "no_player"


def test_reports_need_the_admin_token(client: TestClient, database_url: str) -> None:
    assert client.get("/api/admin/reports").status_code == 401
    assert client.get("/api/admin/reports", headers=bearer("nope")).status_code == 403
    off = Settings(database_url=database_url, rate_limit=0)
    with TestClient(create_app(off)) as no_admin:
        assert no_admin.get("/api/admin/reports", headers=bearer("x")).status_code == 403


def test_a_burst_of_reports_at_once_is_held_to_the_limit(client: TestClient) -> None:
    _, ann_key = player(client, "Ann")
    ben, ben_key = player(client, "Ben")
    code = new_room(client)
    sit(client, code, ann_key)
    sit(client, code, ben_key)
    statuses: list[int] = []
    lock = threading.Lock()
    start = threading.Barrier(12)

    def send() -> None:
        start.wait()
        status = report(client, ann_key, handle=ben, room=code).status_code
        with lock:
            statuses.append(status)

    threads = [threading.Thread(target=send) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [201] * REPORTS_PER_HOUR + [429] * (12 - REPORTS_PER_HOUR)


def test_two_bans_at_once_are_one_ban(client: TestClient) -> None:
    ben, _ = player(client, "Ben")
    statuses: list[int] = []
    start = threading.Barrier(8)

    def ban() -> None:
        start.wait()
        r = client.post(
            f"/api/admin/players/{ben}/ban", json={"reason": "burst"}, headers=bearer(ADMIN)
        )
        statuses.append(r.status_code)

    threads = [threading.Thread(target=ban) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses == [200] * 8
    engine = client.app.state.ctx.engine  # type: ignore[attr-defined]
    assert [b["handle"] for b in moderation.bans(engine)].count(ben) == 1
