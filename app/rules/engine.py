"""The game as a state machine: ``new_game``, ``legal_actions``, ``apply``.

A game is ``(rules, seed, actions)``: its state is the replay of the actions from the
seeded deal. Each ``apply`` also runs everything that follows the action without a
decision — collecting the trick, scoring the deal, dealing the next one and turning its
kick — so the state returned always waits for a seat to act, or is over.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from app.rules.cards import (
    DECK_SIZE,
    SUIT_MASK,
    SUIT_NAMES,
    Card,
    Hand,
    bit,
    cards_in,
    suit_of,
)
from app.rules.config import Rules
from app.rules.errors import IllegalMove, NotOffered
from app.rules.scoring import game_total, hand_awards, kick_points
from app.rules.state import (
    BEG,
    GIVE_ONE,
    RUN_PACK,
    STAND,
    Action,
    Award,
    HandRecord,
    Phase,
    State,
    Trick,
    play,
)
from app.rules.tricks import legal_cards, trick_winner, why_illegal

FIRST_DEAL = 6
RUN_DEAL = 3


def shuffled_deck(seed: int, hand_number: int) -> tuple[Card, ...]:
    """The deck for one deal, from the game's own PRNG (never the global one)."""
    deck = list(range(52))
    random.Random(f"allfours:{seed}:{hand_number}").shuffle(deck)
    return tuple(deck)


def first_dealer_for(seed: int) -> int:
    """R5: the first dealer is drawn at random — from the game's seed, so replays agree."""
    return random.Random(f"allfours:{seed}:dealer").randrange(4)


def new_game(
    rules: Rules,
    seed: int,
    first_dealer: int | None = None,
    *,
    stacked: Sequence[Sequence[Card]] = (),
) -> State:
    """A new game, its first deal dealt and kicked.

    ``stacked`` gives the exact deck order (top first) for the first deals, for tests; later
    deals are shuffled from ``seed``.
    """
    for deck in stacked:
        if sorted(deck) != list(range(52)):
            raise ValueError("a stacked deck must hold each of the 52 cards once")
    dealer = first_dealer_for(seed) if first_dealer is None else first_dealer
    if dealer not in range(4):
        raise ValueError("the dealer is a seat 0-3")
    table = _Table.empty(rules, seed, tuple(tuple(d) for d in stacked), dealer)
    table.start_deal()
    return table.freeze()


def replay(
    rules: Rules,
    seed: int,
    first_dealer: int | None,
    actions: Iterable[Action],
    *,
    stacked: Sequence[Sequence[Card]] = (),
) -> State:
    state = new_game(rules, seed, first_dealer, stacked=stacked)
    for action in actions:
        state = apply(state, action)
    return state


def current_seat(state: State) -> int | None:
    return state.turn


def legal_actions(state: State) -> list[Action]:
    """Every action the seat to act may take (empty once the game is over)."""
    phase = state.phase
    if phase is Phase.PLAY:
        return [play(c) for c in cards_in(legal_play_mask(state))]
    if phase is Phase.BEG:
        return [STAND, BEG]
    if phase is Phase.GIVE_OR_RUN:
        return [GIVE_ONE, RUN_PACK] if give_one_refusal(state) is None else [RUN_PACK]
    return []


def legal_play_mask(state: State) -> Hand:
    assert state.turn is not None and state.trump is not None
    return legal_cards(
        state.hands[state.turn], state.trick, state.trump, state.rules.undertrump == "forbidden"
    )


def give_one_refusal(state: State) -> IllegalMove | None:
    """Why the dealer may not give one now (R11, `give_one_needs_trump`), or None."""
    rules = state.rules
    beggar_team = state.beggar % 2
    if not rules.give_one_can_win and state.scores[beggar_team] + 1 >= rules.target:
        return IllegalMove(
            "R11", "giving one would win the game for the beggar's team: you must run the pack"
        )
    kick_suit = suit_of(state.kicks[0])
    if rules.give_one_needs_trump and not state.hands[state.dealer] & SUIT_MASK[kick_suit]:
        return IllegalMove(
            "R10 (give one needs trump)",
            f"you hold no {SUIT_NAMES[kick_suit]}: you must run the pack",
        )
    return None


