"""Trump and the kicks turned up this hand, with the points a kick gave the dealer's team."""

from __future__ import annotations

from dataclasses import dataclass

from app.rules.cards import SUITS
from app.services.view import RoomView
from app.web.cards import card_name, suit_word
from app.web.panels.score import Score
from app.web.panels.seats import Seats


@dataclass(frozen=True, slots=True)
class Kick:
    code: str
    name: str
    points: int

    @property
    def suit_word(self) -> str:
        return suit_word(self.code[1])


@dataclass(frozen=True, slots=True)
class Kicks:
    trump: str | None
    trump_name: str | None
    cards: tuple[Kick, ...]
    team: str | None  # the dealer's team, which a kick scores for
    ours: bool | None  # the dealer's team is the viewer's (None: a spectator's view)


def kicks(view: RoomView, seats: Seats, score: Score) -> Kicks:
    trump = view.trump
    dealer = seats.dealer
    team = score.teams[dealer.team] if dealer is not None else None
    return Kicks(
        trump=trump,
        trump_name=suit_word(trump) if trump is not None and trump in SUITS else None,
        cards=tuple(
            Kick(code=c, name=card_name(c), points=points)
            for c, points in zip(view.kicks, view.kick_points, strict=True)
        ),
        team=team.short if team is not None else None,
        ours=team.ours if team is not None else None,
    )
