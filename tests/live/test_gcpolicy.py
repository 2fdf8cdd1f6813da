"""The serving process's collector: no automatic full collection, small middle ones."""

from __future__ import annotations

import gc
import threading

from app import gcpolicy


def test_serving_turns_off_automatic_full_collections_and_runs_them_from_a_thread() -> None:
    before = gc.get_threshold()
    try:
        gcpolicy.tune_for_serving(full_every_s=3600)
        young, middle, full = gc.get_threshold()
        assert (young, middle) == (gcpolicy.YOUNG, gcpolicy.MIDDLE)
        assert full == gcpolicy.NEVER
        assert any(t.name == "gc-full" and t.daemon for t in threading.enumerate())
    finally:
        gc.set_threshold(*before)
