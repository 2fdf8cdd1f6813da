"""What a use case refuses, as the API answers it: status, a short error name, the reason's
code and parameters, and the English detail formatted from them (``app/reasons.py``)."""

from __future__ import annotations

from app.reasons import REASONS, Param, Reason, Refusal
from app.rules.errors import RuleError


class ApiError(Refusal):
    status = 400
    error = "bad_request"

    def __init__(self, reason: Reason | str, **params: Param) -> None:
        if isinstance(reason, str):
            # The old form, a bare English text, until every raise names its reason (#25):
            # its code is the error's kind.
            text = reason
            reason, params = Reason(self.error, "{text}", "That did not work."), {"text": text}
        super().__init__(reason, params)
        self.detail = reason.english(self.params)
        if reason.code == self.error:
            self.params = {}

    @classmethod
    def of_rule(cls, err: RuleError) -> ApiError:
        """The rules' refusal as the API answers it: its reason, its detail naming the rule."""
        refused = cls(str(err))
        if err.code in REASONS:
            refused.reason, refused.params = err.reason, dict(err.params)
        return refused


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
