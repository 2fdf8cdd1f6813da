"""What a use case refuses: its kind (a short error name), the reason's code and parameters,
and the English detail formatted from them (``app/reasons.py``).

Nothing here knows HTTP: the API maps each kind to its status code in one table
(app/api/errors.py ``STATUS_OF``), and a page says it in the reader's language."""

from __future__ import annotations

from app.reasons import N_, Param, Reason, Refusal, reason
from app.rules.errors import RuleError


class ApiError(Refusal):
    """A use case's refusal: ``error`` (its kind) by the class, the ``reason``
    (app/reasons.py) and its ``params`` by the raise. The name is the one every caller
    raises and catches; the class knows no status code."""

    error = "bad_request"
    # Seconds until asking again may succeed (a quota's refill), set by the raise that knows.
    retry_after: int | None = None

    def __init__(self, reason: Reason, **params: Param) -> None:
        super().__init__(reason, params)
        self.detail = str(self)  # Refusal formatted it once

    @classmethod
    def of_rule(cls, err: RuleError) -> ApiError:
        """The rules' refusal as a use case's: its reason, its detail naming the rule."""
        refused = cls(err.reason, **err.params)
        refused.detail = str(err)
        return refused


# Reasons several services give.
NO_ROOM = reason("no_room", "no room {code!r}", N_("That table is not here."))
ROOM_BUSY = reason("room_busy", "the room is busy: try again", N_("The table is busy: try again."))
NO_SEAT_HERE = reason(
    "token_holds_no_seat",
    "this token holds no seat at this table",
    N_("Take a seat at this table first."),
)


class NotFound(ApiError):
    error = "not_found"


class Unauthorized(ApiError):
    error = "unauthorized"


class Forbidden(ApiError):
    error = "forbidden"


class NotYourTurn(Forbidden):
    error = "not_your_turn"


class Conflict(ApiError):
    error = "conflict"


class StaleVersion(Conflict):
    error = "stale_version"


class SeatTaken(Conflict):
    error = "seat_taken"


class HandleTaken(Conflict):
    error = "handle_taken"


class Gone(ApiError):
    """What was there and is no more: a sign-in link used or expired."""

    error = "gone"


class NotOfferedNow(Conflict):
    error = "not_offered"


class IllegalMoveError(ApiError):
    error = "illegal_move"


class Invalid(ApiError):
    error = "invalid"


class TooMany(ApiError):
    error = "too_many_requests"
