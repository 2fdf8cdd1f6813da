"""A computer player's name, the one way every page, result, record and push names one
(issue #46): "Computer (standard)" in the reader's language, numbered only where two of one
level sit at one table ("Computer 1 (standard)", "Computer 2 (standard)"). The seat's own
``name`` in the API stays "Bot (standard)" (``bot_seat_name``, API.md); a computer player a
club night's director seats for an absent player keeps that player's name."""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.i18n import N_, _

# A computer player's level as the lobby, the seat chips and its name say it.
LEVEL_NAMES = {"easy": N_("easy"), "standard": N_("standard"), "strong": N_("strong")}

_SEAT_NAME = re.compile(r"Bot( \(\w+\))?")

# (name, computer, level): a seat's occupant as the API and the records keep it.
Occupying = tuple[str, bool, str | None]


def bot_seat_name(level: str | None) -> str:
    """The seat's name in the API and the records (never shown as is): "Bot (standard)"."""
    return f"Bot ({level})" if level else "Bot"


def level_name(level: str) -> str:
    """A computer player's level in the reader's language ("standard")."""
    return _(LEVEL_NAMES[level]) if level in LEVEL_NAMES else level


def computer_player(level: str | None, number: int | None = None) -> str:
    """A computer player's name: "Computer (standard)", or "Computer 2 (standard)" where
    two of one level sit together."""
    if not level:
        return _("Computer") if number is None else _("Computer %(n)s") % {"n": number}
    shown = level_name(level)
    if number is None:
        return _("Computer (%(level)s)") % {"level": shown}
    return _("Computer %(n)s (%(level)s)") % {"n": number, "level": shown}


def plain_computer(name: str, computer: bool, level: str | None) -> bool:
    """A computer player named as one (its seat's name is the API's "Bot (standard)", or an
    older "Bot"; no person may take such a name, app/services/names.py), not one standing
    in for a club night's player under that player's name."""
    return computer and (
        not name.strip() or _SEAT_NAME.fullmatch(" ".join(name.split())) is not None
    )


def told_apart(players: Sequence[Occupying]) -> list[str]:
    """The names of the players at one table (or listed together), in order: a person's
    own, numbered when two share one ("Ann", "Ann 2"); a computer player as
    ``computer_player`` names it, numbered only when two of one level are there."""
    plain = [plain_computer(*p) for p in players]
    levels = [p[2] for p, is_plain in zip(players, plain, strict=True) if is_plain]
    names: list[str] = []
    seen: dict[str | None, int] = {}
    for (name, _computer, level), is_plain in zip(players, plain, strict=True):
        if is_plain:
            seen[level] = seen.get(level, 0) + 1
            names.append(computer_player(level, seen[level] if levels.count(level) > 1 else None))
            continue
        name = " ".join(name.split())
        taken = [o for o in names if o == name or o.startswith(name + " ")]
        names.append(f"{name} {len(taken) + 1}" if taken else name)
    return names
