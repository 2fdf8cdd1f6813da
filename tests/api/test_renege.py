"""Renege mode through the JSON API (API.md § Third round, RULES.md R20-R27), on SQLite and
PostgreSQL: a renege played, called and judged; every refusal with its reason and nothing
changed; the reckoning said "score it" by all, or timed out by the server's clock."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api.record_schemas import GameRecordOut
from app.main import create_app
from app.verify import Mismatch, check
from tests.api.conftest import ADMIN, app_settings
from tests.api.reneges import act, play_renege_game, renege_room
from tests.api.table import Json, bearer, new_room, seat_four, view
from tests.rules.golden import read as read_notebook
from tests.rules.golden import run as run_notebook


def play_until(client: Any, code: str, tokens: list[str], *, renege: bool, stop: str) -> Json:
    """Play strictly legal moves (the first renege offered too, if ``renege``) until the
    phase is ``stop`` or a renege was just played; returns the view of the seat to act then
    with ``reneged`` = (seat, lift) of the renege played, if any."""
    while True:
        v = view(client, code)
        if v["phase"] == stop:
            return v
        me = view(client, code, tokens[v["turn"]])
        if renege and me.get("renege_cards"):
            lift = sum(me["tricks_won"]) + 1
            act(
                client,
                code,
                tokens[me["you"]],
                {"type": "play", "card": me["renege_cards"][0]},
                me["version"],
            )
            return {**view(client, code), "reneged": (me["you"], lift, me["renege_cards"][0])}
        marked = set(me.get("renege_cards") or ())
        move = next(m for m in me["legal"] if m.get("card") not in marked)
        act(client, code, tokens[me["you"]], move, me["version"])


def _viewers(client: Any, code: str, tokens: list[str]) -> list[Json]:
    return [view(client, code, t) for t in tokens] + [view(client, code)]


def test_r22_the_lifts_to_call_on_are_the_hands_completed_lifts_as_all_saw_them(
    client: TestClient,
) -> None:
    """A call names a lift of the hand (R22): while the hand is played the view holds its
    completed lifts, card for card as all four saw them played, and not the lift in play;
    the same for every seat and a spectator; none before the first card, none with renege
    off."""
    code, tokens = renege_room(client, ADMIN)
    played: list[tuple[int, str]] = []  # this hand's cards in the order they were played
    while (v := view(client, code))["phase"] != "reckoning":
        seen = _viewers(client, code, tokens)
        if v["phase"] != "play":
            assert all("lifts" not in s for s in seen)
        else:
            done = len(played) // 4
            expected = [played[4 * n : 4 * n + 4] for n in range(done)]
            for s in seen:
                assert [[(c["seat"], c["card"]) for c in lift["cards"]] for lift in s["lifts"]] == (
                    expected
                )
        me = view(client, code, tokens[v["turn"]])
        marked = set(me.get("renege_cards") or ())
        move = next(m for m in me["legal"] if m.get("card") not in marked)
        if move["type"] == "play":
            played.append((me["you"], move["card"]))
        act(client, code, tokens[me["you"]], move, me["version"])
    assert len(played) == 24 and len(view(client, code)["lifts"]) == 6  # the reckoning's

    plain = new_room(client, {"rules": {"target": 14}, "seed": 26}, admin=ADMIN)
    plain_tokens = seat_four(client, plain)
    client.post(f"/api/rooms/{plain}/start", headers=bearer(plain_tokens[0]))
    v = play_until(client, plain, plain_tokens, renege=False, stop="play")
    for _ in range(8):  # into the second lift
        assert all("lifts" not in s for s in _viewers(client, plain, plain_tokens))
        me = view(client, plain, plain_tokens[v["turn"]])
        act(client, plain, plain_tokens[me["you"]], me["legal"][0], me["version"])
        v = view(client, plain)


def test_r20_legal_lists_every_card_and_renege_cards_are_the_holders_only(
    client: TestClient,
) -> None:
    code, tokens = renege_room(client, ADMIN)
    v = play_until(client, code, tokens, renege=True, stop="game_over")
    assert "reneged" in v  # seed 26 offers a renege in its first hands
    assert len(v["reneged"]) == 3
    views = [view(client, code, t) for t in tokens] + [view(client, code)]
    for seen in views:
        assert seen["calls"] == []  # R27: nobody is told
        if seen["you"] != seen["turn"]:
            assert "renege_cards" not in seen
    holder = views[v["turn"]]
    assert set(holder.get("renege_cards", [])) <= set(holder["hand"])
    assert {m["card"] for m in holder["legal"]} == set(holder["hand"])


def test_r22_a_call_is_judged_at_once_and_every_view_shows_it(client: TestClient) -> None:
    code, tokens = renege_room(client, ADMIN)
    v = play_until(client, code, tokens, renege=True, stop="game_over")
    seat, lift, card = v["reneged"]
    caller = (seat + 1) % 4
    r = client.post(
        f"/api/rooms/{code}/renege", json={"lift": lift}, headers=bearer(tokens[caller])
    )
    assert r.status_code == 200, r.text
    judged = r.json()
    assert judged == {
        "seat": caller,
        "lift": lift,
        "upheld": True,
        "penalty": "one",
        "paid_by": seat % 2,
        "card": card,
        "offender": seat,
    }
    for seen in [view(client, code, t) for t in tokens] + [view(client, code)]:
        assert seen["calls"] == [judged]
        assert seen["scores"][1 - seat % 2] >= 1
    # R24: a wrong call by the offenders' partner-side afterwards costs them nothing more
    r = client.post(f"/api/rooms/{code}/renege", json={"lift": lift}, headers=bearer(tokens[seat]))
    assert r.status_code == 200 and r.json()["upheld"] is False and r.json()["paid_by"] is None


# A view's countdowns are counted at the moment it is rendered (``timed_at``). The same
# version is rendered again when its snapshot is read anew (on PostgreSQL, after the call's
# own notification), so they may differ by a moment while nothing changed.
CLOCKS = ("timed_at", "away", "turn_deadline", "reckon_deadline")


def _same_but_the_moment(after: dict[str, Any], before: dict[str, Any]) -> None:
    """The two views are equal but for when their countdowns were counted: every deadline
    they count down to is the same, to the second each is rounded up to."""
    assert {k: x for k, x in after.items() if k not in CLOCKS} == {
        k: x for k, x in before.items() if k not in CLOCKS
    }

    def ends(v: dict[str, Any]) -> list[float | None]:
        left = [*v["away"], v["turn_deadline"], v["reckon_deadline"]]
        return [None if s is None else (v["timed_at"] or 0.0) + s for s in left]

    for got, want in zip(ends(after), ends(before), strict=True):
        assert (got is None) == (want is None) and abs((got or 0.0) - (want or 0.0)) <= 1.0


def test_r22_refusals_carry_their_reason_and_change_nothing(client: TestClient) -> None:
    code, tokens = renege_room(client, ADMIN)
    v = play_until(client, code, tokens, renege=True, stop="game_over")
    seat, lift, _ = v["reneged"]
    caller = (seat + 1) % 4
    ok = client.post(
        f"/api/rooms/{code}/renege", json={"lift": lift}, headers=bearer(tokens[caller])
    )
    assert ok.status_code == 200
    before = view(client, code)
    other_code, other_tokens = renege_room(client, ADMIN)
    cases = [
        ({"lift": lift}, tokens[(caller + 2) % 4], 409, "lift_already_called"),  # the partner
        ({"lift": sum(before["tricks_won"]) + 2}, tokens[caller], 409, "lift_not_begun"),
        ({"lift": lift}, None, 403, "call_needs_seat"),  # a spectator
        ({"lift": lift}, other_tokens[0], 403, "call_needs_seat"),  # another room's token
        ({"lift": 0}, tokens[caller], 422, None),
        ({"lift": 13}, tokens[caller], 422, None),
        ({"lift": "3"}, tokens[caller], 422, None),
        ({"lift": 1.5}, tokens[caller], 422, None),
        ({}, tokens[caller], 422, None),
    ]
    for body, token, status, reason in cases:
        r = client.post(
            f"/api/rooms/{code}/renege", json=body, headers=bearer(token) if token else {}
        )
        assert r.status_code == status, (body, r.text)
        if reason is not None:
            assert r.json()["code"] == reason, r.json()
            assert r.json()["params"] == ({"lift": body["lift"]} if "lift" in reason else {})
    _same_but_the_moment(view(client, code), before)
    assert view(client, other_code)["calls"] == []


def test_r22_with_renege_off_or_outside_a_hand_a_call_is_refused(client: TestClient) -> None:
    code = new_room(client, {})
    tokens = seat_four(client, code)
    r = client.post(f"/api/rooms/{code}/renege", json={"lift": 1}, headers=bearer(tokens[1]))
    assert r.status_code == 409 and r.json()["code"] == "call_outside_hand"
    client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    r = client.post(f"/api/rooms/{code}/renege", json={"lift": 1}, headers=bearer(tokens[1]))
    assert r.status_code == 409 and r.json()["code"] == "renege_off"
    r = client.post(f"/api/rooms/{code}/reckoned", headers=bearer(tokens[1]))
    assert r.status_code == 409 and r.json()["code"] == "not_reckoning"


def test_r23_the_reckoning_ends_when_all_four_say_score_it(client: TestClient) -> None:
    code, tokens = renege_room(client, ADMIN, reckon_s=120)
    v = play_until(client, code, tokens, renege=False, stop="reckoning")
    assert v["turn"] is None and v["reckoned"] == [] and 115 <= v["reckon_deadline"] <= 120
    r = client.post(f"/api/rooms/{code}/actions", json={"type": "stand"}, headers=bearer(tokens[1]))
    assert r.status_code == 409 and r.json()["code"] == "being_reckoned"
    for seat in (2, 0, 3):
        r = client.post(f"/api/rooms/{code}/reckoned", headers=bearer(tokens[seat]))
        assert r.status_code == 204
    again = client.post(f"/api/rooms/{code}/reckoned", headers=bearer(tokens[0]))
    assert again.status_code == 204  # said already: nothing changes
    v2 = view(client, code)
    assert v2["phase"] == "reckoning" and v2["reckoned"] == [0, 2, 3]
    assert v2["version"] == v["version"] + 3
    client.post(f"/api/rooms/{code}/reckoned", headers=bearer(tokens[1]))
    v3 = view(client, code)
    assert v3["phase"] != "reckoning" and v3["hand_number"] == v["hand_number"] + 1
    assert v3["reckon_deadline"] is None


def test_r23_the_reckoning_times_out_on_the_servers_clock(database_url: str) -> None:
    settings = app_settings(database_url, turn_timer_scale=0.1)  # 5 s -> half a second
    with TestClient(create_app(settings)) as client:
        code, tokens = renege_room(client, ADMIN, reckon_s=5)
        v = play_until(client, code, tokens, renege=False, stop="reckoning")
        for _ in range(100):
            time.sleep(0.1)
            if view(client, code)["phase"] != "reckoning":
                break
        after = view(client, code)
        assert after["hand_number"] == v["hand_number"] + 1
        r = client.post(f"/api/rooms/{code}/reckoned", headers=bearer(tokens[0]))
        assert r.status_code == 409


def test_r23_computer_players_say_score_it_at_once(client: TestClient) -> None:
    code = new_room(client, {"rules": {"renege": "bullseye"}, "seed": 5}, admin=ADMIN)
    r = client.post(f"/api/rooms/{code}/join", json={"name": "Ann", "seat": 0})
    token = r.json()["token"]
    for seat in (1, 2, 3):
        client.post(
            f"/api/rooms/{code}/bots", json={"seat": seat, "level": "easy"}, headers=bearer(token)
        )
    client.post(f"/api/rooms/{code}/start", headers=bearer(token))
    for _ in range(600):
        v = view(client, code, token)
        if v["phase"] == "reckoning" and v["reckoned"] == [1, 2, 3]:
            break
        if v["turn"] == 0:
            marked = set(v.get("renege_cards") or ())
            move = next(m for m in v["legal"] if m.get("card") not in marked)
            client.post(
                f"/api/rooms/{code}/actions",
                json={**move, "version": v["version"]},
                headers=bearer(token),
            )
        else:
            time.sleep(0.02)
    assert v["phase"] == "reckoning" and v["reckoned"] == [1, 2, 3]
    assert client.post(f"/api/rooms/{code}/reckoned", headers=bearer(token)).status_code == 204
    assert view(client, code)["hand_number"] == v["hand_number"] + 1


def test_r27_the_record_shows_reneges_and_calls_and_the_verifier_judges_them(
    client: TestClient, tmp_path: Path
) -> None:
    body = {"rules": {"renege": "one", "target": 7}, "seed": 9}
    code = new_room(client, body, admin=ADMIN)
    tokens = seat_four(client, code)
    client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    final = play_renege_game(
        client, code, tokens, call_every=1, wrong_every=11, reckoning_call=False
    )
    record = client.get(f"/api/rooms/{code}/games/1").json()
    GameRecordOut.model_validate(record, strict=True)
    calls = [c for h in record["hands"] for c in h["calls"]]
    reneges = [r for h in record["hands"] for r in h["reneges"]]
    assert calls and reneges and any(c["upheld"] for c in calls)
    assert sum(r["called"] for r in reneges) == sum(c["upheld"] for c in calls)
    assert any(a["type"] == "call" and a["lift"] >= 1 for a in record["actions"])
    report = check(record)
    assert f"{len(calls)} calls of renege judged" in report[-1]
    # a call's judgement changed in the record is caught
    bad = json.loads(json.dumps(record))
    first = next(h for h in bad["hands"] if h["calls"])
    first["calls"][0]["upheld"] = not first["calls"][0]["upheld"]
    with pytest.raises(Mismatch):
        check(bad)
    # the stats count them per player: calls upheld and wrong, reneges called or not
    players = client.get(f"/api/rooms/{code}/stats").json()["players"]
    assert sum(p["reneges_caught"] for p in players) == sum(c["upheld"] for c in calls)
    assert sum(p["wrong_calls"] for p in players) == sum(not c["upheld"] for c in calls)
    assert sum(p["reneges"] for p in players) == len(reneges)
    # the notebook replays on the engine, calls and all
    text = client.get(f"/api/rooms/{code}/games/1/notebook.txt").text
    assert "call: seat" in text and "# renege: seat" in text
    path = tmp_path / "notebook.txt"
    path.write_text(text)
    replayed = run_notebook(read_notebook(path))
    assert replayed.winner == final["winner"] and list(replayed.scores) == final["scores"]
