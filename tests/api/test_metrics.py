"""GET /metrics: Prometheus' text format, for the admin token or loopback only; the rooms and
games in play read from the database, the moves and answers counted by this process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from app.main import create_app
from app.settings import Settings
from tests.api.conftest import ADMIN, app_settings
from tests.api.table import bearer, new_room, seat_four, view

LOOPBACK = ("127.0.0.1", 40000)


def scrape(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    r = client.get("/metrics", headers=bearer(ADMIN))
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain; version=")
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(r.text)
        for s in family.samples
    }


def test_the_numbers_follow_rooms_games_moves_and_answers(client: TestClient) -> None:
    before = scrape(client)
    assert before[("allfours_streams_open", ())] == 0
    code = new_room(client)
    new_room(client)
    tokens = seat_four(client, code)
    assert client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0])).status_code == 200
    v = view(client, code, tokens[0])
    mover = v["turn"]
    mine = view(client, code, tokens[mover])
    move = {**mine["legal"][0], "version": mine["version"]}
    r = client.post(f"/api/rooms/{code}/actions", json=move, headers=bearer(tokens[mover]))
    assert r.status_code == 200, r.text
    assert client.get("/api/rooms/nosuchroom").status_code == 404
    after = scrape(client)
    # The database is the module's: count what this test added.
    rooms, in_play = ("allfours_rooms", ()), ("allfours_games_in_play", ())
    assert after[rooms] - before[rooms] == 2
    assert after[in_play] - before[in_play] == 1
    moves = ("allfours_moves_total", ())
    assert after[moves] - before.get(moves, 0) == 1
    not_found = ("allfours_requests_total", (("status", "404"),))
    assert after[not_found] - before.get(not_found, 0) >= 1
    created = ("allfours_requests_total", (("status", "201"),))
    assert after[created] - before.get(created, 0) >= 2
    # Defined for the push sender and the reviews, shown from the start.
    assert ("allfours_reviews_queued", ()) in after and ("allfours_push_waiting", ()) in after
    assert ("allfours_push_sent_total", ()) in after
    assert ("allfours_push_failed_total", ()) in after


def test_only_the_admin_token_or_loopback_may_read(settings: Settings) -> None:
    app = create_app(settings)
    with TestClient(app) as remote, TestClient(app, client=LOOPBACK) as local:
        anyone = remote.get("/metrics")
        assert anyone.status_code == 401
        assert anyone.json()["code"] == "admin_token_needed"
        wrong = remote.get("/metrics", headers=bearer("not-the-token"))
        assert wrong.status_code == 403
        assert wrong.json()["code"] == "admin_token_wrong"
        assert remote.get("/metrics", headers=bearer(ADMIN)).status_code == 200
        assert local.get("/metrics").status_code == 200
        # A wrong token is wrong from loopback too.
        assert local.get("/metrics", headers=bearer("not-the-token")).status_code == 403
        # Through a proxy on this machine: its peer is loopback, the client is not.
        for header in ({"X-Forwarded-For": "203.0.113.9"}, {"Forwarded": "for=203.0.113.9"}):
            proxied = local.get("/metrics", headers=header)
            assert proxied.status_code == 401, header
            assert "allfours_" not in proxied.text


@pytest.fixture
def no_admin(database_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings(database_url, admin_token=None))) as c:
        yield c


def test_without_an_admin_token_only_loopback_reads(no_admin: TestClient) -> None:
    refused = no_admin.get("/metrics")
    assert refused.status_code == 403
    assert refused.json()["code"] == "metrics_loopback_only"
    assert no_admin.get("/metrics", headers=bearer("guess")).status_code == 403


PROXY_HEADERS = (
    {"Forwarded": "for=203.0.113.9"},
    {"X-Forwarded-For": "203.0.113.9"},
    {"X-Forwarded-Host": "cards.example"},
    {"X-Forwarded-Proto": "https"},
    {"X-Forwarded-Port": "443"},
    {"X-Forwarded-Server": "edge"},
    {"X-Real-IP": "1.2.3.4"},
    {"Via": "1.1 proxy"},
    {"x-real-ip": "1.2.3.4"},
)


def test_a_loopback_proxy_that_sends_only_x_real_ip_is_no_scraper(settings: Settings) -> None:
    """A same-host proxy that added X-Real-IP (or Via, or an X-Forwarded-* other than -For)
    but no X-Forwarded-For was taken for a local scraper: the metrics were anyone's."""
    app = create_app(settings)
    with TestClient(app, client=LOOPBACK) as local:
        assert local.get("/metrics").status_code == 200
        for header in PROXY_HEADERS:
            proxied = local.get("/metrics", headers=header)
            assert proxied.status_code == 401, header
            assert proxied.json()["code"] == "admin_token_needed"
            assert "allfours_" not in proxied.text
            # The admin token still reads them through the proxy.
            assert local.get("/metrics", headers={**header, **bearer(ADMIN)}).status_code == 200


def test_without_an_admin_token_no_proxy_header_reads_the_metrics(database_url: str) -> None:
    """Without an admin token, a proxied request from loopback was refused only for two
    of the headers a proxy adds."""
    with TestClient(create_app(app_settings(database_url, admin_token=None)), client=LOOPBACK) as c:
        assert c.get("/metrics").status_code == 200
        for header in PROXY_HEADERS:
            refused = c.get("/metrics", headers=header)
            assert refused.status_code == 403, header
            assert refused.json()["code"] == "metrics_loopback_only"
