"""The serving process's collector: no automatic full collection, young ones on a clock too."""

from __future__ import annotations

import gc
import threading

import pytest

from app import gcpolicy
from app.settings import Settings


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


def test_the_policy_is_a_setting_and_cpythons_own_stays_where_it_is_not_understood(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The serving policy counted on gc.set_threshold's meaning up to CPython 3.13 and was
    applied whatever the version (3.14's incremental collector reads the thresholds
    otherwise), with no way for an operator to turn it off."""
    before = gc.get_threshold()
    try:
        assert gcpolicy.tune("python") is False
        assert gc.get_threshold() == before
        assert gcpolicy.tune("serving", version=(3, 14)) is False
        assert gc.get_threshold() == before
        assert "3.14" in caplog.text
        assert Settings(gc_policy="python").gc_policy == "python"
        assert Settings().gc_policy == "serving"
    finally:
        gc.set_threshold(*before)
