"""Whole games through the JSON API: four tokens, random legal moves, every hand re-scored."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from tests.api.conftest import ADMIN
from tests.api.rescore import check_trick_winners, expected_awards
from tests.api.table import bearer, new_room, play_random, seat_four, view

RULE_SETS = [
    {},
    {
        "target": 7,
        "game_points": 2,
        "game_tie": "non_dealer",
        "give_one_can_win": True,
        "undertrump": "forbidden",
        "kick_two": True,
        "flip_last_card": True,
        "give_one_needs_trump": True,
    },
]


@pytest.mark.parametrize("rules", RULE_SETS, ids=["default", "house"])
def test_whole_game_with_random_moves_scores_every_hand_by_the_rules(
    client: TestClient, rules: dict[str, object]
) -> None:
    code = new_room(client, {"rules": rules, "seed": 7}, admin=ADMIN)
    tokens = seat_four(client, code)
    start = client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    assert start.status_code == 200, start.text
    assert start.json()["seed"] is None  # secret while the game runs
    final = play_random(client, code, tokens, random.Random(1))

    assert final["winner"] in (0, 1)
    assert final["turn"] is None and final["legal"] == []
    assert final["seed"] == 7  # public once the game is over
    full_rules = final["rules"]
    scores = [0, 0]
    n = 1
    while True:
        r = client.get(f"/api/rooms/{code}/hands/{n}")
        if r.status_code == 404:
            break
        assert r.status_code == 200
        record = r.json()
        assert record["n"] == n
        if record["tricks"]:
            check_trick_winners(record)
            dealt = [c for cards in record["dealt"].values() for c in cards]
            assert len(dealt) == len(set(dealt))
        awards, scores = expected_awards(record, full_rules, scores)
        assert record["awards"] == awards, f"hand {n}"
        assert record["scores_after"] == scores, f"hand {n}"
        n += 1
    assert n - 1 == final["hand_number"]
    assert scores == final["scores"]
    assert max(scores) >= full_rules["target"]
    assert scores[final["winner"]] >= full_rules["target"]
    assert final["last_hand"] == awards


def test_rematch_passes_the_deal_and_keeps_the_seats(client: TestClient) -> None:
    code = new_room(client, {"rules": {"target": 7}})
    tokens = seat_four(client, code)
    assert client.post(f"/api/rooms/{code}/rematch", headers=bearer(tokens[0])).status_code == 409
    client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[1]))
    final = play_random(client, code, tokens, random.Random(2), check=False)
    last_dealer = final["dealer"]
    spectator = client.post(f"/api/rooms/{code}/rematch")
    assert spectator.status_code == 401
    r = client.post(f"/api/rooms/{code}/rematch", headers=bearer(tokens[2]))
    assert r.status_code == 200, r.text
    again = r.json()
    assert again["version"] == final["version"] + 1
    assert again["game_number"] == 2
    assert again["dealer"] == (last_dealer + 1) % 4
    assert again["hand_number"] == 1 and sum(again["scores"]) <= 3  # at most a kick
    assert again["last_hand"] is None
    assert again["phase"] in ("beg", "give_or_run", "play", "game_over")
    assert [s["name"] for s in again["seats"]] == ["Ann", "Ben", "Cal", "Dee"]
    assert client.get(f"/api/rooms/{code}/hands/1").status_code in (200, 404)
    assert view(client, code, tokens[2])["you"] == 2


def test_a_redealt_hand_shows_each_seat_only_its_own_cards_until_the_game_is_over(
    client: TestClient,
) -> None:
    # Seed 16: the beggar begs, the dealer runs the pack, no new suit shows: a redeal.
    code = new_room(client, {"seed": 16, "rules": {"target": 7}}, admin=ADMIN)
    tokens = seat_four(client, code)
    v = client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0])).json()
    url = f"/api/rooms/{code}/actions"
    client.post(url, json={"type": "beg"}, headers=bearer(tokens[v["turn"]]))
    dealer = view(client, code)["turn"]
    r = client.post(url, json={"type": "run_pack"}, headers=bearer(tokens[dealer]))
    assert r.status_code == 200 and r.json()["hand_number"] == 2
    for seat, token in enumerate(tokens):
        record = client.get(f"/api/rooms/{code}/hands/1", headers=bearer(token)).json()
        assert record["redeal"] is True and record["tricks"] == [] and record["trump"] is None
        assert len(record["dealt"][str(seat)]) == 12  # run twice: 6 + 3 + 3
        assert [record["dealt"][str(s)] for s in range(4) if s != seat] == [None] * 3
    spectator = client.get(f"/api/rooms/{code}/hands/1").json()
    assert list(spectator["dealt"].values()) == [None] * 4
    play_random(client, code, tokens, random.Random(9), check=False)
    after = client.get(f"/api/rooms/{code}/hands/1").json()
    assert all(len(cards) == 12 for cards in after["dealt"].values())
