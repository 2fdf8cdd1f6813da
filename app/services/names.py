"""A player's name as the table shows it: trimmed, visible, and never one of the table's own
labels, so nobody can pass for "You", a computer player or a whole partnership."""

from __future__ import annotations

import re
import unicodedata

from app.bots.names import bot_seat_name
from app.reasons import N_, reason
from app.services import errors

NAME_MAX = 24
DEVICE_NAME_MAX = 40

NAME_EMPTY = reason(
    "name_empty", "a name needs at least one character", N_("Write your name first.")
)
NAME_TOO_LONG = reason(
    "name_too_long",
    "a name has at most {max} characters",
    N_("A name has at most %(max)s characters."),
)
NAME_CONTROL = reason(
    "name_control_characters",
    "a name may not hold control or unassigned characters",
    N_("A name may not hold control characters."),
)
NAME_INVISIBLE = reason(
    "name_invisible",
    "a name needs at least one visible character",
    N_("A name needs at least one visible character."),
)
NAME_RESERVED = reason(
    "name_reserved",
    "{name!r} is a word the table uses; choose another name",
    N_("“%(name)s” is a word the table uses: choose another name."),
)

# Letters and symbols that the fonts draw as nothing: a name of these alone looks empty.
_BLANK = frozenset(
    "\u115f\u1160\u17b4\u17b5\u180e\u2800\u3164\uffa0"
    "\U0001d159\U0001d173\U0001d174\U0001d175\U0001d176\U0001d177\U0001d178\U0001d179\U0001d17a"
)
# What the table writes beside or instead of names (app/web/table.py): the viewer, the
# partnerships, the computer players and their cover.
_LABELS = re.compile(
    r"(you|us|them|spectator|dealer|team( \d+)?|bot( \d+| \(\w+\))?|computer( \d+)?( \(\w+\))?)"
)
_INVISIBLE_CATEGORIES = ("Cc", "Cf", "Cs", "Co", "Cn")


def bot_name(level: str, stands_in: str | None = None) -> str:
    """A computer player's seat name at a table, made here only: "Bot (standard)" (the
    pages name it app/bots/names.py's way); one a club night's director seats for an
    absent player bears that player's name (the pages say it is a computer player standing
    in: ``bot`` and ``level`` tell it apart)."""
    return stands_in if stands_in else bot_seat_name(level)


def clean_name(name: str) -> str:
    """A player's name: trimmed, 1-24 characters, something visible in it, no control or
    unassigned characters, and not a label the table uses ("You", "Bot 2", "Team 1",
    "(auto)", "Ann & Cy")."""
    name = _plain(name, NAME_MAX)
    folded = " ".join(unicodedata.normalize("NFKC", name).casefold().split())
    if _LABELS.fullmatch(folded) or "(auto)" in folded or " & " in folded:
        raise errors.Invalid(NAME_RESERVED, name=name)
    return name


def device_label(name: str) -> str:
    """A device's name as its player gives it ("Ria's phone"): a name's rules, but for the
    table's labels (a device never sits) and a longer limit."""
    return _plain(name, DEVICE_NAME_MAX)


def _plain(name: str, longest: int) -> str:
    name = name.strip()
    if not name:
        raise errors.Invalid(NAME_EMPTY)
    if len(name) > longest:
        raise errors.Invalid(NAME_TOO_LONG, max=longest)
    if any(unicodedata.category(ch) in _INVISIBLE_CATEGORIES for ch in name):
        raise errors.Invalid(NAME_CONTROL)
    if not any(_visible(ch) for ch in name):
        raise errors.Invalid(NAME_INVISIBLE)
    return name


def _visible(ch: str) -> bool:
    """Drawn with ink: a letter, digit, punctuation or symbol that is not a blank glyph."""
    return unicodedata.category(ch)[0] in "LNPS" and ch not in _BLANK
