"""The page ``/daily``: today's boards, the person's progress, each board's traveller as
they may see it (R33), and the day's ranking; from app/services/daily.py's answers alone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.i18n import _, number
from app.web.render import environment

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class BoardLine:
    number: int
    played: bool
    score: str  # the person's score on it (NS - EW), or "" when not played
    percent: str  # the person's percent on it


def who(person: Json | str) -> str:
    """A ranking's or traveller's name: a profile's name and handle, else a guest."""
    if isinstance(person, dict):
        return f"{person['name']} (@{person['handle']})"
    return _("guest")


def pct(value: float | None) -> str:
    return "" if value is None else f"{number(value)} %"


def render_daily(today: Json, day: Json) -> str:
    """``today``: GET /api/daily's answer; ``day``: GET /api/daily/{date}'s for that day."""
    you = today["you"]
    mine = {b["board"]: b for b in day["boards"]}
    lines = []
    for n in range(1, today["boards"] + 1):
        row = next((r for r in mine.get(n, {}).get("results", []) if r["you"]), None)
        lines.append(
            BoardLine(
                n,
                row is not None,
                f"{row['score']:+d}" if row else "",
                pct(row["percent"]) if row else "",
            )
        )
    return (
        environment()
        .get_template("daily.html")
        .render(
            today=today,
            you=you,
            lines=lines,
            boards=day["boards"],
            ranking=day["ranking"],
            who=who,
            pct=pct,
            done=you is not None and len(you["played"]) == today["boards"],
        )
    )
