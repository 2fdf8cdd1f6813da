"""The club night's API on SQLite and PostgreSQL (API.md § Third round, Club night)."""

from __future__ import annotations

import csv
import io
import random
from typing import Any

from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.api.table import bearer, play_random
from tests.night.count import independent_standings
from tests.night.helpers import (
    link_tokens,
    next_round,
    night,
    open_night,
    play_night_by_bots,
    register,
    substitute,
)

Json = dict[str, Any]
FOUR = [["Ann", "Bo"], ["Cy", "Di"], ["Ed", "Flo"], ["Gus", "Hal"]]


def test_bad_input_is_refused_with_its_reason_and_changes_nothing(client: TestClient) -> None:
    code, director = open_night(client, options={"grace_s": 0})
    other, other_director = open_night(client)
    register(client, code, FOUR[0])
    # Fewer than two pairs: no round, and the reason why.
    r = client.post(f"/api/nights/{code}/rounds", headers=bearer(director))
    assert r.status_code == 409 and r.json()["code"] == "night_too_few_pairs"
    assert r.json()["params"] == {"pairs": 1}
    # A double tap registers the pair once.
    register(client, code, FOUR[1])
    r = client.post(f"/api/nights/{code}/pairs", json={"names": ["di", " Cy "]})
    assert r.status_code == 409 and r.json()["code"] == "night_pair_registered"
    assert len(night(client, code)["pairs"]) == 2
    # Another night's director token: 403; none: 401.
    r = client.post(f"/api/nights/{code}/rounds", headers=bearer(other_director))
    assert r.status_code == 403 and r.json()["code"] == "night_not_director"
    assert client.post(f"/api/nights/{code}/rounds").status_code == 401
    # A player link at another night: 403.
    link = register(client, other, ["Ivy", "Jo"])["links"][0]
    token = link.rsplit("/", 1)[1]
    r = client.post(f"/api/nights/{code}/sit", headers=bearer(token))
    assert r.status_code == 403 and r.json()["code"] == "night_link_elsewhere"
    # A round drawn twice: one round, 409 for the second.
    first = next_round(client, code, director)
    assert len(first["rounds"]) == 1 and first["state"] == "playing"
    r = client.post(f"/api/nights/{code}/rounds", headers=bearer(director))
    assert r.status_code == 409 and r.json()["code"] == "night_round_unfinished"
    assert len(night(client, code)["rounds"]) == 1
    # Registration closes with the first round.
    r = client.post(f"/api/nights/{code}/pairs", json={"names": ["Kim", "Lu"]})
    assert r.status_code == 409 and r.json()["code"] == "night_started"
    # Refusals of the tables' own controls: a night's seats are reserved.
    room = first["rounds"][0]["tables"][0]["room"]
    r = client.post(f"/api/rooms/{room}/join", json={"name": "Stranger"})
    assert r.status_code == 403 and r.json()["code"] == "night_seats_reserved"
    # Unknown night; a correction out of range; a table not in the round.
    assert client.get("/api/nights/nosuchnight").status_code == 404
    r = client.post(
        f"/api/nights/{code}/tables/1/result", json={"bullseyes": [3, 0]}, headers=bearer(director)
    )
    assert r.status_code == 422 and r.json()["code"] == "night_bad_correction"
    r = client.post(
        f"/api/nights/{code}/tables/9/forfeit", json={"pair": 1}, headers=bearer(director)
    )
    assert r.status_code == 404


def test_the_grace_time_comes_before_a_forfeit(client: TestClient) -> None:
    code, director = open_night(client)
    for names in FOUR[:2]:
        register(client, code, names)
    next_round(client, code, director)
    r = client.post(
        f"/api/nights/{code}/tables/1/forfeit", json={"pair": 1}, headers=bearer(director)
    )
    assert r.status_code == 409 and r.json()["code"] == "night_in_grace"
    r = substitute(client, code, director, {"seat": 0, "bot": "easy"})
    assert r.status_code == 409 and r.json()["code"] == "night_in_grace"


