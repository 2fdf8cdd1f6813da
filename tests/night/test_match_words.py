"""The director's page says a night's match in the right number: "Matches to 1 bullseye",
"Matches to 2 bullseyes" (ngettext, issue 32)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.night.helpers import open_night


@pytest.mark.parametrize(
    ("match", "said"), [(1, "Matches to 1 bullseye<"), (2, "Matches to 2 bullseyes<")]
)
def test_the_directors_page_says_the_match_in_the_right_number(
    client: TestClient, match: int, said: str
) -> None:
    code, director = open_night(client, options={"match": match})
    page = client.get(f"/n/{code}/d/{director}")
    assert page.status_code == 200
    assert said in page.text
