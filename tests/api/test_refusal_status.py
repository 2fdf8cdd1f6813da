"""A use case's refusal knows no HTTP: the API answers each kind with its status code from one
table (app/api/errors.py STATUS_OF), a kind it does not name as its nearest named ancestor."""

from __future__ import annotations

import pytest

from app.api.errors import headers_of, status_of
from app.services import errors

SAID = errors.NO_ROOM  # any reason: the kind alone decides the status


@pytest.mark.parametrize(
    ("kind", "status"),
    [
        (errors.ApiError, 400),
        (errors.Unauthorized, 401),
        (errors.Forbidden, 403),
        (errors.NotYourTurn, 403),
        (errors.NotFound, 404),
        (errors.Conflict, 409),
        (errors.StaleVersion, 409),
        (errors.SeatTaken, 409),
        (errors.NotOfferedNow, 409),
        (errors.IllegalMoveError, 422),
        (errors.Invalid, 422),
        (errors.TooMany, 429),
    ],
)
def test_each_kind_answers_its_status(kind: type[errors.ApiError], status: int) -> None:
    assert not hasattr(kind, "status")
    assert status_of(kind(SAID, code="abcd")) == status


def test_a_new_kind_answers_as_its_ancestor() -> None:
    class Gone(errors.NotFound):
        error = "gone"

    assert status_of(Gone(SAID, code="abcd")) == 404


def test_only_a_refusal_that_knows_when_says_retry_after() -> None:
    refused = errors.TooMany(SAID, code="abcd")
    assert headers_of(refused) is None
    refused.retry_after = 30
    assert headers_of(refused) == {"Retry-After": "30"}
