"""Renege mode after the fact (issue #26 § Records, RULES.md R22-R27): the score sheet words
a penalty as an award and lists the hand's calls, and once the game is over the reneges
nobody called; the replay marks every renege in its lift, called or not, and shows each call
at the moment it was made; the stats page shows the renege figures for a room that played
renege mode only. Before game over no page shows a renege nobody called (R27).

The sheet is rendered from engine games (notebooks read by tests/rules/golden.py); the
replay and the stats from games played through the JSON API (tests/api/reneges.py)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.rules.state import State
from app.rules.view import observe
from app.views.records import hand_records
from app.web.cards import card_name
from app.web.render import render_how_to_play, render_sheet
from tests.api.conftest import ADMIN, app_settings
from tests.api.reneges import play_renege_game, renege_room
from tests.api.table import Json, bearer, new_room, play_random, seat_four, view
from tests.databases import database_url  # noqa: F401 - a fixture
from tests.rules.golden import read, run
from tests.web.dom import Element, having, parse
from tests.web.views import NAMES, server_view

GOLDEN = Path(__file__).parent.parent / "rules" / "golden"
VIEWERS = (0, 1, 2, 3, None)

# Seat 3 (Dan) holds the five of clubs and plays a diamond to the club lead: a renege that
# nobody calls. ``{start}`` and ``{end}`` make it the game's last hand or not.
UNCALLED = """
rules: renege=one
{start}
deal, dealer 0
seat 1: KC AH 2D 3D 4D 5D
seat 2: 2C 9H 2S 3S 4S JS
seat 3: 6D 7D 8D 9D TD 5C
seat 0: 3C 4C TH 6S 7S 8S
kick: 3H
stand
lift: KC 2C 6D 3C -> 1
play out
{end}
"""


def _golden(name: str) -> State:
    return run(read(GOLDEN / name))


def _notebook(tmp_path: Path, text: str) -> State:
    path = tmp_path / "game.txt"
    path.write_text(text)
    return run(read(path))


def _team(viewer: int | None, team: int) -> str:
    """A team as the sheet names it for this viewer (tests/web/views.py's players)."""
    if viewer is not None and viewer % 2 == team:
        return f"You & {NAMES[(viewer + 2) % 4]}"
    return f"{NAMES[team]} & {NAMES[team + 2]}"


def _sheets(state: State) -> Iterator[tuple[int | None, list[Element], str]]:
    for viewer in VIEWERS:
        html = render_sheet(
            server_view(state, viewer, version=2), hand_records(observe(state, viewer))
        )
        yield viewer, parse(html), html


def _text(e: Element) -> str:
    return " ".join(e.all_text().split())


def _awards(elements: list[Element], kind: str) -> list[str]:
    return [_text(e) for e in elements if e.get("data-award") == kind]


# -- the score sheet -------------------------------------------------------------------------


def test_a_renege_caught_is_an_award_line_with_its_card_offender_and_call() -> None:
    state = _golden("renege_one.txt")  # seat 0 (Ann) catches seat 3 (Dan): 1 point to team 0
    for viewer, elements, _html in _sheets(state):
        [line] = _awards(elements, "renege")
        assert line.startswith("Renege caught") and "6♦" in line and "Dan reneged" in line
        assert _team(viewer, 0) in line and line.endswith("+1")
        calls = [_text(e) for e in having(elements, "data-sheet-call")]
        assert calls == [f"Ann called renege on lift 1: upheld, 1 point to {_team(viewer, 0)}"]
        assert not having(elements, "data-sheet-uncalled")  # the game goes on (R27)


def test_a_wrong_call_is_an_award_to_the_other_team_and_a_second_costs_nothing() -> None:
    state = _golden("renege_wrong_call.txt")  # Bob calls wrongly, then Dan: paid once (R24)
    for viewer, elements, _html in _sheets(state):
        [line] = _awards(elements, "false_call")
        assert line.startswith("Wrong call") and "called by Bob" in line
        assert _team(viewer, 0) in line and line.endswith("+1")
        calls = [_text(e) for e in having(elements, "data-sheet-call")]
        assert calls == [
            f"Bob called renege on lift 1: no renege, 1 point to {_team(viewer, 0)}",
            "Dan called renege on lift 2: no renege, nothing lost",
        ]


def test_a_bullseye_penalty_reads_bullseye_not_nought_points() -> None:
    state = _golden("renege_bullseye.txt")  # Dan catches Cy: the game to team 1 at once
    for viewer, elements, _html in _sheets(state):
        [line] = _awards(elements, "renege_bullseye")
        assert "Cy reneged" in line and _team(viewer, 1) in line
        assert line.endswith("bullseye") and "+0" not in line
        calls = [_text(e) for e in having(elements, "data-sheet-call")]
        assert calls == [f"Dan called renege on lift 1: upheld, bullseye to {_team(viewer, 1)}"]
        assert not having(elements, "data-sheet-renege")  # its one renege was called


def test_a_renege_nobody_called_shows_on_no_sheet_before_game_over(tmp_path: Path) -> None:
    state = _notebook(tmp_path, UNCALLED.format(start="", end="phase: beg"))
    assert state.winner is None and state.history[-1].reneges  # played, and kept
    for _viewer, elements, html in _sheets(state):
        assert not having(elements, "data-sheet-uncalled")
        assert not having(elements, "data-sheet-call")
        assert "reneged" not in html and "Renege" not in html  # R27: nobody is told


def test_after_game_over_the_sheet_lists_the_reneges_nobody_called(tmp_path: Path) -> None:
    state = _notebook(tmp_path, UNCALLED.format(start="start: 13 13", end="winner: T1"))
    for _viewer, elements, _html in _sheets(state):
        [box] = having(elements, "data-sheet-uncalled")
        assert box.ancestors[-1].get("data-sheet-hand") == str(state.history[-1].n)
        assert _text(box) == f"A renege nobody called: Dan reneged in lift 1 with {card_name('6D')}"


# -- the replay and the stats, from games played through the API ----------------------------


@pytest.fixture(scope="module")
def client(database_url: str) -> Iterator[TestClient]:  # noqa: F811
    with TestClient(create_app(app_settings(database_url))) as c:
        yield c


@pytest.fixture(scope="module")
def renege_game(client: TestClient) -> tuple[str, Json]:
    """A finished renege-mode game (seed 26 holds reneges called and not, calls upheld,
    wrong and free of cost, a call in the reckoning): its room and record."""
    code, tokens = renege_room(client, ADMIN, target=7)
    play_renege_game(client, code, tokens)
    record: Json = client.get(f"/api/rooms/{code}/games/1").json()
    return code, record


def _calls_in_the_notebook(text: str) -> list[list[tuple[int, int]]]:
    """Each deal's calls as (replay step, lift called), from the scorer's notebook, which
    writes each call where it was made (a lift split at a call in it): the step is the lift
    on the table then, or the count (step n + 1) once the deal's last lift was taken or a
    lift was cut short by the penalty that ended the game."""
    deals = []
    for block in text.split("\ndeal, dealer ")[1:]:
        taken, partial, calls = 0, False, []
        for line in block.splitlines():
            if line.startswith("lift: "):
                taken, partial = (taken + 1, False) if "->" in line else (taken, True)
            elif m := re.match(r"call: seat \d lift (\d+)", line):
                calls.append((taken + 1 if partial else taken, partial, int(m[1])))
        deals.append(
            [(s if s < taken or (p and s == taken) else taken + 1, lift) for s, p, lift in calls]
        )
    return deals


def _step_of(e: Element) -> int | None:
    """The replay step an element is shown at: its lift, or the count (None)."""
    for a in reversed(e.ancestors):
        if a.has("data-lift"):
            return int(a.get("data-lift") or 0)
        if a.get("data-awards") == "count":
            return None
    raise AssertionError(f"{e} is in no step")


def _replay_hands(
    client: TestClient, code: str, record: Json
) -> Iterator[tuple[Json, list[Element]]]:
    """Each hand of the record, with the elements of its part of the replay page."""
    elements = parse(client.get(f"/r/{code}/games/1/replay").text)
    for hand in record["hands"]:
        [section] = [e for e in elements if e.get("data-hand") == str(hand["n"])]
        yield hand, [e for e in elements if section in e.ancestors]


def test_the_replay_marks_every_renege_in_its_lift_called_or_not(
    client: TestClient, renege_game: tuple[str, Json]
) -> None:
    code, record = renege_game
    for hand, inside in _replay_hands(client, code, record):
        marked = {
            (_step_of(e), e.get("data-renege"), card.get("data-card"))
            for e in having(inside, "data-renege")
            for card in having(inside, "data-card")
            if e in card.ancestors
        }
        in_lifts = [r for r in hand["reneges"] if r["lift"] <= len(hand["tricks"])]
        assert marked == {
            (r["lift"], "called" if r["called"] else "uncalled", r["card"]) for r in in_lifts
        }
        uncalled = [e for e in inside if e.has("data-reneges-uncalled")]
        listed = [e for e in inside if e.tag == "li" and any(u in e.ancestors for u in uncalled)]
        assert len(listed) == sum(not r["called"] for r in hand["reneges"])
    called = {r["called"] for h in record["hands"] for r in h["reneges"]}
    assert called == {True, False}  # the game holds both


def test_the_replay_shows_each_call_at_its_moment_with_its_verdict(
    client: TestClient, renege_game: tuple[str, Json]
) -> None:
    code, record = renege_game
    notebook = client.get(f"/api/rooms/{code}/games/1/notebook.txt").text
    expected = _calls_in_the_notebook(notebook)
    assert len(expected) == len(record["hands"])
    names = [s["name"] for s in record["seats"]]
    reckoning = 0
    for (hand, inside), calls in zip(_replay_hands(client, code, record), expected, strict=True):
        shown = having(inside, "data-call")
        count = len(hand["tricks"]) + 1
        assert [(_step_of(e) or count, int(e.get("data-call") or 0)) for e in shown] == calls
        reckoning += sum(step == count for step, _ in calls)
        for e, call in zip(shown, hand["calls"], strict=True):  # in the order they were made
            words = _text(e)
            assert words.startswith(f"{names[call['seat']]} called renege on lift {call['lift']}")
            verdict = "upheld" if call["upheld"] else "no renege"
            assert f"lift {call['lift']}: {verdict}" in words
            assert ("upheld" if call["upheld"] else "wrong") in e.classes
    assert reckoning  # some calls came in the reckoning, after the last card


def test_the_replay_counts_the_penalties_in_the_hands_awards_in_order(
    client: TestClient, renege_game: tuple[str, Json]
) -> None:
    code, record = renege_game
    for hand, inside in _replay_hands(client, code, record):
        if not hand["tricks"]:
            continue  # a deal thrown in, or a game the kick ended: no count
        [count] = [e for e in inside if e.get("data-awards") == "count"]
        lines = [e for e in inside if count in e.ancestors and e.has("data-award")]
        counted = [a for a in hand["awards"] if a["kind"] not in ("kick", "give_one")]
        assert [e.get("data-award") for e in lines] == [a["kind"] for a in counted]
        for e, award in zip(lines, counted, strict=True):
            if award["kind"] == "renege":
                assert _text(e).startswith("Renege caught") and "reneged" in _text(e)
            if award["kind"] == "false_call":
                assert _text(e).startswith("Wrong call") and "called by" in _text(e)
    kinds = {a["kind"] for h in record["hands"] for a in h["awards"]}
    assert {"renege", "false_call"} <= kinds


def test_the_stats_page_shows_the_renege_columns_only_where_renege_was_played(
    client: TestClient, renege_game: tuple[str, Json]
) -> None:
    code, _record = renege_game
    stats = client.get(f"/api/rooms/{code}/stats").json()
    assert stats["renege"] is True
    elements = parse(client.get(f"/r/{code}/stats").text)
    for key in ("reneges_caught", "wrong_calls", "reneges", "reneges_called"):
        for section, rows in (
            ("data-stats-players", stats["players"]),
            ("data-stats-partnerships", stats["partnerships"]),
        ):
            [part] = having(elements, section)
            cells = [e for e in elements if e.get("data-stat") == key and part in e.ancestors]
            assert [_text(c) for c in cells] == [str(r[key]) for r in rows]
    assert sum(p["reneges"] for p in stats["players"]) > sum(
        p["reneges_called"] for p in stats["players"]
    )
    # a room that never played renege mode has no renege columns
    plain = new_room(client, {"seed": 4, "rules": {"target": 7}}, admin=ADMIN)
    tokens = seat_four(client, plain)
    client.post(f"/api/rooms/{plain}/start", headers=bearer(tokens[0]))
    play_random(client, plain, tokens, random.Random(4), check=False)
    assert client.get(f"/api/rooms/{plain}/stats").json()["renege"] is False
    page = client.get(f"/r/{plain}/stats").text
    assert 'data-stat="games"' in page and "reneges" not in page.lower()


def test_no_page_shows_an_uncalled_renege_while_the_game_runs(client: TestClient) -> None:
    """R27 over HTTP: a hand with a renege nobody called is over, the game is not; its sheet
    (to each seat and a spectator) and the table say nothing of it, its replay is refused."""
    code, tokens = renege_room(client, ADMIN, target=7)
    reneged_in = 0  # the hand a renege was played in
    while True:
        v = view(client, code)
        assert v["phase"] != "game_over"
        if reneged_in and v["hand_number"] > reneged_in:
            break
        if v["phase"] == "reckoning":
            for t in tokens:
                client.post(f"/api/rooms/{code}/reckoned", headers=bearer(t))
            continue
        me = view(client, code, tokens[v["turn"]])
        marked = me.get("renege_cards") or []
        move = {"type": "play", "card": marked[0]} if marked else me["legal"][0]
        reneged_in = reneged_in or (v["hand_number"] if marked else 0)
        body = {**move, "version": me["version"]}
        r = client.post(f"/api/rooms/{code}/actions", json=body, headers=bearer(tokens[v["turn"]]))
        assert r.status_code == 200, r.text
    record = client.get(f"/api/rooms/{code}/games/1").json()
    assert record["hands"][0]["reneges"] is None  # the record keeps it a secret too
    for token in [*tokens, None]:
        headers = {"Cookie": f"allfours_seat={token}"} if token else {}
        for path in (f"/r/{code}/sheet", f"/r/{code}"):
            html = client.get(path, headers=headers).text
            assert "data-sheet-renege" not in html and "reneged" not in html, path
    assert client.get(f"/r/{code}/games/1/replay").status_code == 409


# -- how to play -------------------------------------------------------------------------------


def test_how_to_play_explains_renege_mode_for_a_newcomer() -> None:
    elements = parse(render_how_to_play())
    [section] = [e for e in elements if e.get("id") == "renege"]
    text = _text(section)
    for words in (
        "three ways to renege", "a plain suit is led", "trump is led", "undertrumping",
        "call renege on a lift", "upheld", "wrong call", "1 point", "Bullseye",
        "The Trinidad rule", "Ace, King, Queen, Jack or 10 of trumps", "'score it'",
        "after 15 seconds", "Computer players never renege", "seen it proven",
    ):  # fmt: skip
        assert words in text, words
    assert any(e.get("href") == "#renege" for e in elements)  # in the page's contents
