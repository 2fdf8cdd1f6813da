"""What a use case refuses, as the API answers it: status, a short error name, a detail."""

from __future__ import annotations


class ApiError(Exception):
    status = 400
    error = "bad_request"

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


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