def test_players_take_their_seats_partners_opposite_and_the_table_deals(
    client: TestClient,
) -> None:
    code, director = open_night(client, options={"grace_s": 0})
    links = [register(client, code, names)["links"] for names in FOUR[:2]]
    found = next_round(client, code, director)
    table = found["rounds"][0]["tables"][0]
    assert table["pairs"] == [1, 2] or table["pairs"] == [2, 1]
    seats = {}
    for pair, pair_links in enumerate(links, 1):
        for slot, link in enumerate(pair_links):
            token = link.rsplit("/", 1)[1]
            r = client.post(f"/api/nights/{code}/sit", headers=bearer(token))
            assert r.status_code == 200, r.text
            sat = r.json()
            assert sat["room"] == table["room"]
            side = table["pairs"].index(pair)
            assert sat["seat"] == side + 2 * slot  # partners opposite
            seats[sat["seat"]] = sat["token"]
            # The link seats its player again from another device: the same seat.
            again = client.post(f"/api/nights/{code}/sit", headers=bearer(token)).json()
            assert again["seat"] == sat["seat"] and again["token"] == sat["token"]
    # The four seated, the night deals the match's first game.
    room = table["room"]
    for _ in range(200):
        view = client.get(f"/api/rooms/{room}", headers=bearer(seats[0])).json()
        if view["phase"] != "lobby":
            break
    assert view["phase"] != "lobby" and view["you"] == 0
    assert view["options"]["match"] == 2 and view["options"]["reserved"] is True
    # A person substitutes for a player by name: the seat is held (409).
    r = substitute(client, code, director, {"seat": 1, "name": "Sub"})
    assert r.status_code == 409 and r.json()["code"] == "night_seat_held"
    # The director forfeits a pair: the other wins the match with its bullseyes.
    r = client.post(
        f"/api/nights/{code}/tables/1/forfeit",
        json={"pair": table["pairs"][0]},
        headers=bearer(director),
    )
    assert r.status_code == 200, r.text
    over = r.json()["rounds"][0]["tables"][0]
    assert over["state"] == "over" and over["winner"] == table["pairs"][1]
    assert over["forfeit"] == table["pairs"][0] and over["bullseyes"][1] == 2
    assert r.json()["state"] == "over"  # two pairs: one round


def test_a_round_robin_of_five_pairs_played_by_computer_players(
    client: TestClient, settings: Settings
) -> None:
    code, director = open_night(client, options={"grace_s": 0})
    pairs = [*FOUR, ["Ivy", "Jo"]]
    for names in pairs:
        register(client, code, names)
    done = play_night_by_bots(client, code, director)
    assert done["state"] == "over" and len(done["rounds"]) == 5
    assert sorted(r["bye"] for r in done["rounds"]) == [1, 2, 3, 4, 5]
    export = client.get(f"/api/nights/{code}/export.json").json()
    expected = independent_standings(export)
    for line in done["standings"]:
        for column, value in expected[line["pair"]].items():
            assert line[column] == value, (line["pair"], column)
    assert done["winner"] == done["standings"][0]["pair"]
    kinds = {a["kind"] for a in done["awards"]}
    assert {"most_bullseyes", "longest_run", "highest_game"} <= kinds
    table = list(csv.reader(io.StringIO(client.get(f"/api/nights/{code}/export.csv").text)))
    assert table[0] == ["standings"] and table[1][0] == "rank"
    assert len([row for row in table if row and row[-1] == "bye"]) == 5
    # A fresh server (a restart, another process) has it all from the database.
    with TestClient(create_app(settings)) as fresh:
        again = night(fresh, code)
        assert again["standings"] == done["standings"]
        assert again["rounds"] == done["rounds"]


def test_the_director_corrects_a_result(client: TestClient) -> None:
    code, director = open_night(client, options={"grace_s": 0})
    for names in FOUR[:2]:
        register(client, code, names)
    next_round(client, code, director)
    r = client.post(
        f"/api/nights/{code}/tables/1/result", json={"bullseyes": [1, 2]}, headers=bearer(director)
    )
    assert r.status_code == 200, r.text
    table = r.json()["rounds"][0]["tables"][0]
    assert table["corrected"] is True and table["bullseyes"] == [1, 2]
    assert table["winner"] == table["pairs"][1]


