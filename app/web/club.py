"""A club's pages (/c/{code}, /c/{code}/board, /c) from the club's JSON
(app/services/clubs.py): members, the season's standings per pair and per player, the
season's awards, the nights, and an admin's controls, in the reader's language."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.i18n import N_, _
from app.web.cards import suit_word
from app.web.night import COLUMNS, FORMATS
from app.web.profile_form import ProfileForm
from app.web.render import environment

Json = dict[str, Any]

NIGHT_STATES = {
    "registering": N_("Pairs registering"),
    "playing": N_("In play"),
    "between_rounds": N_("In play"),
    "over": N_("Over"),
}
AWARDS = {
    "most_hang_jacks": N_("Most hang jacks"),
    "highest_game": N_("Highest Game count"),
    "most_bullseyes": N_("Most bullseyes"),
    "longest_run": N_("Most games won in a row"),
    "most_reneges_caught": N_("Most reneges caught"),
}


@dataclass
class ClubPage:
    club: Json
    admin: bool = False
    member: bool = False
    signed_in: bool = False
    invite_url: str | None = None
    message: str | None = None


def who(players: list[Json]) -> str:
    return " & ".join(str(p["name"]) for p in players)


def _award(a: Json) -> tuple[str, str]:
    if a["kind"] == "first_hang_jack":
        title = _("First hang jack in %(suit)s") % {"suit": suit_word(a["suit"])}
    else:
        title = _(AWARDS.get(a["kind"]) or str(a["kind"]))
    return title, _("%(pair)s, %(n)s") % {"pair": who(a["players"]), "n": a["value"]}


def context(page: ClubPage) -> Json:
    standings = page.club["standings"]
    return {
        "c": page.club,
        "s": standings,
        "admin": page.admin,
        "member": page.member,
        "signed_in": page.signed_in,
        "invite_url": page.invite_url,
        "message": page.message,
        "who": who,
        "columns": [
            ("nights", _("N"), _("Nights played")),
            *((key, _(short), _(title)) for key, short, title in COLUMNS),
        ],
        "awards": [_award(a) for a in standings["awards"]] if standings else [],
        "night_state": lambda s: _(NIGHT_STATES.get(s) or str(s)),
        "formats": FORMATS,
        "running": bool(page.club["seasons"]) and page.club["seasons"][-1]["ended_at"] is None,
        "last_season": page.club["seasons"][-1]["number"] if page.club["seasons"] else 0,
    }


def render(template: str, page: ClubPage) -> str:
    return environment().get_template(f"club_{template}.html").render(**context(page))


def render_open(
    *, error: str | None = None, signed_in: bool = True, mine: list[Json] | None = None
) -> str:
    """``/c``: the player's clubs and the form that opens one."""
    return (
        environment()
        .get_template("club_open.html")
        .render(error=error, signed_in=signed_in, mine=mine or [])
    )


def render_join(club: Json, *, signed_in: bool, back: str = "") -> str:
    """An invite link's page: the club named, and Join; for a browser with no profile, the
    "Keep my games" form, which comes back to ``back`` (the invite's path) once made."""
    form = ProfileForm("/me/new", page="me", next=back)
    return (
        environment().get_template("club_join.html").render(c=club, signed_in=signed_in, form=form)
    )
