"""The club night's pages: a player's night, the board, the director's page (hooks of API.md
§ Club night), their forms, and their live part, in the reader's language."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from markupsafe import escape

from app.i18n import LANGUAGES, _, reading
from app.web.words import level_name
from tests.api.table import bearer
from tests.night.helpers import (
    bots_everywhere,
    next_round,
    night,
    open_night,
    register,
    round_over,
)

FOUR = [["Ann", "Bo"], ["Cy", "Di"], ["Ed", "Flo"], ["Gus", "Hal"]]


def test_a_director_runs_a_night_from_the_page(client: TestClient) -> None:
    page = client.get("/n")
    assert page.status_code == 200 and 'action="/n"' in page.text
    r = client.post(
        "/n",
        data={
            "name": "Friday <b>night</b>",
            "format": "round_robin",
            "match": "2",
            "standings": "wins_first",
        },
    )
    assert r.status_code == 200 and "Directing" in r.text  # followed to /n/{code}/direct
    assert "&lt;b&gt;night&lt;/b&gt;" in r.text  # text from users is text
    code = re.search(r"/n/(\w+)/board", r.text)[1]  # type: ignore[index]
    links: list[str] = []
    for first, second in FOUR:
        r = client.post(f"/n/{code}/direct/pairs", data={"first": first, "second": second})
        assert r.status_code == 200, r.text
        # Every pair's links so far, each player's under their name, the new pair's too.
        links = re.findall(r'value="(http[^"]+/p/[^"]+)"', r.text)
        assert len(links) == len(set(links)) == 2 * (FOUR.index([first, second]) + 1)
        assert f'<label for="link-{len(links) // 2}-1">{second}</label>' in r.text
    assert len(links) == 8
    # A double tap: the pair once, and the page says why.
    r = client.post(f"/n/{code}/direct/pairs", data={"first": "Ann", "second": "Bo"})
    assert r.status_code == 409 and "That pair is registered already" in r.text
    r = client.post(f"/n/{code}/direct/rounds")
    assert r.status_code == 200 and 'data-action="next-round"' in r.text
    assert r.text.count("data-night-table=") == 2 and "data-standings" in r.text
    # Too early for a substitute: the grace time (in French for a French reader).
    r = client.post(f"/n/{code}/direct/tables/1/substitute?lang=fr", data={"seat": "0"})
    assert r.status_code == 409 and "Le délai de grâce court encore" in r.text
    # A player's link: their table, against whom, and a tap to sit there.
    player = TestClient(client.app)
    night = player.get(links[0].split("testserver")[1])
    assert night.status_code == 200
    text = night.text
    assert "Your table:" in text and "against" in text and 'data-action="sit"' in text
    assert len(re.findall(r'data-standing="\d"', text)) == 4
    sat = player.post(f"/n/{code}/sit", follow_redirects=False)
    assert sat.status_code == 303 and sat.headers["location"].startswith("/r/")
    room = sat.headers["location"].removeprefix("/r/")
    assert player.get(f"/api/rooms/{room}").json()["you"] in (0, 1)
    # The board: every table and the standings; its live part is a stream of the same.
    board = client.get(f"/n/{code}/board?lang=de")
    assert board.status_code == 200 and 'lang="de"' in board.text
    assert board.text.count("data-night-table=") == 2
    assert f'sse-connect="/n/{code}/live?view=board&amp;lang=de"' in board.text
    sent = []
    with client.stream("GET", f"/n/{code}/live?view=board&lang=de") as stream:
        for line in stream.iter_lines():
            if line.startswith("data:"):
                sent.append(line)
            elif sent and not line:
                break
    event = "\n".join(sent)
    assert event.count("data-night-table=") == 2 and "data-standings" in event
    assert "sse-connect" not in event  # the live part only: the stream stays open
    # Someone else's director page: refused.
    stranger = TestClient(client.app)
    assert stranger.get(f"/n/{code}/direct").status_code == 403
    assert stranger.post(f"/n/{code}/direct/rounds").status_code == 403


def test_pages_of_a_missing_night_and_a_wrong_link(client: TestClient) -> None:
    assert client.get("/n/nosuchnight").status_code == 404
    assert client.get("/n/nosuchnight/board").status_code == 404
    code, director = open_night(client)
    other, _ = open_night(client)
    link = register(client, other, ["Ivy", "Jo"])["links"][0]
    r = client.get(f"/n/{code}/p/{link.rsplit('/', 1)[1]}", follow_redirects=False)
    assert r.status_code == 403 and "another night" in r.text
    assert client.get(f"/n/{code}/d/not-the-token").status_code == 403
    for names in FOUR[:2]:
        register(client, code, names, director)
    next_round(client, code, director)
    assert client.post(f"/api/nights/{code}/rounds", headers=bearer(director)).status_code == 409


def test_the_request_log_keeps_no_token_of_a_night_link() -> None:
    from app.logs import public_path

    assert public_path("/n/abc/p/s3cret-token") == "/n/abc/p/…"
    assert public_path("/n/abc/d/s3cret-token") == "/n/abc/d/…"
    assert public_path("/n/abc/s/s3cret-token") == "/n/abc/s/…"
    assert public_path("/n/abc/board") == "/n/abc/board"


def test_pairs_register_themselves_until_the_director_closes_registration(
    client: TestClient,
) -> None:
    code, director = open_night(client)
    page = client.get(f"/n/{code}/register")
    assert page.status_code == 200 and 'data-action="register"' in page.text
    r = client.post(f"/n/{code}/register", data={"first": "Ann", "second": "Bo"})
    assert r.status_code == 200 and len(re.findall(r"data-player-link", r.text)) == 2
    r = client.post(f"/n/{code}/register", data={"first": "Bo", "second": "Ann"})
    assert r.status_code == 409 and "That pair is registered already" in r.text
    r = client.post(
        f"/api/nights/{code}/registration", json={"open": False}, headers=bearer(director)
    )
    assert r.status_code == 200 and r.json()["registration_open"] is False
    r = client.post(f"/n/{code}/register?lang=de", data={"first": "Cy", "second": "Di"})
    assert r.status_code == 409 and "Die Anmeldung ist geschlossen" in r.text
    assert len(client.get(f"/api/nights/{code}").json()["pairs"]) == 1


def test_the_board_and_standings_mark_a_substitute_and_the_player_page_says_when_back(
    client: TestClient,
) -> None:
    code, director = open_night(client, options={"grace_s": 0})
    links = [register(client, code, names)["links"] for names in FOUR[:2]]
    table = next_round(client, code, director)["rounds"][0]["tables"][0]
    first = table["pairs"][0]  # at seats 0 and 2
    ann, bo = FOUR[first - 1]
    for body in ({"seat": 0, "bot": "easy"}, {"seat": 2, "name": "Eve"}):
        r = client.post(
            f"/api/nights/{code}/tables/1/substitute", json=body, headers=bearer(director)
        )
        assert r.status_code == 200, r.text
    for lang in LANGUAGES:
        with reading(lang):
            computer = _("Computer (%(level)s)") % {"level": level_name("easy")}
            marks = [
                _("%(sub)s for %(player)s") % {"sub": computer, "player": ann},
                _("%(sub)s for %(player)s") % {"sub": "Eve", "player": bo},
            ]
        board = client.get(f"/n/{code}/board?lang={lang}").text
        for mark in marks:
            # once under the table's pair, once in the standings
            assert board.count(str(escape(mark))) == 2, (lang, mark)
    assert f"Eve for {bo}" in client.get(f"/n/{code}/board?lang=en").text
    # The other pair sits, the table deals; the first pair's players come back.
    for link in links[2 - first]:
        sat = client.post(f"/api/nights/{code}/sit", headers=bearer(link.rsplit("/", 1)[1]))
        assert sat.status_code == 200, sat.text
    for _n in range(500):  # until the steward has dealt the first game
        if night(client, code)["rounds"][0]["tables"][0]["state"] == "playing":
            break
    player = TestClient(client.app)
    assert player.get(links[first - 1][0]).status_code == 200
    for slot in (0, 1):
        back = client.post(
            f"/api/nights/{code}/sit", headers=bearer(links[first - 1][slot].rsplit("/", 1)[1])
        )
        assert back.status_code == 200 and back.json()["pending"] is True, back.text
    page = player.get(f"/n/{code}?lang=fr").text
    assert str(escape(f"{ann} reprend sa place à la prochaine donne.")) in page
    back = f"{bo} reprend sa place à la prochaine partie\u202f: Eve termine celle-ci."
    assert str(escape(back)) in page


def test_every_player_page_opens_at_every_stage_of_a_night(client: TestClient) -> None:
    """Each pair's own link, before the first round, while a round is played, between rounds
    (a finished match, a bye) and once the night is over: a page, never a 500."""
    code, director = open_night(client, options={"grace_s": 0, "match": 1})
    three = FOUR[:3]  # three pairs: a bye every round
    players = []
    for names in three:
        link = register(client, code, names)["links"][0]
        player = TestClient(client.app)
        assert player.get("/n/" + link.split("/n/", 1)[1]).status_code == 200  # the cookie
        players.append(player)

    def every_page() -> list[str]:
        pages = [p.get(f"/n/{code}") for p in players]
        assert [r.status_code for r in pages] == [200] * len(players), pages[0].text[-500:]
        return [r.text for r in pages]

    every_page()  # before the first round
    while True:
        r = client.post(f"/api/nights/{code}/rounds", headers=bearer(director))
        if r.status_code == 409 and r.json()["code"] == "night_over":
            break
        assert r.status_code == 201, r.text
        every_page()  # a round in play
        bots_everywhere(client, code, director)
        done = round_over(client, code)
        texts = every_page()  # between rounds (or the night over)
        number = done["rounds"][-1]["round"]
        bye = done["rounds"][-1]["bye"]
        for pair, text in enumerate(texts, start=1):
            said = f"Round {number}: a bye" if pair == bye else f"Round {number} against"
            assert said in text, (pair, number)
    assert night(client, code)["state"] == "over"
    assert all("The night is over" in text for text in every_page())
    # The director's page draws no more rounds: it says the night is over (issue #46).
    direct = TestClient(client.app).get(f"/n/{code}/d/{director}")
    assert direct.status_code == 200 and "data-night-over" in direct.text
    assert 'data-action="next-round"' not in direct.text and "data-standings-key" in direct.text


def test_a_nights_table_links_back_to_its_night(client: TestClient) -> None:
    """From a table's lobby to its match's result, the room's page says which night, round and
    table it is and links back to the night (issue #46); an ordinary room says nothing."""
    code, director = open_night(client, name="Friday at the club")
    for names in FOUR[:2]:
        register(client, code, names)
    room = next_round(client, code, director)["rounds"][-1]["tables"][0]["room"]
    page = client.get(f"/r/{room}")
    assert page.status_code == 200 and "data-night-link" in page.text
    assert f'href="/n/{code}"' in page.text
    assert "Friday at the club, round 1: table 1." in page.text
    plain = client.post("/api/rooms", json={}).json()["code"]
    assert "data-night-link" not in client.get(f"/r/{plain}").text
