"""One deal as a bot imagines it, stepped by the rules' own ``WorkingState``: built from what an
``Observation`` showed, the hidden hands filled by the bot's guess (``Imagined.deal``).

Apart from table.py because it reads an Observation: the table below the observer stays free
of it, and the observer free of the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from app.rules.cards import Card, Hand
from app.rules.shuffle import SHUFFLE
from app.rules.view import Observation
from app.rules.working import WorkingState


class Imagined(WorkingState):
    """One deal as a bot imagines it: the public facts it saw, hidden hands of its choosing.

    It ends with the deal (no seat is to act, ``turn`` is None): what follows a deal is a
    fresh shuffle no one can foresee.
    """

    __slots__ = ()

    def deal(
        self, hands: Sequence[Hand], dealt: Sequence[Hand], stock: Sequence[Card] = ()
    ) -> Self:
        """A copy of this deal with these hands held, these dealt (held and played), and the
        stock in this order (top first)."""
        t = self.clone()
        t.hands = (hands[0], hands[1], hands[2], hands[3])
        t.dealt = (dealt[0], dealt[1], dealt[2], dealt[3])
        t.stock = tuple(stock)
        return t

    def close_deal(self, *, redeal: bool) -> None:
        pass  # no one reads an imagined deal's record: its scores say what it was worth

    def next_deal(self, *, same_dealer: bool) -> None:
        self.turn = None

    def last_lift_taken(self) -> None:
        self.score_deal()  # a bot's imagined deal is scored at once: it never reneges

    def end_game(self, winner: int) -> None:
        if self.board:  # R31: a board is not won, its points are its worth (no target)
            self.turn = None
            return
        super().end_game(winner)


def imagined(obs: Observation) -> Imagined:
    """The deal ``obs`` shows, every hidden hand empty until ``Imagined.deal`` fills them."""
    won = [0, 0]
    for lift in obs.tricks:
        for _, c in lift.cards:
            won[lift.winner % 2] |= 1 << c
    t = object.__new__(Imagined)
    t.rules, t.seed, t.stacked, t.phase = obs.rules, 0, (), obs.phase
    t.shuffle = SHUFFLE
    t.dealer, t.hand_number, t.scores = obs.dealer, obs.hand_number, obs.scores
    t.hands = t.dealt = (0, 0, 0, 0)
    t.stock, t.kicks = (), obs.kicks
    t.trump, t.decision, t.turn, t.trick = obs.trump, obs.decision, obs.turn, obs.trick
    t.tricks, t.won, t.awards = obs.tricks, (won[0], won[1]), ()
    t.reneges, t.calls, t.reckoned = (), obs.calls, 0
    t.history, t.winner, t.board = (), obs.winner, obs.board
    return t
