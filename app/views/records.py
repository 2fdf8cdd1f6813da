"""API.md "The hand record": one finished deal, as ``observe`` let the viewer see it."""

from __future__ import annotations

from pydantic import Field

from app.rules.cards import cards_in, code
from app.rules.state import HandRecord
from app.rules.view import Decision, Observation
from app.views.shapes import (
    AwardView,
    CallView,
    CardCode,
    LiftView,
    RenegeView,
    SeatNumber,
    Shown,
    SuitCode,
    award_fields,
    call_fields,
    lift_fields,
    renege_fields,
    suit_field,
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
            "trump": suit_field(record.trump),
            "decision": record.decision,
            "tricks": [lift_fields(t) for t in record.tricks],
            "game_totals": list(record.game_totals) if record.game_totals else None,
            "awards": [award_fields(a) for a in record.awards],
            "scores_after": list(record.scores_after),
            "calls": [call_fields(c) for c in record.calls],
            "reneges": [renege_fields(r) for r in record.reneges] if reneges_public else None,
        }
    )
