"""The only door for private information: what one seat (or a spectator) may see.

``observe`` gives a seat its own hand and the table's public facts, never another hand.
The JSON shapes here are those of API.md ("The view", "The hand record").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from app.rules.cards import SUITS, Card, Hand, cards_in, code, rank_of, suit_of
from app.rules.config import Rules
from app.rules.engine import give_one_refusal, legal_actions
from app.rules.errors import IllegalMove
from app.rules.scoring import kick_points
from app.rules.state import Action, Award, HandRecord, Phase, State, Trick
from app.rules.tricks import why_illegal

Json = dict[str, Any]


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
    decision: Literal["stand", "give_one", "run_pack"] | None  # said aloud at the table
    trump: int | None
    hand: Hand
    hand_sizes: tuple[int, int, int, int]
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]  # this deal's completed lifts, face up on the table
    legal: tuple[Action, ...]
    refusals: tuple[tuple[Action, IllegalMove], ...]  # actions shown but not allowed, and why
    scores: tuple[int, int]
    last_awards: tuple[Award, ...] | None
    last_game_totals: tuple[int, int] | None  # what each team counted for Game last deal
    winner: int | None

    @property
    def beggar(self) -> int:
        return (self.dealer + 1) % 4

    @property
    def held_trump(self) -> int | None:
        """The suit a player sorts first: trump, or before it is fixed the kick's."""
        if self.trump is not None:
            return self.trump
        return suit_of(self.kicks[-1]) if self.kicks else None

    def to_json(self) -> Json:
        last = self.tricks[-1] if self.tricks else None
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
            "trump": SUITS[self.trump] if self.trump is not None else None,
            "hand": [code(c) for c in sorted_hand(self.hand, self.held_trump)],
            "hand_sizes": list(self.hand_sizes),
            "trick": [{"seat": s, "card": code(c)} for s, c in self.trick],
            "last_trick": trick_json(last) if last else None,
            "tricks_won": [sum(1 for t in self.tricks if t.winner % 2 == team) for team in (0, 1)],
            "legal": [action_json(a) for a in self.legal],
            "refused": [
                {**action_json(a), "reason": str(err), "rule": err.rule} for a, err in self.refusals
            ],
            "scores": list(self.scores),
            "last_hand": (
                [award_json(a) for a in self.last_awards] if self.last_awards is not None else None
            ),
            "last_hand_totals": list(self.last_game_totals) if self.last_game_totals else None,
            "winner": self.winner,
        }


def observe(state: State, seat: int | None) -> Observation:
    to_act = seat is not None and seat == state.turn
    last = state.last_hand
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
        last_awards=last.awards if last else None,
        last_game_totals=last.game_totals if last else None,
        winner=state.winner,
    )


def _refusals(state: State) -> tuple[tuple[Action, IllegalMove], ...]:
    if state.phase is Phase.GIVE_OR_RUN:
        refusal = give_one_refusal(state)
        return ((Action("give_one"), refusal),) if refusal else ()
    if state.phase is Phase.PLAY and state.trick:
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


def action_json(action: Action) -> Json:
    if action.card is None:
        return {"type": action.type}
    return {"type": action.type, "card": code(action.card)}


def award_json(award: Award) -> Json:
    out: Json = {"kind": award.kind, "team": award.team, "points": award.points}
    if award.card is not None:
        out["card"] = code(award.card)
    if award.seat is not None:
        out["seat"] = award.seat
    return out


def trick_json(trick: Trick) -> Json:
    return {
        "leader": trick.leader,
        "cards": [{"seat": s, "card": code(c)} for s, c in trick.cards],
        "winner": trick.winner,
    }


def hand_record_json(record: HandRecord, viewer: int | None, *, game_over: bool) -> Json:
    """The record of a finished deal for ``viewer``.

    Every card of a played-out deal was shown in a trick; a deal that was thrown in (a
    redeal, or a game ended by a kick or a give one) showed no one's hand, so until the game
    is over (and its seed public) each viewer sees only its own seat's cards there.
    """
    reveal = record.played_out or game_over
    dealt: Json = {
        str(seat): ([code(c) for c in cards_in(hand)] if reveal or seat == viewer else None)
        for seat, hand in enumerate(record.dealt)
    }
    return {
        "n": record.n,
        "dealer": record.dealer,
        "redeal": record.redeal,
        "dealt": dealt,
        "kicks": [code(c) for c in record.kicks],
        "trump": SUITS[record.trump] if record.trump is not None else None,
        "decision": record.decision,
        "tricks": [trick_json(t) for t in record.tricks],
        "game_totals": list(record.game_totals) if record.game_totals else None,
        "awards": [award_json(a) for a in record.awards],
        "scores_after": list(record.scores_after),
    }