def test_swiss_then_knockout_and_a_team_match(client: TestClient) -> None:
    code, director = open_night(
        client, format="swiss_knockout", options={"grace_s": 0, "match": 1, "rounds": 2}
    )
    for n in range(6):
        register(client, code, [f"A{n}", f"B{n}"])
    done = play_night_by_bots(client, code, director)
    assert len(done["rounds"]) == 4  # two Swiss rounds, then the semi-finals and the final
    semi = done["rounds"][2]["tables"]
    after_swiss = done  # the seeds: the standings after the Swiss (checked by the core tests)
    assert len(semi) == 2 and len(done["rounds"][3]["tables"]) == 1
    assert done["winner"] == done["rounds"][3]["tables"][0]["winner"]
    assert after_swiss["state"] == "over"

    code, director = open_night(client, format="teams", options={"grace_s": 0, "match": 1})
    for n, team in enumerate(["Port", "Port", "San", "San"]):
        register(client, code, [f"C{n}", f"D{n}"], team=team)
    done = play_night_by_bots(client, code, director)
    assert len(done["rounds"]) == 2
    clubs = {c["team"]: c["bullseyes"] for c in done["clubs"]}
    assert sum(clubs.values()) == 4  # two tables, two rounds, one game each
    if clubs["Port"] != clubs["San"]:
        assert done["winner"] == max(clubs, key=clubs.__getitem__)


def test_a_substitute_person_and_a_player_who_comes_back(client: TestClient) -> None:
    code, director = open_night(client, options={"grace_s": 0})
    links = [register(client, code, names)["links"] for names in FOUR[:2]]
    table = next_round(client, code, director)["rounds"][0]["tables"][0]
    first = table["pairs"][0]
    # A person by name for the first pair's second player (seat 2): their seat and link.
    r = substitute(client, code, director, {"seat": 2, "name": "Sub"})
    assert r.status_code == 200, r.text
    sub = r.json()
    assert sub["seat"] == 2 and sub["link"] == f"/n/{code}/s/{sub['token']}"
    room = table["room"]
    assert client.get(f"/api/rooms/{room}", headers=bearer(sub["token"])).json()["you"] == 2
    # A computer player for the first pair's first player (seat 0), marked as such.
    r = substitute(client, code, director, {"seat": 0, "bot": "easy"})
    assert r.status_code == 200 and r.json() is None
    seats = night(client, code)["rounds"][0]["tables"][0]["seats"]
    assert seats[0] == {
        "name": FOUR[first - 1][0],
        "bot": True,
        "level": "easy",
        "substitute_for": FOUR[first - 1][0],
        "claimed_back": False,
    }  # fmt: skip (a computer player seated for a player bears their name)
    assert seats[2] == {
        "name": "Sub", "bot": False, "level": None, "substitute_for": FOUR[first - 1][1],
        "claimed_back": False,
    }  # fmt: skip
    # The second pair takes its seats: the table deals.
    for link in links[2 - first]:
        token = link.rsplit("/", 1)[1]
        assert client.post(f"/api/nights/{code}/sit", headers=bearer(token)).status_code == 200
    dealt(client, room, sub["token"])
    # The first pair's first player comes back: the computer player's seat is theirs from the
    # next deal (the table's latecomer rule).
    token = links[first - 1][0].rsplit("/", 1)[1]
    r = client.post(f"/api/nights/{code}/sit", headers=bearer(token))
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == 0 and r.json()["pending"] is True
    # Their partner comes back too: the substitute finishes the game in play, the seat is
    # the partner's from the match's next game.
    token = links[first - 1][1].rsplit("/", 1)[1]
    r = client.post(f"/api/nights/{code}/sit", headers=bearer(token))
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == 2 and r.json()["pending"] is True
    seats = night(client, code)["rounds"][0]["tables"][0]["seats"]
    partner = FOUR[first - 1][1]
    assert seats[2] == {
        "name": "Sub", "bot": False, "level": None, "substitute_for": partner, "claimed_back": True
    }  # fmt: skip
    assert seats[0]["bot"] is True and seats[0]["claimed_back"] is True
    assert seats[0]["substitute_for"] == FOUR[first - 1][0]


def dealt(client: TestClient, room: str, token: str) -> Json:
    """The room's view once the night has dealt its first game (the steward deals it when
    the four seats are filled)."""
    for _ in range(500):
        found: Json = client.get(f"/api/rooms/{room}", headers=bearer(token)).json()
        if found["phase"] != "lobby":
            return found
    raise AssertionError(f"no deal at {room}")


