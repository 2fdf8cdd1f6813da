"""The CSV exports write a name that begins as a formula as text (security review round 5,
finding 16): a player named ``=HYPERLINK(…)`` (any name is accepted) was written as it is,
and a spreadsheet opening the night's or the season's export ran it."""

from __future__ import annotations

import csv
import io

from fastapi.testclient import TestClient

from app.services.csv_export import CsvWriter, text_cell
from tests.api.table import bearer
from tests.clubs.helpers import club_night, club_of, register_players, start_season
from tests.night.helpers import open_night, register

FORMULAS = ["=1+2", "+SUM(A1)", "-2+3", "@cmd", "\tx", "\rx"]


def test_every_cell_that_begins_as_a_formula_is_written_as_text() -> None:
    """The helper every export writes through: formulas quoted, numbers and plain text not."""
    out = io.StringIO()
    writer = CsvWriter(out)
    writer.writerow([*FORMULAS, "Ann", -3, 0, "", "a=b"])
    (row,) = csv.reader(io.StringIO(out.getvalue()))
    assert row == [*("'" + f for f in FORMULAS), "Ann", "-3", "0", "", "a=b"]
    assert text_cell(-3) == -3 and text_cell("=x") == "'=x"


def test_a_nights_export_writes_a_formula_name_as_text(client: TestClient) -> None:
    """GET /api/nights/{code}/export.csv wrote a pair's names as typed: a formula."""
    code, director = open_night(client)
    register(client, code, ['=HYPERLINK("http://x")', "Bo"], director)
    register(client, code, ["@SUM(1)", "-1"], director)
    text = client.get(f"/api/nights/{code}/export.csv").text
    cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
    names = [c for c in cells if "HYPERLINK" in c or "SUM" in c]
    assert names and all(c.startswith("'") for c in names), names
    assert not any(c[:1] in ("=", "+", "@", "\t", "\r") for c in cells), cells


def test_a_seasons_export_writes_a_formula_name_as_text(client: TestClient) -> None:
    """GET /api/clubs/{code}/seasons/{n}/export.csv wrote a member's name, a formula, as is."""
    code, keys = club_of(client, ["csv_ann", "csv_ben", "csv_cal", "csv_dee"], "CSV club")
    r = client.patch("/api/me", json={"name": "=1+2"}, headers=bearer(keys["csv_ben"]))
    assert r.status_code == 200, r.text
    start_season(client, code, keys["csv_ann"])
    night, director = club_night(client, code, keys["csv_ann"])
    for pair in (["csv_ann", "csv_ben"], ["csv_cal", "csv_dee"]):
        assert register_players(client, night, director, pair).status_code == 201
    text = client.get(f"/api/clubs/{code}/seasons/1/export.csv").text
    assert "'=1+2" in text  # Ben, by the name he chose
    cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
    assert not any(c[:1] in ("=", "+", "@", "\t", "\r") for c in cells), cells
