"""The club night's pages (/n/{code}, /n/{code}/board, /n/{code}/direct) from the night's
JSON (app/services/night_view.py): names for pairs, the standings' columns, the tables'
live scores, the awards, in the reader's language."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any

from markupsafe import Markup

from app.i18n import N_, _, clock
from app.night.pairing import owner_of, seat_of
from app.web.cards import suit_word
from app.web.render import environment
from app.web.words import LEVEL_NAMES, computer_player, level_name, partners

Json = dict[str, Any]

# The standings' columns, each tie-break its own (short label, what it counts).
COLUMNS = (
    ("played", N_("P"), N_("Matches played")),
    ("wins", N_("W"), N_("Matches won")),
    ("losses", N_("L"), N_("Matches lost")),
    ("bullseyes_for", N_("B+"), N_("Bullseyes for")),
    ("bullseyes_against", N_("B\N{MINUS SIGN}"), N_("Bullseyes against")),
    ("hang_jacks_for", N_("HJ+"), N_("Hang jacks made")),
    ("hang_jacks_against", N_("HJ\N{MINUS SIGN}"), N_("Hang jacks suffered")),
    ("head_to_head", N_("H2H"), N_("Wins over the pairs level with this one")),
    ("chalk_difference", N_("Chalk ±"), N_("Chalk difference: game points for less against")),
)
FORMATS = {
    "round_robin": N_("Round robin"),
    "swiss_knockout": N_("Swiss, then knockout"),
    "teams": N_("Team match"),
}
STATES = {"waiting": N_("Waiting for players"), "playing": N_("Playing"), "over": N_("Over")}


@dataclass
class Page:
    night: Json
    names: dict[int, str]
    you: int | None = None  # the viewer's pair
    director: bool = False
    message: str | None = None
    links: list[str] = field(default_factory=list)  # a pair just registered: its links
    sub_link: str | None = None
    # The director's page: each pair's players' links, (name, url) each; None for a pair
    # that registered itself (app/services/nights.py pair_links); the director's own link.
    pair_links: dict[int, list[tuple[str, str]] | None] = field(default_factory=dict)
    director_link: str | None = None
    club: Json | None = None  # the club and season of a club's night: its pages link back


def pair_names(night: Json) -> dict[int, str]:
    return {p["pair"]: " & ".join(p["names"]) for p in night["pairs"]}


def _award_text(a: Json, names: dict[int, str]) -> tuple[str, str]:
    who = names.get(a["pair"], "?")
    kind = a["kind"]
    if kind == "most_hang_jacks":
        return _("Most hang jacks"), _("%(pair)s, %(n)s") % {"pair": who, "n": a["value"]}
    if kind == "first_hang_jack":
        title = _("First hang jack in %(suit)s") % {"suit": suit_word(a["suit"])}
        return title, _("%(pair)s, round %(round)s") % {"pair": who, "round": a.get("round")}
    if kind == "highest_game":
        return _("Highest Game count"), _("%(pair)s, %(n)s") % {"pair": who, "n": a["value"]}
    if kind == "most_bullseyes":
        return _("Most bullseyes"), _("%(pair)s, %(n)s") % {"pair": who, "n": a["value"]}
    if kind == "longest_run":
        return _("Most games won in a row"), _("%(pair)s, %(n)s") % {"pair": who, "n": a["value"]}
    return _("Most reneges caught"), _("%(pair)s, %(n)s") % {"pair": who, "n": a["value"]}


def _seat_name(seat: Json | None) -> str:
    if seat is None:
        return _("empty")
    if seat["bot"]:
        return computer_player(seat.get("level"))
    return str(seat["name"])


def substitutes(table: Json, pair: int) -> list[str]:
    """Who substitutes for ``pair``'s players at ``table`` ("Cy for Ann", a computer player
    as such), as the board and the standings mark them."""
    # One line per substitute: computer players of one level for both partners are one.
    found: dict[str, list[str]] = {}
    for s in _pair_seats(table, pair):
        if s is not None and s["substitute_for"]:
            found.setdefault(_seat_name(s), []).append(s["substitute_for"])
    said = [(sub, partners(*who) if len(who) == 2 else who[0]) for sub, who in found.items()]
    return [_("%(sub)s for %(player)s") % {"sub": sub, "player": who} for sub, who in said]


def _pair_seats(table: Json, pair: int) -> tuple[Json | None, Json | None]:
    """The seats of ``pair``'s two players at ``table``."""
    side = table["pairs"].index(pair)
    return table["seats"][seat_of(side, 0)], table["seats"][seat_of(side, 1)]


