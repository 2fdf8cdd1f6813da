"""A whole renege-mode game played through the JSON API (a TestClient, or an httpx client on
a running server: the same calls), for the pages that show it afterwards: reneges called
and not, calls upheld and wrong, a call in the reckoning."""

from __future__ import annotations

from typing import Any

from tests.api.table import Json, bearer, new_room, seat_four, view


def renege_room(
    client: Any, admin: str, *, seed: int = 9, renege: str = "one"
) -> tuple[str, list[str]]:
    """A started room of four people in renege mode, a short game (target 7)."""
    body = {"rules": {"renege": renege, "target": 7}, "seed": seed}
    code = new_room(client, body, admin=admin)
    tokens = seat_four(client, code)
    r = client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    assert r.status_code == 200, r.text
    return code, tokens


def _act(client: Any, code: str, token: str, move: Json, version: int) -> None:
    body = {**move, "version": version}
    r = client.post(f"/api/rooms/{code}/actions", json=body, headers=bearer(token))
    assert r.status_code == 200, r.text


def _call(client: Any, code: str, token: str, lift: int) -> None:
    r = client.post(f"/api/rooms/{code}/renege", json={"lift": lift}, headers=bearer(token))
    assert r.status_code in (200, 409), r.text  # 409: that side called that lift already


def play_renege_game(client: Any, code: str, tokens: list[str]) -> Json:
    """To the end: every renege offered is played; the next seat calls every other one at
    once (the rest stay uncalled); seat 0 calls the lift just taken now and then (often
    wrongly); in each reckoning seat 1 calls the hand's first lift, then all say "score
    it". Returns the final view."""
    reneged = turns = 0
    reckoned: set[int] = set()
    while True:
        v = view(client, code)
        if v["phase"] == "game_over":
            return v
        if v["phase"] == "reckoning":
            if v["hand_number"] not in reckoned:
                reckoned.add(v["hand_number"])
                _call(client, code, tokens[1], 1)
                continue
            for t in tokens:
                client.post(f"/api/rooms/{code}/reckoned", headers=bearer(t))
            continue
        me = view(client, code, tokens[v["turn"]])
        turns += 1
        lifts = sum(me["tricks_won"])
        if turns % 13 == 0 and lifts:
            _call(client, code, tokens[0], lifts)
            continue
        marked = me.get("renege_cards") or []
        if marked:
            _act(
                client, code, tokens[me["you"]], {"type": "play", "card": marked[0]}, me["version"]
            )
            reneged += 1
            if reneged % 2:
                _call(client, code, tokens[(me["you"] + 1) % 4], lifts + 1)
            continue
        move = next(m for m in me["legal"] if m.get("card") not in marked)
        _act(client, code, tokens[me["you"]], move, me["version"])
