"""Leavers (API.md § Fifth round, *Leavers*): a player who leaves a rated game in play (the
computer plays their seat from a turn they missed to the end: away, or their seat given to a
computer player) takes the loss in their rating, and their partner's rating does not move;
checked against openskill itself, end to end through the room, and against the rebuild."""

from __future__ import annotations

import random
import time
from collections.abc import Collection
from typing import Any

from fastapi.testclient import TestClient
from openskill.models import PlackettLuce

from app.services.decide import action_from
from app.services.rebuild_careers import rebuild
from app.store import career_repo
from app.store.db import read
from tests.api.table import Json, bearer, new_room, view
from tests.players.test_careers import engine_of, profile, seat_players
from tests.players.test_profiles import make

MODEL = PlackettLuce()
DEADLINE_S = 120  # a bound on waiting for the computer player, not a speed requirement


# -- end to end ------------------------------------------------------------------------------


def play_with_leaver(
    client: TestClient,
    code: str,
    tokens: list[str],
    rng: random.Random,
    *,
    away: int,
    back_from_hand: int | None = None,
) -> Json:
    """Random legal moves to the game's end; seat ``away``'s turns are the away cover's (the
    server's ``auto`` move, as app/services/keeper.py makes it) until hand
    ``back_from_hand``, when its player comes back; the final view."""
    rooms = client.app.state.ctx.rooms  # type: ignore[attr-defined]
    while True:
        v = view(client, code)
        if v["phase"] == "game_over":
            return v
        turn = v["turn"]
        me = view(client, code, tokens[turn])
        move = dict(rng.choice(me["legal"]))
        covered = turn == away and (back_from_hand is None or v["hand_number"] < back_from_hand)
        if covered:
            rooms.act(
                code=code,
                token=None,
                action=action_from(move["type"], move.get("card")),
                expected=v["version"],
                seat=turn,
                auto=True,
            )
            continue
        move["version"] = v["version"]
        r = client.post(f"/api/rooms/{code}/actions", json=move, headers=bearer(tokens[turn]))
        assert r.status_code == 200, r.text


def openskill_after(winner: int, lost_by: int | None) -> list[Any]:
    """Four first ratings after a game ``winner`` won; a leaver's team ``lost_by``."""
    teams = [[MODEL.rating(), MODEL.rating()], [MODEL.rating(), MODEL.rating()]]
    won = winner if lost_by is None else 1 - lost_by
    (a, c), (b, d) = MODEL.rate(teams, ranks=[0, 1] if won == 0 else [1, 0])
    return [a, b, c, d]


def four_players(client: TestClient, prefix: str) -> tuple[list[str], list[str], str]:
    handles = [f"{prefix}_{n}" for n in ("ann", "ben", "cal", "dee")]
    keys = [make(client, h, h.split("_")[1].title()) for h in handles]
    code = new_room(client, {"rules": {"target": 7}})
    tokens = seat_players(client, code, list(keys))
    r = client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    assert r.status_code == 200, r.text
    return handles, tokens, code


def assert_rated_with_leaver(
    client: TestClient, code: str, handles: list[str], leaver: Collection[int], final: Json
) -> None:
    """The room's end and the game's record say who left; the ratings are openskill's with
    the leaver's team losing for the leaver, the partner's unmoved, the others by the table."""
    (out,) = leaver
    winner = final["winner"]
    assert final["rated"] is True
    record = client.get(f"/api/rooms/{code}/games/1").json()
    partner = (out + 2) % 4
    for shown in (final["ratings"], record["ratings"]):
        assert [r["seat"] for r in shown] == [s for s in range(4) if s != partner]
        assert [r.get("left", False) for r in shown] == [r["seat"] == out for r in shown]
    lost = openskill_after(winner, out % 2)
    played = openskill_after(winner, None)
    for r in final["ratings"]:
        expected = lost[out] if r["seat"] == out else played[r["seat"]]
        assert abs(r["after"]["mu"] - expected.mu) < 1e-9
        assert abs(r["after"]["sigma"] - expected.sigma) < 1e-9
    page = client.get(f"/r/{code}", headers={"Accept": "text/html"}).text
    assert page.count("data-left") == 1 and "rated as a loss" in page  # the result says it
    gone = profile(client, handles[out])
    assert gone["rating"]["games"] == 1 and gone["recent"][0]["rating_change"] < 0
    stayed = profile(client, handles[partner])
    assert stayed["rating"]["games"] == 0 and stayed["rating"]["mu"] == MODEL.rating().mu
    assert stayed["recent"][0]["rated"] is False and stayed["recent"][0]["rating_change"] is None


def the_rebuild_agrees(client: TestClient) -> None:
    engine = engine_of(client)

    def everything() -> tuple[Any, ...]:
        with read(engine) as conn:
            return (
                career_repo.all_careers(conn),
                career_repo.all_ratings(conn),
                career_repo.games_rated(conn),
            )

    kept = everything()
    rebuild(engine)
    assert everything() == kept


def test_a_player_away_to_the_end_loses_it_in_their_rating_and_the_partner_does_not_move(
    client: TestClient,
) -> None:
    """The away cover plays seat 3 from its first turn to the end: a leaver."""
    handles, tokens, code = four_players(client, "aw")
    final = play_with_leaver(client, code, tokens, random.Random(1), away=3)
    assert_rated_with_leaver(client, code, handles, {3}, final)
    the_rebuild_agrees(client)


def test_a_player_who_comes_back_is_no_leaver(client: TestClient) -> None:
    """Covered in the first deal, back from the second: four players rated by the table."""
    _, tokens, code = four_players(client, "bk")
    final = play_with_leaver(client, code, tokens, random.Random(2), away=1, back_from_hand=2)
    if final["hand_number"] < 2:  # the game ended in its first deal: no second try here
        return
    assert final["rated"] is True
    assert [r["seat"] for r in final["ratings"]] == [0, 1, 2, 3]
    assert not any(r.get("left") for r in final["ratings"])
    played = openskill_after(final["winner"], None)
    assert abs(final["ratings"][1]["after"]["mu"] - played[1].mu) < 1e-9
    the_rebuild_agrees(client)


def test_a_player_whose_seat_the_host_gives_to_the_computer_loses_it_in_their_rating(
    client: TestClient,
) -> None:
    """Once the game was rated no more (a seat changed hands); now the leaver takes the loss."""
    handles, tokens, code = four_players(client, "hb")
    r = client.post(f"/api/rooms/{code}/host/bot", json={"seat": 2}, headers=bearer(tokens[0]))
    assert r.status_code == 200, r.text
    rng = random.Random(3)
    end = time.monotonic() + DEADLINE_S
    while True:
        assert time.monotonic() < end, "the computer player never finished the game"
        v = view(client, code)
        if v["phase"] == "game_over":
            break
        if v["turn"] == 2 or v["turn"] is None:
            time.sleep(0.01)  # the computer player's move (the keeper's), or the reckoning
            continue
        me = view(client, code, tokens[v["turn"]])
        if not me["legal"] or me["version"] != v["version"]:
            continue
        move = {**rng.choice(me["legal"]), "version": v["version"]}
        client.post(f"/api/rooms/{code}/actions", json=move, headers=bearer(tokens[v["turn"]]))
    assert_rated_with_leaver(client, code, handles, {2}, view(client, code))
    the_rebuild_agrees(client)
