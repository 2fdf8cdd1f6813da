"""The only door for private information: what one seat (or a spectator) may see.

``observe`` decides it: a seat gets its own hand and the table's public facts, never another
hand; the deals played so far as that viewer may see them; the seed once the game is over.
``Observation.game_view()`` and ``Observation.hand_records()`` give that in the typed shapes
of API.md ("The view", "The hand record"), which the JSON API serves and the page renders.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field

from app.rules.cards import SUITS, Card, Hand, cards_in, code, rank_of, suit_of
from app.rules.config import Rules
from app.rules.engine import give_one_refusal, legal_actions, legal_play_mask
from app.rules.errors import IllegalMove
from app.rules.scoring import kick_points
from app.rules.shuffle import SHUFFLE, seed_commitment
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
    State,
    Trick,
)
from app.rules.tricks import why_illegal

CARD_CODE = r"^[AKQJT2-9][CDHS]$"
CardCode = Annotated[str, Field(json_schema_extra={"pattern": CARD_CODE})]
SeatNumber = Annotated[int, Field(ge=0, le=3)]
TeamNumber = Annotated[int, Field(ge=0, le=1)]
Decision = Literal["stand", "give_one", "run_pack"]
SuitCode = Literal["C", "D", "H", "S"]


@dataclass(frozen=True, slots=True)
class Observation:
    """What a seat sees at the table: public facts plus its own hand."""

    seat: int | None
    rules: Rules
    phase: Phase
    dealer: int
    turn: int | None
    hand_number: int
    kicks: tuple[Card, ...]
    decision: Decision | None  # said aloud at the table
    trump: int | None
    hand: Hand
    hand_sizes: tuple[int, int, int, int]
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]  # this deal's completed lifts, face up on the table
    legal: tuple[Action, ...]
    refusals: tuple[tuple[Action, IllegalMove], ...]  # actions shown but not allowed, and why
    scores: tuple[int, int]
    history: tuple[HandRecord, ...]  # the finished deals; hand_records() shows what is public
    winner: int | None
    seed: int | None  # public once the game is over: then anyone may check the deals
    # The seed's hex SHA-256, public from the first deal, so the seed shown at the end is
    # provably the one dealt from (None for a game dealt before the documented shuffle).
    seed_commitment: str | None
    # Renege mode (R20-R27): this deal's calls, public; the cards of the viewer's hand that
    # would renege, on their turn only; the seats that said "score it" in the reckoning.
    calls: tuple[Call, ...] = ()
    renege_cards: Hand = 0
    reckoned: int = 0

    @property
    def beggar(self) -> int:
        return (self.dealer + 1) % 4

    @property
    def held_trump(self) -> int | None:
        """The suit a player sorts first: trump, or before it is fixed the kick's."""
        if self.trump is not None:
            return self.trump
        return suit_of(self.kicks[-1]) if self.kicks else None

    @property
    def last_trick(self) -> Trick | None:
        """The lift last taken, left face up beside its winner: this deal's, and before this
        deal's first lift the previous deal's last (it often decided that deal's hang jack,
        Game and High, and a player looks at it while the beggar decides)."""
        if self.tricks:
            return self.tricks[-1]
        last = self.history[-1] if self.history else None
        return last.tricks[-1] if last is not None and last.tricks else None

    def hand_records(self) -> tuple[HandRecordView, ...]:
        """The finished deals, as this viewer may see them.

        Every card of a played-out deal was shown in a trick; a deal that was thrown in (a
        redeal, or a game ended by a kick or a give one) showed no one's hand, so until the
        game is over (and its seed public) each viewer sees only its own seat's cards there.
        """
        over = self.winner is not None
        on = self.rules.renege != "off"
        return tuple(
            _record_view(r, self.seat, reveal=over or r.played_out, over=over, renege_on=on)
            for r in self.history
        )

    def game_view(self) -> GameView:
        return GameView.model_validate(self.game_fields())

    def game_fields(self) -> dict[str, Any]:
        """``game_view()``'s fields, to be validated once with the room's (one pass of
        pydantic's validator over plain values is cheaper than building each part)."""
        last = self.history[-1] if self.history else None
        last_trick = self.last_trick
        return {
            "phase": self.phase.value,
            "dealer": self.dealer,
            "beggar": self.beggar,
            "turn": self.turn,
            "hand_number": self.hand_number,
            "kicks": [code(c) for c in self.kicks],
            # what each turned-up card scored for the dealer's team (R7), in the same order
            "kick_points": [kick_points(c, self.rules) for c in self.kicks],
            "decision": self.decision,
            "trump": _suit(self.trump),
            "hand": [code(c) for c in sorted_hand(self.hand, self.held_trump)],
            "hand_sizes": list(self.hand_sizes),
            "trick": [{"seat": s, "card": code(c)} for s, c in self.trick],
            "last_trick": _lift(last_trick) if last_trick is not None else None,
            "tricks_won": [sum(1 for t in self.tricks if t.winner % 2 == team) for team in (0, 1)],
            "legal": [_action(a) for a in self.legal],
            "refused": [
                {**_action(a), "reason": str(err), "rule": err.rule} for a, err in self.refusals
            ],
            "scores": list(self.scores),
            "last_hand": [_award(a) for a in last.awards] if last is not None else None,
            "last_hand_totals": list(last.game_totals) if last and last.game_totals else None,
            "winner": self.winner,
            "seed": self.seed,
            "seed_commitment": self.seed_commitment,
            "calls": [_call(c) for c in self.calls],
            "reckoned": [s for s in range(4) if self.reckoned >> s & 1],
            **(
                {"renege_cards": [code(c) for c in sorted_hand(self.renege_cards, self.trump)]}
                if self.rules.renege != "off" and self.seat is not None and self.seat == self.turn
                else {}
            ),
        }


