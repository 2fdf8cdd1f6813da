"""Generated requests against /openapi.json (schemathesis) and against a live room
(hypothesis): nothing a client can send gets a 5xx."""

from __future__ import annotations

from typing import Any

import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.core.result import Ok

from tests.api.table import bearer, new_room, seat_four


def test_generated_requests_from_openapi_never_get_a_server_error(client: TestClient) -> None:
    # From the document the running app serves; requests go through the test client (an
    # ASGI schema would start the app's lifespan a second time, on another event loop).
    document = schemathesis.openapi.from_dict(client.get("/openapi.json").json())
    # The event stream never ends by itself: it has its own tests.
    schema = document.exclude(path_regex=r".*/events$")
    operations = []
    for result in schema.get_all_operations():
        assert isinstance(result, Ok), result.err()
        operations.append(result.ok())
    assert len(operations) >= 9
    code = new_room(client)
    tokens = seat_four(client, code)
    client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))

    @given(
        case=st.one_of([op.as_strategy() for op in operations]),
        real_room=st.booleans(),
        who=st.sampled_from([None, *tokens]),
    )
    @settings(
        max_examples=200, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True
    )
    def call(case: Any, real_room: bool, who: str | None) -> None:
        if real_room and "code" in (case.path_parameters or {}):
            case.path_parameters["code"] = code
        request = case.as_transport_kwargs(base_url="http://testserver")
        request.pop("cookies", None)  # the API reads no cookie but the seat token
        if isinstance(request.get("data"), bytes | str):
            request["content"] = request.pop("data")  # httpx's name for a raw body
        if who:
            request["headers"] = {**request.get("headers", {}), **bearer(who)}
        response = client.request(**request)
        assert response.status_code < 500, (case.method, case.path, response.text)
        if response.status_code >= 400:
            assert set(response.json()) == {"error", "detail", "code", "params"}, response.text

    call()


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["stand", "beg", "give_one", "run_pack", "play", "x", ""]) | JSON,
        "card": st.sampled_from(["AS", "TD", "2C", "JH", "ZZ", "", "as"]) | JSON,
        "version": st.integers(-5, 2**70) | JSON,
        "seat": st.integers(-2, 6) | JSON,
        "level": st.sampled_from(["easy", "standard", "x"]) | JSON,
        "name": st.text(max_size=40) | JSON,
        "rules": st.dictionaries(st.sampled_from(["target", "kick_two", "x"]), JSON) | JSON,
        "seed": st.integers(-(2**70), 2**70) | JSON,
    },
)


def test_random_bodies_on_a_live_room_never_get_a_server_error(client: TestClient) -> None:
    code = new_room(client)
    tokens = seat_four(client, code)
    client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    paths = ["actions", "join", "bots", "start", "rematch"]

    @given(
        path=st.sampled_from(paths),
        body=FIELDS | JSON,
        who=st.sampled_from([None, "bad", *tokens]),
    )
    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    def poke(path: str, body: Any, who: str | None) -> None:
        headers = bearer(who) if who else {}
        r = client.post(f"/api/rooms/{code}/{path}", json=body, headers=headers)
        assert r.status_code < 500, r.text
        known = {"error", "detail", "code", "params", "seat", "token"}
        assert set(r.json()) <= known or "version" in r.json()
        r = client.post("/api/rooms", json=body)
        assert r.status_code < 500, r.text

    poke()
