"""The game as a table the engine changes in place: the one implementation of the deal (R6-R8),
the begging (R9-R12), the play (R13-R15) and the scoring of a deal (R16-R19).

A ``WorkingState`` is a ``State`` whose fields may be replaced. Every field holds an immutable value
(numbers, masks, tuples), so ``clone`` copies twenty references and never shares anything
that changes. ``apply`` (engine.py) clones the caller's State, steps the clone and freezes it:
the clone becomes the new State by a change of class, not a copy. The bots step clones of an
imagined deal (imagined.py) to its end, thousands of times a decision (as OpenSpiel's
``clone()``).

The steps do not check that an action is allowed: ``apply`` checks before it steps, and a
simulation only ever picks from ``legal_cards``.
"""

from __future__ import annotations

from typing import Self

from app.rules.board import board_deck, board_over
from app.rules.cards import Card, suit_of
from app.rules.config import Rules
from app.rules.legal import legal_play_mask
from app.rules.renege import barred_from_game, judge
from app.rules.scoring import game_total, hand_awards, kick_points
from app.rules.shuffle import SHUFFLE, shuffled_deck
from app.rules.state import Award, AwardKind, Call, HandRecord, Phase, State, Trick
from app.rules.tricks import winning_play

RUN_DEAL = 3  # R6, R10: cards to each seat at a time


