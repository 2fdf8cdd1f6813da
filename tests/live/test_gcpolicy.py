"""The serving process's collector: no automatic full collection, young ones on a clock too."""

from __future__ import annotations

import gc
import threading

from app import gcpolicy


def test_serving_turns_off_automatic_full_collections_and_runs_collections_on_a_clock() -> None:
    before = gc.get_threshold()
    try:
        gcpolicy.tune_for_serving(full_every_s=3600, young_every_s=3600)
        young, middle, full = gc.get_threshold()
        assert (young, middle) == (gcpolicy.YOUNG, gcpolicy.MIDDLE)
        assert full == gcpolicy.NEVER
        assert any(t.name == "gc-clock" and t.daemon for t in threading.enumerate())
    finally:
        gc.set_threshold(*before)
