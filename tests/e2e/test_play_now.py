"""Play now in a real browser (issue #36): two guests press "Play now" in two browser contexts
and find themselves at one table with two computer players (the second takes a computer
player's seat from the next deal, as a latecomer does); both keep their games as profiles,
one blocks the other from their profile page, and the next "Play now" seats them apart."""

from __future__ import annotations

import secrets
import time
from typing import Any

import httpx
from playwright.sync_api import Browser, BrowserContext, Page

from app.api.context import SEAT_COOKIE
from tests.e2e.players import script_errors

DEADLINE_S = 240  # a bound on waiting for the next deal, not a speed requirement
QUICK = "quick"


def _press_play_now(page: Page, server: str, preset: str | None = None) -> str:
    page.goto(f"{server}/")
    if preset is not None:  # a preset of its own: no table another test left can seat it
        page.select_option("#play-preset", preset)
    page.click('[data-action="play-now"]')
    page.wait_for_url("**/r/*")
    return page.url.split("/r/")[1].split("?")[0]


def _seat_token(context: BrowserContext) -> str:
    [token] = {c.get("value", "") for c in context.cookies() if c.get("name") == SEAT_COOKIE}
    assert token
    return token


def _view(server: str, code: str, token: str) -> dict[str, Any]:
    r = httpx.get(f"{server}/api/rooms/{code}", headers={"Authorization": f"Bearer {token}"})
    r.raise_for_status()
    out: dict[str, Any] = r.json()
    return out


def _until_seated(server: str, code: str, mover: str, waiting: str) -> None:
    """Play the first guest's turns (stand, run the pack, the first card allowed) until the
    second guest's claim on a computer player's seat is taken up at the next deal."""
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        if _view(server, code, waiting)["you"] is not None:
            return
        view = _view(server, code, mover)
        legal = view["legal"]
        if not legal:
            time.sleep(0.05)
            continue
        pick = next((a for a in legal if a["type"] in ("stand", "run_pack")), None)
        if pick is None:
            pick = next((a for a in legal if a["type"] == "play"), legal[0])
        r = httpx.post(
            f"{server}/api/rooms/{code}/actions",
            json={**pick, "version": view["version"]},
            headers={"Authorization": f"Bearer {mover}"},
        )
        assert r.status_code in (200, 409), r.text  # 409: a computer player moved first
    raise AssertionError("the second guest was never seated")


def _keep_games(page: Page, server: str, handle: str, name: str) -> None:
    page.goto(f"{server}/")
    page.fill("#kg-handle", handle)
    page.fill("#kg-name", name)
    page.click('[data-action="keep-games"]')
    page.wait_for_url("**/me")  # the own page, the browser signed in


def test_two_guests_play_now_together_then_apart_once_one_blocks_the_other(
    browser: Browser, server: str
) -> None:
    ann_context, ben_context = browser.new_context(), browser.new_context()
    ann, ben = ann_context.new_page(), ben_context.new_page()
    # The quick game's tables: a table another test left (its people gone, their turns
    # waiting on the away cover) is never of these rules (test_latecomer plays Tobago's).
    code = _press_play_now(ann, server, QUICK)
    assert _press_play_now(ben, server, QUICK) == code
    ann_token, ben_token = _seat_token(ann_context), _seat_token(ben_context)
    _until_seated(server, code, ann_token, ben_token)
    lobby = httpx.get(f"{server}/api/lobby").json()
    [table] = [t for t in lobby["tables"] if t["code"] == code]
    assert [s["bot"] for s in table["seats"]].count(True) == 2
    # The home page's lobby lists it.
    ann.goto(f"{server}/")
    ann.wait_for_selector(f'[data-public-table="{code}"]')
    # Ben's page shows the table as his (his own seat, his cards).
    ben.goto(f"{server}/r/{code}")
    ben.wait_for_selector("#table")
    assert _view(server, code, ben_token)["you"] is not None

    suffix = secrets.token_hex(3)
    ann_handle, ben_handle = f"ann_{suffix}", f"ben_{suffix}"
    _keep_games(ann, server, ann_handle, "Ann")
    _keep_games(ben, server, ben_handle, "Ben")
    ann.goto(f"{server}/p/{ben_handle}")
    ann.click('[data-action="block"]')
    # The page says what a block does, and what it does not: their game plays to its end.
    assert "plays to its end" in ann.inner_text("[data-block-table]")
    ann.click('[data-action="confirm-block"]')
    ann.wait_for_selector('[data-action="unblock"]')

    again_ann = _press_play_now(ann, server, QUICK)
    again_ben = _press_play_now(ben, server, QUICK)
    assert again_ann != again_ben
    assert code not in (again_ann, again_ben)  # the shared table is left to finish
    assert not script_errors(ann) and not script_errors(ben)
