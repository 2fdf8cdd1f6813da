"""The page crawl (issue 32): every page a player (a guest, or under a profile), a spectator
and a director can reach, at every stage of a table (lobby, in play, the renege reckoning,
game over) and of a club night (before the first round, a round in play, between rounds,
over), opened on a 360 px phone by following the links found on each page (same-origin GET
links; not /api/, not streams; the language menu once, in Malay, whose words run longest),
plus the bad links a person may follow. No answer may be a 500, no page wider than the
screen, and a page a browser asked for that cannot be shown is a styled page (point 9).
Each page is opened as a tap opens it (every <details>, drawer and dialog) and axe's
color-contrast rule run on it so (issue 46).

The crawl runs once (a module fixture); each kind of page is its own test, so a failure
names the page, the stage, the role and, for a page wider than the screen, its widest
element (a selector and its width): what to fix. The stages are driven through the API
(nothing in them needs a click, but the player's "Go to your table", which is a form)."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from app.api.context import PLAYER_COOKIE, SEAT_COOKIE, TABLES_COOKIE
from app.logs import public_path
from app.services.identity import seat_mark
from tests.e2e.axe import AxeMissing, contrast_opened, describe, install, required
from tests.e2e.conftest import ADMIN
from tests.e2e.players import play_out

Json = dict[str, Any]
PHONE_360 = {"width": 360, "height": 740}
# The names as long as a player may give (24 characters), one with nowhere to break.
NAMES = ("Annabelle Fitzgerald-Roe", "Christophera-Montgomeryy", "Bartholomew Fitzgerald", "Dan")
PAIRS = [("Ann", "Bo"), ("Cy", "Di"), ("Ed", "Flo"), ("Gus", "Hal")]
SECOND_LANGUAGE = "ms"  # the language menu followed once per page, in Malay
# Links a director or a player hands on (they put someone else's token in this browser's
# cookie): crawled as their own role's start, never followed from a page.
TOKEN_LINK = re.compile(r"^/n/[^/]+/[pds]/")
NOT_PAGES = re.compile(r"^/(api|static)(/|$)|/(events|live)$|\.(json|csv|svg|png|js|css)$")

# What measures a page: wider than the screen, the element that makes it so (the deepest one
# whose hiding lets the page fit: a stretched heading is not the cause, the table in it is),
# and the elements reaching past the edge, each by a selector and its width.
WIDEST = """() => {
  const W = window.innerWidth, wide = document.documentElement.scrollWidth;
  if (wide <= W) return null;
  const selector = el => {
    const parts = [];
    for (let e = el; e && e !== document.body && parts.length < 4; e = e.parentElement) {
      let s = e.tagName.toLowerCase();
      if (e.id) { parts.unshift(s + "#" + e.id); break; }
      const classes = [...e.classList].slice(0, 2);
      if (classes.length) s += "." + classes.join(".");
      parts.unshift(s);
    }
    return parts.join(" > ");
  };
  const box = el => el.getBoundingClientRect();
  const said = el =>
    `${selector(el)} (${Math.round(box(el).width)} px wide, to ${Math.round(box(el).right)})`;
  const past = el => box(el).right > W + 0.5;
  const depth = el => { let d = 0; for (let e = el; e; e = e.parentElement) d++; return d; };
  const all = [...document.body.querySelectorAll("*")].filter(past);
  let cause = null;
  for (const el of [...all].sort((a, b) => depth(b) - depth(a)).slice(0, 400)) {
    const shown = el.style.display;
    el.style.display = "none";  // the CSSOM, which the page's CSP allows
    const fits = document.documentElement.scrollWidth <= W;
    el.style.display = shown;
    if (fits) { cause = el; break; }
  }
  const edge = all.filter(el => ![...el.children].some(past))
    .sort((a, b) => box(b).right - box(a).right).slice(0, 3).map(said);
  return `${wide} px wide at ${W}: the widest, ${cause ? said(cause) : "no one element"}; `
    + `past the edge: ${edge.join("; ") || "nothing (a margin?)"}`;
}"""
# A styled page: the site's stylesheet and a heading that says what happened.
STYLED = "() => !!document.querySelector('link[rel=stylesheet]') && !!document.querySelector('h1')"
# The pages no stage changes: opened once by each role, not at every stage.
SAME_AT_EVERY_STAGE = frozenset({"/", "/how-to-play", "/records/open", "/n"})


@dataclass
class Crawl:
    """What the crawl found, by kind of page: one line per fault."""

    server: str
    axe: str | None = None  # axe-core's script: each page's contrast checked, opened
    found: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    opened: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    once: set[tuple[str, str]] = field(default_factory=set)  # (role, path) of such pages

    def path(self, url: str) -> str | None:
        """The page's path and query to follow, or None for a link the crawl leaves."""
        parts = urlsplit(url)
        if f"{parts.scheme}://{parts.netloc}" != self.server:
            return None
        if NOT_PAGES.search(parts.path) or TOKEN_LINK.search(parts.path):
            return None
        return urlunsplit(("", "", parts.path, parts.query, ""))

    def pages(self, page: Page, starts: list[str], role: str, stage: str) -> None:
        """Every page reachable from ``starts`` by links, in English, then each once in the
        second language (that page's own menu link), the choice put back to English. A page
        is opened once whatever its query (the replay's every lift is one page)."""
        queue, seen = list(starts), set()
        other: dict[str, str] = {}  # each page's address in the second language
        while queue:
            path = queue.pop(0)
            where = urlsplit(path).path
            lang = dict(parse_qsl(urlsplit(path).query)).get("lang")
            if lang is not None:
                if lang == SECOND_LANGUAGE:
                    other.setdefault(where, path)
                continue
            if where in seen or (role, path) in self.once:
                continue
            seen.add(where)
            if where in SAME_AT_EVERY_STAGE:
                self.once.add((role, path))
            queue += self.visit(page, path, role, stage)
        for path in other.values():
            if (role, path) not in self.once:
                self.visit(page, path, role, stage)
            if urlsplit(path).path in SAME_AT_EVERY_STAGE:
                self.once.add((role, path))
        page.goto(f"{self.server}/?lang=en")  # the language choice back as it was

    def visit(self, page: Page, path: str, role: str, stage: str) -> list[str]:
        response = page.goto(f"{self.server}{path}", wait_until="load")
        status = response.status if response is not None else 0
        kind = self.kind(page, status)
        self.opened[kind] += 1
        where = f"{public_path(path)} ({role}, {stage})"  # a link's token not in the report
        if status >= 500 or status == 0:
            self.found[kind].append(f"{where}: answered {status}")
            return []
        if status >= 400:
            kind_of = response.headers.get("content-type", "") if response else ""
            if not kind_of.startswith("text/html") or not page.evaluate(STYLED):
                self.found[kind].append(f"{where}: {status} as {kind_of!r}, not a styled page")
        # What a person opens on the page (the rules in force, a night's table, the earlier
        # lifts to call renege on) must fit too.
        page.evaluate(
            "() => document.querySelectorAll('details').forEach((d) => { d.open = true; })"
        )
        wide = page.evaluate(WIDEST)
        if wide:
            self.found[kind].append(f"{where}: {wide}")
        # The contrast of what a tap opens too (its details, drawers and dialogs): a form
        # behind a tap is checked as it is seen (issue 46).
        if self.axe is not None:
            pale = contrast_opened(page, self.axe)
            if pale:
                self.found[kind].append(f"{where}: {describe(pale)}")
        hrefs: list[str] = page.eval_on_selector_all("a[href]", "els => els.map(a => a.href)")
        return [p for p in map(self.path, hrefs) if p is not None]

    def kind(self, page: Page, status: int) -> str:
        """The kind of page, which names who fixes it: a table by its phase."""
        if 400 <= status < 500:
            return "error page"
        path = urlsplit(page.url).path
        for pattern, kind in KINDS:
            if re.fullmatch(pattern, path):
                if kind == "table":
                    phase = page.get_attribute("#table", "data-phase") or "lobby"
                    return f"table ({PHASES.get(phase, 'in play')})"
                return kind
        return f"other page {path}"


