"""A player's push subscriptions (API.md § Fourth round, *The phone*): the server's key, the
allowlist of push services, the keys' shape, and what is kept."""

from __future__ import annotations

import base64

from fastapi.testclient import TestClient

from app.main import create_app
from tests.api.table import bearer
from tests.push.conftest import push_settings
from tests.push.receiver import Receiver, b64url


def profile(client: TestClient, handle: str, language: str = "en") -> str:
    r = client.post(
        "/api/players", json={"handle": handle, "name": handle.title(), "language": language}
    )
    assert r.status_code == 201, r.text
    return str(r.json()["key"])


def subscribe(client: TestClient, key: str, subscription: dict[str, object], **more: object):  # type: ignore[no-untyped-def]
    return client.post(
        "/api/me/push", json={"subscription": subscription, **more}, headers=bearer(key)
    )


def mine(client: TestClient, key: str) -> list[dict[str, object]]:
    found: list[dict[str, object]] = client.get("/api/me", headers=bearer(key)).json()[
        "push_subscriptions"
    ]
    return found


def test_the_servers_key_is_made_once_and_kept_across_restarts(
    client: TestClient, database_url: str, receiver: Receiver
) -> None:
    key = client.get("/api/push/key").json()["public_key"]
    point = base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))
    assert len(point) == 65 and point[0] == 4
    with TestClient(create_app(push_settings(database_url, receiver))) as again:
        assert again.get("/api/push/key").json()["public_key"] == key


def test_a_key_from_the_environment_is_the_one_given(database_url: str, receiver: Receiver) -> None:
    from app.push import vapid

    private = vapid.new_private_key()
    public = vapid.public_key(vapid.signer(private))
    settings = push_settings(database_url, receiver, vapid_private_key=private)
    with TestClient(create_app(settings)) as client:
        assert client.get("/api/push/key").json()["public_key"] == public


def test_a_player_subscribes_lists_and_unsubscribes(client: TestClient, receiver: Receiver) -> None:
    key = profile(client, "sub_ann")
    browser = receiver.browser()
    assert subscribe(client, "nope", browser.subscription()).status_code == 401
    r = subscribe(client, key, browser.subscription(), events=["turn", "nudge"])
    assert r.status_code == 201, r.text
    assert r.json()["events"] == ["turn", "nudge"]
    assert [s["endpoint"] for s in mine(client, key)] == [browser.endpoint]
    # The same browser again: one subscription, the events as now chosen.
    assert subscribe(client, key, browser.subscription()).status_code == 201
    listed = mine(client, key)
    assert len(listed) == 1 and listed[0]["events"] == ["turn", "table", "night", "invite", "nudge"]
    export = client.get("/api/me/export", headers=bearer(key)).json()
    assert export["push_subscriptions"][0]["endpoint"] == browser.endpoint
    gone = client.request(
        "DELETE", "/api/me/push", json={"endpoint": browser.endpoint}, headers=bearer(key)
    )
    assert gone.status_code == 204 and mine(client, key) == []
    again = client.request(
        "DELETE", "/api/me/push", json={"endpoint": browser.endpoint}, headers=bearer(key)
    )
    assert again.status_code == 204


def test_only_the_allowed_push_services_are_ever_called(
    client: TestClient, receiver: Receiver
) -> None:
    key = profile(client, "sub_ben")
    browser = receiver.browser()
    port = receiver.port
    for endpoint in (
        f"http://127.0.0.1:{port + 1}/push/x",  # loopback, another port
        f"https://127.0.0.1:{port}/push/x",  # another scheme
        f"http://localhost:{port}/push/x",  # another name for the same host
        f"http://user:pw@127.0.0.1:{port}/push/x",  # a user name and password
        f"http://127.0.0.1:{port}@10.0.0.1/push/x",  # the host after the @
        "http://10.0.0.1/push/x",  # inside the host's network
        "http://169.254.169.254/latest/meta-data",  # a cloud's metadata
        "https://fcm.googleapis.com/fcm/send/x",  # a real push service, not on this list
        f"ftp://127.0.0.1:{port}/push/x",
        "not a url",
        f"http://127.0.0.1:{port}\\@evil/x",
    ):
        sub = {**browser.subscription(), "endpoint": endpoint}
        r = subscribe(client, key, sub)
        assert r.status_code == 422 and r.json()["code"] == "push_host", (endpoint, r.text)
    assert mine(client, key) == []


def test_malformed_keys_are_refused_and_nothing_is_kept(
    client: TestClient, receiver: Receiver
) -> None:
    key = profile(client, "sub_cal")
    browser = receiver.browser()
    good = browser.subscription()
    p256dh, auth = good["keys"]["p256dh"], good["keys"]["auth"]
    off_curve = b64url(b"\x04" + b"\x01" * 64)
    for keys in (
        {"p256dh": "", "auth": auth},
        {"p256dh": "!!!", "auth": auth},
        {"p256dh": off_curve, "auth": auth},
        {"p256dh": p256dh[:-4], "auth": auth},
        {"p256dh": p256dh, "auth": b64url(b"short")},
        {"p256dh": p256dh, "auth": "%%%"},
    ):
        r = subscribe(client, key, {**good, "keys": keys})
        assert r.status_code == 422 and r.json()["code"] == "push_key", (keys, r.text)
    r = subscribe(client, key, good, events=["turn", "everything"])
    assert r.status_code == 422
    r = subscribe(client, key, {"endpoint": browser.endpoint})
    assert r.status_code == 422
    assert mine(client, key) == []


def test_a_deleted_profiles_subscriptions_go_with_it(
    client: TestClient, receiver: Receiver
) -> None:
    key = profile(client, "sub_dee")
    browser = receiver.browser()
    assert subscribe(client, key, browser.subscription()).status_code == 201
    assert client.delete("/api/me", headers=bearer(key)).status_code == 204
    other = profile(client, "sub_eve")
    # The endpoint is free again: nothing of the deleted profile's is kept.
    assert subscribe(client, other, browser.subscription()).status_code == 201
    assert len(mine(client, other)) == 1
