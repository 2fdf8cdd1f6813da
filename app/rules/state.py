"""Immutable values of a game: actions, awards, tricks, hand records and the state itself."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

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


@dataclass(frozen=True, slots=True)
class Award:
    """One point-scoring event, in the order it was applied (R7, R10, R16-R18)."""

    kind: AwardKind
    team: int
    points: int
    card: Card | None = None
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed lift: who led, the cards in the order played, who won it."""

    leader: int
    cards: tuple[tuple[int, Card], ...]
    winner: int


@dataclass(frozen=True, slots=True)
class HandRecord:
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


@dataclass(frozen=True, slots=True)
class State:
    """A game between deals or mid-deal. Build it with ``new_game`` and ``apply`` only."""

    rules: Rules
    seed: int
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

    @property
    def beggar(self) -> int:
        return (self.dealer + 1) % 4

    @property
    def last_hand(self) -> HandRecord | None:
        return self.history[-1] if self.history else None
