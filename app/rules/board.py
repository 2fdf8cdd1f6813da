"""Duplicate's board (R30-R31): the deck and dealer of board n of an event, and what a board
played as one hand comes to. Pure: an event's seed and a board number in, cards and points out.

Every table that plays board n of an event gets the same deck, from the seed's byte stream
labelled ``b{n}`` (docs/fairness.md's algorithm, the label apart), and the k-th redeal of it
(R12, the pack ran out) from ``b{n}r{k}``: one table's redeal never moves another board.
"""

from __future__ import annotations

import hashlib
import hmac
import random

from app.rules.cards import Card
from app.rules.shuffle import deck_from, seed_text
from app.rules.state import Call, Phase, State, Trick

NS, EW = 0, 1  # R30: seats 0 + 2 are North-South, 1 + 3 East-West (the teams, seat % 2)
RENEGE_MODES = ("off", "one")  # R31: a board's penalty counts as the point it gives


def board_label(board: int, redeal: int = 0) -> str:
    """The byte stream's label of board ``board``'s deck, or of its ``redeal``-th redeal."""
    if board < 1 or redeal < 0:
        raise ValueError("a board is numbered from 1, its redeals from 1")
    return f"b{board}" if redeal == 0 else f"b{board}r{redeal}"


def board_deck(seed: int, board: int, redeal: int = 0) -> tuple[Card, ...]:
    """R30: the deck of board ``board`` of the event dealt from ``seed`` (top card first)."""
    return deck_from(seed, board_label(board, redeal))


def board_dealer(board: int) -> int:
    """R30: board n is dealt by seat (n - 1) mod 4, so four boards give each seat the deal."""
    if board < 1:
        raise ValueError("a board is numbered from 1")
    return (board - 1) % 4


def board_score(points: tuple[int, int]) -> int:
    """R31: a board's score, North-South's points minus East-West's."""
    return points[NS] - points[EW]


def board_over(points: tuple[int, int], dealer: int) -> int:
    """The side a played board marks as its winner (a board has no winner by the rules: the
    engine marks every finished game with one). The side with more points; a tie to the
    side that did not deal, as R18's `non_dealer` tie."""
    if points[NS] != points[EW]:
        return NS if points[NS] > points[EW] else EW
    return (dealer + 1) % 2


def board_moves(state: State) -> str:
    """R34: the moves of the board so far, as one canonical text, read from the state: the
    bids of each deal (a redeal's, then this one's), the cards in the order played, the
    calls of renege (each with the number of cards played when it was made) and who said
    "score it". Two tables where the same moves were made give the same text."""
    parts = []
    deals: list[
        tuple[str | None, tuple[Trick, ...], tuple[tuple[int, Card], ...], tuple[Call, ...], int]
    ]
    deals = [(h.decision, h.tricks, (), h.calls, 0) for h in state.history]
    if state.winner is None:  # once over, the last deal is the history's last
        now = state.decision or ("beg" if state.phase is Phase.GIVE_OR_RUN else None)
        deals.append((now, state.tricks, state.trick, state.calls, state.reckoned))
    for decision, tricks, trick, calls, reckoned in deals:
        words = list(_BIDS.get(decision, ()))
        words += [str(card) for t in tricks for _, card in t.cards]
        words += [str(card) for _, card in trick]
        words += [f"c{c.seat}.{c.lift}@{c.played}" for c in calls]
        if reckoned:
            words.append(f"k{reckoned}")
        parts.append(" ".join(words))
    return "/".join(parts)


_BIDS: dict[str | None, tuple[str, ...]] = {
    "stand": ("stand",),
    "beg": ("beg",),
    "give_one": ("beg", "give_one"),
    "run_pack": ("beg", "run_pack"),
}


def board_chances(state: State) -> random.Random:
    """R34: the computer players' generator at a board: HMAC-SHA256 keyed by the event's
    seed, of the board's label and its moves so far. Not the room's version (joins and
    leaves move it, differently at each table): two tables where the same moves were made
    draw the same chances, and the seed (secret until the event ends) keeps them unforeseeable.
    """
    key = seed_text(state.seed).encode("ascii")
    text = f"{board_label(state.board)}:{board_moves(state)}".encode("ascii")
    return random.Random(hmac.new(key, text, hashlib.sha256).hexdigest())