class WorkingState(State):
    """A State the engine changes in place."""

    __slots__ = ()
    # A State refuses assignment; its working copy assigns as any plain object does.
    __setattr__ = object.__setattr__  # type: ignore[assignment]  # (mypy: unbound method)
    __delattr__ = object.__delattr__

    @classmethod
    def new(
        cls,
        rules: Rules,
        seed: int,
        dealer: int,
        stacked: tuple[tuple[Card, ...], ...] = (),
        shuffle: int = SHUFFLE,
        board: int = 0,
    ) -> WorkingState:
        """A new game, its first deal dealt and kicked (``board``: that board's, R30)."""
        t = object.__new__(cls)
        t.rules, t.seed, t.shuffle, t.stacked = rules, seed, shuffle, stacked
        t.board = board
        t.dealer, t.hand_number, t.scores = dealer, 1, (0, 0)
        t.history, t.winner = (), None
        t.start_deal()
        return t

    @classmethod
    def of(cls, state: State) -> Self:
        t = object.__new__(cls)
        t.rules, t.seed, t.stacked, t.phase = state.rules, state.seed, state.stacked, state.phase
        t.shuffle = state.shuffle
        t.dealer, t.hand_number, t.scores = state.dealer, state.hand_number, state.scores
        t.hands, t.dealt, t.stock, t.kicks = state.hands, state.dealt, state.stock, state.kicks
        t.trump, t.decision, t.turn, t.trick = state.trump, state.decision, state.turn, state.trick
        t.tricks, t.won, t.awards = state.tricks, state.won, state.awards
        t.reneges, t.calls, t.reckoned = state.reneges, state.calls, state.reckoned
        t.history, t.winner, t.board = state.history, state.winner, state.board
        return t

    def clone(self) -> Self:
        return self.of(self)

    def freeze(self) -> State:
        """This table, now a State: it must not be stepped again (nothing was copied)."""
        object.__setattr__(self, "__class__", State)
        return self

    # -- dealing and the kick (R6-R8, R10, R12) -------------------------------------------

    def start_deal(self) -> None:
        index = self.hand_number - 1
        if index < len(self.stacked):
            self.stock = self.stacked[index]
        elif self.board:  # R30: the board's deck, its k-th redeal's from `b{n}r{k}`
            self.stock = board_deck(self.seed, self.board, index)
        else:
            self.stock = shuffled_deck(self.seed, self.hand_number, self.shuffle)
        self.hands = self.dealt = (0, 0, 0, 0)
        self.kicks, self.trump, self.decision = (), None, None
        self.trick, self.tricks, self.won, self.awards = (), (), (0, 0), ()
        self.reneges, self.calls, self.reckoned = (), (), 0
        # R6: three at a time, twice round, starting on the dealer's right.
        self.deal_round()
        self.deal_round()
        if self.turn_up():
            return
        self.phase = Phase.BEG
        self.turn = (self.dealer + 1) % 4

    def deal_round(self) -> None:
        """Three cards to each seat, from the dealer's right (R6, R10)."""
        stock = self.stock
        hands = list(self.hands)
        dealt = list(self.dealt)
        for i in range(4):
            seat = (self.dealer + 1 + i) % 4
            c0, c1, c2 = stock[RUN_DEAL * i : RUN_DEAL * (i + 1)]
            cards = 1 << c0 | 1 << c1 | 1 << c2
            hands[seat] |= cards
            dealt[seat] |= cards
        self.hands = (hands[0], hands[1], hands[2], hands[3])
        self.dealt = (dealt[0], dealt[1], dealt[2], dealt[3])
        self.stock = stock[4 * RUN_DEAL :]

    def turn_up(self) -> bool:
        """Turn the top card of the stock (R7, R8); True if its points ended the game."""
        card = self.stock[0]
        self.stock = self.stock[1:]
        self.kicks += (card,)
        points = kick_points(card, self.rules)
        return bool(points) and self.award(Award("kick", self.dealer % 2, points, card))

    # -- begging (R9-R12) ------------------------------------------------------------------

    def stand(self) -> None:
        """R9: the kick's suit is trump."""
        self.decision = "stand"
        self.fix_trump(suit_of(self.kicks[0]))

    def beg(self) -> None:
        """R9: the dealer decides."""
        self.phase = Phase.GIVE_OR_RUN
        self.turn = self.dealer

    def give_one(self) -> None:
        # R10: giving one fixes the kick's suit as trump together with the point, so a
        # record cut short by that point (R19, `give_one_can_win`) still shows its trump.
        self.decision = "give_one"
        self.trump = suit_of(self.kicks[0])
        if self.award(Award("give_one", (self.dealer + 1) % 2, 1)):
            return
        self.fix_trump(self.trump)

    def run_pack(self) -> None:
        """R10, R12: deal three more and turn until a new suit shows, or redeal."""
        self.decision = "run_pack"
        kick_suit = suit_of(self.kicks[0])
        while len(self.stock) >= 4 * RUN_DEAL + 1:
            self.deal_round()
            if self.turn_up():
                return
            if suit_of(self.kicks[-1]) != kick_suit:
                self.fix_trump(suit_of(self.kicks[-1]))
                return
        if self.rules.flip_last_card:
            while self.stock:
                if self.turn_up():
                    return
                if suit_of(self.kicks[-1]) != kick_suit:
                    self.fix_trump(suit_of(self.kicks[-1]))
                    return
        # R12: the pack ran out with no new suit: same dealer, a fresh deal.
        self.close_deal(redeal=True)
        self.next_deal(same_dealer=True)

    def fix_trump(self, suit: int) -> None:
        self.trump = suit
        self.phase = Phase.PLAY
        self.turn = (self.dealer + 1) % 4  # R13: the beggar leads

    # -- play (R13-R15) --------------------------------------------------------------------

    legal_cards = legal_play_mask  # R14: the cards the seat to play may play

    def play(self, card: Card) -> None:
        """The seat to play plays ``card``; a full trick is lifted (R15), a last one scored."""
        seat = self.turn
        assert seat is not None
        # Spelt out seat by seat, not looped: this runs for every card of every simulated deal.
        h0, h1, h2, h3 = self.hands
        off = ~(1 << card)
        if seat == 0:
            self.hands = (h0 & off, h1, h2, h3)
        elif seat == 1:
            self.hands = (h0, h1 & off, h2, h3)
        elif seat == 2:
            self.hands = (h0, h1, h2 & off, h3)
        else:
            self.hands = (h0, h1, h2, h3 & off)
        trick = self.trick + ((seat, card),)  # noqa: RUF005 (twice as fast as unpacking)
        if len(trick) < 4:
            self.trick = trick
            self.turn = (seat + 1) % 4
            return
        assert self.trump is not None
        winner = winning_play(trick, self.trump)[0]
        (leader, c0), (_, c1), (_, c2), (_, c3) = trick
        lifted = 1 << c0 | 1 << c1 | 1 << c2 | 1 << c3
        w0, w1 = self.won
        self.won = (w0 | lifted, w1) if winner % 2 == 0 else (w0, w1 | lifted)
        self.tricks += (Trick(leader, trick, winner),)
        self.trick = ()
        self.turn = winner
        if not self.hands[winner]:
            self.last_lift_taken()

    def last_lift_taken(self) -> None:
        """The hand's last card is played: it is scored, or with renege on reckoned (R23)."""
        if self.rules.renege == "off":
            self.score_deal()
            return
        self.phase = Phase.RECKONING
        self.turn = None

    # -- renege mode (R22-R25) -------------------------------------------------------------

    def call(self, seat: int, lift: int) -> Call:
        """R22: ``seat`` calls renege on ``lift``: judged at once, its penalty paid (R24-R25)."""
        judged, caught = judge(self, seat, lift)
        if caught is not None:
            reneges = list(self.reneges)
            reneges[caught] = reneges[caught]._replace(called=True)
            self.reneges = tuple(reneges)
        self.calls += (judged,)
        if judged.paid_by is not None:
            self.pay(judged)
        return judged

    def pay(self, judged: Call) -> None:
        """R24-R25: the penalty, an award to the other team: a point (R19 applies), or the
        game whatever the scores (a bullseye: nothing more of the hand is awarded)."""
        assert judged.paid_by is not None
        to = 1 - judged.paid_by
        kind: AwardKind
        if judged.upheld:
            card, seat = judged.card, judged.offender
            kind = "renege" if judged.penalty == "one" else "renege_bullseye"
        else:
            card, seat = None, judged.seat
            kind = "false_call" if judged.penalty == "one" else "false_call_bullseye"
        if judged.penalty == "one":
            self.award(Award(kind, to, 1, card, seat))
            return
        self.awards += (Award(kind, to, 0, card, seat),)
        self.end_game(to)

    def say_reckoned(self, seat: int) -> None:
        """R23: ``seat`` says "score it"; once all four have, the hand is scored."""
        self.reckoned |= 1 << seat
        if self.reckoned == 0b1111:
            self.score_deal()

    # -- scoring (R16-R19) -----------------------------------------------------------------

    def award(self, award: Award) -> bool:
        """Apply one award; True if it brought its team to the target and ended the game."""
        self.awards += (award,)
        s, points = self.scores, award.points
        self.scores = s = (s[0] + points, s[1]) if award.team == 0 else (s[0], s[1] + points)
        if self.board or s[award.team] < self.rules.target:  # R31: a board has no target
            return False
        self.end_game(award.team)
        return True

    def end_game(self, winner: int) -> None:
        self.winner = winner
        self.phase = Phase.GAME_OVER
        self.turn = None
        self.close_deal(redeal=False)

    def score_deal(self) -> None:
        assert self.trump is not None
        awards = hand_awards(
            dealt=self.dealt, won=self.won, trump=self.trump, dealer=self.dealer, rules=self.rules
        )
        if self.calls:
            barred = barred_from_game(self.calls)
            awards = [a for a in awards if a.kind != "game" or a.team not in barred]
        for a in awards:
            if self.award(a):
                return
        if self.board:  # R31: a board is one hand, over once it is scored
            self.end_game(board_over(self.scores, self.dealer))
            return
        self.close_deal(redeal=False)
        self.next_deal(same_dealer=False)

    def close_deal(self, *, redeal: bool) -> None:
        totals = (game_total(self.won[0]), game_total(self.won[1])) if self.tricks else None
        record = HandRecord(
            n=self.hand_number,
            dealer=self.dealer,
            redeal=redeal,
            dealt=self.dealt,
            kicks=self.kicks,
            trump=self.trump,
            decision=self.decision,
            tricks=self.tricks,
            game_totals=totals,
            awards=self.awards,
            scores_after=self.scores,
            reneges=self.reneges,
            calls=self.calls,
        )
        self.history += (record,)

    def next_deal(self, *, same_dealer: bool) -> None:
        """R5: the deal passes to the right, except after a redeal (R12)."""
        if not same_dealer:
            self.dealer = (self.dealer + 1) % 4
        self.hand_number += 1
        self.start_deal()
