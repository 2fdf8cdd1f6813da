"""Small sentences the pages share, in the reader's language (app/i18n.py)."""

from __future__ import annotations

from collections.abc import Sequence

from app.i18n import N_, _

# A computer player's level as the lobby and the seat chips name it.
LEVEL_NAMES = {"easy": N_("easy"), "standard": N_("standard"), "strong": N_("strong")}


def partners(a: str, b: str) -> str:
    """Two partners' names as their team: "Ann & Cy"."""
    return _("%(a)s & %(b)s") % {"a": a, "b": b}


def level_name(level: str) -> str:
    """A computer player's level in the reader's language ("standard")."""
    return _(LEVEL_NAMES[level]) if level in LEVEL_NAMES else level


def computer_player(level: str | None, number: int | None = None) -> str:
    """A computer player as the pages name it, said once as one: "Computer player
    (standard)", or numbered where several are listed together ("Computer 2 (standard)"),
    so that each is told apart. (The seat's own ``name`` in the API stays "Bot (standard)".)"""
    shown = level_name(level) if level else ""
    if number is None:
        return _("Computer player (%(level)s)") % {"level": shown}
    return _("Computer %(n)s (%(level)s)") % {"n": number, "level": shown}


def told_apart(players: Sequence[tuple[str, bool, str | None]]) -> list[str]:
    """The names of players listed together, each (name, computer, level): a person's own;
    a computer player said as one, numbered in the order listed when there are several
    ("Computer 1 (standard)", "Computer 2 (standard)"), so that each is told apart."""
    computers = sum(1 for _name, computer, _level in players if computer)
    names, n = [], 0
    for name, computer, level in players:
        if computer:
            n += 1
        names.append(computer_player(level, n if computers > 1 else None) if computer else name)
    return names
