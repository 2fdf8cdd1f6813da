"""Push, round 5 (security review finding 12, and the unseen seat): a player could keep any
number of subscriptions (each one a POST at every event); giving another player's endpoint
moved their subscription to the giver (silencing them); a subscription kept before the
allowlist was narrowed was still called; and a seat that never opened a page counted as in
sight, so "your table has started" never reached a player who joined by a link and locked
the phone. On SQLite and PostgreSQL, with the loopback push receiver."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from app.main import create_app
from app.services.push import SUBSCRIPTIONS_PER_PLAYER
from tests.api.table import bearer
from tests.push.conftest import push_settings
from tests.push.receiver import Receiver
from tests.push.test_delivery import hidden, subscribed, two_players_and_two_bots
from tests.push.test_subscriptions import mine, profile, subscribe


def test_a_player_keeps_at_most_ten_subscriptions(client: TestClient, receiver: Receiver) -> None:
    """Sixty subscriptions of one player were all kept, each called at every event."""
    key = profile(client, "cap_ann")
    browsers = [receiver.browser() for _ in range(SUBSCRIPTIONS_PER_PLAYER + 1)]
    for browser in browsers[:-1]:
        assert subscribe(client, key, browser.subscription()).status_code == 201
    r = subscribe(client, key, browsers[-1].subscription())
    assert r.status_code == 429 and r.json()["code"] == "too_many", r.text
    assert int(r.headers["Retry-After"]) > 0
    assert len(mine(client, key)) == SUBSCRIPTIONS_PER_PLAYER
    # One of the ten again (new events): still one of the ten, not an eleventh.
    again = subscribe(client, key, browsers[0].subscription(), events=["turn"])
    assert again.status_code == 201
    # One taken back makes room.
    gone = client.request(
        "DELETE", "/api/me/push", json={"endpoint": browsers[1].endpoint}, headers=bearer(key)
    )
    assert gone.status_code == 204
    assert subscribe(client, key, browsers[-1].subscription()).status_code == 201
    assert len(mine(client, key)) == SUBSCRIPTIONS_PER_PLAYER


def test_giving_another_players_endpoint_does_not_take_their_subscription(
    client: TestClient, receiver: Receiver
) -> None:
    """Player E posted player C's endpoint, and C's row moved to E: C was told nothing more."""
    carol, erin = profile(client, "own_carol"), profile(client, "own_erin")
    phone = subscribed(client, receiver, carol)
    assert subscribe(client, erin, phone.subscription()).status_code == 201
    assert [s["endpoint"] for s in mine(client, carol)] == [phone.endpoint]
    assert [s["endpoint"] for s in mine(client, erin)] == [phone.endpoint]
    # Erin taking hers back leaves Carol's.
    r = client.request(
        "DELETE", "/api/me/push", json={"endpoint": phone.endpoint}, headers=bearer(erin)
    )
    assert r.status_code == 204
    assert [s["endpoint"] for s in mine(client, carol)] == [phone.endpoint]


def test_a_seat_that_never_opened_a_page_is_told_its_table_has_started(
    client: TestClient, receiver: Receiver
) -> None:
    """A seat no page had ever shown counted as in sight: "your table has started" never
    reached a player who joined by a link and locked the phone."""
    ann, bea = profile(client, "unseen_ann"), profile(client, "unseen_bea")
    ann_phone, bea_phone = subscribed(client, receiver, ann), subscribed(client, receiver, bea)
    code = two_players_and_two_bots(client, ann, bea)
    # Bea's page is open and in sight; Ann's seat never opened one (no sight said at all).
    r = client.post(f"/api/rooms/{code}/sight", json={"visible": True}, headers=bearer(bea))
    assert r.status_code == 204
    assert client.post(f"/api/rooms/{code}/start", headers=bearer(ann)).status_code == 200
    # "Your turn" may come in the same batch as it, before or after it
    heard = receiver.wait_for_kind(ann_phone, "table")
    letter = next(x for x in heard if x["type"] == "table")
    assert letter["title"] == "Your table has started" and letter["url"] == f"/r/{code}"
    assert [x for x in receiver.heard_by(bea_phone) if x["type"] == "table"] == []


def test_a_subscription_no_longer_allowed_is_not_called_and_goes(
    database_url: str, receiver: Receiver
) -> None:
    """Push.send did not ask the allowlist again: a subscription kept before
    ALLFOURS_PUSH_HOSTS was narrowed was still called."""
    with TestClient(create_app(push_settings(database_url, receiver))) as before:
        ann, bea = profile(before, "narrow_ann"), profile(before, "narrow_bea")
        phone = subscribed(before, receiver, ann)
        code = two_players_and_two_bots(before, ann, bea)
    narrowed = push_settings(database_url, receiver, push_hosts="https://push.example")
    with TestClient(create_app(narrowed)) as client:
        hidden(client, code, ann)
        assert client.post(f"/api/rooms/{code}/start", headers=bearer(ann)).status_code == 200
        deadline = time.monotonic() + 20  # a bound, not a speed: the letter is settled first
        while mine(client, ann) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert mine(client, ann) == []  # dropped, as a subscription the service says is gone
    assert receiver.posts_to(phone) == 0
