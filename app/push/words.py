"""What each notification says, in its reader's language: the payload of API.md's Web Push,
``{"type", "title", "body", "url", "tag"}``. ``tag`` is one per table, so that a newer
notification about a table replaces the older one on the phone."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from app.i18n import LANGUAGES, SOURCE, reading
from app.i18n import gettext as _

Event = Literal["turn", "table", "night", "invite", "nudge"]
EVENTS: tuple[Event, ...] = ("turn", "table", "night", "invite", "nudge")


def _lang(language: str | None) -> str:
    return language if language in LANGUAGES else SOURCE


def _names(names: Sequence[str]) -> str:
    return ", ".join(names)


def table_tag(code: str) -> str:
    return f"table-{code}"


def _payload(event: Event, title: str, body: str, url: str, code: str) -> dict[str, object]:
    return {"type": event, "title": title, "body": body, "url": url, "tag": table_tag(code)}


def turn(language: str | None, *, code: str, table: str) -> dict[str, object]:
    with reading(_lang(language)):
        return _payload(
            "turn",
            _("Your turn"),
            _("It is your turn to play at table %(table)s.") % {"table": table},
            f"/r/{code}",
            code,
        )


def table(
    language: str | None,
    *,
    code: str,
    table: str,
    others: Callable[[], Sequence[str]],
    rematch: bool,
) -> dict[str, object]:
    """``others``: the reader's table companions' names, said in the reader's language (a
    computer player "Computer (standard)", app/bots/names.py)."""
    with reading(_lang(language)):
        title = _("A new game at your table") if rematch else _("Your table has started")
        names = others()
        body = _("Table %(table)s, with %(names)s.") % {"table": table, "names": _names(names)}
        return _payload("table", title, body, f"/r/{code}", code)


def night(
    language: str | None, *, code: str, table: str, night_name: str, round_: int, url: str
) -> dict[str, object]:
    with reading(_lang(language)):
        body = _("%(night)s, round %(round)s: table %(table)s.") % {
            "night": night_name,
            "round": round_,
            "table": table,
        }
        return _payload("night", _("Your club-night table is open"), body, url, code)


def invite(language: str | None, *, code: str, table: str, by: str) -> dict[str, object]:
    with reading(_lang(language)):
        return _payload(
            "invite",
            _("%(name)s invites you to a table") % {"name": by},
            _("Table %(table)s: tap to take a seat.") % {"table": table},
            f"/r/{code}",
            code,
        )


def nudge(language: str | None, *, code: str, table: str, by: str) -> dict[str, object]:
    with reading(_lang(language)):
        return _payload(
            "nudge",
            _("%(name)s nudged you") % {"name": by},
            _("It is your turn to play at table %(table)s.") % {"table": table},
            f"/r/{code}",
            code,
        )
