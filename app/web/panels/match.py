"""The match this game belongs to (app/services/match.py), as the viewer reads it."""

from __future__ import annotations

from dataclasses import dataclass

from app.i18n import _
from app.services.view import RoomView
from app.web.panels.score import DASH, Score, Team


@dataclass(frozen=True, slots=True)
class Match:
    bullseyes: tuple[int, int]  # team 0 first
    to: int
    winner: Team | None  # the partnership that has won the match
    text: str  # "Bullseyes 2-1" (an en dash), the viewer's team first

    @property
    def over_text(self) -> str | None:
        """The match won ("You & Cy win the match, 2-1", with an en dash), once the game
        that won it is over."""
        won = self.winner
        if won is None:
            return None
        said = f"{self.bullseyes[won.team]}{DASH}{self.bullseyes[1 - won.team]}"
        if won.partner is not None:
            return _("You and %(partner)s win the match, %(score)s") % {
                "partner": won.partner,
                "score": said,
            }
        return _("%(team)s win the match, %(score)s") % {"team": won.name, "score": said}


def match(view: RoomView, score: Score) -> Match | None:
    """The match of more than one game this game belongs to; None for a match of one game,
    which is the game itself: its tally starts again after every game (a tally shown after a
    rematch would read "Bullseyes 1-0" when each side had won one)."""
    raw = view.match
    if raw.to <= 1:
        return None
    a, b = raw.bullseyes[0], raw.bullseyes[1]
    shown = (b, a) if view.you is not None and view.you % 2 == 1 else (a, b)
    return Match(
        bullseyes=(a, b),
        to=raw.to,
        winner=score.teams[raw.winner] if raw.winner is not None else None,
        text=_("Bullseyes %(score)s") % {"score": f"{shown[0]}{DASH}{shown[1]}"},
    )
