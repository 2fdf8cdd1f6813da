"""The review of a game through the API (API.md "The review of a game"), on both databases:
nothing before game over (409), asked once and kept, done by a worker that claims it like a
lease (a second claimer gets nothing, a dead worker's review is taken over), the same game in
another room shares it. Few imagined deals (``review_worlds``) keep it quick."""

from __future__ import annotations

import multiprocessing
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api.profile_schemas import ProfileOut
from app.api.review_schemas import HintOut, ReviewAsked, ReviewOut
from app.main import create_app
from app.services import review_worker
from app.services.review_worker import work_once
from app.services.reviews import lease_until, utcnow
from app.settings import ReviewSpeed, Settings, SettingsError, load_settings
from app.store import review_repo
from app.store.db import make_engine, read, write
from tests.api.conftest import app_settings
from tests.api.table import bearer, new_room, play_random, seat_four, view
from tests.players.test_careers import play_games, seat_players
from tests.players.test_profiles import make

Json = dict[str, Any]
WORLDS = 4


@pytest.fixture
def settings(database_url: str) -> Settings:
    return app_settings(database_url, review_worlds=WORLDS, review_workers=0)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as c:
        yield c


def started(client: TestClient, seed: int) -> tuple[str, list[str]]:
    code = new_room(client, {"rules": {"target": 7}})
    tokens = seat_four(client, code)
    r = client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    assert r.status_code == 200, r.text
    return code, tokens


def finished(client: TestClient, seed: int) -> tuple[str, list[str]]:
    code, tokens = started(client, seed)
    play_random(client, code, tokens, random.Random(seed), check=False)
    return code, tokens


def ask(client: TestClient, code: str, g: int = 1) -> str:
    r = client.post(f"/api/rooms/{code}/games/{g}/review")
    assert r.status_code == 202, r.text
    ReviewAsked.model_validate(r.json(), strict=True)
    state: str = r.json()["state"]
    return state


def review(client: TestClient, code: str, g: int = 1) -> Json:
    r = client.get(f"/api/rooms/{code}/games/{g}/review")
    assert r.status_code == 200, r.text
    assert r.headers["cache-control"] == "no-store"
    out: Json = r.json()
    ReviewOut.model_validate(out, strict=True)
    return out


def drain(url: str) -> int:
    """Every waiting review done here, as a worker process would: how many."""
    engine = make_engine(url)
    try:
        done = 0
        while work_once(engine, "test-worker", WORLDS):
            done += 1
        return done
    finally:
        engine.dispose()


def test_nothing_before_game_over_and_unknown_games_are_404(client: TestClient) -> None:
    code, _ = started(client, 1)
    for method in (client.post, client.get):
        r = method(f"/api/rooms/{code}/games/1/review")
        assert r.status_code == 409, r.text
        assert r.json()["code"] == "review_not_yet"
        assert "decisions" not in r.json()
        assert method(f"/api/rooms/{code}/games/2/review").status_code == 404
        assert method("/api/rooms/NOPE-NOPE/games/1/review").status_code in (404, 422)


