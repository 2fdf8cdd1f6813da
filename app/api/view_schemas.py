"""The typed shapes of API.md's "The view" and "The hand record", for the JSON API, the
OpenAPI document and the page (which renders the same view).

Each shape is a copy of an ``Observation`` (app/rules/view.py): ``observe`` decided what the
viewer may see, and nothing here decides it again.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field

from app.rules.cards import SUITS, cards_in, code
from app.rules.scoring import kick_points
from app.rules.state import (
    ACTION_TYPES,
    Action,
    Award,
    AwardKind,
    Call,
    HandRecord,
    Penalty,
    Phase,
    Renege,
    RenegeKind,
    Trick,
)
from app.rules.view import Decision, Observation, sorted_hand

CARD_CODE = r"^[AKQJT2-9][CDHS]$"
CardCode = Annotated[str, Field(json_schema_extra={"pattern": CARD_CODE})]
SeatNumber = Annotated[int, Field(ge=0, le=3)]
TeamNumber = Annotated[int, Field(ge=0, le=1)]
SuitCode = Literal["C", "D", "H", "S"]


# -- the typed shapes of API.md ----------------------------------------------------------
# Strict and closed: a test validates every view a whole game serves against them, and the
# OpenAPI document is generated from them, so the contract and the code cannot drift apart.


def _absent_when_none(value: object) -> bool:
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
    card: CardCode | None = Field(None, exclude_if=_absent_when_none)


class RefusedView(ActionView):
    reason: str = Field(description="why it is not allowed, naming the rule")
    rule: str
    code: str = Field(description="the reason's code, as an error's (ErrorOut)")
    params: dict[str, str | int] = Field(description="what the reason names: {'suit': 'H'}")


class AwardView(Shown):
    kind: AwardKind
    team: TeamNumber
    points: int
    card: CardCode | None = Field(None, exclude_if=_absent_when_none)
    seat: SeatNumber | None = Field(None, exclude_if=_absent_when_none)


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


class GameView(Shown):
    """The game's part of API.md "The view", for one viewer."""

    phase: Literal["lobby", "beg", "give_or_run", "play", "reckoning", "game_over"]
    dealer: SeatNumber | None
    beggar: SeatNumber | None
    turn: SeatNumber | None
    hand_number: int
    kicks: list[CardCode]
    kick_points: list[int]
    decision: Decision | None
    trump: SuitCode | None
    hand: list[CardCode] = Field(description="the caller's own cards, as a player holds them")
    hand_sizes: list[int] = Field(min_length=4, max_length=4)
    trick: list[PlayedCardView]
    last_trick: LiftView | None = Field(
        description="the lift last taken: before a deal's first lift, the previous deal's last"
    )
    tricks_won: list[int] = Field(min_length=2, max_length=2)
    legal: list[ActionView]
    refused: list[RefusedView]
    scores: list[int] = Field(min_length=2, max_length=2)
    last_hand: list[AwardView] | None
    last_hand_totals: list[int] | None
    winner: TeamNumber | None
    seed: int | None = Field(description="the game's seed, once the game is over")
    seed_commitment: str | None = Field(
        description="hex SHA-256 of the seed's decimal text (docs/fairness.md), the same in"
        " every view of the game from its first deal; null for a game dealt before it",
        json_schema_extra={"pattern": "^[0-9a-f]{64}$"},
    )
    calls: list[CallView] = Field(description="this hand's calls of renege (R22), public")
    reckoned: list[SeatNumber] = Field(description="R23: the seats that said 'score it'")
    lifts: list[LiftView] | None = Field(
        None,
        exclude_if=_absent_when_none,
        description="R23: the hand's lifts, face up on the table while it is reckoned (the"
        " lifts to call renege on); absent in every other phase",
    )
    renege_cards: list[CardCode] | None = Field(
        None,
        exclude_if=_absent_when_none,
        description="R20: the viewer's cards that would renege, on their turn with renege on;"
        " absent from every other view",
    )


LOBBY = GameView(
    phase="lobby",
    dealer=None,
    beggar=None,
    turn=None,
    hand_number=0,
    kicks=[],
    kick_points=[],
    decision=None,
    trump=None,
    hand=[],
    hand_sizes=[0, 0, 0, 0],
    trick=[],
    last_trick=None,
    tricks_won=[0, 0],
    legal=[],
    refused=[],
    scores=[0, 0],
    last_hand=None,
    last_hand_totals=None,
    winner=None,
    seed=None,
    seed_commitment=None,
    calls=[],
    reckoned=[],
)


class HandRecordView(Shown):
    """API.md "The hand record": one finished deal."""

    n: int
    dealer: SeatNumber
    redeal: bool
    dealt: dict[str, list[CardCode] | None] = Field(
        description="each seat's dealt cards, null where this viewer may not see them"
    )
    kicks: list[CardCode]
    trump: SuitCode | None
    decision: Decision | None
    tricks: list[LiftView]
    game_totals: list[int] | None
    awards: list[AwardView]
    scores_after: list[int] = Field(min_length=2, max_length=2)
    calls: list[CallView] = Field(default_factory=list, description="the deal's calls (R22)")
    reneges: list[RenegeView] | None = Field(
        None, description="every renege of the deal, called or not: null until the game is over"
    )


