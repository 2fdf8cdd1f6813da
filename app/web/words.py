"""Small sentences the pages share, in the reader's language (app/i18n.py)."""

from __future__ import annotations

from app.i18n import N_, _

# A computer player's level as the lobby and the seat chips name it.
LEVEL_NAMES = {"easy": N_("easy"), "standard": N_("standard"), "strong": N_("strong")}


def partners(a: str, b: str) -> str:
    """Two partners' names as their team: "Ann & Cy"."""
    return _("%(a)s & %(b)s") % {"a": a, "b": b}


def level_name(level: str) -> str:
    """A computer player's level in the reader's language ("standard")."""
    return _(LEVEL_NAMES[level]) if level in LEVEL_NAMES else level
