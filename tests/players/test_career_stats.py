"""A profile's stats against an independent count: games played in rooms of several kinds
(rated, unrated with a guest, renege mode with calls), counted again here from the game
records (``GET /api/rooms/{code}/games/{n}``) alone, every field compared."""

from __future__ import annotations

from collections import Counter
from typing import Any

from fastapi.testclient import TestClient

from tests.api.conftest import ADMIN
from tests.api.reneges import play_renege_game
from tests.api.table import bearer, new_room
from tests.players.test_careers import play_games, profile, seat_players
from tests.players.test_profiles import make

Json = dict[str, Any]
FIELDS = (
    "games", "wins", "bullseyes_won", "bullseyes_lost", "hands", "hang_jacks_made",
    "hang_jacks_suffered", "jacks_home", "kick_points", "high", "low", "game",
    "reneges_caught", "wrong_calls", "reneges",
)  # fmt: skip


def recount(record: Json, seat: int) -> Counter[str]:
    """One seat's figures from one game record."""
    c: Counter[str] = Counter()
    won = record["winner"] == seat % 2
    c["games"] += 1
    c["wins"] += won
    c["bullseyes_won"] += won
    c["bullseyes_lost"] += not won
    for hand in record["hands"]:
        c["hands"] += not hand["redeal"]
        for a in hand["awards"]:
            kind = a["kind"]
            if kind == "kick" and hand["dealer"] == seat:
                c["kick_points"] += a["points"]
            elif kind in ("high", "low") and a["seat"] == seat:
                c[kind] += 1
            elif kind == "jack" and a["seat"] == seat:
                c["jacks_home"] += 1
            elif kind == "hang_jack":
                lift = next(t for t in hand["tricks"]
                            if a["card"] in [p["card"] for p in t["cards"]])  # fmt: skip
                c["hang_jacks_made"] += lift["winner"] == seat
                c["hang_jacks_suffered"] += a["seat"] == seat
            elif kind == "game" and a["team"] == seat % 2:
                c["game"] += 1
        for call in hand["calls"]:
            if call["seat"] == seat:
                c["reneges_caught" if call["upheld"] else "wrong_calls"] += 1
        for renege in hand["reneges"] or []:
            c["reneges"] += renege["seat"] == seat
    return c


def test_a_profiles_stats_agree_with_the_game_records(client: TestClient) -> None:
    handles = ["s_ann", "s_ben", "s_cal", "s_dee"]
    keys = [make(client, h) for h in handles]
    played: dict[str, list[tuple[Json, int]]] = {h: [] for h in handles}

    rated = new_room(client, {"rules": {"target": 7}, "seed": 11}, admin=ADMIN)
    for record in play_games(client, rated, seat_players(client, rated, keys), 2, seed=11):
        for seat, h in enumerate(handles):
            played[h].append((record, seat))

    rules = {"target": 7, "flip_last_card": True, "give_one_can_win": True, "kick_two": True}
    mixed = new_room(client, {"rules": rules, "seed": 12}, admin=ADMIN)
    order = [keys[1], None, keys[0], None]  # two players and two guests
    for record in play_games(client, mixed, seat_players(client, mixed, order), 2, seed=12):
        played["s_ben"].append((record, 0))
        played["s_ann"].append((record, 2))

    body = {"rules": {"renege": "one", "target": 7}, "seed": 26}
    renege = new_room(client, body, admin=ADMIN)
    tokens = seat_players(client, renege, [keys[2], keys[3], keys[0], keys[1]])
    r = client.post(f"/api/rooms/{renege}/start", headers=bearer(tokens[0]))
    assert r.status_code == 200, r.text
    play_renege_game(client, renege, tokens)
    record = client.get(f"/api/rooms/{renege}/games/1").json()
    for seat, h in enumerate(["s_cal", "s_dee", "s_ann", "s_ben"]):
        played[h].append((record, seat))

    seen: Counter[str] = Counter()
    for h in handles:
        expected: Counter[str] = Counter()
        for rec, seat in played[h]:
            expected.update(recount(rec, seat))
        stats = profile(client, h)["stats"]
        assert {k: stats[k] for k in FIELDS} == {k: expected[k] for k in FIELDS}, h
        seen.update({k: stats[k] for k in FIELDS})
    # the games did show what is counted (else the comparison proves little)
    for key in ("kick_points", "high", "low", "jacks_home", "game", "reneges", "hands"):
        assert seen[key], key
    assert seen["reneges_caught"] + seen["wrong_calls"], "no call of renege was counted"
    ann = profile(client, "s_ann")
    assert ann["stats"]["games"] == 5 and len(ann["recent"]) == 5
    assert {p.get("handle") for p in ann["partners"]} >= {"s_cal", "s_ben"}
    ben = next(p for p in ann["partners"] if p.get("handle") == "s_ben")
    assert ben["games"] == 2  # the two games of the mixed room