def comebacks(table: Json, pair: int) -> list[str]:
    """When ``pair``'s players who came back have their seats again, for their night page:
    a computer player's at the next deal; a person's at the match's next game, the
    substitute finishing the one in play (the table's latecomer rules)."""
    found = []
    for s in _pair_seats(table, pair):
        if s is None or not s["substitute_for"] or not s["claimed_back"]:
            continue
        if s["bot"]:
            found.append(
                _("%(player)s takes the seat back at the next deal.")
                % {"player": s["substitute_for"]}
            )
        else:
            found.append(
                _("%(player)s takes the seat back at the next game: %(sub)s finishes this one.")
                % {"player": s["substitute_for"], "sub": s["name"]}
            )
    return found


def _results(night: Json, names: dict[int, str], you: int) -> list[Json]:
    """The pair's finished matches and byes, round by round. Every entry has the same keys,
    a bye's with no opponent and no score: the page reads them all (a missing key fails it)."""
    results: list[Json] = []
    for r in night["rounds"]:
        for t in r["tables"]:
            if you in t["pairs"] and t["state"] == "over":
                side = t["pairs"].index(you)
                results.append(
                    {
                        "round": r["round"],
                        "bye": False,
                        "against": names.get(t["pairs"][1 - side], "?"),
                        "for": t["bullseyes"][side],
                        "against_b": t["bullseyes"][1 - side],
                        "won": t["winner"] == you,
                    }
                )
        if r["bye"] == you:  # a bye counts as a win
            results.append(
                {
                    "round": r["round"],
                    "bye": True,
                    "against": None,
                    "for": None,
                    "against_b": None,
                    "won": True,
                }
            )
    return results


def context(page: Page) -> Json:
    night, names = page.night, page.names
    current = night["rounds"][-1] if night["rounds"] else None
    mine = None
    if current is not None and page.you is not None:
        for t in current["tables"]:
            if page.you in t["pairs"]:
                other = t["pairs"][1 - t["pairs"].index(page.you)]
                mine = {"table": t, "against": names.get(other, "?")}
    results = _results(night, names, page.you) if page.you is not None else []
    # The pairs with a substitute at their table this round: the standings mark them.
    subs: dict[int, list[str]] = {}
    for t in current["tables"] if current else []:
        for pair in t["pairs"]:
            if found := substitutes(t, pair):
                subs[pair] = found
    started = datetime.fromisoformat(current["started_at"]) if current else None
    return {
        "n": night,
        "names": names,
        "you": page.you,
        "you_names": names.get(page.you) if page.you is not None else None,
        "director": page.director,
        "message": page.message,
        "links": page.links,
        "sub_link": page.sub_link,
        "current": current,
        "started": clock(started) if started else None,
        "mine": mine,
        "results": results,
        "columns": [(key, _(short), _(title)) for key, short, title in COLUMNS],
        "awards": [_award_text(a, names) for a in night["awards"]],
        "format_name": _(FORMATS.get(night["format"], str(night["format"]))),
        "state_name": lambda s: _(STATES[s]),
        "seat_name": _seat_name,
        "subs": subs,
        "comebacks": comebacks,
        "pair_links": page.pair_links,
        "director_link": page.director_link,
        "club": page.club,
        "seat_owner": partial(seat_owner, night),
        "levels": [(level, level_name(level)) for level in LEVEL_NAMES],
    }


def seat_owner(night: Json, table: Json, seat: int) -> str:
    """Whose seat ``seat`` of ``table`` is, as the director's page labels seats."""
    side, slot = owner_of(seat)
    pair = table["pairs"][side]
    found = next((p["names"] for p in night["pairs"] if p["pair"] == pair), None)
    return str(found[slot]) if found else _("Seat %(n)s") % {"n": seat}


def render(template: str, page: Page) -> str:
    env = environment()
    ctx = context(page)
    live = env.get_template(f"_night_{template}.html").render(**ctx)
    return env.get_template(f"night_{template}.html").render(**ctx, live_html=Markup(live))


def render_live(template: str, page: Page) -> str:
    return environment().get_template(f"_night_{template}.html").render(**context(page))


def render_open(*, error: str | None = None) -> str:
    return environment().get_template("night_open.html").render(error=error, formats=FORMATS)


def render_missing(code: str) -> str:
    return environment().get_template("night_missing.html").render(code=code)