def test_a_finished_game_is_reviewed_once_and_kept(client: TestClient, database_url: str) -> None:
    code, _ = finished(client, 2)
    r = client.get(f"/api/rooms/{code}/games/1/review")
    assert r.status_code == 404 and r.json()["code"] == "review_not_asked"
    assert ask(client, code) == "queued"
    assert ask(client, code) == "queued"  # asked twice: one review
    waiting = review(client, code)
    assert waiting == {"state": "queued", "progress": 0}
    assert drain(database_url) == 1
    assert drain(database_url) == 0  # never twice
    done = review(client, code)
    assert done["state"] == "done" and done["progress"] == 1
    record = client.get(f"/api/rooms/{code}/games/1").json()
    moves = [
        a
        for a in record["actions"]
        if a["type"] in ("stand", "beg", "give_one", "run_pack", "play")
    ]
    decisions = done["decisions"]
    assert len(decisions) == len(moves)
    for d, a in zip(decisions, moves, strict=True):
        assert d["seat"] == a["seat"]
        assert d["action"] == (a["card"] if a["type"] == "play" else a["type"])
        assert d["loss"] >= 0
        assert d["loss"] == 0 or d["best"] != d["action"]
    seats = done["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2, 3]
    assert sum(s["decisions"] for s in seats) == len(decisions)
    for s in seats:
        losses = [d["loss"] for d in decisions if d["seat"] == s["seat"]]
        assert s["costly"] == sum(1 for x in losses if x >= 0.25)
    assert ask(client, code) == "done"
    assert review(client, code) == done


def test_the_same_game_in_another_room_shares_its_review(
    client: TestClient, database_url: str
) -> None:
    code, tokens = finished(client, 3)
    ask(client, code)
    drain(database_url)
    first = review(client, code)
    r = client.post(f"/api/rooms/{code}/games/1/again", headers=bearer(tokens[0]))
    assert r.status_code == 201, r.text
    again = r.json()["code"]
    seats = seat_four(client, again)
    assert client.post(f"/api/rooms/{again}/start", headers=bearer(seats[0])).status_code == 200
    for a in client.get(f"/api/rooms/{code}/games/1").json()["actions"]:
        v = view(client, again)
        move = {"type": a["type"], "version": v["version"]}
        if a["card"] is not None:
            move["card"] = a["card"]
        r = client.post(f"/api/rooms/{again}/actions", json=move, headers=bearer(seats[a["seat"]]))
        assert r.status_code == 200, r.text
    assert ask(client, again) == "done"
    assert review(client, again) == first


def test_a_review_is_claimed_by_one_worker_and_taken_over_when_its_lease_ran_out(
    client: TestClient, database_url: str
) -> None:
    code, _ = finished(client, 4)
    ask(client, code)
    engine = make_engine(database_url)
    try:
        now = utcnow()
        with write(engine) as conn:
            (review_id,) = review_repo.waiting(conn, now)
            mine = review_repo.claim(conn, review_id, "a", now, lease_until(now))
            assert mine is not None and mine.state == "running"
            assert review_repo.claim(conn, review_id, "b", now, lease_until(now)) is None
        assert review(client, code)["state"] == "running"
        later = now + timedelta(seconds=120)  # a's lease has run out: a died
        with write(engine) as conn:
            assert review_repo.waiting(conn, later) == [review_id]
            assert review_repo.claim(conn, review_id, "b", later, lease_until(later)) is not None
            assert not review_repo.advance(conn, review_id, "a", 0.5, later, lease_until(later))
            assert review_repo.finish(conn, review_id, "b", {"decisions": [], "seats": []}, later)
            assert not review_repo.finish(conn, review_id, "a", {}, later)
        with read(engine) as conn:
            row = review_repo.by_key(conn, mine.key)
        assert (
            row is not None and row.state == "done" and row.result == {"decisions": [], "seats": []}
        )
    finally:
        engine.dispose()


def test_a_worker_process_started_with_the_app_does_the_review(database_url: str) -> None:
    settings = app_settings(database_url, review_worlds=WORLDS, review_workers=1)
    with TestClient(create_app(settings)) as client:
        code, _ = finished(client, 5)
        ask(client, code)
        deadline = time.monotonic() + 300  # a bound on a hang, not a measure of speed
        while (out := review(client, code))["state"] != "done":
            assert time.monotonic() < deadline, out
            assert 0 <= out["progress"] <= 1
            time.sleep(0.2)
        assert out["decisions"] and len(out["seats"]) == 4


@pytest.mark.parametrize(
    ("lie_low", "speed"), [(False, "lie-low"), (True, "lie-low"), (True, "full")]
)
def test_a_review_test_needs_no_idle_machine(
    database_url: str, lie_low: bool, speed: ReviewSpeed
) -> None:
    """A review test failed in a busy run: its worker, under SCHED_IDLE, got no CPU while the
    other lane kept both cores busy. ALLFOURS_REVIEW_LIE_LOW=0 (the tests' servers) keeps the
    worker at the usual priority; on (the default) it still lies low. At full speed
    (ALLFOURS_REVIEW_SPEED=full, issue #47) it never lies low, whatever the priority switch."""
    settings = app_settings(database_url, review_worlds=WORLDS, review_workers=0)
    with TestClient(create_app(settings)) as client:
        code, _ = finished(client, 6)
        ask(client, code)
        workers = review_worker.ReviewWorkers(database_url, WORLDS, 1, lie_low=lie_low, speed=speed)
        try:
            workers.ensure()
            deadline = time.monotonic() + 300  # a bound on a hang, not a measure of speed
            while (out := review(client, code))["state"] != "done":
                assert time.monotonic() < deadline, out
                time.sleep(0.2)
            (pid,) = workers.pids  # it reviewed, so it has set its priority
            idle = getattr(os, "SCHED_IDLE", None)
            policy = os.sched_getscheduler(pid)
            if lie_low and speed == "lie-low":
                assert idle is None or policy == idle, policy
            else:
                assert policy == os.SCHED_OTHER, policy
                assert os.getpriority(os.PRIO_PROCESS, pid) == os.getpriority(os.PRIO_PROCESS, 0)
        finally:
            workers.stop()


def test_hints_for_the_seat_on_turn_at_a_table_that_gives_them(client: TestClient) -> None:
    code = new_room(client, {"options": {"hints": True}})
    tokens = seat_four(client, code)
    assert view(client, code)["options"]["hints"] is True
    r = client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    assert r.status_code == 200, r.text
    for _ in range(6):  # a bid or two, then cards
        v = view(client, code)
        turn = v["turn"]
        mine = view(client, code, tokens[turn])
        r = client.get(f"/api/rooms/{code}/hint", headers=bearer(tokens[turn]))
        assert r.status_code == 200, r.text
        HintOut.model_validate(r.json(), strict=True)
        hint = r.json()
        legal = [a.get("card") or a["type"] for a in mine["legal"]]
        assert hint["action"] in legal and hint["why"]
        other = client.get(f"/api/rooms/{code}/hint", headers=bearer(tokens[(turn + 1) % 4]))
        assert other.status_code == 403 and other.json()["code"] == "not_your_turn"
        move = next(a for a in mine["legal"] if (a.get("card") or a["type"]) == hint["action"])
        r = client.post(
            f"/api/rooms/{code}/actions",
            json={**move, "version": v["version"]},
            headers=bearer(tokens[turn]),
        )
        assert r.status_code == 200, r.text
    assert client.get(f"/api/rooms/{code}/hint").status_code == 401
    plain, plain_tokens = started(client, 6)
    r = client.get(f"/api/rooms/{plain}/hint", headers=bearer(plain_tokens[0]))
    assert r.status_code == 409 and r.json()["code"] == "hints_off"
    assert "hints" not in view(client, plain)["options"]


def test_a_game_with_hints_is_never_rated(client: TestClient) -> None:
    keys = [make(client, h) for h in ("h_ann", "h_ben", "h_cal", "h_dee")]
    code = new_room(client, {"rules": {"target": 7}, "options": {"hints": True}})
    tokens = seat_players(client, code, keys)
    (record,) = play_games(client, code, tokens, 1, seed=7)
    assert record["rated"] is False and record["ratings"] is None


def test_the_table_page_offers_a_hint_at_a_practice_table(client: TestClient) -> None:
    r = client.post("/rooms", data={"preset": "quick", "hints": "true"}, follow_redirects=False)
    assert r.status_code == 303, r.text
    code = r.headers["location"].rsplit("/", 1)[-1]
    assert view(client, code)["options"]["hints"] is True
    tokens = seat_four(client, code)
    assert client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0])).status_code == 200
    turn = view(client, code)["turn"]
    client.cookies.set("allfours_seat", tokens[turn])
    page = client.get(f"/r/{code}")
    assert 'data-action="hint"' in page.text
    line = client.get(f"/r/{code}/hint")
    assert line.status_code == 200 and line.text.startswith("Hint: ")
    assert line.headers["content-type"].startswith("text/html")
    client.cookies.set("allfours_seat", tokens[(turn + 1) % 4])
    assert 'data-action="hint"' not in client.get(f"/r/{code}").text  # not their turn
    client.cookies.clear()
    r = client.post("/rooms", data={"preset": "quick"}, follow_redirects=False)
    plain = r.headers["location"].rsplit("/", 1)[-1]
    assert "hints" not in view(client, plain)["options"]


