"""Passkeys (API.md § Fourth round, *Players*): a player who lost every device gets back in
with a passkey, on any device, with no handle typed. A software authenticator
(tests/players/authenticator.py) plays the phone; every refusal is a 422 that changes
nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.api.conftest import app_settings
from tests.api.table import bearer
from tests.players.authenticator import Authenticator, b64url
from tests.players.test_profiles import make


def add_options(client: TestClient, key: str) -> dict[str, Any]:
    r = client.post("/api/me/passkeys/options", headers=bearer(key))
    assert r.status_code == 200, r.text
    assert r.headers["cache-control"] == "no-store"
    options: dict[str, Any] = r.json()
    return options


def signin_options(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/passkeys/signin-options")
    assert r.status_code == 200, r.text
    options: dict[str, Any] = r.json()
    return options


def add(client: TestClient, key: str, phone: Authenticator, **more: Any) -> dict[str, Any]:
    credential = phone.create(add_options(client, key))
    r = client.post(
        "/api/me/passkeys", json={"credential": credential, **more}, headers=bearer(key)
    )
    assert r.status_code == 201, r.text
    passkey: dict[str, Any] = r.json()
    return passkey


def refused(response: Any) -> None:
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "passkey_refused", response.text


def listed(client: TestClient, key: str) -> list[dict[str, Any]]:
    r = client.get("/api/me/passkeys", headers=bearer(key))
    assert r.status_code == 200, r.text
    passkeys: list[dict[str, Any]] = r.json()
    return passkeys


def test_a_passkey_added_on_one_device_signs_a_new_device_in(client: TestClient) -> None:
    key = make(client, "Pia", "Pia")
    phone = Authenticator()
    options = add_options(client, key)
    assert options["rp"]["id"] == "testserver"
    assert options["user"]["name"] == "pia" and options["user"]["displayName"] == "Pia"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert options["excludeCredentials"] == []
    r = client.post(
        "/api/me/passkeys",
        json={"credential": phone.create(options), "name": "  My\nphone  "},
        headers=bearer(key),
    )
    assert r.status_code == 201, r.text
    passkey = r.json()
    assert set(passkey) == {"id", "name", "created_at", "last_used"}
    assert passkey["name"] == "My phone" and passkey["last_used"] is None
    assert listed(client, key) == [passkey]
    assert client.get("/api/me", headers=bearer(key)).json()["passkeys"] == [passkey]
    # the passkey is not offered twice to the same authenticator
    again = add_options(client, key)
    assert [c["id"] for c in again["excludeCredentials"]] == [b64url(phone.credential_id)]

    # a new device, with no key: the browser offers the passkeys it holds, none named
    options = signin_options(client)
    assert options["rpId"] == "testserver" and options["allowCredentials"] == []
    r = client.post("/api/passkeys/signin", json={"credential": phone.get(options)})
    assert r.status_code == 200, r.text
    assert r.headers["cache-control"] == "no-store"
    body = r.json()
    assert (body["handle"], body["name"]) == ("pia", "Pia")
    assert body["key"] != key and "set-cookie" not in r.headers  # a script: no cookie
    me = client.get("/api/me", headers=bearer(body["key"])).json()
    assert me["handle"] == "pia" and len(me["devices"]) == 2
    assert me["passkeys"][0]["last_used"] is not None


def test_a_browser_signing_in_gets_the_player_cookie(client: TestClient) -> None:
    key = make(client, "quin")
    phone = Authenticator()
    add(client, key, phone)
    credential = phone.get(signin_options(client))
    r = client.post(
        "/api/passkeys/signin", json={"credential": credential}, headers={"Sec-Fetch-Mode": "cors"}
    )
    assert r.status_code == 200, r.text
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("allfours_player=" + r.json()["key"]) and "HttpOnly" in cookie


def test_a_replayed_or_tampered_assertion_signs_nobody_in(client: TestClient) -> None:
    key = make(client, "rex")
    phone = Authenticator()
    add(client, key, phone)
    options = signin_options(client)
    credential = phone.get(options)
    assert client.post("/api/passkeys/signin", json={"credential": credential}).status_code == 200
    before = client.get("/api/me", headers=bearer(key)).json()

    # the same answer again: its challenge is taken
    refused(client.post("/api/passkeys/signin", json={"credential": credential}))
    # a fresh challenge, but the signature spoiled
    tampered = phone.get(signin_options(client))
    signature = bytearray(tampered["response"]["signature"].encode())
    signature[-3] = ord("A") if signature[-3] != ord("A") else ord("B")
    tampered["response"]["signature"] = signature.decode()
    refused(client.post("/api/passkeys/signin", json={"credential": tampered}))
    # a fresh challenge, signed, but another challenge's answer swapped in
    other = phone.get(signin_options(client))
    other["response"]["clientDataJSON"] = credential["response"]["clientDataJSON"]
    refused(client.post("/api/passkeys/signin", json={"credential": other}))
    # another key claiming the passkey's credential id
    thief = Authenticator(credential_id=phone.credential_id, user_handle=phone.user_handle)
    refused(
        client.post("/api/passkeys/signin", json={"credential": thief.get(signin_options(client))})
    )
    # a counter that went backwards: a cloned authenticator
    refused(
        client.post(
            "/api/passkeys/signin", json={"credential": phone.get(signin_options(client), count=1)}
        )
    )
    # a count beyond what a 32-bit signed column keeps: refused, never a database error
    far = phone.get(signin_options(client), count=2**32 - 1)
    refused(client.post("/api/passkeys/signin", json={"credential": far}))
    after = client.get("/api/me", headers=bearer(key)).json()
    assert after["devices"] == before["devices"] and after["passkeys"] == before["passkeys"]


def test_a_passkey_made_for_another_site_is_refused(client: TestClient) -> None:
    key = make(client, "sal")
    phone = Authenticator()
    credential = phone.create(add_options(client, key), origin="https://evil.example")
    r = client.post("/api/me/passkeys", json={"credential": credential}, headers=bearer(key))
    refused(r)
    assert "origin" in r.json()["detail"]
    assert listed(client, key) == []
    # made here, then used from another site's page
    add(client, key, phone)
    credential = phone.get(signin_options(client), origin="https://evil.example")
    refused(client.post("/api/passkeys/signin", json={"credential": credential}))
    # bound to another host (the relying party's id)
    options = signin_options(client) | {"rpId": "evil.example"}
    refused(client.post("/api/passkeys/signin", json={"credential": phone.get(options)}))


def test_a_replayed_attestation_adds_nothing(client: TestClient) -> None:
    key = make(client, "tam")
    phone = Authenticator()
    credential = phone.create(add_options(client, key))
    body = {"credential": credential}
    assert client.post("/api/me/passkeys", json=body, headers=bearer(key)).status_code == 201
    refused(client.post("/api/me/passkeys", json=body, headers=bearer(key)))
    # the same credential, a fresh challenge: already added
    credential = phone.create(add_options(client, key))
    refused(client.post("/api/me/passkeys", json={"credential": credential}, headers=bearer(key)))
    # a count beyond what the column keeps
    far = Authenticator(sign_count=2**32 - 1).create(add_options(client, key))
    refused(client.post("/api/me/passkeys", json={"credential": far}, headers=bearer(key)))
    # another player cannot answer this player's challenge
    other = make(client, "uma")
    credential = Authenticator().create(add_options(client, key))
    refused(client.post("/api/me/passkeys", json={"credential": credential}, headers=bearer(other)))
    assert len(listed(client, key)) == 1 and listed(client, other) == []
    # a sign-in challenge does not make a passkey
    options = add_options(client, key) | {"challenge": signin_options(client)["challenge"]}
    credential = Authenticator().create(options)
    refused(client.post("/api/me/passkeys", json={"credential": credential}, headers=bearer(key)))


NOT_CREDENTIALS: list[Any] = [
    {},
    {"id": 1},
    {"id": "AA", "rawId": "AA", "type": "public-key", "response": {}},
    {"id": "x", "rawId": "!!", "type": "public-key", "response": {"clientDataJSON": "%%"}},
    {
        "id": "AA",
        "rawId": "AA",
        "type": "public-key",
        "response": {"clientDataJSON": b64url(b"not json"), "attestationObject": "AA"},
    },
    {
        "id": "AA",
        "rawId": "AA",
        "type": "public-key",
        "response": {
            "clientDataJSON": b64url(b'{"type":"webauthn.create","challenge":7,"origin":1}'),
            "attestationObject": "AA",
            "authenticatorData": "AA",
            "signature": "AA",
            "userHandle": "@@",
        },
    },
]


def test_a_credential_that_is_not_one_is_a_422(client: TestClient) -> None:
    key = make(client, "val")
    for credential in NOT_CREDENTIALS:
        refused(
            client.post("/api/me/passkeys", json={"credential": credential}, headers=bearer(key))
        )
        refused(client.post("/api/passkeys/signin", json={"credential": credential}))
    assert listed(client, key) == []
    assert client.post("/api/passkeys/signin", json={"credential": "x"}).status_code == 422


def test_passkeys_are_the_players_own(client: TestClient) -> None:
    key, other = make(client, "wyn"), make(client, "xan")
    phone = Authenticator()
    passkey = add(client, key, phone, name="Laptop")
    assert client.post("/api/me/passkeys/options").status_code == 401
    assert client.get("/api/me/passkeys").status_code == 401
    r = client.delete(f"/api/me/passkeys/{passkey['id']}", headers=bearer(other))
    assert r.status_code == 404 and r.json()["code"] == "no_passkey", r.text
    assert (
        client.delete(f"/api/me/passkeys/{passkey['id']}", headers=bearer(key)).status_code == 204
    )
    assert (
        client.delete(f"/api/me/passkeys/{passkey['id']}", headers=bearer(key)).status_code == 404
    )
    assert client.delete("/api/me/passkeys/0", headers=bearer(key)).status_code == 422
    assert listed(client, key) == []
    # removed: it signs nobody in
    refused(
        client.post("/api/passkeys/signin", json={"credential": phone.get(signin_options(client))})
    )


def test_a_deleted_profiles_passkey_signs_nobody_in(client: TestClient) -> None:
    key = make(client, "yul")
    phone = Authenticator()
    add(client, key, phone)
    assert client.delete("/api/me", headers=bearer(key)).status_code == 204
    refused(
        client.post("/api/passkeys/signin", json={"credential": phone.get(signin_options(client))})
    )


def test_a_passkey_sign_in_moves_none_of_the_devices_guest_seats(client: TestClient) -> None:
    """A passkey sign-in claimed the seats a device's guests held: on a club's shared tablet,
    anyone's seats became the profile's who signed in last."""
    from tests.api.table import new_room, view

    key = make(client, "zed", "Zed")
    phone = Authenticator()
    add(client, key, phone)
    code = new_room(client)
    r = client.post(f"/api/rooms/{code}/join", json={"name": "Zed", "seat": 2})
    token = r.json()["token"]
    credential = phone.get(signin_options(client))
    r = client.post("/api/passkeys/signin", json={"credential": credential, "claim": [token]})
    assert r.status_code == 200, r.text
    assert view(client, code)["seats"][2]["player"] is None


@pytest.fixture
def public_client(database_url: str) -> Iterator[TestClient]:
    settings: Settings = app_settings(database_url, public_url="https://cards.example.org/")
    with TestClient(create_app(settings)) as c:
        yield c


def test_the_public_url_names_the_site_behind_a_proxy(public_client: TestClient) -> None:
    client = public_client
    key = make(client, "abe")
    options = add_options(client, key)
    assert options["rp"]["id"] == "cards.example.org"
    phone = Authenticator(origin="https://cards.example.org")
    credential = phone.create(options)
    r = client.post("/api/me/passkeys", json={"credential": credential}, headers=bearer(key))
    assert r.status_code == 201, r.text
    options = signin_options(client)
    assert options["rpId"] == "cards.example.org"
    refused(
        client.post(
            "/api/passkeys/signin",
            json={"credential": phone.get(options, origin="http://testserver")},
        )
    )
    r = client.post("/api/passkeys/signin", json={"credential": phone.get(signin_options(client))})
    assert r.status_code == 200 and r.json()["handle"] == "abe", r.text


@pytest.mark.parametrize("url", ["cards.example.org", "ftp://cards.example.org", "https://"])
def test_a_public_url_that_is_not_one_stops_the_server(url: str) -> None:
    with pytest.raises(ValueError, match="public_url"):
        Settings(public_url=url)


def test_the_public_url_keeps_only_the_origin() -> None:
    assert Settings(public_url="https://Cards.example.org:8443/x?y").public_url == (
        "https://Cards.example.org:8443"
    )
    assert Settings(public_url="").public_url is None


def render(template: str, lang: str, **context: Any) -> str:
    from app import i18n
    from app.web.render import environment

    with i18n.reading(lang):
        return environment().get_template(template).render(**context)


def test_the_profile_pages_partial_lists_the_passkeys_in_the_readers_language() -> None:
    from datetime import UTC, datetime

    from app.api.passkey_schemas import PasskeyOut
    from app.players.passkeys import PasskeyRow

    made = datetime(2026, 12, 1, 20, 5, tzinfo=UTC)
    rows = [
        PasskeyOut(id=3, name="<b>Pixel</b>", created_at=made, last_used=None),
        {
            "id": 4,
            "name": "Mac",
            "created_at": "2026-11-30T10:00:00Z",
            "last_used": made.isoformat(),
        },
        PasskeyRow(5, "Tab", made, made),  # the service's rows, as a page may pass them
    ]
    html = render("_passkeys.html", "fr", passkeys=rows)
    assert "Vos clés d'accès" in html and "Ajouter une clé d'accès" in html
    assert "1er décembre 2026" in html and "2026-11-30" in html and "Jamais utilisée" in html
    assert "&lt;b&gt;Pixel&lt;/b&gt;" in html and "<b>Pixel" not in html
    assert 'data-passkey-remove="3"' in html and 'data-passkey-remove="4"' in html
    assert html.count("Dernière utilisation le") == 2
    assert "data-passkey-add" in html and "data-passkey-none" not in html
    assert "data-passkey-none" in render("_passkeys.html", "de", passkeys=[])


def test_the_signin_partial_goes_to_the_profile_unless_told() -> None:
    html = render("_passkey_signin.html", "ms")
    assert "Log masuk dengan kunci laluan" in html and 'data-passkey-next="/me"' in html
    assert 'data-passkey-next="/r/ABC"' in render(
        "_passkey_signin.html", "en", passkey_next="/r/ABC"
    )


def passkey_requests_reached(c: TestClient) -> Iterator[tuple[str, tuple[str, dict[str, Any]]]]:
    """The passkeys' refusals, each by the request that gives it (tests/api/test_reasons.py
    counts them): another player's passkey, a credential that is not one."""
    r = c.post("/api/players", json={"handle": "reasons_pk", "name": "Rea"})
    key = r.json()["key"]
    r = c.delete("/api/me/passkeys/1", headers=bearer(key))
    yield "no_passkey", (r.json()["code"], r.json()["params"])
    r = c.post("/api/passkeys/signin", json={"credential": {}})
    yield "passkey_refused", (r.json()["code"], r.json()["params"])


