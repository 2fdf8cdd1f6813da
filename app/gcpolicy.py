"""Garbage-collector settings for the serving process (``python -m app.serve`` only).

Every open event stream keeps a few hundred long-lived objects (sse-starlette's tasks and
cancel scopes, coroutines, our subscription): 4,000 streams are over a million objects. With
CPython's default settings a full collection walks all of them every few seconds under load,
and each walk stops the event loop for hundreds of milliseconds (bench.live's p99 was GC).
Nothing of a move needs a full collection: the state is immutable and freed by reference
counting; the young generations still collect short-lived cycles. So the automatic full
collection is off, and a background thread runs one every ``FULL_EVERY_S`` seconds to free
long-lived cycles (a closed stream's tasks): one pause every ten minutes instead of one
every few seconds.
"""

from __future__ import annotations

import gc
import threading
import time

YOUNG = 700  # allocations between collections of the youngest generation (the default)
MIDDLE = 10  # young collections between collections of the middle one (the default)
NEVER = 1_000_000_000  # middle collections before an automatic full one: never, in practice
FULL_EVERY_S = 600.0


def tune_for_serving(full_every_s: float = FULL_EVERY_S) -> None:
    gc.set_threshold(YOUNG, MIDDLE, NEVER)
    thread = threading.Thread(
        target=_full_collections, args=(full_every_s,), name="gc-full", daemon=True
    )
    thread.start()


def _full_collections(every_s: float) -> None:
    while True:
        time.sleep(every_s)
        gc.collect()
