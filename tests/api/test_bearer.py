"""``Authorization: Bearer`` is read in one place (app/api/bearer.py) for every door: a seat's
token, a night's director and players, the admin."""

from __future__ import annotations

import pytest
from starlette.requests import HTTPConnection

from app.api.bearer import bearer_token


def _with(authorization: str | None) -> HTTPConnection:
    headers = [] if authorization is None else [(b"authorization", authorization.encode())]
    return HTTPConnection({"type": "http", "headers": headers})


@pytest.mark.parametrize(
    ("header", "token"),
    [
        (None, None),
        ("", None),
        ("Bearer abc", "abc"),
        ("bearer  abc ", "abc"),
        ("BEARER abc", "abc"),
        ("Bearer", None),
        ("Bearer   ", None),
        ("Basic abc", None),
        ("abc", None),
    ],
)
def test_one_reading_of_the_bearer_header(header: str | None, token: str | None) -> None:
    assert bearer_token(_with(header)) == token