KINDS = (
    (r"/", "home"),
    (r"/how-to-play", "how to play"),
    (r"/records/open", "records"),
    (r"/join", "home"),
    (r"/r/[^/]+", "table"),
    (r"/r/[^/]+/sheet", "score sheet"),
    (r"/r/[^/]+/stats", "stats"),
    (r"/r/[^/]+/games/\d+/replay", "replay"),
    (r"/r/[^/]+/replay", "replay"),
    (r"/n", "night: open"),
    (r"/n/[^/]+", "night: player"),
    (r"/n/[^/]+/board", "night: board"),
    (r"/n/[^/]+/direct", "night: director"),
    (r"/n/[^/]+/register", "night: register"),
    (r"/r/[^/]+/profile", "keep my games"),
    (r"/me", "own page"),
    (r"/me/delete", "own page"),
    (r"/p/[^/]+", "profile"),
    (r"/p/[^/]+/report", "report"),
    (r"/c", "clubs"),
    (r"/c/[^/]+", "club"),
    (r"/c/[^/]+/board", "club: board"),
    (r"/players", "leaderboard"),
    (r"/daily", "today's boards"),
    (r"/offline", "offline"),
)
PHASES = {"lobby": "lobby", "reckoning": "reckoning", "game_over": "game over"}


# ---------- The table: a room driven through the API ----------