def test_one_address_cannot_fill_the_challenges_table(client: TestClient) -> None:
    for _ in range(30):
        assert client.post("/api/passkeys/signin-options").status_code == 200
    r = client.post("/api/passkeys/signin-options")
    assert r.status_code == 429 and r.json()["code"] == "too_many_signins", r.text
    assert int(r.headers["retry-after"]) >= 1


def test_two_devices_racing_with_one_assertion_sign_one_in(client: TestClient) -> None:
    """A challenge is taken by one conditional DELETE: of two answers sent at once with the
    same assertion, one signs in and the other is refused."""
    from concurrent.futures import ThreadPoolExecutor

    key = make(client, "race_pk")
    phone = Authenticator()
    add(client, key, phone)
    for _ in range(3):
        body = {"credential": phone.get(signin_options(client))}
        with ThreadPoolExecutor(2) as pool:
            answers = list(
                pool.map(lambda b: client.post("/api/passkeys/signin", json=b), [body, body])
            )
        assert sorted(a.status_code for a in answers) == [200, 422], [a.text for a in answers]
    assert len(client.get("/api/me", headers=bearer(key)).json()["devices"]) == 4


def test_the_relying_party_is_the_sites_host_and_origin() -> None:
    from app.players.passkeys import RelyingParty, passkey_name, player_of_handle, relying_party
    from app.players.passkeys import user_handle as handle_of

    here = "http://localhost:8000/"
    assert relying_party(None, here) == RelyingParty("localhost", "http://localhost:8000")
    assert relying_party("https://cards.example.org", here) == RelyingParty(
        "cards.example.org", "https://cards.example.org"
    )
    assert relying_party(None, "http://Cards.Example.org/sub/") == RelyingParty(
        "cards.example.org", "http://cards.example.org"
    )
    assert player_of_handle(handle_of(12345)) == 12345
    assert player_of_handle(b"short") is None and player_of_handle(None) is None
    assert passkey_name(None, "Chrome · Linux") == "Chrome · Linux"
    assert passkey_name("\t\u200b ", "") == "Passkey"
    assert passkey_name("x" * 200, "") == "x" * 80
