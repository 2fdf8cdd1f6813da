"""The pages of friends and blocks (issue #36): "Add friend" and "Block" on a profile page,
friends, requests and blocks on the own page, "Invite a friend" at the table."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from fastapi.testclient import TestClient

from tests.api.table import bearer, new_room
from tests.players.test_profiles import make


@contextmanager
def signed_in(client: TestClient, key: str) -> Iterator[TestClient]:
    client.cookies.set("allfours_player", key)
    try:
        yield client
    finally:
        client.cookies.delete("allfours_player")


def test_friends_and_blocks_from_the_pages(client: TestClient) -> None:
    ann, ben = make(client, "pg_ann", "Ann"), make(client, "pg_ben", "Ben")
    with signed_in(client, ann) as c:
        page = c.get("/p/pg_ben").text
        assert 'data-action="add-friend"' in page and 'data-action="block"' in page
        assert "data-ties" not in c.get("/p/pg_ann").text  # not on one's own
        r = c.post("/p/pg_ben/friend", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/p/pg_ben?done=asked"
        assert "data-friend-asked" in c.get("/p/pg_ben").text
    with signed_in(client, ben) as c:
        me = c.get("/me").text
        assert 'data-friend-request="pg_ann"' in me
        assert c.post("/p/pg_ann/friend", follow_redirects=False).status_code == 303
        assert 'data-friend="pg_ann"' in c.get("/me").text
        # At a table, a seated player may invite the friend.
        code = new_room(c)
        r = c.post(f"/api/rooms/{code}/join", json={"name": "x"}, headers=bearer(ben))
        assert r.status_code == 200
        assert "data-invite" in c.get(f"/r/{code}").text
        r = c.post(f"/r/{code}/invite", data={"handle": "pg_ann"}, follow_redirects=False)
        assert r.status_code == 303
        r = c.post("/p/pg_ann/block", follow_redirects=False)
        assert r.status_code == 303
        me = c.get("/me").text
        assert 'data-blocked="pg_ann"' in me and 'data-friend="pg_ann"' not in me
        assert 'data-action="unblock"' in c.get("/p/pg_ann").text
    # A guest sees no buttons, and a guest's form goes to the sign-in page.
    assert "data-ties" not in client.get("/p/pg_ben").text
    r = client.post("/p/pg_ben/block", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/me"
