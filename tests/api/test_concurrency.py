"""Racing moves: exactly one wins, the rest get 409, and the version rises by one."""

from __future__ import annotations

import threading

import pytest
from fastapi.testclient import TestClient

from app.store import db
from tests.api.conftest import ADMIN
from tests.api.table import bearer, new_room, seat_four, view


@pytest.mark.parametrize("with_version", [True, False], ids=["version", "no_version"])
def test_16_concurrent_copies_of_one_move_one_200_fifteen_409(
    client: TestClient, with_version: bool
) -> None:
    code = new_room(client, {"seed": 3}, admin=ADMIN)
    tokens = seat_four(client, code)
    v = client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0])).json()
    seat = v["turn"]
    move: dict[str, object] = {"type": "stand"}
    if with_version:
        move["version"] = v["version"]
    barrier = threading.Barrier(16)
    statuses: list[int] = []
    lock = threading.Lock()

    def send() -> None:
        barrier.wait()
        r = client.post(f"/api/rooms/{code}/actions", json=move, headers=bearer(tokens[seat]))
        with lock:
            statuses.append(r.status_code)

    threads = [threading.Thread(target=send) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [200] + [409] * 15
    after = view(client, code)
    assert after["version"] == v["version"] + 1
    assert after["phase"] == "play"


def test_concurrent_joins_fill_each_seat_once(client: TestClient) -> None:
    code = new_room(client)
    barrier = threading.Barrier(8)
    results: list[tuple[int, int | None]] = []
    lock = threading.Lock()

    def join(i: int) -> None:
        barrier.wait()
        r = client.post(f"/api/rooms/{code}/join", json={"name": f"P{i}"})
        with lock:
            results.append((r.status_code, r.json().get("seat")))

    threads = [threading.Thread(target=join, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    joined = [s for status, s in results if status == 200]
    seats = sorted(s for s in joined if s is not None)
    assert len(seats) == len(joined) and seats == [0, 1, 2, 3]
    assert sorted(status for status, _ in results) == [200] * 4 + [409] * 4
    assert view(client, code)["version"] == 4


def test_refused_moves_take_no_write_transaction(client: TestClient) -> None:
    """A move the cached room refuses (not your turn, an illegal card) was re-run inside a
    write transaction: every refusal queued for SQLite's writer lock behind real moves."""
    engine = client.app.state.ctx.engine  # type: ignore[attr-defined]
    if engine.dialect.name != "sqlite":
        pytest.skip("the writer lock is SQLite's")
    code = new_room(client, {"seed": 3}, admin=ADMIN)
    tokens = seat_four(client, code)
    v = client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0])).json()
    waiting = tokens[(v["turn"] + 1) % 4]
    answers: list[tuple[int, str]] = []

    def refused_while_a_writer_holds_the_lock() -> None:
        for move in ({"type": "stand"}, {"type": "play", "card": "AS"}):
            r = client.post(f"/api/rooms/{code}/actions", json=move, headers=bearer(waiting))
            answers.append((r.status_code, r.json()["error"]))
        r = client.post(f"/api/rooms/{code}/join", json={"name": "Ann"}, headers=bearer(waiting))
        answers.append((r.status_code, "rejoined"))

    writer = db.writer_lock(engine)
    with writer:  # a long write elsewhere in the process
        asker = threading.Thread(target=refused_while_a_writer_holds_the_lock)
        asker.start()
        asker.join(timeout=30)
        answered = not asker.is_alive()
    asker.join()
    assert answered, "a refusal waited for the writer lock"
    assert answers == [(403, "not_your_turn"), (403, "not_your_turn"), (200, "rejoined")]
    assert view(client, code)["version"] == v["version"]
