"""The stats (``GET /api/rooms/{code}/stats``, the page ``/r/{code}/stats``): replayed from
the action logs, and checked here against an independent count of the hand records that
the game records serve, over random games."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.services.stats import StatsOut
from tests.api.conftest import ADMIN
from tests.api.table import bearer, new_room, play_random, seat_four

Json = dict[str, Any]
NAMES = ["Ann", "Ben", "Cal", "Dee"]
# With these rules and moves this seed's four games hang a jack, give one and run the pack
# (random play seldom hangs a jack: about one played-out deal in thirty).
SEED = 10


def stats(client: TestClient, code: str) -> Json:
    r = client.get(f"/api/rooms/{code}/stats")
    assert r.status_code == 200, r.text
    out: Json = r.json()
    StatsOut.model_validate(out, strict=True)  # what the OpenAPI document says
    return out


def blank() -> Json:
    return {
        "games": 0, "bullseyes": 0, "hang_jacks_made": 0, "hang_jacks_made_with": Counter(),
        "hang_jacks_suffered": 0, "hang_jacks_suffered_with": Counter(), "jacks_won_home": 0,
        "kick_points": 0, "high": 0, "low": 0, "game_won": 0, "highest_game_count": None,
        "gave_one": 0, "ran_the_pack": 0,
    }  # fmt: skip


def count_from_records(records: list[Json]) -> tuple[list[Json], list[Json]]:
    """Per seat and per team, from the records' hand records alone (awards with their
    seats and cards, each deal's dealer, decision, lifts and Game counts)."""
    seats, teams = [blank() for _ in range(4)], [blank() for _ in range(2)]

    def add(c: Json, key: str, n: int = 1) -> None:
        c[key] += n

    for rec in records:
        assert rec["over"]
        for s in range(4):
            add(seats[s], "games")
        for t in range(2):
            add(teams[t], "games")
        w = rec["winner"]
        for c in (teams[w], seats[w], seats[w + 2]):
            add(c, "bullseyes")
        for hand in rec["hands"]:
            dealer = hand["dealer"]
            if hand["decision"] in ("give_one", "run_pack"):
                key = "gave_one" if hand["decision"] == "give_one" else "ran_the_pack"
                add(seats[dealer], key)
                add(teams[dealer % 2], key)
            for a in hand["awards"]:
                kind, team = a["kind"], a["team"]
                if kind == "kick":
                    assert team == dealer % 2
                    add(seats[dealer], "kick_points", a["points"])
                    add(teams[team], "kick_points", a["points"])
                elif kind in ("high", "low"):
                    assert a["seat"] % 2 == team
                    add(seats[a["seat"]], kind)
                    add(teams[team], kind)
                elif kind == "jack":
                    add(seats[a["seat"]], "jacks_won_home")
                    add(teams[team], "jacks_won_home")
                elif kind == "hang_jack":
                    lift = next(t for t in hand["tricks"]
                                if a["card"] in [p["card"] for p in t["cards"]])  # fmt: skip
                    assert lift["winner"] % 2 == team != a["seat"] % 2
                    for c in (seats[lift["winner"]], teams[team]):
                        add(c, "hang_jacks_made")
                        c["hang_jacks_made_with"][a["card"]] += 1
                    for c in (seats[a["seat"]], teams[1 - team]):
                        add(c, "hang_jacks_suffered")
                        c["hang_jacks_suffered_with"][a["card"]] += 1
                elif kind == "game":
                    for c in (seats[team], seats[team + 2], teams[team]):
                        add(c, "game_won")
            if hand["game_totals"] is not None:
                for team in (0, 1):
                    for c in (seats[team], seats[team + 2], teams[team]):
                        best = c["highest_game_count"]
                        c["highest_game_count"] = max(best or 0, hand["game_totals"][team])
    for c in seats + teams:
        c["hang_jacks_made_with"] = dict(c["hang_jacks_made_with"])
        c["hang_jacks_suffered_with"] = dict(c["hang_jacks_suffered_with"])
    return seats, teams


def figures(entry: Json) -> Json:
    return {k: entry[k] for k in blank()}


RULES = [
    {"target": 7},
    {"target": 7, "flip_last_card": True, "give_one_can_win": True, "kick_two": True},
]


@pytest.mark.parametrize("rules", RULES)
def test_the_stats_agree_with_the_hand_records_over_random_games(
    client: TestClient, rules: Json
) -> None:
    rng = random.Random(str(rules))
    # An admin's seed: the same deals each run, and games that show every kind of figure.
    body = {"rules": rules, "options": {"match": 3}, "seed": SEED}
    code = new_room(client, body, admin=ADMIN)
    empty = {"room": code, "games": [], "partnerships": [], "players": [], "renege": False}
    assert stats(client, code) == empty
    tokens = seat_four(client, code)
    client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    records = []
    for g in range(1, 5):
        play_random(client, code, tokens, rng, check=False)
        records.append(client.get(f"/api/rooms/{code}/games/{g}").json())
        found = stats(client, code)
        seats, teams = count_from_records(records)
        assert [p["name"] for p in found["players"]] == NAMES
        for seat, p in enumerate(found["players"]):
            assert figures(p) == seats[seat], (seat, figures(p), seats[seat])
        assert [p["names"] for p in found["partnerships"]] == [["Ann", "Cal"], ["Ben", "Dee"]]
        for team, p in enumerate(found["partnerships"]):
            assert figures(p) == teams[team]
        assert [x["game"] for x in found["games"]] == list(range(1, g + 1))
        assert [x["winner"] for x in found["games"]] == [r["winner"] for r in records]
        assert [x["scores"] for x in found["games"]] == [r["scores"] for r in records]
        r = client.post(f"/api/rooms/{code}/rematch", headers=bearer(tokens[0]))
        assert r.status_code == 200
        # A game in play is not counted until it is over.
        assert stats(client, code) == found
    # The random games did show what is counted (else the comparison proves little).
    total = {k: sum(bool(p[k]) for p in found["players"]) for k in blank()}
    shown = ("hang_jacks_made", "jacks_won_home", "kick_points", "high", "gave_one", "ran_the_pack")
    for key in shown:
        assert total[key], key
    page = client.get(f"/r/{code}/stats")
    assert page.status_code == 200
    for g in range(1, 5):
        assert f'href="/r/{code}/games/{g}/replay"' in page.text
    assert "Ann &amp; Cal" in page.text and "Bullseyes" in page.text


def test_an_unknown_room_has_no_stats(client: TestClient) -> None:
    for path in ("/api/rooms/nosuchroom/stats", "/r/nosuchroom/stats", "/api/rooms/%00/stats"):
        r = client.get(path)
        assert r.status_code == 404, (path, r.text)
    assert client.get("/api/rooms/nosuchroom/stats").json()["error"] == "not_found"


def test_the_stats_route_is_in_the_openapi_document(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    answer = doc["paths"]["/api/rooms/{code}/stats"]["get"]["responses"]
    assert answer["200"]["content"]["application/json"]["schema"]["$ref"].endswith("StatsOut")
    assert "404" in answer
