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
- the young generations are also collected on a clock, every ``YOUNG_EVERY_S``: CPython
  counts allocations *minus deallocations*, and under steady load the older objects dying
  (last move's waits) cancel out the new ones, so its own young collections came further
  and further apart and each grew to 100,000 objects and 20-60 ms (bench.live, after a
  minute at 500 moves/s). On the clock each is a few milliseconds.
- the middle generation is collected after every second young collection instead of every
  tenth: the same work in smaller pieces.

This is ``ALLFOURS_GC_POLICY=serving``, the default; ``python`` keeps CPython's own settings.
It leans on what ``gc.set_threshold`` means up to CPython 3.13 (three generations, the third
threshold counting middle collections); 3.14's incremental collector gives the thresholds
other meanings, so there the policy is not applied and CPython's own stays, with a warning.
"""

from __future__ import annotations

import gc
import logging
import sys
import threading
import time
from typing import Literal

log = logging.getLogger("allfours")

Policy = Literal["serving", "python"]
# The last CPython whose thresholds mean what the policy above counts on.
LAST_UNDERSTOOD = (3, 13)

YOUNG = 700  # allocations between collections of the youngest generation (the default)
MIDDLE = 1  # young collections between collections of the middle one (the default is 10)
NEVER = 1_000_000_000  # middle collections before an automatic full one: never, in practice
FULL_EVERY_S = 600.0
YOUNG_EVERY_S = 0.1


def tune(
    policy: Policy,
    *,
    full_every_s: float = FULL_EVERY_S,
    young_every_s: float = YOUNG_EVERY_S,
    version: tuple[int, int] = (sys.version_info.major, sys.version_info.minor),
) -> bool:
    """Apply ``policy`` to this process; False when CPython's own settings stay."""
    if policy == "python":
        return False
    if version > LAST_UNDERSTOOD:
        log.warning(
            "ALLFOURS_GC_POLICY=serving is written for CPython up to %d.%d; this is %d.%d, "
            "so the collector keeps its own settings",
            *LAST_UNDERSTOOD,
            *version,
        )
        return False
    tune_for_serving(full_every_s, young_every_s)
    return True


def tune_for_serving(
    full_every_s: float = FULL_EVERY_S, young_every_s: float = YOUNG_EVERY_S
) -> None:
    gc.set_threshold(YOUNG, MIDDLE, NEVER)
    thread = threading.Thread(
        target=_collections, args=(full_every_s, young_every_s), name="gc-clock", daemon=True
    )
    thread.start()


def _collections(full_every_s: float, young_every_s: float) -> None:
    next_full = time.monotonic() + full_every_s
    while True:
        time.sleep(young_every_s)
        if time.monotonic() >= next_full:
            gc.collect()
            next_full = time.monotonic() + full_every_s
        else:
            gc.collect(1)
