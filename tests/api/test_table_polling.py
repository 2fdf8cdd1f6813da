"""Polling the table where the event stream cannot get through (app/api/pages.py): the
table's ETag names its version, the viewer's seat and who is here; an unchanged table
answers 304 without a body, a changed one the new table."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.api.table import bearer, new_room, seat_four, view


def test_an_unchanged_table_is_a_304_and_a_move_makes_it_new(client: TestClient) -> None:
    code = new_room(client)
    tokens = seat_four(client, code)
    client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0])).raise_for_status()
    first = client.get(f"/r/{code}/table", headers=bearer(tokens[1]))
    assert first.status_code == 200 and 'id="table"' in first.text
    tag = first.headers["etag"]
    assert tag.startswith('W/"')
    same = client.get(f"/r/{code}/table", headers={**bearer(tokens[1]), "If-None-Match": tag})
    assert same.status_code == 304 and same.content == b""
    assert same.headers["etag"] == tag and same.headers["cache-control"] == "no-store"
    # The same tag means nothing to another seat: it gets its own table.
    other = client.get(f"/r/{code}/table", headers={**bearer(tokens[2]), "If-None-Match": tag})
    assert other.status_code == 200 and other.headers["etag"] != tag
    v = view(client, code, tokens[1])
    actor = v["turn"]
    acting = view(client, code, tokens[actor])
    move = {**acting["legal"][0], "version": acting["version"]}
    client.post(f"/api/rooms/{code}/actions", json=move, headers=bearer(tokens[actor]))
    after = client.get(f"/r/{code}/table", headers={**bearer(tokens[1]), "If-None-Match": tag})
    assert after.status_code == 200 and after.headers["etag"] != tag
    assert f'data-version="{acting["version"] + 1}"' in after.text


def test_a_list_of_tags_and_a_strong_form_match_too(client: TestClient) -> None:
    code = new_room(client)
    tag = client.get(f"/r/{code}/table").headers["etag"]
    strong = tag.removeprefix("W/")
    r = client.get(f"/r/{code}/table", headers={"If-None-Match": f'"x", {strong}'})
    assert r.status_code == 304


def test_someone_arriving_changes_the_tag(client: TestClient) -> None:
    code = new_room(client)
    tag = client.get(f"/r/{code}/table").headers["etag"]
    client.post(f"/api/rooms/{code}/join", json={"name": "Ann", "seat": 0}).raise_for_status()
    r = client.get(f"/r/{code}/table", headers={"If-None-Match": tag})
    assert r.status_code == 200 and "Ann" in r.text
