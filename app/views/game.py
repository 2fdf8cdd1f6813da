"""API.md "The view"'s game part for one viewer: ``GameView``, the lobby's, and the plain
values a room's view (app/services/view.py) validates with its own in one pass."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from app.rules.cards import code
from app.rules.scoring import kick_points
from app.rules.state import Phase
from app.rules.view import Decision, Observation, sorted_hand
from app.views.shapes import (
    ActionView,
    AwardView,
    CallView,
    CardCode,
    LiftView,
    PlayedCardView,
    RefusedView,
    SeatNumber,
    Shown,
    SuitCode,
    TeamNumber,
    absent_when_none,
    action_fields,
    award_fields,
    call_fields,
    lift_fields,
    suit_field,
)


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
        exclude_if=absent_when_none,
        description="R22-R23: in renege mode, the hand's completed lifts as everyone saw them"
        " played (the lifts to call renege on), while the hand is played and reckoned; absent"
        " in every other phase and with renege off",
    )
    renege_cards: list[CardCode] | None = Field(
        None,
        exclude_if=absent_when_none,
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
        "trump": suit_field(obs.trump),
        **seat_fields(obs),
        "hand_sizes": list(obs.hand_sizes),
        "trick": [{"seat": s, "card": code(c)} for s, c in obs.trick],
        "last_trick": lift_fields(last_trick) if last_trick is not None else None,
        "tricks_won": [sum(1 for t in obs.tricks if t.winner % 2 == team) for team in (0, 1)],
        "scores": list(obs.scores),
        "last_hand": [award_fields(a) for a in last.awards] if last is not None else None,
        "last_hand_totals": list(last.game_totals) if last and last.game_totals else None,
        "winner": obs.winner,
        "seed": obs.seed,
        "seed_commitment": obs.seed_commitment,
        "calls": [call_fields(c) for c in obs.calls],
        "reckoned": [s for s in range(4) if obs.reckoned >> s & 1],
        **({"lifts": [lift_fields(t) for t in obs.tricks]} if _lifts_shown(obs) else {}),
    }


def _lifts_shown(obs: Observation) -> bool:
    """R22-R23: the hand's lifts, for a call of renege to show each lift's cards (every card
    of them was played face up to all four: the observation holds no hidden one)."""
    if obs.phase is Phase.RECKONING:
        return True
    return obs.phase is Phase.PLAY and obs.rules.renege != "off"


def seat_fields(obs: Observation) -> dict[str, Any]:
    """The fields of ``game_fields`` that differ from seat to seat: the rest is the same in
    every viewer's view of a version (a spectator's included)."""
    return {
        "hand": [code(c) for c in sorted_hand(obs.hand, obs.held_trump)],
        "legal": [action_fields(a) for a in obs.legal],
        "refused": [
            {
                **action_fields(a),
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
