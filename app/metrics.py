"""The server's counters for ``GET /metrics`` (Prometheus' text format, ``prometheus_client``).

Counters live here, one definition each, in prometheus_client's default registry (with its
process and platform collectors), so any layer may count: the rooms' service counts moves,
the request log counts answers by status, and the push sender (another module) counts
``PUSH_SENT`` / ``PUSH_FAILED``. Counters are per process: with several app processes each
is scraped on its own and Prometheus sums them (``sum(rate(allfours_moves_total[5m]))``).
What the database knows for all processes (rooms, games in play) is not counted here but
read at each scrape (app/api/metrics.py).
"""

from __future__ import annotations

from prometheus_client import Counter

MOVES = Counter("allfours_moves", "Moves accepted by this process (bots' and away covers' too)")
REQUESTS = Counter(
    "allfours_requests",
    "HTTP answers by this process, by status (an event stream counts when it closes)",
    ["status"],
)
PUSH_SENT = Counter("allfours_push_sent", "Web Push notifications the push service accepted")
PUSH_FAILED = Counter(
    "allfours_push_failed", "Web Push notifications that failed (refused, gone, or unreachable)"
)


def count_request(status: int) -> None:
    REQUESTS.labels(status=str(status)).inc()


def count_move() -> None:
    MOVES.inc()
