"""The last hand's awards (High, Low, Jack, Game, the kick, a renege's penalty), each with the
team it went to, in the viewer's words."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from app.i18n import _
from app.services.view import RoomView
from app.views.shapes import AwardView
from app.web.awards import BULLSEYE_KINDS, award_title, penalty_detail
from app.web.cards import card_short
from app.web.panels.score import DASH, Score
from app.web.panels.seats import Seats


@dataclass(frozen=True, slots=True)
class AwardShown:
    kind: str
    title: str  # "High", "Hang jack!"
    card: str | None
    card_text: str | None  # "A♠"
    detail: str  # "dealt to Ann"
    team: int
    team_name: str
    points: int
    ours: bool | None  # the viewer's team scored it (None for a spectator)

    @property
    def bullseye(self) -> bool:
        """A penalty that gave the game itself (R24-R25), whatever the points."""
        return self.kind in BULLSEYE_KINDS


@dataclass(frozen=True, slots=True)
class Awards:
    items: tuple[AwardShown, ...]
    key: str | None  # names this hand's awards, so the page shows and says them once


def awards(view: RoomView, seats: Seats, score: Score) -> Awards:
    raw = view.last_hand
    if not raw:
        return Awards(items=(), key=None)
    totals = view.last_hand_totals
    said = f"{view.hand_number}:{view.phase == 'game_over'}:{[a.model_dump_json() for a in raw]}"
    return Awards(
        items=tuple(_award(a, seats, score, totals) for a in raw),
        key=hashlib.sha256(said.encode()).hexdigest()[:12],
    )


def _award(a: AwardView, seats: Seats, score: Score, totals: Sequence[int] | None) -> AwardShown:
    kind, team, card, seat_n = a.kind, a.team, a.card, a.seat
    you = seats.you
    holder = seats.by_number[seat_n].name if seat_n is not None else None
    # The viewer's own seat is said to them in its own words: its label ("You") pasted into
    # a sentence made "You's jack hanged", "Du hat einen Renege gespielt".
    yours = seat_n is not None and seat_n == you
    if kind in ("high", "low", "jack") and holder:
        detail = _("dealt to you") if yours else _("dealt to %(player)s") % {"player": holder}
    elif kind == "hang_jack" and holder:
        if yours:
            detail = _("your jack hanged")
        else:
            detail = _("%(player)s's jack hanged") % {"player": holder}
    elif kind == "kick":
        detail = _("turned up by the dealer")
    elif kind == "give_one":
        detail = _("the dealer gave one")
    elif kind == "game" and totals:
        detail = _("counted %(score)s") % {"score": f"{totals[team]}{DASH}{totals[1 - team]}"}
    elif kind == "game":
        detail = _("most points in lifts")
    elif (penalty := penalty_detail(kind, holder, yours)) is not None:
        detail = penalty  # R24-R25: whose renege, or whose call, in the sheet's words too
    else:
        detail = ""
    teams = score.teams
    return AwardShown(
        kind=kind,
        title=award_title(kind),
        card=card,
        card_text=card_short(card) if card else None,
        detail=detail,
        team=team,
        team_name=teams[team].short if you is not None else teams[team].name,
        points=a.points,
        ours=None if you is None else you % 2 == team,
    )