def test_a_profile_shows_the_average_loss_of_its_reviewed_games(
    client: TestClient, database_url: str
) -> None:
    keys = [make(client, h) for h in ("r_ann", "r_ben", "r_cal", "r_dee")]
    code = new_room(client, {"rules": {"target": 7}})
    tokens = seat_players(client, code, keys)
    play_games(client, code, tokens, 1, seed=8)
    before = client.get("/api/players/r_ben").json()
    assert before["average_loss"] is None and before["recent"][0]["average_loss"] is None
    ask(client, code)
    drain(database_url)
    seats = review(client, code)["seats"]
    for seat, handle in enumerate(("r_ann", "r_ben", "r_cal", "r_dee")):
        found = client.get(f"/api/players/{handle}")
        ProfileOut.model_validate(found.json(), strict=True)
        assert found.json()["recent"][0]["average_loss"] == seats[seat]["average_loss"]
        assert found.json()["average_loss"] == seats[seat]["average_loss"]
    page = client.get("/p/r_ben")
    assert 'data-stat="average_loss"' in page.text


def test_the_computers_moves_for_an_away_player_are_marked_covered(database_url: str) -> None:
    """Ann never moves: the turn timer (30 s scaled to 0.3 s) decides for her every time.
    Her seat's decisions are reviewed, marked ``covered``: not counted as hers."""
    settings = app_settings(
        database_url, review_worlds=WORLDS, review_workers=0, turn_timer_scale=0.01
    )
    with TestClient(create_app(settings)) as client:
        code = new_room(client, {"rules": {"target": 7}, "options": {"turn_timer_s": 30}})
        token = client.post(f"/api/rooms/{code}/join", json={"name": "Ann"}).json()["token"]
        for seat in (1, 2, 3):
            r = client.post(f"/api/rooms/{code}/bots", json={"seat": seat}, headers=bearer(token))
            assert r.status_code == 200, r.text
        assert client.post(f"/api/rooms/{code}/start", headers=bearer(token)).status_code == 200
        end = time.monotonic() + 120  # a bound on waiting, not a speed requirement
        while view(client, code)["phase"] != "game_over":
            assert time.monotonic() < end, "the timer did not finish the game"
            time.sleep(0.1)
        ask(client, code)
        drain(database_url)
        decisions = review(client, code)["decisions"]
    assert any(d["seat"] == 0 for d in decisions)
    for d in decisions:
        assert d.get("covered", False) is (d["seat"] == 0), d


