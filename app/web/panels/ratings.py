"""A rated game's result: each player's rating change ("+23": the shown rating, the ordinal
x100 rounded, after the game minus before it; docs/careers-and-ratings.md)."""

from __future__ import annotations

from dataclasses import dataclass

from app.i18n import number
from app.services.view import RoomView
from app.web.panels.seats import Seats

MINUS = "\N{MINUS SIGN}"


def shown(ordinal: float) -> int:
    """The rating as the pages show it: the ordinal x100, rounded."""
    return round(ordinal * 100)


def signed(n: int) -> str:
    """A change as the page shows it: "+23", "-7" (with a minus sign, U+2212), "0"."""
    if n > 0:
        return "+" + number(n)
    return MINUS + number(-n) if n < 0 else number(0)


@dataclass(frozen=True, slots=True)
class RatingChange:
    seat: int
    name: str  # "You" for the viewer
    href: str | None  # the player's page
    change: str  # "+23", "-7" with a minus sign
    won: bool
    left: bool = False  # the player left the game: rated as their team's loss (issue #43)


def rating_changes(view: RoomView, placed: Seats) -> tuple[RatingChange, ...]:
    """Each seat's change, seat order, at the end of a rated game; nothing otherwise."""
    if not view.rated or not view.ratings:
        return ()
    out = []
    for r in view.ratings:
        seat = placed.by_number[r.seat]
        change = shown(r.after.ordinal) - shown(r.before.ordinal)
        out.append(
            RatingChange(
                r.seat,
                seat.name,
                f"/p/{r.handle}" if r.handle else None,
                signed(change),
                change > 0,
                r.left,
            )
        )
    return tuple(out)