def hand_records(obs: Observation) -> tuple[HandRecordView, ...]:
    """The finished deals, as ``observe`` let this viewer see them."""
    # R27: observe shows every renege once the game is over, none before.
    public = obs.winner is not None and obs.rules.renege != "off"
    return tuple(_record_view(r, reneges_public=public) for r in obs.history)


def game_view(obs: Observation) -> GameView:
    return GameView.model_validate(game_fields(obs))


def game_fields(obs: Observation) -> dict[str, Any]:
    """``game_view``'s fields, to be validated once with the room's (one pass of
    pydantic's validator over plain values is cheaper than building each part)."""
    last = obs.history[-1] if obs.history else None
    last_trick = obs.last_trick
    return {
        "phase": obs.phase.value,
        "dealer": obs.dealer,
        "beggar": obs.beggar,
        "turn": obs.turn,
        "hand_number": obs.hand_number,
        "kicks": [code(c) for c in obs.kicks],
        # what each turned-up card scored for the dealer's team (R7), in the same order
        "kick_points": [kick_points(c, obs.rules) for c in obs.kicks],
        "decision": obs.decision,
        "trump": _suit(obs.trump),
        **seat_fields(obs),
        "hand_sizes": list(obs.hand_sizes),
        "trick": [{"seat": s, "card": code(c)} for s, c in obs.trick],
        "last_trick": _lift(last_trick) if last_trick is not None else None,
        "tricks_won": [sum(1 for t in obs.tricks if t.winner % 2 == team) for team in (0, 1)],
        "scores": list(obs.scores),
        "last_hand": [_award(a) for a in last.awards] if last is not None else None,
        "last_hand_totals": list(last.game_totals) if last and last.game_totals else None,
        "winner": obs.winner,
        "seed": obs.seed,
        "seed_commitment": obs.seed_commitment,
        "calls": [_call(c) for c in obs.calls],
        "reckoned": [s for s in range(4) if obs.reckoned >> s & 1],
        **({"lifts": [_lift(t) for t in obs.tricks]} if obs.phase is Phase.RECKONING else {}),
    }


def seat_fields(obs: Observation) -> dict[str, Any]:
    """The fields of ``game_fields`` that differ from seat to seat: the rest is the same in
    every viewer's view of a version (a spectator's included)."""
    return {
        "hand": [code(c) for c in sorted_hand(obs.hand, obs.held_trump)],
        "legal": [_action(a) for a in obs.legal],
        "refused": [
            {
                **_action(a),
                "reason": str(err),
                "rule": err.rule,
                "code": err.code,
                "params": err.params,
            }
            for a, err in obs.refusals
        ],
        **(
            {"renege_cards": [code(c) for c in sorted_hand(obs.renege_cards, obs.trump)]}
            if obs.rules.renege != "off" and obs.seat is not None and obs.seat == obs.turn
            else {}
        ),
    }


def _suit(suit: int | None) -> SuitCode | None:
    return cast(SuitCode, SUITS[suit]) if suit is not None else None


def _action(action: Action) -> dict[str, Any]:
    if action.card is None:
        return {"type": action.type}
    return {"type": action.type, "card": code(action.card)}


def _award(award: Award) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": award.kind, "team": award.team, "points": award.points}
    if award.card is not None:
        out["card"] = code(award.card)
    if award.seat is not None:
        out["seat"] = award.seat
    return out


def _call(call: Call) -> dict[str, Any]:
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
    return CallView.model_validate(_call(call))


def _renege(renege: Renege) -> dict[str, Any]:
    return {
        "seat": renege.seat,
        "lift": renege.lift,
        "card": code(renege.card),
        "kind": renege.kind,
        "called": renege.called,
    }


def _lift(trick: Trick) -> dict[str, Any]:
    return {
        "leader": trick.leader,
        "cards": [{"seat": s, "card": code(c)} for s, c in trick.cards],
        "winner": trick.winner,
    }


def action_views(actions: tuple[Action, ...]) -> list[dict[str, Any]]:
    """``actions`` as the view's plain values (for a shape validated with the room's)."""
    return [_action(a) for a in actions]


def action_view(action: Action) -> ActionView:
    return ActionView.model_validate(_action(action))


def award_view(award: Award) -> AwardView:
    return AwardView.model_validate(_award(award))


def lift_view(trick: Trick) -> LiftView:
    return LiftView.model_validate(_lift(trick))


def _record_view(record: HandRecord, *, reneges_public: bool) -> HandRecordView:
    return HandRecordView.model_validate(
        {
            "n": record.n,
            "dealer": record.dealer,
            "redeal": record.redeal,
            "dealt": {
                str(seat): [code(c) for c in cards_in(hand)] if hand else None
                for seat, hand in enumerate(record.dealt)  # 0: observe did not show it
            },
            "kicks": [code(c) for c in record.kicks],
            "trump": _suit(record.trump),
            "decision": record.decision,
            "tricks": [_lift(t) for t in record.tricks],
            "game_totals": list(record.game_totals) if record.game_totals else None,
            "awards": [_award(a) for a in record.awards],
            "scores_after": list(record.scores_after),
            "calls": [_call(c) for c in record.calls],
            "reneges": [_renege(r) for r in record.reneges] if reneges_public else None,
        }
    )
