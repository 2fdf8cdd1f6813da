"""The review of a game (API.md "The review of a game") as the OpenAPI document describes it;
a test validates real answers against these models (strict, no extra keys)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.views.shapes import SeatNumber, Shown

ReviewState = Literal["queued", "running", "done"]


class ReviewAsked(Shown):
    state: ReviewState


class ReviewedDecision(Shown):
    hand: int = Field(description="the deal's number in the game, 1-based")
    seat: SeatNumber
    action: str = Field(
        description="the action taken: a card code, or stand, beg, give_one, run_pack; in"
        ' renege mode call (a call of renege, on ``lift``) or reckoned ("score it")'
    )
    best: str = Field(
        description="the best action found (the one taken when nothing was better), as"
        " ``action``, or no_call: not to call (the better choice to a call nothing had proven)"
    )
    lift: int | None = Field(None, ge=1, le=12, description="the lift a call named")
    best_lift: int | None = Field(
        None, ge=1, le=12, description="the lift to call, when the best action is a call"
    )
    loss: float = Field(
        ge=0,
        description="points of the hand (the seat's team's, net of the other team's) given up"
        " against the best action, judged from what the seat had seen; 0 when forced, or when"
        " the imagined deals cannot tell it from 0",
    )
    why: str | None = Field(
        None,
        description="a reason code when a known one applies: should_stand, should_beg,"
        " should_give, should_run, jack_risked, jack_not_saved, ten_given, trump_wasted,"
        " renege_found_out, call_unproven, renege_let_go",
    )
    covered: bool = Field(
        False,
        description="true when the computer made it for a person who was away (away cover, the"
        " turn timer, a computer player in their place): the seat's, not counted as that"
        " person's on their profile",
    )


class ReviewedSeat(Shown):
    seat: SeatNumber
    decisions: int
    costly: int = Field(description="decisions with a loss of 0.25 points or more")
    average_loss: float


class ReviewOut(Shown):
    state: ReviewState
    progress: float = Field(ge=0, le=1)
    decisions: list[ReviewedDecision] | None = Field(
        None, description="every decision of every seat in the order played, once done"
    )
    seats: list[ReviewedSeat] | None = Field(None, description="once done")


class HintOut(Shown):
    action: str = Field(description="the suggested action: a card code, or a bid")
    why: str = Field(
        description="a reason code: one of the review's (what the next best action would"
        " risk), only_one (the only action), close (the next best is about as good), or"
        " best_on_average"
    )


REVIEW_MODELS = (ReviewAsked, ReviewOut, HintOut)