def apply(state: State, action: Action) -> State:
    """The state after the seat to act takes ``action``; raises a RuleError if it may not."""
    phase = state.phase
    kind = action.type
    if phase is Phase.PLAY and kind == "play":
        return _play(state, action)
    if phase is Phase.BEG and kind in ("stand", "beg"):
        table = _Table.of(state)
        if kind == "stand":
            table.decision = "stand"
            table.fix_trump(suit_of(table.kicks[0]))
        else:
            table.phase = Phase.GIVE_OR_RUN
            table.turn = table.dealer
        return table.freeze()
    if phase is Phase.GIVE_OR_RUN and kind in ("give_one", "run_pack"):
        table = _Table.of(state)
        if kind == "give_one":
            refusal = give_one_refusal(state)
            if refusal is not None:
                raise refusal
            table.give_one()
        else:
            table.run_pack()
        return table.freeze()
    raise NotOffered("R9" if phase is not Phase.GAME_OVER else "R19", _not_offered(state, kind))


def _not_offered(state: State, kind: str) -> str:
    offers = {
        Phase.BEG: "the beggar may stand or beg",
        Phase.GIVE_OR_RUN: "the dealer may give one or run the pack",
        Phase.PLAY: "cards are being played",
        Phase.GAME_OVER: "the game is over",
    }
    return f"{kind} is not possible now: {offers[state.phase]}"


def _play(state: State, action: Action) -> State:
    card = action.card
    seat = state.turn
    assert seat is not None and state.trump is not None
    if card is None:
        raise IllegalMove("R13", "play needs a card")
    if not 0 <= card < DECK_SIZE:
        # Callers outside the engine speak card codes; a stray index must still be refused
        # by rule, never crash the caller.
        raise IllegalMove("R3", f"{card!r} is not a card")
    refusal = why_illegal(
        card, state.hands[seat], state.trick, state.trump, state.rules.undertrump == "forbidden"
    )
    if refusal is not None:
        raise refusal
    table = _Table.of(state)
    table.play(seat, card)
    return table.freeze()


