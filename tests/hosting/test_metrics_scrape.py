"""GET /metrics on a real server: a scraper on this machine reads it without the token (the
connection's own peer is loopback); a request a proxy forwarded does not, even from
loopback; the admin token reads it from anywhere."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx

from tests.hosting.support import Server

ADMIN = "scrape-admin-token"


def test_loopback_reads_the_metrics_and_a_forwarded_request_needs_the_token(
    start_server: Callable[..., Server], tmp_path: Path
) -> None:
    server = start_server(f"sqlite:///{tmp_path / 'allfours.db'}", ALLFOURS_ADMIN_TOKEN=ADMIN)
    with httpx.Client(base_url=server.url, timeout=10) as client:
        assert client.post("/api/rooms", json={}).status_code == 201
        local = client.get("/metrics")
        assert local.status_code == 200, local.text
        assert "allfours_rooms 1.0" in local.text
        assert 'allfours_requests_total{status="201"}' in local.text
        assert "process_resident_memory_bytes" in local.text
        # uvicorn believes X-Forwarded-For from 127.0.0.1 (FORWARDED_ALLOW_IPS' default):
        # the request is then a remote client's, and a forged header gains nothing either.
        for forwarded in ("203.0.113.7", "127.0.0.1"):
            proxied = client.get("/metrics", headers={"X-Forwarded-For": forwarded})
            assert proxied.status_code == 401, (forwarded, proxied.text)
        admin = client.get(
            "/metrics",
            headers={"X-Forwarded-For": "203.0.113.7", "Authorization": f"Bearer {ADMIN}"},
        )
        assert admin.status_code == 200
