"""The players' pages on a phone (issue 34): a profile (``/p/{handle}``) with its rating chart
and the leaderboard (``/players``), at 360 px in the longest languages: no page wider than
the screen, the chart inside it, no script error nor CSP violation."""

from __future__ import annotations

import random

import httpx
from playwright.sync_api import Browser

from app import i18n
from app.web.profile import FIGURES, RENEGE_FIGURES, render_profile
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


LINES_OF = """(sel) => {
  const el = document.querySelector(sel);
  const b = el.getBoundingClientRect();
  const line = parseFloat(getComputedStyle(el).lineHeight) || 20;
  return { width: b.width, lines: Math.round(b.height / line), text: el.textContent };
}"""


def test_the_figures_labels_wrap_by_words_on_a_phone(browser: Browser, server: str) -> None:
    """What broke: "Average loss a decision (reviewed games)" one character a line at 360 px
    (the page's overflow-wrap: anywhere let the label shrink to a letter's width)."""
    stats = {key: 12 for key, _label in (*FIGURES, *RENEGE_FIGURES)}
    found = {
        "handle": "long_labels",
        "name": "Ann",
        "listed": True,
        "stats": stats,
        "finished": {"started": 3, "finished": 3},
        "average_loss": 0.42,
        "rating": {"ordinal": 0.0, "games": 3, "provisional": True},
        "history": [],
        "partners": [],
        "opponents": [],
        "recent": [],
    }
    for lang in ("de", "fr", "en"):
        with i18n.reading(lang):
            html = render_profile(found)
        page, errors = open_page(browser, f"{server}/players?lang={lang}", NARROW)
        page.set_content(html)  # the server's address: its CSS, as the page links it
        page.wait_for_selector("[data-stat='average_loss'] dt")
        label = page.evaluate(LINES_OF, "[data-stat='average_loss'] dt")
        value = page.evaluate(LINES_OF, "[data-stat='average_loss'] dd")
        # the figure on one line, the label wrapped by words: at most two lines of a phone
        expected = "0.42" if lang == "en" else "0,42"
        assert value["lines"] == 1 and value["text"] == expected, (lang, value)
        assert 1 <= label["lines"] <= 2, (lang, label)
        assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
        assert errors == [], (lang, errors)
        page.context.close()