def _lowly(out: Any) -> None:
    from app.services.review_worker import _lie_low

    _lie_low()
    out.put((os.sched_getscheduler(0), os.nice(0)))


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="SCHED_IDLE is Linux's")
def test_a_review_worker_runs_only_on_a_core_the_server_leaves_idle() -> None:
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    process = context.Process(target=_lowly, args=(out,))
    process.start()
    policy, nice = out.get(timeout=60)
    process.join(10)
    assert policy == os.SCHED_IDLE and nice >= 10


@pytest.mark.parametrize("server_busy", [True, False])
def test_a_review_worker_rests_while_its_server_is_busy(
    server_busy: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server that uses a whole core (or none): the worker rests as long as it may beside
    the one, and not at all beside the other. The server's CPU is the clock's own (a real
    spinning process got less than a quarter of a core on a loaded machine, and the test
    failed there: it judged the machine, not the pacer)."""
    monkeypatch.setattr(review_worker, "NAP_S", 0.1)
    monkeypatch.setattr(review_worker, "MAX_REST_S", 0.5)
    started = time.monotonic()
    monkeypatch.setattr(
        review_worker.Pacer,
        "_server_cpu",
        lambda self: time.monotonic() - started if server_busy else 1.0,
    )
    pace = review_worker.Pacer(os.getpid())
    time.sleep(review_worker.WINDOW_S + 0.1)  # a window of the worker's own work
    assert pace() == (pytest.approx(0.5) if server_busy else 0.0)


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads Linux's /proc")
def test_a_review_worker_reads_its_servers_cpu_from_proc() -> None:
    """The pacer's reading of a real process: a spinning one's CPU seconds grow."""
    server = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        pace = review_worker.Pacer(server.pid)
        first = pace._server_cpu()
        assert first is not None
        grown = first
        while grown <= first:  # as soon as the machine gives it a tick of CPU
            time.sleep(0.05)
            grown = pace._server_cpu() or first
    finally:
        server.kill()
        server.wait()
    assert grown > first
    assert review_worker.Pacer(server.pid)._server_cpu() is None  # gone: cannot be read


def test_the_host_chooses_the_reviews_speed(monkeypatch: pytest.MonkeyPatch) -> None:
    """ALLFOURS_REVIEW_SPEED (issue #47): lying low by default, a worker rests beside its busy
    server; at full speed nothing rests it. Any other word is refused at start, named."""
    monkeypatch.delenv("ALLFOURS_REVIEW_SPEED", raising=False)
    assert load_settings().review_speed == "lie-low"
    monkeypatch.setenv("ALLFOURS_REVIEW_SPEED", "full")
    assert load_settings().review_speed == "full"
    assert isinstance(review_worker.pacer("lie-low", os.getpid()), review_worker.Pacer)
    assert review_worker.pacer("full", os.getpid()) is None
    monkeypatch.setenv("ALLFOURS_REVIEW_SPEED", "fast")
    with pytest.raises(SettingsError, match="ALLFOURS_REVIEW_SPEED"):
        load_settings()
