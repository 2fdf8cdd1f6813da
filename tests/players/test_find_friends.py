"""Finding people (issue #46): a search of listed players by name or handle, never an
unlisted one nor one of a block; a friend request declined or withdrawn; the home page's
count of requests waiting; the word each tie's button leaves; Remove and Block asked first."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.api.table import Json, bearer, new_room
from tests.players.test_friend_pages import signed_in
from tests.players.test_friends import ask, friends
from tests.players.test_profiles import make


def search(client: TestClient, key: str | None, q: str) -> tuple[int, list[Json] | Json]:
    headers = bearer(key) if key else {}
    r = client.get("/api/search/players", params={"q": q}, headers=headers)
    return r.status_code, r.json()


def handles(found: list[Json] | Json) -> list[str]:
    assert isinstance(found, list), found
    return [p["handle"] for p in found]


def test_the_search_finds_listed_players_by_handle_or_name(client: TestClient) -> None:
    me = make(client, "s_me", "Seeker")
    make(client, "s_bart", "Bartholomew")
    make(client, "s_rob", "Robert Bart")
    shy = make(client, "s_bartshy", "Bart the shy")
    assert client.patch("/api/me", json={"listed": False}, headers=bearer(shy)).status_code == 200
    status, found = search(client, me, "BART")
    assert status == 200
    # Any case, in the handle or the name; a handle beginning with it first; never unlisted.
    assert handles(found) == ["s_bart", "s_rob"]
    assert found[0] == {"handle": "s_bart", "name": "Bartholomew"}  # type: ignore[index]
    assert handles(search(client, me, "robert b")[1]) == ["s_rob"]
    assert "s_bartshy" not in handles(search(client, me, "shy")[1])
    assert "s_bartshy" not in handles(search(client, me, "s_bartshy")[1])
    # Never the searcher; a percent sign is a letter, not a wildcard.
    assert handles(search(client, me, "seeker")[1]) == []
    assert handles(search(client, me, "s%t")[1]) == []


def test_the_search_never_shows_a_block_either_way(client: TestClient) -> None:
    ann, ben = make(client, "sb_ann", "Ann"), make(client, "sb_ben", "Ben")
    make(client, "sb_cal", "Cal")
    assert handles(search(client, ann, "sb_")[1]) == ["sb_ben", "sb_cal"]
    r = client.post("/api/me/blocks", json={"handle": "sb_ann"}, headers=bearer(ben))
    assert r.status_code == 204
    assert handles(search(client, ann, "sb_")[1]) == ["sb_cal"]  # Ben blocked Ann
    assert handles(search(client, ben, "sb_")[1]) == ["sb_cal"]  # and Ben blocked her


def test_a_bad_search_is_refused(client: TestClient) -> None:
    me = make(client, "sr_me", "Me")
    assert search(client, None, "ann")[0] == 401
    status, said = search(client, me, " a ")
    assert status == 422 and said["code"] == "search_too_short"  # type: ignore[call-overload]
    assert search(client, me, "x" * 41)[0] == 422
    assert search(client, me, "x" * 81)[0] == 422
    r = client.get("/api/search/players", headers=bearer(me))
    assert r.status_code == 422


def test_a_request_is_declined_or_withdrawn_and_a_friendship_stays(client: TestClient) -> None:
    ann, ben = make(client, "dw_ann", "Ann"), make(client, "dw_ben", "Ben")
    incoming = "/api/me/friend-requests/incoming/"
    outgoing = "/api/me/friend-requests/outgoing/"
    ask(client, ann, "dw_ben")
    assert client.delete(incoming + "dw_ann", headers=bearer(ben)).status_code == 204
    assert ask(client, ben, "dw_ann")["friends"] is False  # declined: no longer waiting
    assert client.delete(outgoing + "dw_ann", headers=bearer(ben)).status_code == 204
    assert ask(client, ann, "dw_ben")["friends"] is False  # withdrawn too
    # Declining one's own request, or withdrawing theirs, changes nothing.
    assert client.delete(incoming + "dw_ben", headers=bearer(ann)).status_code == 204
    assert client.delete(outgoing + "dw_ann", headers=bearer(ben)).status_code == 204
    assert ask(client, ben, "dw_ann")["friends"] is True
    # Friends: neither declining nor withdrawing ends it.
    assert client.delete(incoming + "dw_ann", headers=bearer(ben)).status_code == 204
    assert client.delete(outgoing + "dw_ben", headers=bearer(ann)).status_code == 204
    assert [f["handle"] for f in friends(client, ann)] == ["dw_ben"]
    assert client.delete(incoming + "dw_nobody", headers=bearer(ann)).status_code == 404
    assert client.delete(outgoing + "dw_ann", headers=bearer(ann)).status_code == 422
    assert client.delete(outgoing + "dw_ben").status_code == 401


def test_the_pages_find_answer_and_say_what_was_done(client: TestClient) -> None:
    ann, ben = make(client, "pf_ann", "Annabel"), make(client, "pf_ben", "Benedict")
    make(client, "pf_cal", "Cal")
    with signed_in(client, ann) as c:
        page = c.get("/me", params={"find": "benedict"}).text
        assert 'data-found-player="pf_ben"' in page and 'data-found-player="pf_cal"' not in page
        r = c.get("/me", params={"find": "b"})
        assert r.status_code == 422 and "data-find-error" in r.text
        assert "data-found-none" in c.get("/me", params={"find": "nobody here"}).text
        r = c.post("/p/pf_ben/friend", data={"back": "me"}, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/me?done=asked#friends-h"
        page = c.get("/me?done=asked").text
        assert 'data-tie-done="asked"' in page and 'data-friend-asked="pf_ben"' in page
        assert 'data-tie-done="' not in c.get("/me?done=<b>").text  # any other: no word
        assert c.post("/p/pf_ben/friend", data={"back": "x"}).status_code == 422
    with signed_in(client, ben) as c:
        home = c.get("/").text
        assert 'data-friend-requests="1"' in home and 'href="/me#friends-h"' in home
        assert 'data-action="decline-friend"' in c.get("/me").text
        r = c.post("/p/pf_ann/decline", data={"back": "me"}, follow_redirects=False)
        assert r.headers["location"] == "/me?done=declined#friends-h"
        assert "data-friend-requests" not in c.get("/").text
    with signed_in(client, ann) as c:
        c.post("/p/pf_ben/friend")
        r = c.post("/p/pf_ben/withdraw", follow_redirects=False)
        assert r.headers["location"] == "/p/pf_ben?done=withdrawn"
        assert 'data-tie-done="withdrawn"' in c.get(r.headers["location"]).text
        c.post("/p/pf_ben/friend")
    with signed_in(client, ben) as c:
        r = c.post("/p/pf_ann/friend", data={"back": "me"}, follow_redirects=False)
        assert r.headers["location"] == "/me?done=friends#friends-h"
        # Remove and Block ask first: a page with the button that acts.
        assert 'href="/p/pf_ann/unfriend"' in c.get("/p/pf_ann").text
        page = c.get("/p/pf_ann/unfriend").text
        assert 'action="/p/pf_ann/unfriend"' in page and 'data-action="confirm-unfriend"' in page
        page = c.get("/p/pf_ann/block").text
        assert 'action="/p/pf_ann/block"' in page and 'data-action="confirm-block"' in page
        assert c.get("/p/not a handle!/block").status_code == 404
        # Invite: the table's page says it was sent.
        code = new_room(c)
        assert c.post(f"/api/rooms/{code}/join", json={"name": "x"}, headers=bearer(ben)).is_success
        r = c.post(f"/r/{code}/invite", data={"handle": "pf_ann"}, follow_redirects=False)
        assert r.headers["location"] == f"/r/{code}?invited=1"
        assert "data-invited" in c.get(r.headers["location"]).text
        r = c.post("/p/pf_ann/block", follow_redirects=False)
        assert r.headers["location"] == "/p/pf_ann?done=blocked"
        assert 'data-tie-done="blocked"' in c.get(r.headers["location"]).text
    # A guest is sent to sign in, not shown the step.
    r = client.get("/p/pf_ann/block", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/me"
