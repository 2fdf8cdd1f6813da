"""A player's page (``/p/{handle}``) and the leaderboard (``/players``), from what
app/services/career.py answers the JSON routes with: the rating with a small chart of its
history drawn here as inline SVG, the figures, partners, opponents and the last games."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.bots.names import computer_player, plain_computer
from app.i18n import N_, _, day, decimal_sign, number
from app.players.ratings import PROVISIONAL_BELOW
from app.web.panels.ratings import shown, signed
from app.web.render import environment

Json = dict[str, Any]
DASH = "\N{EN DASH}"

# What the page lists of the figures (API.md `stats`), marked for the catalogs.
FIGURES = (
    ("games", N_("Games")),
    ("bullseyes_won", N_("Bullseyes")),
    ("bullseyes_lost", N_("Bullseyes lost")),
    ("hands", N_("Hands")),
    ("hang_jacks_made", N_("Hang jacks")),
    ("hang_jacks_suffered", N_("Hanged")),
    ("jacks_home", N_("Jacks home")),
    ("kick_points", N_("Kick points")),
    ("high", N_("High")),
    ("low", N_("Low")),
    ("game", N_("Game")),
)
# Renege mode's (R21-R25): listed only for a player who played it.
RENEGE_FIGURES = (
    ("reneges_caught", N_("Reneges caught")),
    ("wrong_calls", N_("Wrong calls")),
    ("reneges", N_("Reneges")),
)

CHART_W, CHART_H, PAD = 320, 96, 6  # the chart's box, in px: it fits a 360 px phone


@dataclass(frozen=True, slots=True)
class PersonShown:
    text: str
    href: str | None  # a profile's page


@dataclass(frozen=True, slots=True)
class Tally:
    who: PersonShown
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class GameShown:
    won: bool
    line: str  # "Won 14-9 with Cal against Ben & Dee" (an en dash)
    when: str
    change: str | None  # "+23" for a rated game
    replay: str


@dataclass(frozen=True, slots=True)
class Chart:
    points: str  # the polyline's points
    width: int
    height: int
    low: str
    high: str


def _who(entry: Json) -> PersonShown:
    handle = entry.get("handle")
    if handle:
        return PersonShown(str(handle), f"/p/{handle}")
    name, level = str(entry.get("name") or ""), entry.get("level")
    if plain_computer(name, bool(entry.get("bot")), level):
        return PersonShown(computer_player(level), None)
    return PersonShown(name or "?", None)


def chart(history: list[Json]) -> Chart | None:
    """The rating after each rated game (and the first one before them), as a line."""
    if not history:
        return None
    values = [0, *(shown(h["after"]["ordinal"]) for h in history)]  # a first rating shows 0
    low, high = min(values), max(values)
    span = (high - low) or 1
    step = (CHART_W - 2 * PAD) / (len(values) - 1)
    points = " ".join(
        f"{PAD + i * step:.1f},{PAD + (high - v) * (CHART_H - 2 * PAD) / span:.1f}"
        for i, v in enumerate(values)
    )
    return Chart(points, CHART_W, CHART_H, number(low), number(high))


def _game(g: Json) -> GameShown:
    partner = _who(g["partner"]).text
    against = _("%(a)s & %(b)s") % {
        "a": _who(g["opponents"][0]).text,
        "b": _who(g["opponents"][1]).text,
    }
    score = f"{number(g['scores'][0])}{DASH}{number(g['scores'][1])}"
    values = {"score": score, "partner": partner, "opponents": against}
    if g["won"]:
        line = _("Won %(score)s with %(partner)s against %(opponents)s") % values
    else:
        line = _("Lost %(score)s with %(partner)s against %(opponents)s") % values
    change = g.get("rating_change")
    return GameShown(
        g["won"],
        line,
        day(datetime.fromisoformat(g["ended_at"])),
        signed(change) if change is not None else None,
        f"/r/{g['room']}/games/{g['game']}/replay",
    )


def render_profile(found: Json, tie: object = None, done: str | None = None) -> str:
    """A public profile; ``tie``: the reader's tie to it (friend, asked, blocked), for the
    "Add friend" and "Block" buttons, None for a guest or the player's own; ``done``: the
    tie just changed (a word said)."""
    stats = found["stats"]
    figures = [(key, _(label), number(stats[key])) for key, label in FIGURES]
    if any(stats[key] for key, _label in RENEGE_FIGURES):
        figures += [(key, _(label), number(stats[key])) for key, label in RENEGE_FIGURES]
    finished = found["finished"]
    if finished["started"]:  # public games sat through to the end (issue #43: leavers)
        label = _("Public games finished")
        shown_as = _("%(finished)s of %(started)s") % {
            "finished": number(finished["finished"]),
            "started": number(finished["started"]),
        }
        figures.append(("finished", label, shown_as))
    if found.get("average_loss") is not None:  # the reviews of the last games (issue #38)
        label = _("Average loss a decision (reviewed games)")
        loss = f"{found['average_loss']:.2f}".replace(".", decimal_sign())  # "0,42" in German
        figures.append(("average_loss", label, loss))
    rating = found["rating"]
    return (
        environment()
        .get_template("profile.html")
        .render(
            found=True,
            tie=tie,
            done=done if tie is not None else None,
            handle=found["handle"],
            name=found["name"],
            listed=found["listed"],
            rating=number(shown(rating["ordinal"])),
            rated_games=rating["games"],
            provisional=rating["provisional"],
            settles_after=PROVISIONAL_BELOW,
            chart=chart(found["history"]),
            figures=figures,
            partners=[Tally(_who(p), p["games"], p["wins"]) for p in found["partners"]],
            opponents=[Tally(_who(p), p["games"], p["wins"]) for p in found["opponents"]],
            games=[_game(g) for g in found["recent"]],
        )
    )


def render_profile_missing(handle: str) -> str:
    return environment().get_template("profile.html").render(found=False, handle=handle[:40])


@dataclass(frozen=True, slots=True)
class LeaderShown:
    rank: int
    handle: str
    name: str
    rating: str
    games: int
    provisional: bool


def render_leaderboard(board: Json, *, signed_in: bool, with_me: bool) -> str:
    rows = [
        LeaderShown(
            p["rank"],
            p["handle"],
            p["name"],
            number(shown(p["rating"]["ordinal"])),
            p["rating"]["games"],
            p["rating"]["provisional"],
        )
        for p in board["players"]
    ]
    return (
        environment()
        .get_template("players.html")
        .render(rows=rows, signed_in=signed_in, with_me=with_me, settles_after=PROVISIONAL_BELOW)
    )
