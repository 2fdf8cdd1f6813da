"""The replay of a finished game in a real browser, by keyboard: every hand face up, lift by
lift, the position in the URL; on a phone; from the result page; from a record file
opened on its own page (checked against its seed first); and a renege game's reneges and
calls marked where they happened."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx
from playwright.sync_api import Browser, Page

from tests.api.reneges import play_renege_game, renege_room
from tests.e2e.axe import check, describe
from tests.e2e.conftest import ADMIN
from tests.e2e.players import DESKTOP, PHONE, WATCH_PAGE, _note_csp_violation, create_room

DEADLINE_S = 120  # a bound on waiting for the bots, not a speed requirement
Json = dict[str, Any]


def finished_game(server: str, level: str | None = None) -> tuple[str, Json]:
    """Four bots (of ``level``, else the server's default) play a short game to its end;
    its room and record."""
    code = create_room(server, seed=16)
    admin = {"Authorization": f"Bearer {ADMIN}"}
    for seat in range(4):
        body: dict[str, Any] = {"seat": seat} if level is None else {"seat": seat, "level": level}
        r = httpx.post(f"{server}/api/rooms/{code}/bots", json=body, headers=admin)
        r.raise_for_status()
    httpx.post(f"{server}/api/rooms/{code}/start", headers=admin).raise_for_status()
    end = time.monotonic() + DEADLINE_S
    while httpx.get(f"{server}/api/rooms/{code}").json()["phase"] != "game_over":
        assert time.monotonic() < end, "gave up waiting for the bots to finish"
        time.sleep(0.1)
    record: Json = httpx.get(f"{server}/api/rooms/{code}/games/1").json()
    return code, record


def open_page(
    browser: Browser, url: str, viewport: dict[str, int] = DESKTOP
) -> tuple[Page, list[str]]:
    context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    context.add_init_script(WATCH_PAGE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: _note_csp_violation(m, errors))
    page.goto(url)
    return page, errors


def steps_of(record: Json) -> list[tuple[int, int]]:
    """Every step of the replay, as replay.js orders them: each deal, its lifts, its count."""
    out = []
    for hand in record["hands"]:
        last = len(hand["tricks"]) + 1 if hand["tricks"] else 0
        out += [(hand["n"], lift) for lift in range(last + 1)]
    return out


def position(page: Page) -> tuple[int, int]:
    """The position in the page's own address bar. Playwright's ``page.url`` learns of a
    ``history.replaceState`` by a later protocol message, so under load it can still show the
    address before the key was pressed; the page itself cannot."""
    query = parse_qs(page.evaluate("location.search").lstrip("?"))
    return int(query["hand"][0]), int(query["lift"][0])


def shown_lift(page: Page, hand: int) -> list[str]:
    """The cards of the lift on show in that hand, in the order played."""
    section = page.locator(f"section[data-hand='{hand}']")
    lift = section.locator("[data-lift]:visible")
    return [c.get_attribute("data-card") or "" for c in lift.locator("[data-card]").all()]


def check_step(page: Page, record: Json, hand: int, lift: int) -> None:
    assert position(page) == (hand, lift)
    assert page.locator("section[data-hand]:visible").count() == 1
    section = page.locator(f"section[data-hand='{hand}']")
    assert section.is_visible()
    tricks = record["hands"][hand - 1]["tricks"]
    label = page.inner_text("[data-position]")
    assert label.startswith(f"Hand {hand} of {len(record['hands'])}")
    if 1 <= lift <= len(tricks):
        assert f"lift {lift} of {len(tricks)}" in label
        want = [p["card"] for p in tricks[lift - 1]["cards"]]
        assert shown_lift(page, hand) == want
        # Every card played up to this lift is marked as gone from its hand, no other.
        gone = {p["card"] for t in tricks[:lift] for p in t["cards"]}
        marked = section.locator(".held.gone [data-card]").all()
        assert {c.get_attribute("data-card") for c in marked} == gone
    elif lift == 0:
        assert "the deal" in label and shown_lift(page, hand) == []
        assert section.locator(".held.gone").count() == 0
        assert section.locator(".replay-cards [data-card]").count() == sum(
            len(c) for c in record["hands"][hand - 1]["dealt"].values()
        )
    else:
        assert "the count" in label and section.locator("[data-awards=count]").is_visible()


def test_the_replay_steps_by_arrow_keys_with_the_position_in_the_url(
    browser: Browser, server: str
) -> None:
    code, record = finished_game(server)
    steps = steps_of(record)
    page, errors = open_page(browser, f"{server}/r/{code}/games/1/replay")
    page.wait_for_selector("[data-replay].stepping")
    # Opened without a position: the first deal, all four hands face up.
    assert page.inner_text("[data-position]").startswith(f"Hand 1 of {len(record['hands'])}")
    page.keyboard.press("ArrowRight")
    check_step(page, record, *steps[1])
    forward = min(len(steps) - 1, 12)
    for i in range(2, forward + 1):
        page.keyboard.press("ArrowRight")
        check_step(page, record, *steps[i])
    page.keyboard.press("ArrowLeft")
    check_step(page, record, *steps[forward - 1])
    # End and Home: the last and first step of the hand on show.
    hand = steps[forward - 1][0]
    page.keyboard.press("End")
    last = max(lift for h, lift in steps if h == hand)
    check_step(page, record, hand, last)
    page.keyboard.press("Home")
    check_step(page, record, hand, 0)

    # A link straight to a lift: the last played hand, its second-to-last lift.
    played = [h for h in record["hands"] if h["tricks"]]
    target = played[-1]
    lift = len(target["tricks"]) - 1
    page.goto(f"{server}/r/{code}/games/1/replay?hand={target['n']}&lift={lift}")
    check_step(page, record, target["n"], lift)
    page.click("[data-step=next]")
    check_step(page, record, target["n"], lift + 1)
    page.keyboard.press("ArrowRight")
    check_step(page, record, target["n"], lift + 2)  # the count
    assert page.locator("[data-step=prev]").get_attribute("href") == (
        f"?hand={target['n']}&lift={lift + 1}"
    )
    # Jump to a hand.
    page.click("[data-jump='1']")
    check_step(page, record, 1, 0)
    # The exports: the record downloads as JSON.
    assert page.locator("[data-export=record]").get_attribute("download") == (
        f"allfours-{code}-game-1.json"
    )
    assert not errors, errors
    page.context.close()


def test_the_replay_works_on_a_phone_and_is_linked_from_the_result(
    browser: Browser, server: str
) -> None:
    code, record = finished_game(server)
    page, errors = open_page(browser, f"{server}/r/{code}", viewport=PHONE)
    link = page.locator("[data-link=replay]")
    link.click()
    page.wait_for_selector("[data-replay].stepping")
    assert urlparse(page.url).path == f"/r/{code}/games/1/replay"
    page.keyboard.press("ArrowRight")
    check_step(page, record, *steps_of(record)[1])
    # Nothing wider than the phone: no sideways scrolling.
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"], width
    assert not errors, errors
    page.context.close()


def test_an_opened_record_file_is_checked_then_replayed(
    browser: Browser, server: str, tmp_path: Path
) -> None:
    _, record = finished_game(server)
    good = tmp_path / "game.json"
    good.write_text(json.dumps(record))
    bad = tmp_path / "tampered.json"
    tampered = json.loads(json.dumps(record))
    dealt = tampered["hands"][0]["dealt"]
    dealt["0"][0], dealt["1"][0] = dealt["1"][0], dealt["0"][0]
    bad.write_text(json.dumps(tampered))

    page, errors = open_page(browser, f"{server}/records/open")
    page.set_input_files("input[name=record]", str(bad))
    page.click("[data-action=open-record]")
    message = page.inner_text("[data-error]")
    assert "does not match its seed" in message and "hand 1: seat 0 was dealt" in message

    page.set_input_files("input[name=record]", str(good))
    page.click("[data-action=open-record]")
    page.wait_for_selector("[data-verified]")
    page.wait_for_selector("[data-replay].stepping")  # its script ready for the keys
    page.keyboard.press("ArrowRight")
    check_step(page, record, *steps_of(record)[1])
    assert page.locator("[data-action=again]").count() == 0  # a file is no table
    assert not errors, errors
    page.context.close()


def test_the_replay_of_a_renege_game_marks_its_reneges_and_calls(
    browser: Browser, server: str, axe: str
) -> None:
    with httpx.Client(base_url=server) as client:
        code, tokens = renege_room(client, ADMIN, target=7)
        play_renege_game(client, code, tokens)
        record: Json = client.get(f"/api/rooms/{code}/games/1").json()
    hand = next(h for h in record["hands"] if any(not r["called"] for r in h["reneges"]))
    missed = next(r for r in hand["reneges"] if not r["called"])
    page, errors = open_page(
        browser, f"{server}/r/{code}/games/1/replay?hand={hand['n']}&lift={missed['lift']}"
    )
    page.wait_for_selector("[data-replay].stepping")
    check_step(page, record, hand["n"], missed["lift"])
    section = page.locator(f"section[data-hand='{hand['n']}']")
    # The renege nobody called, marked in its lift on show, and said in words.
    mark = section.locator(f"[data-renege=uncalled]:visible:has([data-card='{missed['card']}'])")
    assert mark.count() == 1 and "Renege, not called" in mark.inner_text()
    found = check(page, axe)
    assert not found, describe(found)
    # The calls made while that lift was on the table, with their verdicts.
    shown = section.locator("[data-call]:visible")
    for i in range(shown.count()):
        assert "called renege on lift" in shown.nth(i).inner_text()
    # The count: the penalties among the awards, the reneges nobody called listed.
    page.keyboard.press("End")
    check_step(page, record, hand["n"], len(hand["tricks"]) + 1)
    assert section.locator("[data-reneges-uncalled]").is_visible()
    assert section.locator("[data-awards=count] [data-award=renege]").count() == sum(
        a["kind"] == "renege" for a in hand["awards"]
    )
    assert not errors, errors
    page.context.close()
