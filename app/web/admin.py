"""The host's page ``/admin`` (issue #36): signing in with the admin token, then the rooms
and nights in play, the players' reports with what they kept, bans, and the numbers of
``GET /metrics``. Rendered from what the services gave the route; every player's word
(chat, a report's text, a ban's reason) is rendered as text."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.i18n import N_, clock, day, gettext
from app.web.render import environment

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Figure:
    name: str  # the metric's name in GET /metrics
    value: float


@dataclass(frozen=True, slots=True)
class AdminPage:
    rooms: Json  # Housekeeping.rooms: {"total", "offset", "rooms": [...]}
    nights: Sequence[tuple[str, str]]  # (room, night code) of every night's table in play
    reports: Json  # moderation.reports
    bans: Sequence[Json]
    figures: Sequence[Figure]
    error: str | None = None


def render_admin_signin(*, error: str | None = None, off: bool = False) -> str:
    """The sign-in form (``off``: no admin token is set, so there is nothing to sign in to)."""
    return environment().get_template("admin_signin.html").render(error=error, off=off)


# Who banned, as moderation.ban keeps it (the door the admin came through).
BANNED_BY = {"admin token": N_("the admin token (API)"), "admin page": N_("this page")}


def ban_shown(ban: Json) -> Json:
    """A ban as the page says it: when (the reader's date and time, UTC), by whom, why."""
    at = datetime.fromisoformat(ban["at"])
    by = BANNED_BY.get(ban.get("by") or "")
    return {
        **ban,
        "day": day(at),
        "clock": clock(at),
        "by_shown": gettext(by) if by else gettext("not kept (banned before this was kept)"),
    }


def render_admin(page: AdminPage) -> str:
    return (
        environment()
        .get_template("admin.html")
        .render(
            page=page,
            rooms=page.rooms["rooms"],
            reports=page.reports["reports"],
            bans=[ban_shown(b) for b in page.bans],
            shown=shown,
        )
    )


def shown(record: Json) -> str:
    """A kept game record as readable JSON (in a <pre>, escaped like any text)."""
    return json.dumps(record, indent=1, ensure_ascii=False, sort_keys=True)