class Room:
    def __init__(self, server: str, rules: Json, options: Json | None = None) -> None:
        r = httpx.post(
            f"{server}/api/rooms",
            json={"rules": rules, "options": options or {}, "seed": 32},
            headers={"Authorization": f"Bearer {ADMIN}"},
        )
        r.raise_for_status()
        self.server, self.code = server, str(r.json()["code"])
        self.api = f"{server}/api/rooms/{self.code}"
        self.tokens: list[str] = []

    def join(self, name: str, seat: int) -> str:
        r = httpx.post(f"{self.api}/join", json={"name": name, "seat": seat})
        r.raise_for_status()
        self.tokens.append(r.json()["token"])
        return self.tokens[-1]

    def join_player(self, handle: str, name: str, seat: int) -> str:
        """A seat under a new profile; its key acts for the seat as a token would."""
        made = httpx.post(f"{self.server}/api/players", json={"handle": handle, "name": name})
        made.raise_for_status()
        key = str(made.json()["key"])
        r = httpx.post(f"{self.api}/join", json={"name": name, "seat": seat}, headers=_bearer(key))
        r.raise_for_status()
        self.tokens.append(key)
        return key

    def post(self, seat: int, path: str, body: Json | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {self.tokens[seat]}"}
        return httpx.post(f"{self.api}{path}", json=body, headers=headers)

    def view(self, seat: int | None = None) -> Json:
        headers = {} if seat is None else {"Authorization": f"Bearer {self.tokens[seat]}"}
        seen: Json = httpx.get(self.api, headers=headers).json()
        return seen

    def step(self) -> str:
        """One move of the game (every seat a person here): the first legal move that is no
        renege, or "score it" from everybody at the reckoning. Returns the phase before."""
        v = self.view()
        if v["phase"] == "reckoning":
            for seat in range(4):
                self.post(seat, "/reckoned")
        elif v["phase"] != "game_over":
            me = self.view(v["turn"])
            marked = set(me.get("renege_cards") or ())
            move = next(m for m in me["legal"] if m.get("card") not in marked)
            self.post(me["you"], "/actions", {**move, "version": me["version"]})
        return str(v["phase"])

    def until(self, done: Callable[[Json], bool]) -> None:
        for _ in range(2000):
            if done(self.view()):
                return
            self.step()
        raise AssertionError(f"never reached: {self.view()['phase']}")


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _signed_in(browser: Browser, room: Room, key: str) -> BrowserContext:
    """A phone signed in to a profile that holds a seat (its player cookie, no seat cookie)."""
    context = browser.new_context(viewport=PHONE_360)  # type: ignore[arg-type]
    context.add_cookies([{"name": PLAYER_COOKIE, "value": key, "url": f"{room.server}/"}])
    return context


def _seated(browser: Browser, room: Room, token: str | None) -> BrowserContext:
    """A phone; with ``token``, one that holds that seat (its cookie, and the site-wide one of
    the tables it sits at: its home page says "Your table", as a browser's that took it)."""
    context = browser.new_context(viewport=PHONE_360)  # type: ignore[arg-type]
    if token is not None:
        context.add_cookies(
            [
                {"name": SEAT_COOKIE, "value": token, "url": f"{room.server}{path}"}
                for path in (f"/r/{room.code}", f"/api/rooms/{room.code}")
            ]
        )
        mark = f"{room.code}:{seat_mark(token)}"
        context.add_cookies([{"name": TABLES_COOKIE, "value": mark, "url": f"{room.server}/"}])
    return context


def _table_stages(browser: Browser, crawl: Crawl) -> None:
    # The lobby: a host seated with three computer players, not started yet.
    # A host seated with a player under a profile and two computer players, not started yet.
    lobby = Room(crawl.server, {"target": 7})
    lobby.join(NAMES[0], 0)
    key = lobby.join_player("crawl_lobby", NAMES[1], 1)
    for seat in (2, 3):
        lobby.post(0, "/bots", {"seat": seat}).raise_for_status()
    starts = [f"/r/{lobby.code}", "/", "/how-to-play", "/records/open", "/n"]
    profile = _signed_in(browser, lobby, key).new_page()
    crawl.pages(profile, [*starts, "/players"], "profile", "lobby")
    for role, token in (("player", lobby.tokens[0]), ("spectator", None)):
        page = _seated(browser, lobby, token).new_page()
        crawl.pages(page, starts, role, "lobby")
        if token is not None:  # the home page the player's crawl measured said "Your table"
            page.goto(f"{crawl.server}/")
            assert page.locator(f"[data-held-table='{lobby.code}']").count() == 1

    # A renege table of four people (their moves through the API, so each stage holds).
    # One of them plays under a profile.
    room = Room(crawl.server, {"target": 7, "renege": "one"}, {"reckon_s": 120})
    for seat, name in enumerate(NAMES):
        if seat == 1:
            room.join_player("crawl_table", name, seat)
        else:
            room.join(name, seat)
    room.post(0, "/start").raise_for_status()
    # In play at the third lift: the first is an earlier lift, called on with its cards.
    room.until(lambda v: v["phase"] == "play" and sum(v["tricks_won"]) >= 2 and bool(v["trick"]))
    pages = {
        role: _seated(browser, room, token).new_page()
        for role, token in (("player", room.tokens[0]), ("spectator", None))
    }
    pages["profile"] = _signed_in(browser, room, room.tokens[1]).new_page()
    stages: list[tuple[str, Callable[[Json], bool]]] = [
        ("in play", lambda v: True),
        ("reckoning", lambda v: v["phase"] == "reckoning"),
        ("game over", lambda v: v["phase"] == "game_over"),
    ]
    for stage, reached in stages:
        room.until(reached)
        for role, page in pages.items():
            crawl.pages(page, [f"/r/{room.code}"], role, stage)
        if stage == "in play":  # the player's table measured had an earlier lift to call on
            pages["player"].goto(f"{crawl.server}/r/{room.code}")
            assert pages["player"].locator("[data-earlier-lift]").count() >= 1


# ---------- The club night: driven through its API, the director's part too ----------


class Night:
    def __init__(self, server: str) -> None:
        self.server = server
        r = httpx.post(
            f"{server}/api/nights",
            json={
                "name": "Friday at the Piarco All Fours Club",
                "rules": {"target": 7},
                "options": {"match": 1, "grace_s": 0},
            },
        )
        r.raise_for_status()
        self.code, self.director = r.json()["code"], r.json()["director_token"]
        self.api = f"{server}/api/nights/{self.code}"
        self.links = [self.post("/pairs", {"names": list(p)}).json()["links"] for p in PAIRS]

    def post(self, path: str, body: Json | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {self.director}"}
        r = httpx.post(f"{self.api}{path}", json=body, headers=headers)
        assert r.status_code < 400, r.text
        return r

    def tables(self) -> list[Json]:
        found: list[Json] = httpx.get(self.api).json()["rounds"][-1]["tables"]
        return found

    def settle(self) -> None:
        """Every match of the round set by hand (the director's correction): the round over."""
        for t in self.tables():
            self.post(f"/tables/{t['table']}/result", {"bullseyes": [1, 0]})


def _path(link: str) -> str:
    return urlsplit(link).path


def _night_stages(browser: Browser, crawl: Crawl) -> None:
    night = Night(crawl.server)
    n = f"/n/{night.code}"
    phones = {role: browser.new_context(viewport=PHONE_360).new_page() for role in ROLES}  # type: ignore[arg-type]
    starts = {
        "director": [f"{n}/d/{night.director}"],
        "player": [_path(night.links[0][0])],
        "spectator": [n, f"{n}/board", f"{n}/register"],
    }

    def everyone(stage: str) -> None:
        for role, page in phones.items():
            crawl.pages(page, starts[role], role, stage)

    everyone("before the first round")
    night.post("/rounds")
    # One table plays by itself (computer players); the player's waits for them.
    mine = next(t for t in night.tables() if 1 in t["pairs"])
    for t in night.tables():
        if t["table"] != mine["table"]:
            for seat in range(4):
                night.post(f"/tables/{t['table']}/substitute", {"seat": seat, "bot": "easy"})
    everyone("a round in play")
    # The player takes their seat ("Go to your table", a form), then crawls from the table.
    player = phones["player"]
    player.goto(f"{crawl.server}{n}")
    player.click("[data-action=sit]")
    player.wait_for_selector("#table")
    crawl.pages(player, [urlsplit(player.url).path], "player", "a round in play, at the table")
    night.settle()
    everyone("between rounds")
    for _ in range(10):  # the other rounds, until the night is over
        r = httpx.post(f"{night.api}/rounds", headers={"Authorization": f"Bearer {night.director}"})
        if r.status_code == 409:
            break
        night.settle()
    assert httpx.get(night.api).json()["state"] == "over"
    everyone("the night over")


# ---------- A club and its season (issue #37) ----------


def _club_stages(browser: Browser, crawl: Crawl) -> None:
    """A club's admin (a profile) with a season begun, from their own page; a stranger from
    the club's address (its page and the venue's board)."""
    made = httpx.post(f"{crawl.server}/api/players", json={"handle": "crawl_club", "name": "Kay"})
    key = str(made.json()["key"])
    opened = httpx.post(
        f"{crawl.server}/api/clubs", json={"name": "Crawl Sports Club"}, headers=_bearer(key)
    )
    assert opened.status_code == 201, opened.text
    code = opened.json()["code"]
    season = httpx.post(
        f"{crawl.server}/api/clubs/{code}/seasons", json={"name": "Season 1"}, headers=_bearer(key)
    )
    assert season.is_success, season.text
    admin = browser.new_context(viewport=PHONE_360)  # type: ignore[arg-type]
    admin.add_cookies([{"name": PLAYER_COOKIE, "value": key, "url": f"{crawl.server}/"}])
    crawl.pages(admin.new_page(), ["/me"], "club admin", "a season begun")
    stranger = browser.new_context(viewport=PHONE_360).new_page()  # type: ignore[arg-type]
    crawl.pages(stranger, [f"/c/{code}", f"/c/{code}/board"], "a stranger", "a season begun")


def _daily_stages(browser: Browser, crawl: Crawl) -> None:
    """Today's boards: a player with one board played (its traveller, the ranking, the
    board's end at the table, the next board offered); a guest who has not begun (from the
    home page's link, in every stage above)."""
    made = httpx.post(f"{crawl.server}/api/players", json={"handle": "crawl_daily", "name": "Di"})
    key = str(made.json()["key"])
    seat = httpx.post(f"{crawl.server}/api/daily/play", json={}, headers=_bearer(key))
    assert seat.is_success, seat.text
    code = seat.json()["code"]
    play_out(crawl.server, code, key)
    player = browser.new_context(viewport=PHONE_360)  # type: ignore[arg-type]
    player.add_cookies([{"name": PLAYER_COOKIE, "value": key, "url": f"{crawl.server}/"}])
    crawl.pages(player.new_page(), ["/daily", f"/r/{code}"], "player", "a board played")


ROLES = ("director", "player", "spectator")


def _bad_links(browser: Browser, crawl: Crawl) -> None:
    """Links a person may mistype or find mangled: each answers a styled page."""
    night = Night(crawl.server)
    token = _path(night.links[0][0]).rsplit("/", 1)[1]
    page = browser.new_context(viewport=PHONE_360).new_page()  # type: ignore[arg-type]
    bad = [
        "/profile",
        f"/n/{night.code}/p/{token[:-5]}",
        "/n/nosuchnight",
        "/r/nosuchtable",
        "/r/nosuchtable/sheet",
        "/r/nosuchtable/games/1/replay",
        "/r/nosuchtable/games/first/replay",
    ]
    for path in bad:
        crawl.visit(page, path, "a stranger", "a bad link")
    # The page the installed app's worker shows when the connection is gone (issue 35).
    crawl.visit(page, "/offline", "a player", "no connection")


@pytest.fixture(scope="module")
def crawled(browser: Browser, server: str) -> Iterator[Crawl]:
    try:
        script: str | None = install().read_text(encoding="utf-8")
    except AxeMissing as why:  # the pages still crawled and measured, their colours not
        if required():
            pytest.fail(f"axe-core required (ALLFOURS_REQUIRE_BROWSER=1): {why}")
        script = None
    crawl = Crawl(server, script)
    _table_stages(browser, crawl)
    _night_stages(browser, crawl)
    _club_stages(browser, crawl)
    _daily_stages(browser, crawl)
    _bad_links(browser, crawl)
    yield crawl


PAGES = [
    "home",
    "how to play",
    "records",
    "table (lobby)",
    "table (in play)",
    "table (reckoning)",
    "table (game over)",
    "score sheet",
    "stats",
    "replay",
    "night: open",
    "night: player",
    "night: board",
    "night: director",
    "night: register",
    "keep my games",
    "own page",
    "profile",
    "report",
    "leaderboard",
    "today's boards",
    "clubs",
    "club",
    "club: board",
    "error page",
    "offline",
]


pytestmark = pytest.mark.timeout(900)  # the crawl, once, in its first test: minutes


@pytest.mark.parametrize("kind", PAGES)
def test_every_page_opens_and_fits_a_phone(crawled: Crawl, kind: str) -> None:
    assert crawled.opened[kind], f"the crawl reached no {kind} page"
    faults = crawled.found.get(kind, [])
    assert not faults, f"{kind}:\n" + "\n".join(faults)


def test_the_crawl_met_no_other_kind_of_page(crawled: Crawl) -> None:
    others = {k: v for k, v in crawled.opened.items() if k not in PAGES}
    assert not others, f"pages of no known kind (add them to PAGES): {others}"
