"""The lift on the table and the last one collected, each card placed at its player's seat."""

from __future__ import annotations

from dataclasses import dataclass

from app.services.view import RoomView
from app.views.shapes import PlayedCardView
from app.web.cards import card_name
from app.web.panels.seats import Seats, SeatShown


@dataclass(frozen=True, slots=True)
class PlayedCard:
    code: str
    name: str
    seat: int
    pos: str
    player: str
    lead: bool
    winner: bool


@dataclass(frozen=True, slots=True)
class Lifts:
    trick: tuple[PlayedCard, ...]  # the lift being played, lead first
    last: tuple[PlayedCard, ...]  # the last lift collected (the previous deal's, while begging)
    last_winner: SeatShown | None
    # The lift itself is the key: the previous deal's last lift, still shown while the next
    # deal is begged, is announced once.
    last_key: str | None


def lifts(view: RoomView, seats: Seats) -> Lifts:
    raw_last = view.last_trick
    winner = raw_last.winner if raw_last else None
    last = tuple(
        played(p, seats, lead=i == 0, winner=p.seat == winner)
        for i, p in enumerate(raw_last.cards if raw_last else ())
    )
    return Lifts(
        trick=tuple(played(p, seats, lead=i == 0, winner=False) for i, p in enumerate(view.trick)),
        last=last,
        last_winner=seats.by_number[winner] if winner is not None else None,
        last_key="".join(p.code for p in last) if last else None,
    )


def played(p: PlayedCardView, seats: Seats, *, lead: bool, winner: bool) -> PlayedCard:
    seat = seats.by_number[p.seat]
    return PlayedCard(
        code=p.card,
        name=card_name(p.card),
        seat=seat.seat,
        pos=seat.pos,
        player=seat.name,
        lead=lead,
        winner=winner,
    )
