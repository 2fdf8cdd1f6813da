"""Renege mode (R20-R25): what a renege is worth when called, and how a call is judged.

The play of a renege is the engine's ordinary play (table.py records what R21 made of it);
this module judges a call on the table's facts alone and names the penalty, so the table
only applies it. Pure: no I/O.
"""

from __future__ import annotations

from app.reasons import N_, reason
from app.rules.cards import ACE, JACK, KING, QUEEN, RANK_MASK, SUIT_MASK, TEN, Hand
from app.rules.config import Rules
from app.rules.errors import IllegalMove, NotOffered
from app.rules.state import Call, Penalty, Phase, Renege, State

MAX_LIFTS = 12  # R13: a hand holds at most 12 cards, so a hand has at most 12 lifts

RENEGE_OFF = reason(
    "renege_off",
    "renege mode is off at this table: every card the rules forbid is refused",
    N_("Renege mode is off at this table: there is nothing to call."),
)
CALL_OUTSIDE_HAND = reason(
    "call_outside_hand",
    "a renege is called during a hand, from its first card until it is scored",
    N_("A renege is called during a hand, from its first card until the hand is scored."),
)
LIFT_NOT_BEGUN = reason(
    "lift_not_begun",
    "lift {lift} of this hand has not begun",
    N_("Lift %(lift)s of this hand has not begun."),
)
LIFT_CALLED = reason(
    "lift_already_called",
    "your side has already called lift {lift} this hand",
    N_("Your side has already called lift %(lift)s this hand."),
)
BAD_LIFT = reason(
    "bad_lift",
    "a lift is numbered 1 to 12 (1 = the hand's first)",
    N_("A lift is numbered 1 to 12."),
)
BAD_SEAT = reason("bad_seat", "seat {seat} is not a seat (0-3)", N_("That is not a seat."))
NOT_RECKONING = reason(
    "not_reckoning",
    "the hand is not being reckoned: 'score it' comes after its last card",
    N_("The hand is not being counted now."),
)

# R24 `trinidad`: the trump honours whose holder's renege of kind (b) is a bullseye.
_HONOURS = RANK_MASK[ACE] | RANK_MASK[KING] | RANK_MASK[QUEEN] | RANK_MASK[JACK] | RANK_MASK[TEN]


def holds_honour(hand: Hand, trump: int) -> bool:
    return bool(hand & SUIT_MASK[trump] & _HONOURS)


def lifts_begun(state: State) -> int:
    """How many lifts of the hand have had a card: the completed ones and the one in play."""
    return len(state.tricks) + (1 if state.trick else 0)


def call_refusal(state: State, seat: int, lift: int) -> IllegalMove | NotOffered | None:
    """Why ``seat`` may not call renege on ``lift`` now (R22), or None."""
    if not 0 <= seat < 4:
        return IllegalMove("R1", BAD_SEAT, seat=seat)
    if not 1 <= lift <= MAX_LIFTS:
        return IllegalMove("R22", BAD_LIFT)
    if state.rules.renege == "off":
        return NotOffered("R22", RENEGE_OFF)
    if state.phase not in (Phase.PLAY, Phase.RECKONING) or not lifts_begun(state):
        return NotOffered("R22", CALL_OUTSIDE_HAND)
    if lift > lifts_begun(state):
        return NotOffered("R22", LIFT_NOT_BEGUN, lift=lift)
    if any(c.lift == lift and c.seat % 2 == seat % 2 for c in state.calls):
        return NotOffered("R22", LIFT_CALLED, lift=lift)
    return None


def renege_penalty(rules: Rules, renege: Renege) -> Penalty:
    """R24: what an upheld call of ``renege`` costs its offender's team."""
    if rules.renege == "bullseye":
        return "bullseye"
    if rules.renege == "trinidad" and renege.kind == "b" and renege.honour:
        return "bullseye"
    return "one"


def false_call_penalty(rules: Rules) -> Penalty | None:
    """R25: what a wrong call costs the callers' team (None: nothing, `false_call` free)."""
    if rules.false_call == "free":
        return None
    return "bullseye" if rules.renege == "bullseye" else "one"


def judge(state: State, seat: int, lift: int) -> tuple[Call, int | None]:
    """R22, R24, R25: the call's judgement, and the index in ``state.reneges`` of the renege
    it catches (None: a wrong call). The caller has checked ``call_refusal``."""
    team = seat % 2
    found = next(
        (
            i
            for i, r in enumerate(state.reneges)
            if r.lift == lift and r.seat % 2 != team and not r.called
        ),
        None,
    )
    if found is not None:
        renege = state.reneges[found]
        penalty: Penalty | None = renege_penalty(state.rules, renege)
        payer: int | None = renege.seat % 2
    else:
        penalty = false_call_penalty(state.rules)
        payer = team if penalty is not None else None
    if payer is not None and any(c.paid_by == payer for c in state.calls):
        penalty, payer = None, None  # R24: a team pays at most once a hand
    played = 4 * len(state.tricks) + len(state.trick)
    if found is None:
        return Call(seat, lift, False, penalty, payer, played=played), None
    renege = state.reneges[found]
    return Call(seat, lift, True, penalty, payer, renege.card, renege.seat, played), found


def barred_from_game(calls: tuple[Call, ...]) -> frozenset[int]:
    """R24 `one`, R25: the teams that paid a penalty of one this hand score no Game."""
    return frozenset(c.paid_by for c in calls if c.penalty == "one" and c.paid_by is not None)
