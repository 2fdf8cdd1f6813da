"""The review of a finished game (issue #38, API.md "The review of a game"): asking for it,
reading it, and the work itself, done by a worker process (app/services/review_worker.py).

A review depends only on the game's rules, seed, first dealer, shuffle and actions: keyed by
them, it is done once and kept, and the same game dealt again in another room shares it.
Nothing of it exists before the game is over (its seed, and so every hand, is public then).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import exc
from sqlalchemy.engine import Engine

from app.bots.review import Judged, review_game, review_key, summarize
from app.reasons import N_, reason
from app.rules import Rules
from app.rules.cards import code
from app.rules.state import Action, State
from app.services import errors
from app.services.records import BOARD_SECRET, load_record
from app.services.rooms import Rooms
from app.services.snapshot import action_of
from app.store import review_repo
from app.store.db import read, write
from app.store.review_repo import ReviewRow

Json = dict[str, Any]
P = ParamSpec("P")
T = TypeVar("T")

REVIEW_NOT_YET = reason(
    "review_not_yet",
    "game {number} of room {code} is not over: it is reviewed once it is",
    N_("That game is not over: it can be reviewed once it is."),
)
REVIEW_NOT_ASKED = reason(
    "review_not_asked",
    "no one has asked for the review of game {number} of room {code}",
    N_("No one has asked for that game's review yet."),
)

KEYS_KEPT = 1024
LEASE_S = 60.0  # a worker renews it with each progress; one that died loses it after this


def utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class Reviews:
    engine: Engine
    rooms: Rooms
    # The keys of finished games asked about, by room id, code and game number (a deleted
    # room's id or code may come again, not both), the oldest let go first.
    _keys: dict[tuple[int, str, int], str] = field(default_factory=dict, compare=False)

    async def run(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """A use case from the event loop, in a worker thread (a game is replayed)."""
        return await asyncio.to_thread(fn, *args, **kwargs)

    def ask(self, code: str, number: int) -> ReviewRow:
        """The review of game ``number`` of room ``code``, queued unless asked before."""
        game = _game_of(self.rooms, code, number)
        key = key_of(game)
        for _ in range(2):
            try:
                with write(self.engine) as conn:
                    return review_repo.ask(conn, key, code, number, game, utcnow())
            except exc.IntegrityError:
                continue  # asked at the same moment by another process: read theirs
        with read(self.engine) as conn:
            row = review_repo.by_key(conn, key)
        assert row is not None
        return row

    def status(self, code: str, number: int) -> ReviewRow:
        key = self._key_of(code, number)
        with read(self.engine) as conn:
            row = review_repo.by_key(conn, key)
        if row is None:
            raise errors.NotFound(REVIEW_NOT_ASKED, code=code, number=number)
        return row

    def _key_of(self, code: str, number: int) -> str:
        """The review's key of a finished game, kept: a page polls the review's progress every
        second, and a game over never changes (404 unknown, 409 not over yet)."""
        place = (self.rooms.snapshot(code).id, code, number)
        key = self._keys.get(place)
        if key is None:
            key = key_of(_game_of(self.rooms, code, number))
            if len(self._keys) >= KEYS_KEPT:
                self._keys.pop(next(iter(self._keys)))
            self._keys[place] = key
        return key

    def waiting(self) -> int:
        with read(self.engine) as conn:
            return len(review_repo.waiting(conn, utcnow()))


def _game_of(rooms: Rooms, code: str, number: int) -> Json:
    """The inputs of the review of a finished game; 404 unknown, 409 not over yet."""
    record = load_record(rooms, code, number)
    if not record.over:
        raise errors.Conflict(REVIEW_NOT_YET, code=code, number=number)
    state = record.game.state
    if state.board:  # R33: a board's seed is its event's (the review replays from the seed)
        raise errors.Conflict(BOARD_SECRET)
    lineup = record.game.lineup
    # The computer's moves for a person who was away (away cover, the turn timer, a
    # computer player seated in their place): the seat's, not that person's.
    covered = [
        i
        for i, a in enumerate(record.actions)
        if a.auto and lineup is not None and not lineup[a.seat].bot
    ]
    actions = [action_of(a) for a in record.actions]
    return game_inputs(state, record.game.first_dealer, actions, covered)


def game_inputs(
    state: State, first_dealer: int | None, actions: Sequence[Action], covered: Sequence[int]
) -> Json:
    """What the review of a finished game reads, as queued (``state``: the game's)."""
    return {
        "rules": state.rules.model_dump(mode="json"),
        "seed": str(state.seed),
        "first_dealer": first_dealer,
        "shuffle": state.shuffle,
        "actions": [_action_json(a) for a in actions],
        "covered": list(covered),
    }


def _action_json(a: Action) -> Json:
    return {"type": a.type, "card": a.card, "seat": a.seat, "lift": a.lift}


def _actions(game: Json) -> list[Action]:
    return [Action(a["type"], a["card"], a["seat"], a["lift"]) for a in game["actions"]]


def key_of(game: Json) -> str:
    rules = Rules.model_validate(game["rules"])
    return review_key(
        rules, int(game["seed"]), game["first_dealer"], game["shuffle"], _actions(game)
    )


def action_word(a: Action | None) -> str:
    """An action as the review names it: the card's code, or the bid's word ("call" for a
    call of renege, "reckoned" for "score it", "no_call" for not calling)."""
    if a is None:
        return "no_call"
    return code(a.card) if a.type == "play" and a.card is not None else a.type


def compute(game: Json, worlds: int, progress: Any = None) -> Json:
    """The review's result as kept (``decisions`` and ``seats``), pure work: no I/O."""
    judged = review_game(
        Rules.model_validate(game["rules"]),
        int(game["seed"]),
        game["first_dealer"],
        _actions(game),
        shuffle=game["shuffle"],
        worlds=worlds,
        progress=progress,
    )
    covered = set(game.get("covered", ()))
    return {
        "decisions": [_decision_json(j, j.index in covered) for j in judged],
        "seats": [
            {
                "seat": s.seat,
                "decisions": s.decisions,
                "costly": s.costly,
                "average_loss": s.average_loss,
            }
            for s in summarize(judged)
        ],
    }


def _decision_json(j: Judged, covered: bool) -> Json:
    out: Json = {
        "hand": j.hand,
        "seat": j.seat,
        "action": action_word(j.action),
        "best": action_word(j.best),
        "loss": j.loss,
    }
    if j.action.type == "call":
        out["lift"] = j.action.lift
    if j.best is not None and j.best.type == "call":
        out["best_lift"] = j.best.lift
    if j.why is not None:
        out["why"] = j.why
    if covered:
        out["covered"] = True
    return out


def review_json(row: ReviewRow) -> Json:
    """The GET answer: state and progress; the decisions and seats once done."""
    out: Json = {"state": row.state, "progress": round(row.progress, 3)}
    if row.state == review_repo.DONE and row.result is not None:
        out["decisions"] = row.result["decisions"]
        out["seats"] = row.result["seats"]
    return out


def lease_until(now: datetime) -> datetime:
    return now + timedelta(seconds=LEASE_S)
