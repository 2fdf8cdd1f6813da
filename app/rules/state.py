"""Immutable values of a game: actions, awards, tricks, hand records and the state itself."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass
from enum import StrEnum
from typing import Any, Literal, NamedTuple

from app.rules.cards import Card, Hand
from app.rules.config import Rules

ActionType = Literal["stand", "beg", "give_one", "run_pack", "play", "call", "reckoned", "score"]
# The actions of the seat whose turn it is (the others are the table's, R22-R23: any seat
# calls renege or says "score it" in its own time; "score" is the reckoning's time running out).
ACTION_TYPES: tuple[ActionType, ...] = ("stand", "beg", "give_one", "run_pack", "play")
TABLE_ACTION_TYPES: tuple[ActionType, ...] = ("call", "reckoned", "score")

AwardKind = Literal[
    "kick",
    "give_one",
    "high",
    "low",
    "jack",
    "hang_jack",
    "game",
    # R24-R25: a penalty, to the team that did not pay it: for a renege called (its card and
    # offender), or for a wrong call (the caller's seat); a bullseye is the game, 0 points.
    "renege",
    "renege_bullseye",
    "false_call",
    "false_call_bullseye",
]
RenegeKind = Literal["a", "b", "c"]
Penalty = Literal["one", "bullseye"]


class Phase(StrEnum):
    BEG = "beg"
    GIVE_OR_RUN = "give_or_run"
    PLAY = "play"
    RECKONING = "reckoning"  # R23: the last card is played, the hand not yet scored
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class Action:
    type: ActionType
    card: Card | None = None
    seat: int | None = None  # who calls or says "score it" (R22, R23): not the seat to act
    lift: int | None = None  # the lift called, 1 = the hand's first


def call(seat: int, lift: int) -> Action:
    """R22: ``seat`` calls renege on lift ``lift``."""
    return Action("call", seat=seat, lift=lift)


def reckoned(seat: int) -> Action:
    """R23: ``seat`` says "score it"."""
    return Action("reckoned", seat=seat)


SCORE = Action("score")  # R23: the reckoning's time is up


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


class Renege(NamedTuple):
    """R21: a card played that the rules forbid, as the engine judged it when it was played."""

    seat: int
    lift: int  # 1 = the hand's first lift
    card: Card
    kind: RenegeKind
    honour: bool  # R24 `trinidad`: the offender held the A, K, Q, J or 10 of trumps
    called: bool = False


class Call(NamedTuple):
    """R22: a call of renege and its judgement."""

    seat: int
    lift: int
    upheld: bool
    penalty: Penalty | None  # what was paid (None: nothing, R24's once a hand, R25 `free`)
    paid_by: int | None  # the team that paid it
    card: Card | None = None  # the renege found, when upheld
    offender: int | None = None
    played: int = 0  # the cards of the hand played when it was called (its place in the hand)


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
    reneges: tuple[Renege, ...] = ()  # R27: public once the game is over
    calls: tuple[Call, ...] = ()

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
    "reneges",
    "calls",
    "reckoned",
    "history",
    "winner",
    "board",
)


class State:
    """A game between deals or mid-deal. Build it with ``new_game`` and ``apply`` only.

    Immutable, like every value here: a field cannot be assigned. ``WorkingState`` (table.py) is a
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
    reneges: tuple[Renege, ...]  # this deal's reneges (R21), known to the engine only
    calls: tuple[Call, ...]  # this deal's calls (R22), public
    reckoned: int  # R23: the seats that said "score it", a mask of 1 << seat
    history: tuple[HandRecord, ...]
    winner: int | None
    # R30-R31: the board this game deals (its deck from the label `b{n}`), played as one
    # hand; 0 for a game to the target.
    board: int

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
