"""The typed pieces of API.md's "The view" and "The hand record": a card, a seat, a team, a
lift, an award, a call of renege, a move offered or refused, and each one's plain values.

Each piece is a copy of what ``observe`` (app/rules/view.py) let the viewer see: nothing here
decides it again. The game's view (app/views/game.py) and the hand record
(app/views/records.py) are made of them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field

from app.rules.cards import SUITS, code
from app.rules.state import (
    ACTION_TYPES,
    Action,
    Award,
    AwardKind,
    Call,
    Penalty,
    Renege,
    RenegeKind,
    Trick,
)

CARD_CODE = r"^[AKQJT2-9][CDHS]$"
CardCode = Annotated[str, Field(json_schema_extra={"pattern": CARD_CODE})]
SeatNumber = Annotated[int, Field(ge=0, le=3)]
TeamNumber = Annotated[int, Field(ge=0, le=1)]
SuitCode = Literal["C", "D", "H", "S"]


# -- the typed shapes of API.md ----------------------------------------------------------
# Strict and closed: a test validates every view a whole game serves against them, and the
# OpenAPI document is generated from them, so the contract and the code cannot drift apart.


def absent_when_none(value: object) -> bool:
    """A field left out of the JSON when it has no value (the contract omits it)."""
    return value is None


class Shown(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class PlayedCardView(Shown):
    seat: SeatNumber
    card: CardCode


class LiftView(Shown):
    leader: SeatNumber
    cards: list[PlayedCardView]
    winner: SeatNumber


class ActionView(Shown):
    type: Literal[ACTION_TYPES]  # type: ignore[valid-type]
    card: CardCode | None = Field(None, exclude_if=absent_when_none)


class RefusedView(ActionView):
    reason: str = Field(description="why it is not allowed, naming the rule")
    rule: str
    code: str = Field(description="the reason's code, as an error's (ErrorOut)")
    params: dict[str, str | int] = Field(description="what the reason names: {'suit': 'H'}")


class AwardView(Shown):
    kind: AwardKind
    team: TeamNumber
    points: int
    card: CardCode | None = Field(None, exclude_if=absent_when_none)
    seat: SeatNumber | None = Field(None, exclude_if=absent_when_none)


class CallView(Shown):
    """R22: a call of renege and its judgement (API.md § Third round ``<call>``)."""

    seat: SeatNumber = Field(description="who called")
    lift: int = Field(ge=1, le=12, description="the lift called, 1 = the hand's first")
    upheld: bool
    penalty: Penalty | None = Field(description="what was paid (null: nothing more, R24-R25)")
    paid_by: TeamNumber | None
    card: CardCode | None = Field(None, description="the renege caught, when upheld")
    offender: SeatNumber | None = Field(None, description="who reneged, when upheld")


class RenegeView(Shown):
    """R21: a renege, public once the game is over (R27)."""

    seat: SeatNumber
    lift: int = Field(ge=1, le=12)
    card: CardCode
    kind: RenegeKind
    called: bool


def suit_field(suit: int | None) -> SuitCode | None:
    return cast(SuitCode, SUITS[suit]) if suit is not None else None


def action_fields(action: Action) -> dict[str, Any]:
    if action.card is None:
        return {"type": action.type}
    return {"type": action.type, "card": code(action.card)}


def award_fields(award: Award) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": award.kind, "team": award.team, "points": award.points}
    if award.card is not None:
        out["card"] = code(award.card)
    if award.seat is not None:
        out["seat"] = award.seat
    return out


def call_fields(call: Call) -> dict[str, Any]:
    return {
        "seat": call.seat,
        "lift": call.lift,
        "upheld": call.upheld,
        "penalty": call.penalty,
        "paid_by": call.paid_by,
        "card": code(call.card) if call.card is not None else None,
        "offender": call.offender if call.card is not None else None,
    }


def call_view(call: Call) -> CallView:
    return CallView.model_validate(call_fields(call))


def renege_fields(renege: Renege) -> dict[str, Any]:
    return {
        "seat": renege.seat,
        "lift": renege.lift,
        "card": code(renege.card),
        "kind": renege.kind,
        "called": renege.called,
    }


def lift_fields(trick: Trick) -> dict[str, Any]:
    return {
        "leader": trick.leader,
        "cards": [{"seat": s, "card": code(c)} for s, c in trick.cards],
        "winner": trick.winner,
    }


def action_views(actions: tuple[Action, ...]) -> list[dict[str, Any]]:
    """``actions`` as the view's plain values (for a shape validated with the room's)."""
    return [action_fields(a) for a in actions]


def action_view(action: Action) -> ActionView:
    return ActionView.model_validate(action_fields(action))


def award_view(award: Award) -> AwardView:
    return AwardView.model_validate(award_fields(award))


def lift_view(trick: Trick) -> LiftView:
    return LiftView.model_validate(lift_fields(trick))
