"""Garbage-collector settings for the serving process (``python -m app.serve`` only).

Every open event stream keeps a few hundred long-lived objects (sse-starlette's tasks and
cancel scopes, coroutines, our subscription): 4,000 streams are over a million objects, and
each move makes a few hundred more that live until the stream's next event (the pending
waits of four streams). The collector's pauses stop every table at once, so:

- no automatic full collection: with CPython's default settings one walks all the streams'
  objects every few seconds under load, stopping the event loop for hundreds of milliseconds.
  Nothing of a move needs one: the state is immutable and freed by reference counting. A
  background thread runs one every ``FULL_EVERY_S`` seconds to free long-lived cycles (a
  closed stream's tasks): one pause every ten minutes instead of one every few seconds.
- the middle generation is collected after every second young collection instead of every
  tenth: the same work in pieces a fifth the size (at 500 moves/s a pause of ~5 ms a few
  times a second instead of 20-40 ms every second; bench.live's p99 was these pauses).
"""

from __future__ import annotations

import gc
import threading
import time

YOUNG = 700  # allocations between collections of the youngest generation (the default)
MIDDLE = 1  # young collections between collections of the middle one (the default is 10)
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
