"""The director's computer players for every empty seat of a table, or of the round, in one
step (docs/club-night.md, POST /api/nights/{code}/computer-players), and the links the
director's page shows again for every pair."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from app.i18n import _
from tests.api.table import bearer
from tests.night.helpers import link_tokens, next_round, night, open_night, register

Json = dict[str, Any]
FOUR = [["Ann", "Bo"], ["Cy", "Di"], ["Ed", "Flo"], ["Gus", "Hal"]]


def _computer_players(client: TestClient, code: str, director: str | None, **body: Any) -> Any:
    headers = bearer(director) if director else {}
    return client.post(f"/api/nights/{code}/computer-players", json=body, headers=headers)


def _seats(found: Json) -> dict[int, list[Json | None]]:
    return {t["table"]: t["seats"] for t in found["rounds"][-1]["tables"]}


def test_computer_players_fill_the_empty_seats_of_a_table_then_of_the_round(
    client: TestClient,
) -> None:
    code, director = open_night(client, options={"grace_s": 0})
    ann = link_tokens(client, code, FOUR[0])[0]
    for names in FOUR[1:]:
        register(client, code, names, director)
    found = next_round(client, code, director)
    tables = found["rounds"][0]["tables"]
    mine = next(t for t in tables if 1 in t["pairs"])
    other = next(t for t in tables if t is not mine)
    # Ann sits down: her seat stays hers.
    sat = client.post(f"/api/nights/{code}/sit", headers=bearer(ann)).json()
    r = _computer_players(client, code, director, table=mine["table"], level="easy")
    assert r.status_code == 200, r.text
    seats = _seats(r.json())
    assert seats[mine["table"]][sat["seat"]] == {
        "name": "Ann", "bot": False, "level": None, "substitute_for": None, "claimed_back": False
    }  # fmt: skip
    others = [s for n, s in enumerate(seats[mine["table"]]) if n != sat["seat"]]
    assert all(s is not None and s["bot"] and s["substitute_for"] for s in others)
    assert seats[other["table"]] == [None] * 4  # only the table asked for
    # The round: every empty seat left, at every table, in one step.
    r = _computer_players(client, code, director)
    assert r.status_code == 200, r.text
    seats = _seats(r.json())
    assert all(s is not None and s["bot"] for s in seats[other["table"]])
    assert seats[mine["table"]][sat["seat"]]["name"] == "Ann"
    # At the table each computer player bears the name of the player it stands in for
    # (not "Bot 2"): the table's chip says it is a computer player.
    room = other["room"]
    view = client.get(f"/api/rooms/{room}").json()
    owners = {p["pair"]: p["names"] for p in r.json()["pairs"]}
    expected = [owners[other["pairs"][n % 2]][n // 2] for n in range(4)]
    assert [s["name"] for s in view["seats"]] == expected
    assert all(s["bot"] and s["level"] == "standard" for s in view["seats"])
    table_page = client.get(f"/r/{room}").text
    assert "Bot 2" not in table_page and all(name in table_page for name in expected)
    # Again: nothing empty, nothing changes (a double tap).
    r = _computer_players(client, code, director)
    assert r.status_code == 200 and _seats(r.json()) == seats


def test_computer_players_refused_when_not_allowed_change_nothing(client: TestClient) -> None:
    code, director = open_night(client, options={"grace_s": 0})
    _, stranger = open_night(client)
    for names in FOUR[:2]:
        register(client, code, names, director)
    # No round yet.
    r = _computer_players(client, code, director)
    assert r.status_code == 409 and r.json()["code"] == "night_no_round_now"
    next_round(client, code, director)
    refused = [
        (_computer_players(client, code, None), 401, "night_director_token_needed"),
        (_computer_players(client, code, stranger), 403, "night_not_director"),
        (_computer_players(client, code, director, level="wizard"), 422, "unknown_level"),
        (_computer_players(client, code, director, table=9), 404, "night_no_table"),
        (_computer_players(client, code, director, table=0), 422, None),
        (_computer_players(client, code, director, seats=4), 422, None),
        (_computer_players(client, "nosuchnight", director), 404, None),
    ]
    for r, status, reason in refused:
        assert r.status_code == status, r.text
        if reason:
            assert r.json()["code"] == reason
    assert _seats(night(client, code)) == {1: [None] * 4}
    # A match over (a forfeit): its table takes no computer players, nor does the round.
    r = client.post(
        f"/api/nights/{code}/tables/1/forfeit", json={"pair": 1}, headers=bearer(director)
    )
    assert r.status_code == 200, r.text
    r = _computer_players(client, code, director, table=1)
    assert r.status_code == 409 and r.json()["code"] == "night_table_over"
    r = _computer_players(client, code, director)
    assert r.status_code == 409 and r.json()["code"] == "night_no_round_now"
    assert _seats(night(client, code)) == {1: [None] * 4}


def test_computer_players_wait_for_the_grace_time(client: TestClient) -> None:
    code, director = open_night(client)
    for names in FOUR[:2]:
        register(client, code, names, director)
    next_round(client, code, director)
    r = _computer_players(client, code, director)
    assert r.status_code == 409 and r.json()["code"] == "night_in_grace"
    assert _seats(night(client, code)) == {1: [None] * 4}


def test_the_directors_page_shows_every_pairs_links_and_its_own(client: TestClient) -> None:
    code, director = open_night(client, options={"grace_s": 0})
    given = [register(client, code, names, director)["links"] for names in FOUR[:2]]
    itself = register(client, code, FOUR[2])["links"]  # a pair that registered itself
    page = client.get(f"/n/{code}/d/{director}")
    assert page.status_code == 200
    shown = re.findall(r'value="http[^"]+(/n/[^"]+/p/[^"]+)"', page.text)
    assert shown == [link for pair in given for link in pair]
    assert "This pair registered itself" in page.text
    assert f'/n/{code}/d/{director}" data-director-link' in page.text
    # Each link seats its player: the same as the one the registration gave.
    for link in shown:
        assert client.get(link, follow_redirects=False).status_code == 303
    # Between rounds and after: still there.
    next_round(client, code, director)
    r = _computer_players(client, code, director)
    assert r.status_code == 200
    page = client.get(f"/n/{code}/direct")
    assert re.findall(r'value="http[^"]+(/n/[^"]+/p/[^"]+)"', page.text) == shown
    # A pair that registered itself: new links, derived as the others' (the old ones go).
    assert client.post(f"/n/{code}/direct/pairs/3/links").status_code == 200
    page = client.get(f"/n/{code}/direct")
    renewed = re.findall(r'value="http[^"]+(/n/[^"]+/p/[^"]+)"', page.text)
    assert len(renewed) == 6 and not set(itself) & set(renewed)
    assert client.get(itself[0], follow_redirects=False).status_code == 403
    assert client.get(renewed[-1], follow_redirects=False).status_code == 303
    # Seats named by whose seat they are, not by number.
    assert "Seat 0" not in page.text
    playing = [p for t in night(client, code)["rounds"][0]["tables"] for p in t["pairs"]]
    first = FOUR[playing[0] - 1][0]
    computer = _("Computer (%(level)s)") % {"level": "standard"}
    assert f"<dt>{first}</dt><dd>{computer}" in page.text


def test_the_board_says_a_pairs_computer_players_once(client: TestClient) -> None:
    code, director = open_night(client, options={"grace_s": 0})
    for names in FOUR[:2]:
        register(client, code, names, director)
    next_round(client, code, director)
    assert _computer_players(client, code, director).status_code == 200
    board = client.get(f"/n/{code}/board").text
    for first, second in FOUR[:2]:
        both = f"Computer (standard) for {first} &amp; {second}"
        # Once at the table, once for a screen reader in the standings (marked there "⇄").
        assert board.count(both) == 2, board
        assert f'class="sr-only">{both}<' in board
    assert board.count('class="sub-mark"') == 2 and "sub-legend" in board


def test_new_links_for_a_pair_only_by_the_director(client: TestClient) -> None:
    code, director = open_night(client)
    _, stranger = open_night(client)
    old = link_tokens(client, code, FOUR[0])
    api = f"/api/nights/{code}/pairs/1/links"
    assert client.post(api).status_code == 401
    assert client.post(api, headers=bearer(stranger)).status_code == 403
    r = client.post(f"/api/nights/{code}/pairs/7/links", headers=bearer(director))
    assert r.status_code == 404 and r.json()["code"] == "night_no_pair"
    # Refused: the old links still work.
    assert client.post(f"/api/nights/{code}/sit", headers=bearer(old[0])).status_code == 409
    r = client.post(api, headers=bearer(director))
    assert r.status_code == 200 and r.json()["pair"] == 1
    new = [link.rsplit("/", 1)[1] for link in r.json()["links"]]
    assert client.post(f"/api/nights/{code}/sit", headers=bearer(old[0])).status_code == 403
    assert client.post(f"/api/nights/{code}/sit", headers=bearer(new[0])).status_code == 409