def observe(state: State, seat: int | None) -> Observation:
    to_act = seat is not None and seat == state.turn
    over = state.winner is not None
    renege_on = state.rules.renege != "off"
    return Observation(
        seat=seat,
        rules=state.rules,
        phase=state.phase,
        dealer=state.dealer,
        turn=state.turn,
        hand_number=state.hand_number,
        kicks=state.kicks,
        decision=state.decision,
        trump=state.trump,
        hand=state.hands[seat] if seat is not None else 0,
        hand_sizes=(
            state.hands[0].bit_count(),
            state.hands[1].bit_count(),
            state.hands[2].bit_count(),
            state.hands[3].bit_count(),
        ),
        trick=state.trick,
        tricks=state.tricks,
        legal=tuple(legal_actions(state)) if to_act else (),
        refusals=_refusals(state) if to_act else (),
        scores=state.scores,
        # R27: an uncalled renege is no one's to know until the game is over.
        history=state.history if over or not renege_on else _reneges_hidden(state.history),
        winner=state.winner,
        seed=state.seed if state.winner is not None else None,
        seed_commitment=seed_commitment(state.seed) if state.shuffle == SHUFFLE else None,
        calls=state.calls,
        renege_cards=_renege_cards(state) if to_act and renege_on else 0,
        reckoned=state.reckoned,
    )


def _reneges_hidden(history: tuple[HandRecord, ...]) -> tuple[HandRecord, ...]:
    return tuple(r._replace(reneges=()) if r.reneges else r for r in history)


def _renege_cards(state: State) -> Hand:
    """R20: the cards of the hand that would renege (its own view marks them)."""
    if state.phase is not Phase.PLAY:
        return 0
    assert state.turn is not None
    return state.hands[state.turn] & ~legal_play_mask(state)


def _refusals(state: State) -> tuple[tuple[Action, IllegalMove], ...]:
    if state.phase is Phase.GIVE_OR_RUN:
        refusal = give_one_refusal(state)
        return ((Action("give_one"), refusal),) if refusal else ()
    if state.phase is Phase.PLAY and state.trick and state.rules.renege == "off":
        assert state.turn is not None and state.trump is not None
        hand = state.hands[state.turn]
        forbidden = state.rules.undertrump == "forbidden"
        out = []
        for card in cards_in(hand):
            err = why_illegal(card, hand, state.trick, state.trump, forbidden)
            if err is not None:
                out.append((Action("play", card), err))
        return tuple(out)
    return ()


# Spades, hearts, clubs, diamonds: neighbouring suits of other colours are easy to tell apart.
_HELD_ORDER = (3, 2, 0, 1)


def sorted_hand(hand: Hand, trump: int | None) -> list[Card]:
    """How a player holds the cards: trumps first (before trump is fixed, the kick's suit),
    then the other suits in alternating colours, each high to low. The page shows the hand
    in this order too."""
    start = _HELD_ORDER.index(trump) if trump is not None else 0
    order = _HELD_ORDER[start:] + _HELD_ORDER[:start]

    def key(card: Card) -> tuple[int, int]:
        return (order.index(suit_of(card)), -rank_of(card))

    return sorted(cards_in(hand), key=key)


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
    out: dict[str, Any] = {
        "seat": call.seat,
        "lift": call.lift,
        "upheld": call.upheld,
        "penalty": call.penalty,
        "paid_by": call.paid_by,
    }
    if call.card is not None:
        out["card"], out["offender"] = code(call.card), call.offender
    return out


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


def action_view(action: Action) -> ActionView:
    return ActionView.model_validate(_action(action))


def award_view(award: Award) -> AwardView:
    return AwardView.model_validate(_award(award))


def lift_view(trick: Trick) -> LiftView:
    return LiftView.model_validate(_lift(trick))


def _record_view(
    record: HandRecord, viewer: int | None, *, reveal: bool, over: bool, renege_on: bool
) -> HandRecordView:
    return HandRecordView.model_validate(
        {
            "n": record.n,
            "dealer": record.dealer,
            "redeal": record.redeal,
            "dealt": {
                str(seat): [code(c) for c in cards_in(hand)] if reveal or seat == viewer else None
                for seat, hand in enumerate(record.dealt)
            },
            "kicks": [code(c) for c in record.kicks],
            "trump": _suit(record.trump),
            "decision": record.decision,
            "tricks": [_lift(t) for t in record.tricks],
            "game_totals": list(record.game_totals) if record.game_totals else None,
            "awards": [_award(a) for a in record.awards],
            "scores_after": list(record.scores_after),
            "calls": [_call(c) for c in record.calls],
            "reneges": [_renege(r) for r in record.reneges] if over and renege_on else None,
        }
    )