class _Table:
    """A mutable working copy of a State for the span of one ``apply``."""

    __slots__ = (
        "awards",
        "dealer",
        "dealt",
        "decision",
        "hand_number",
        "hands",
        "history",
        "kicks",
        "phase",
        "rules",
        "scores",
        "seed",
        "stacked",
        "stock",
        "trick",
        "tricks",
        "trump",
        "turn",
        "winner",
        "won",
    )

    rules: Rules
    seed: int
    stacked: tuple[tuple[Card, ...], ...]
    phase: Phase
    dealer: int
    hand_number: int
    scores: list[int]
    hands: list[Hand]
    dealt: list[Hand]
    stock: tuple[Card, ...]
    kicks: tuple[Card, ...]
    trump: int | None
    decision: str | None
    turn: int | None
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    won: list[Hand]
    awards: tuple[Award, ...]
    history: tuple[HandRecord, ...]
    winner: int | None

    @classmethod
    def empty(
        cls, rules: Rules, seed: int, stacked: tuple[tuple[Card, ...], ...], dealer: int
    ) -> _Table:
        t = cls()
        t.rules, t.seed, t.stacked = rules, seed, stacked
        t.dealer, t.hand_number, t.scores = dealer, 1, [0, 0]
        t.history, t.winner = (), None
        return t

    @classmethod
    def of(cls, s: State) -> _Table:
        t = cls()
        t.rules, t.seed, t.stacked, t.phase = s.rules, s.seed, s.stacked, s.phase
        t.dealer, t.hand_number, t.scores = s.dealer, s.hand_number, list(s.scores)
        t.hands, t.dealt, t.stock, t.kicks = list(s.hands), list(s.dealt), s.stock, s.kicks
        t.trump, t.decision, t.turn, t.trick = s.trump, s.decision, s.turn, s.trick
        t.tricks, t.won, t.awards = s.tricks, list(s.won), s.awards
        t.history, t.winner = s.history, s.winner
        return t

    def freeze(self) -> State:
        h, d, sc, w = self.hands, self.dealt, self.scores, self.won
        return State(
            rules=self.rules,
            seed=self.seed,
            stacked=self.stacked,
            phase=self.phase,
            dealer=self.dealer,
            hand_number=self.hand_number,
            scores=(sc[0], sc[1]),
            hands=(h[0], h[1], h[2], h[3]),
            dealt=(d[0], d[1], d[2], d[3]),
            stock=self.stock,
            kicks=self.kicks,
            trump=self.trump,
            decision=self.decision,  # type: ignore[arg-type]
            turn=self.turn,
            trick=self.trick,
            tricks=self.tricks,
            won=(w[0], w[1]),
            awards=self.awards,
            history=self.history,
            winner=self.winner,
        )

    # -- dealing and the kick (R6-R8, R10, R12) -------------------------------------------

    def start_deal(self) -> None:
        index = self.hand_number - 1
        if index < len(self.stacked):
            self.stock = self.stacked[index]
        else:
            self.stock = shuffled_deck(self.seed, self.hand_number)
        self.hands, self.dealt = [0, 0, 0, 0], [0, 0, 0, 0]
        self.kicks, self.trump, self.decision = (), None, None
        self.trick, self.tricks, self.won, self.awards = (), (), [0, 0], ()
        # R6: three at a time, twice round, starting on the dealer's right.
        self.deal_round()
        self.deal_round()
        if self.turn_up():
            return
        self.phase = Phase.BEG
        self.turn = (self.dealer + 1) % 4

    def deal_round(self) -> None:
        stock = self.stock
        for i in range(4):
            seat = (self.dealer + 1 + i) % 4
            for card in stock[RUN_DEAL * i : RUN_DEAL * (i + 1)]:
                self.hands[seat] |= 1 << card
                self.dealt[seat] |= 1 << card
        self.stock = stock[4 * RUN_DEAL :]

    def turn_up(self) -> bool:
        """Turn the top card of the stock (R7); True if its points ended the game."""
        card = self.stock[0]
        self.stock = self.stock[1:]
        self.kicks += (card,)
        points = kick_points(card, self.rules)
        return bool(points) and self.award(Award("kick", self.dealer % 2, points, card))

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
        self.redeal()

    def redeal(self) -> None:
        """R12: the pack ran out with no new suit: same dealer, a fresh deal."""
        self.close_deal(redeal=True)
        self.hand_number += 1
        self.start_deal()

    def fix_trump(self, suit: int) -> None:
        self.trump = suit
        self.phase = Phase.PLAY
        self.turn = (self.dealer + 1) % 4  # R13: the beggar leads

    # -- play (R13-R15) --------------------------------------------------------------------

    def play(self, seat: int, card: Card) -> None:
        self.hands[seat] &= ~bit(card)
        self.trick += ((seat, card),)
        if len(self.trick) < 4:
            self.turn = (seat + 1) % 4
            return
        assert self.trump is not None
        winner = trick_winner(self.trick, self.trump)
        for _, c in self.trick:
            self.won[winner % 2] |= 1 << c
        self.tricks += (Trick(self.trick[0][0], self.trick, winner),)
        self.trick = ()
        self.turn = winner
        if not self.hands[winner]:
            self.score_deal()

    # -- scoring (R16-R19) -----------------------------------------------------------------

    def award(self, award: Award) -> bool:
        """Apply one award; True if it brought its team to the target and ended the game."""
        self.awards += (award,)
        self.scores[award.team] += award.points
        if self.scores[award.team] < self.rules.target:
            return False
        self.winner = award.team
        self.phase = Phase.GAME_OVER
        self.turn = None
        self.close_deal(redeal=False)
        return True

    def score_deal(self) -> None:
        assert self.trump is not None
        for a in hand_awards(
            dealt=tuple(self.dealt),
            won=(self.won[0], self.won[1]),
            trump=self.trump,
            dealer=self.dealer,
            rules=self.rules,
        ):
            if self.award(a):
                return
        self.close_deal(redeal=False)
        self.dealer = (self.dealer + 1) % 4  # R5
        self.hand_number += 1
        self.start_deal()

    def close_deal(self, *, redeal: bool) -> None:
        totals = (game_total(self.won[0]), game_total(self.won[1])) if self.tricks else None
        d = self.dealt
        record = HandRecord(
            n=self.hand_number,
            dealer=self.dealer,
            redeal=redeal,
            dealt=(d[0], d[1], d[2], d[3]),
            kicks=self.kicks,
            trump=self.trump,
            decision=self.decision,  # type: ignore[arg-type]
            tricks=self.tricks,
            game_totals=totals,
            awards=self.awards,
            scores_after=(self.scores[0], self.scores[1]),
        )
        self.history += (record,)
