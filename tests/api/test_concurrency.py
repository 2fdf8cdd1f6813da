"""Racing moves: exactly one wins, the rest get 409, and the version rises by one."""

from __future__ import annotations

import threading

import pytest
from fastapi.testclient import TestClient

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
