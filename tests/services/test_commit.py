"""The one versioned commit (app/services/commit.py): its retry loop, its code draw, and a
night changed through it, its version raised once per change and announced after the
commit."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError

from app.live.hub import Hub
from app.live.notifier import NIGHT_PREFIX, LocalNotifier
from app.night.options import NightOptions
from app.rules import Rules
from app.services import errors
from app.services.commit import RETRIES, LostRace, retried
from app.services.nights import Nights
from app.services.rooms import Rooms
from app.store.db import make_engine

TRIED = errors.ROOM_BUSY  # any reason: the one the caller gives


def _failing(*failures: Exception) -> tuple[list[int], Callable[[], str]]:
    tries: list[int] = []

    def attempt() -> str:
        tries.append(1)
        if len(tries) <= len(failures):
            raise failures[len(tries) - 1]
        return "done"

    return tries, attempt


def test_a_lost_race_and_a_taken_key_are_tried_again() -> None:
    taken = IntegrityError("insert", {}, Exception("unique"))
    tries, attempt = _failing(LostRace(), taken)
    assert retried(attempt, busy=TRIED) == "done"
    assert len(tries) == 3


def test_a_taken_key_may_refuse_instead() -> None:
    def refuse() -> None:
        raise errors.Conflict(TRIED)

    _, attempt = _failing(IntegrityError("insert", {}, Exception("unique")))
    with pytest.raises(errors.Conflict):
        retried(attempt, busy=TRIED, taken=refuse)


def test_busy_after_every_try_lost() -> None:
    tries, attempt = _failing(*(LostRace() for _ in range(RETRIES)))
    with pytest.raises(errors.Conflict) as refused:
        retried(attempt, busy=TRIED)
    assert refused.value.code == "room_busy" and len(tries) == RETRIES


def test_a_refusal_stands_at_once() -> None:
    tries, attempt = _failing(errors.Invalid(TRIED))
    with pytest.raises(errors.Invalid):
        retried(attempt, busy=TRIED)
    assert len(tries) == 1


class Heard(LocalNotifier):
    def __init__(self) -> None:
        super().__init__(Hub())
        self.heard: list[tuple[str, int]] = []

    def after_commit(self, code: str, version: int) -> None:
        self.heard.append((code, version))


def _nights(engine: Engine) -> tuple[Nights, Heard]:
    notifier = Heard()
    return Nights(Rooms(engine, notifier)), notifier


def test_a_nights_change_raises_its_version_once_and_is_announced(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        _night_changed(*_nights(engine))
    finally:
        engine.dispose()


def _night_changed(nights: Nights, notifier: Heard) -> None:
    opened = nights.open(
        name="Friday", format="round_robin", preset=None, rules=Rules(), options=NightOptions()
    )
    code, director = opened.code, opened.director_token
    first = nights.register(code, names=["Ann", "Ben"], team=None, director=None)
    second = nights.register(code, names=["Cat", "Dan"], team=None, director=director)
    assert (first.pair, second.pair) == (1, 2)
    with pytest.raises(errors.Conflict) as refused:
        nights.register(code, names=["ben", "ANN"], team=None, director=None)
    assert refused.value.code == "night_pair_registered"
    nights.set_registration(code, director=director, open_=False)
    assert nights.load(code).row.version == 3
    channel = NIGHT_PREFIX + code
    assert notifier.heard == [(channel, 1), (channel, 2), (channel, 3)]
