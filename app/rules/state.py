"""Immutable values of a game: actions, awards, tricks, hand records and the state itself."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass
from enum import StrEnum
from typing import Any, Literal, NamedTuple

from app.rules.cards import Card, Hand
from app.rules.config import Rules

ActionType = Literal["stand", "beg", "give_one", "run_pack", "play"]
ACTION_TYPES: tuple[ActionType, ...] = ("stand", "beg", "give_one", "run_pack", "play")

AwardKind = Literal["kick", "give_one", "high", "low", "jack", "hang_jack", "game"]


class Phase(StrEnum):
    BEG = "beg"
    GIVE_OR_RUN = "give_or_run"
    PLAY = "play"
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class Action:
    type: ActionType
    card: Card | None = None


STAND = Action("stand")
BEG = Action("beg")
GIVE_ONE = Action("give_one")
RUN_PACK = Action("run_pack")


def play(card: Card) -> Action:
    return Action("play", card)


# Awards, tricks and hand records are named tuples, not frozen dataclasses: as immutable, and a
# third of the cost to build (the bots' play-outs build thousands a decision).
class Award(NamedTuple):
    """One point-scoring event, in the order it was applied (R7, R10, R16-R18)."""

    kind: AwardKind
    team: int
    points: int
    card: Card | None = None
    seat: int | None = None


class Trick(NamedTuple):
    """A completed lift: who led, the cards in the order played, who won it."""

    leader: int
    cards: tuple[tuple[int, Card], ...]
    winner: int


class HandRecord(NamedTuple):
    """Everything that happened in one deal, kept once the deal is over."""

    n: int
    dealer: int
    redeal: bool
    dealt: tuple[Hand, Hand, Hand, Hand]
    kicks: tuple[Card, ...]
    trump: int | None
    decision: Literal["stand", "give_one", "run_pack"] | None
    tricks: tuple[Trick, ...]
    game_totals: tuple[int, int] | None
    awards: tuple[Award, ...]
    scores_after: tuple[int, int]

    @property
    def played_out(self) -> bool:
        """Every card dealt was shown in a trick, so the whole deal is public."""
        return bool(self.tricks)


# A State's fields, in the order it is printed and compared.
FIELDS = (
    "rules",
    "seed",
    "shuffle",
    "stacked",
    "phase",
    "dealer",
    "hand_number",
    "scores",
    "hands",
    "dealt",
    "stock",
    "kicks",
    "trump",
    "decision",
    "turn",
    "trick",
    "tricks",
    "won",
    "awards",
    "history",
    "winner",
)


class State:
    """A game between deals or mid-deal. Build it with ``new_game`` and ``apply`` only.

    Immutable, like every value here: a field cannot be assigned. ``Table`` (table.py) is a
    State whose fields the engine replaces in place; every field holds an immutable value, so
    a copy is twenty references and freezing a table into a State is a change of class.
    """

    __slots__ = FIELDS

    rules: Rules
    seed: int
    shuffle: int  # which shuffle deals from the seed (app/rules/shuffle.py)
    stacked: tuple[tuple[Card, ...], ...]  # deck orders for the first deals (tests)
    phase: Phase
    dealer: int
    hand_number: int
    scores: tuple[int, int]
    hands: tuple[Hand, Hand, Hand, Hand]  # what each seat holds now
    dealt: tuple[Hand, Hand, Hand, Hand]  # everything each seat was dealt this deal
    stock: tuple[Card, ...]  # undealt cards, top first
    kicks: tuple[Card, ...]
    trump: int | None
    decision: Literal["stand", "give_one", "run_pack"] | None
    turn: int | None
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    won: tuple[Hand, Hand]  # cards each team has lifted this deal
    awards: tuple[Award, ...]  # this deal's awards so far
    history: tuple[HandRecord, ...]
    winner: int | None

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}: a State is immutable")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}: a State is immutable")

    @property
    def beggar(self) -> int:
        return (self.dealer + 1) % 4

    @property
    def last_hand(self) -> HandRecord | None:
        return self.history[-1] if self.history else None

    def _values(self) -> tuple[object, ...]:
        """Every field, in the order of ``__slots__``."""
        return tuple(getattr(self, name) for name in FIELDS)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in FIELDS)
        return f"{type(self).__name__}({fields})"

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # copy, deepcopy and pickle rebuild a State from its fields (they cannot assign them).
        return _rebuilt, (type(self), self._values())


def _rebuilt(cls: type[State], values: tuple[object, ...]) -> State:
    state = object.__new__(cls)
    for name, value in zip(FIELDS, values, strict=True):
        object.__setattr__(state, name, value)
    return state
