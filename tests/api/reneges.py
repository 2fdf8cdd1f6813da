"""A whole renege-mode game played through the JSON API (a TestClient, or an httpx client on
a running server: the same calls), for the pages that show it afterwards: reneges called
and not, calls upheld and wrong, a call in the reckoning."""

from __future__ import annotations

from typing import Any

from tests.api.table import Json, bearer, new_room, seat_four, view


def renege_room(
    client: Any,
    admin: str,
    renege: str = "one",
    *,
    seed: int = 26,
    target: int = 14,
    **options: object,
) -> tuple[str, list[str]]:
    """A started room of four people in renege mode, with the admin's seed."""
    body = {"rules": {"renege": renege, "target": target}, "options": options, "seed": seed}
    code = new_room(client, body, admin=admin)
    tokens = seat_four(client, code)
    r = client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    assert r.status_code == 200, r.text
    return code, tokens


def act(client: Any, code: str, token: str, move: Json, version: int) -> Json:
    r = client.post(
        f"/api/rooms/{code}/actions", json={**move, "version": version}, headers=bearer(token)
    )
    assert r.status_code == 200, r.text
    out: Json = r.json()
    return out


def _call(client: Any, code: str, token: str, lift: int) -> None:
    r = client.post(f"/api/rooms/{code}/renege", json={"lift": lift}, headers=bearer(token))
    assert r.status_code in (200, 409), r.text  # 409: that side called that lift already


def play_renege_game(
    client: Any,
    code: str,
    tokens: list[str],
    *,
    call_every: int = 2,
    wrong_every: int = 13,
    reckoning_call: bool = True,
) -> Json:
    """To the end: every renege offered is played, and the next seat calls the first and
    one in ``call_every`` after it at once (the rest stay uncalled); every ``wrong_every``
    turns seat 0 calls the lift just taken (often wrongly); with ``reckoning_call``, in each
    reckoning seat 1 calls the hand's first lift; then all say "score it". Returns the final
    view."""
    reneged = turns = 0
    reckoned: set[int] = set()
    while True:
        v = view(client, code)
        if v["phase"] == "game_over":
            return v
        if v["phase"] == "reckoning":
            if reckoning_call and v["hand_number"] not in reckoned:
                reckoned.add(v["hand_number"])
                _call(client, code, tokens[1], 1)
                continue
            for t in tokens:
                client.post(f"/api/rooms/{code}/reckoned", headers=bearer(t))
            continue
        me = view(client, code, tokens[v["turn"]])
        turns += 1
        lifts = sum(me["tricks_won"])
        if turns % wrong_every == 0 and lifts:
            _call(client, code, tokens[0], lifts)
            continue
        marked = me.get("renege_cards") or []
        if marked:
            act(client, code, tokens[me["you"]], {"type": "play", "card": marked[0]}, me["version"])
            reneged += 1
            if (reneged - 1) % call_every == 0:
                _call(client, code, tokens[(me["you"] + 1) % 4], lifts + 1)
            continue
        move = next(m for m in me["legal"] if m.get("card") not in marked)
        act(client, code, tokens[me["you"]], move, me["version"])
