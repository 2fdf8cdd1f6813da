"""Small sentences the pages share, in the reader's language (app/i18n.py)."""

from __future__ import annotations

from app.bots.names import LEVEL_NAMES, computer_player, level_name, told_apart
from app.i18n import _

__all__ = ["LEVEL_NAMES", "computer_player", "level_name", "partners", "told_apart"]


def partners(a: str, b: str) -> str:
    """Two partners' names as their team: "Ann & Cy"."""
    return _("%(a)s & %(b)s") % {"a": a, "b": b}