def test_a_player_back_takes_their_seat_from_a_person_substitute_at_the_next_game(
    client: TestClient,
) -> None:
    code, director = open_night(client, options={"grace_s": 0})
    links = [link_tokens(client, code, names) for names in FOUR[:2]]
    table = next_round(client, code, director)["rounds"][0]["tables"][0]
    room, first = table["room"], table["pairs"][0]
    bo = links[first - 1][1]  # the first pair's second player: seat 2

    def sit(token: str) -> Json:
        r = client.post(f"/api/nights/{code}/sit", headers=bearer(token))
        assert r.status_code == 200, r.text
        return dict(r.json())

    # Before the first game: Bo back takes the seat at once; Cy's token seats nobody now.
    cy = substitute(client, code, director, {"seat": 2, "name": "Cy"}).json()
    back = sit(bo)
    assert back["seat"] == 2 and back["pending"] is False
    assert client.get(f"/api/rooms/{room}", headers=bearer(cy["token"])).json()["you"] is None
    seats = night(client, code)["rounds"][0]["tables"][0]["seats"]
    assert seats[2] == {"name": FOUR[first - 1][1], "bot": False, "level": None,
                        "substitute_for": None, "claimed_back": False}  # fmt: skip
    # The seat is Bo's again: the director may not seat a substitute in it.
    r = substitute(client, code, director, {"seat": 2, "name": "Cy"})
    assert r.status_code == 409 and r.json()["code"] == "night_seat_held"


def test_a_substitute_finishes_the_game_in_play_and_the_player_has_the_next(
    client: TestClient,
) -> None:
    code, director = open_night(client, options={"grace_s": 0})
    links = [link_tokens(client, code, names) for names in FOUR[:2]]
    table = next_round(client, code, director)["rounds"][0]["tables"][0]
    room, first = table["room"], table["pairs"][0]
    ann, bo = links[first - 1]  # the first pair: seats 0 and 2
    r = substitute(client, code, director, {"seat": 2, "name": "Cy"})
    assert r.status_code == 200, r.text
    cy = r.json()["token"]
    tokens: list[str] = [""] * 4
    tokens[2] = cy
    for token in [ann, *links[2 - first]]:
        sat = client.post(f"/api/nights/{code}/sit", headers=bearer(token)).json()
        tokens[sat["seat"]] = sat["token"]
    dealt(client, room, cy)
    # Bo comes back during the game: Cy plays it out, the seat is Bo's from the next game.
    r = client.post(f"/api/nights/{code}/sit", headers=bearer(bo))
    assert r.status_code == 200 and r.json()["seat"] == 2 and r.json()["pending"] is True
    bo_seat = r.json()["token"]
    assert client.get(f"/api/rooms/{room}", headers=bearer(bo_seat)).json()["you"] is None
    assert client.get(f"/api/rooms/{room}", headers=bearer(cy)).json()["you"] == 2
    # Asked again from another device: the same claim, the same answer.
    again = client.post(f"/api/nights/{code}/sit", headers=bearer(bo)).json()
    assert again["pending"] is True and again["token"] == bo_seat
    play_random(client, room, tokens, random.Random(3), check=False)
    # The game over, the seat is Bo's; Cy watches.
    assert client.get(f"/api/rooms/{room}", headers=bearer(bo_seat)).json()["you"] == 2
    assert client.get(f"/api/rooms/{room}", headers=bearer(cy)).json()["you"] is None
    seats = night(client, code)["rounds"][0]["tables"][0]["seats"]
    assert seats[2] == {"name": FOUR[first - 1][1], "bot": False, "level": None,
                        "substitute_for": None, "claimed_back": False}  # fmt: skip
    mine = client.post(f"/api/nights/{code}/sit", headers=bearer(bo)).json()
    assert mine["seat"] == 2 and mine["pending"] is False


def test_a_pairs_names_and_a_nights_preset_are_checked_as_a_rooms(client: TestClient) -> None:
    code, _ = open_night(client)
    for name, expected in [
        ("Us", "name_reserved"),
        ("x" * 30, "name_too_long"),
        (" ", "name_empty"),
    ]:
        r = client.post(f"/api/nights/{code}/pairs", json={"names": ["Ann", name]})
        assert r.status_code == 422 and r.json()["code"] == expected, r.text
    assert register(client, code, [" Ann ", "Bo"]) and night(client, code)["pairs"][0]["names"] == [
        "Ann",
        "Bo",
    ]
    for path, body in [("/api/rooms", {}), ("/api/nights", {"name": "Friday"})]:
        r = client.post(path, json={**body, "preset": "nonesuch"})
        assert r.status_code == 422 and r.json()["code"] == "invalid_request", r.text
        assert "unknown preset" in r.json()["detail"]
