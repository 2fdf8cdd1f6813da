"""The players' pages on a phone (issue 34): a profile (``/p/{handle}``) with its rating chart
and the leaderboard (``/players``), at 360 px in the longest languages: no page wider than
the screen, the chart inside it, no script error nor CSP violation."""

from __future__ import annotations

import random

import httpx
from playwright.sync_api import Browser

from tests.api.table import bearer, play_random
from tests.e2e.test_replay import open_page

NARROW = {"width": 360, "height": 640}
# A long name without a space, the longest a seat name may be.
NAMES = ["Annabelle-RoseFitzgerald", "Ben", "Cal", "Dee"]

FITS = """() => {
  const W = document.documentElement.clientWidth;
  const chart = document.querySelector('[data-rating-chart]');
  return {
    page: document.documentElement.scrollWidth,
    width: W,
    chart: chart ? chart.getBoundingClientRect().right : 0,
  };
}"""


def test_a_profile_and_the_leaderboard_fit_a_phone(browser: Browser, server: str) -> None:
    with httpx.Client(base_url=server, timeout=30) as client:
        keys = []
        for n, name in enumerate(NAMES):
            r = client.post("/api/players", json={"handle": f"phone_{n}", "name": name})
            assert r.status_code == 201, r.text
            keys.append(r.json()["key"])
        r = client.post("/api/rooms", json={"rules": {"target": 7}})
        assert r.status_code == 201, r.text
        code = r.json()["code"]
        for seat, key in enumerate(keys):
            r = client.post(
                f"/api/rooms/{code}/join", json={"name": "x", "seat": seat}, headers=bearer(key)
            )
            assert r.status_code == 200, r.text
        assert client.post(f"/api/rooms/{code}/start", headers=bearer(keys[0])).status_code == 200
        play_random(client, code, keys, random.Random(34), check=False)  # type: ignore[arg-type]
    for path in ("/p/phone_0?lang=ms", "/p/phone_0?lang=de", "/players?lang=lb"):
        page, errors = open_page(browser, f"{server}{path}", NARROW)
        page.wait_for_selector("main")
        got = page.evaluate(FITS)
        assert got["page"] <= NARROW["width"], (path, got)
        assert got["chart"] <= got["width"], (path, got)
        assert errors == [], (path, errors)
        page.context.close()
