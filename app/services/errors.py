"""What a use case refuses, as the API answers it: status, a short error name, the reason's
code and parameters, and the English detail formatted from them (``app/reasons.py``)."""

from __future__ import annotations

from app.reasons import N_, Param, Reason, Refusal, reason
from app.rules.errors import RuleError


class ApiError(Refusal):
    """A refusal as the API answers it: ``status`` and ``error`` (its kind) by the class, the
    ``reason`` (app/reasons.py) and its ``params`` by the raise."""

    status = 400
    error = "bad_request"
    # Extra answer headers (a 429's Retry-After), set by the raise when it needs any.
    headers: dict[str, str] | None = None

    def __init__(self, reason: Reason, **params: Param) -> None:
        super().__init__(reason, params)
        self.detail = str(self)  # Refusal formatted it once

    @classmethod
    def of_rule(cls, err: RuleError) -> ApiError:
        """The rules' refusal as the API answers it: its reason, its detail naming the rule."""
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
    status = 404
    error = "not_found"


class Unauthorized(ApiError):
    status = 401
    error = "unauthorized"


class Forbidden(ApiError):
    status = 403
    error = "forbidden"


class NotYourTurn(Forbidden):
    error = "not_your_turn"


class Conflict(ApiError):
    status = 409
    error = "conflict"


class StaleVersion(Conflict):
    error = "stale_version"


class SeatTaken(Conflict):
    error = "seat_taken"


class NotOfferedNow(Conflict):
    error = "not_offered"


class IllegalMoveError(ApiError):
    status = 422
    error = "illegal_move"


class Invalid(ApiError):
    status = 422
    error = "invalid"


class TooMany(ApiError):
    status = 429
    error = "too_many_requests"
