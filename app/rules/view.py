"""The only door for private information: what one seat (or a spectator) may see.

``observe`` decides it, and nothing else does: a seat gets its own hand and the table's public
facts, never another hand; the deals played so far as that viewer may see them; what the
computer played for that seat while it was away; the seed once the game is over, and from the
first deal the seed's commitment. The typed shapes of it (app/views) copy an Observation;
they decide nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from app.rules.cards import RANKS, Card, Hand, make, suit_of
from app.rules.config import Rules
from app.rules.errors import IllegalMove
from app.rules.legal import legal_actions, refusals, renege_cards
from app.rules.shuffle import SHUFFLE, seed_commitment
from app.rules.state import Action, Call, HandRecord, Phase, State, Trick

Decision = Literal["stand", "give_one", "run_pack"]


@dataclass(frozen=True, slots=True)
class Observation:
    """What a seat sees at the table: public facts plus its own hand."""

    seat: int | None
    rules: Rules
    phase: Phase
    dealer: int
    turn: int | None
    hand_number: int
    kicks: tuple[Card, ...]
    decision: Decision | None  # said aloud at the table
    trump: int | None
    hand: Hand
    hand_sizes: tuple[int, int, int, int]
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]  # this deal's completed lifts, face up on the table
    legal: tuple[Action, ...]
    refusals: tuple[tuple[Action, IllegalMove], ...]  # actions shown but not allowed, and why
    scores: tuple[int, int]
    # The finished deals as this viewer may see them: a seat's ``dealt`` is 0 where this
    # viewer may not see it (a seat is dealt six cards or more, so 0 means "not shown").
    history: tuple[HandRecord, ...]
    winner: int | None
    seed: int | None  # public once the game is over: then anyone may check the deals
    # The seed's hex SHA-256, public from the first deal, so the seed shown at the end is
    # provably the one dealt from (None for a game dealt before the documented shuffle).
    seed_commitment: str | None
    # What the computer did for this seat (away cover, turn timer) since its own last move.
    played_for_you: tuple[Action, ...] = ()
    # Renege mode (R20-R27): this deal's calls, public; the cards of the viewer's hand that
    # would renege, on their turn only; the seats that said "score it" in the reckoning.
    calls: tuple[Call, ...] = ()
    renege_cards: Hand = 0
    reckoned: int = 0
    board: int = 0  # R30: the board this game deals, 0 for a game to the target

    @property
    def beggar(self) -> int:
        return (self.dealer + 1) % 4

    @property
    def held_trump(self) -> int | None:
        """The suit a player sorts first: trump, or before it is fixed the kick's."""
        if self.trump is not None:
            return self.trump
        return suit_of(self.kicks[-1]) if self.kicks else None

    @property
    def last_trick(self) -> Trick | None:
        """The lift last taken, left face up beside its winner: this deal's, and before this
        deal's first lift the previous deal's last (it often decided that deal's hang jack,
        Game and High, and a player looks at it while the beggar decides)."""
        if self.tricks:
            return self.tricks[-1]
        last = self.history[-1] if self.history else None
        return last.tricks[-1] if last is not None and last.tricks else None


def observe(
    state: State, seat: int | None, played_for: Sequence[Sequence[Action]] = ()
) -> Observation:
    """What ``seat`` (None: a spectator) may see of ``state``; ``played_for`` is, per seat,
    what the computer did for that seat since its own last move (a seat sees its own)."""
    to_act = seat is not None and seat == state.turn
    over = state.winner is not None
    return Observation(
        seat=seat,
        rules=state.rules,
        phase=state.phase,
        dealer=state.dealer,
        turn=state.turn,
        hand_number=state.hand_number,
        kicks=state.kicks,
        decision=state.decision,
        trump=state.trump,
        hand=state.hands[seat] if seat is not None else 0,
        hand_sizes=(
            state.hands[0].bit_count(),
            state.hands[1].bit_count(),
            state.hands[2].bit_count(),
            state.hands[3].bit_count(),
        ),
        trick=state.trick,
        tricks=state.tricks,
        legal=tuple(legal_actions(state)) if to_act else (),
        refusals=refusals(state) if to_act else (),
        scores=state.scores,
        history=state.history if over else tuple(_seen(r, seat) for r in state.history),
        winner=state.winner,
        # A board's seed is its event's: it deals the boards not yet played (R33).
        seed=state.seed if over and not state.board else None,
        seed_commitment=seed_commitment(state.seed) if state.shuffle == SHUFFLE else None,
        played_for_you=tuple(played_for[seat]) if seat is not None and played_for else (),
        calls=state.calls,
        renege_cards=renege_cards(state) if to_act else 0,
        reckoned=state.reckoned,
        board=state.board,
    )


def _seen(record: HandRecord, viewer: int | None) -> HandRecord:
    """A finished deal as ``viewer`` may see it while the game runs. Every card of a
    played-out deal was shown in a trick; a deal that was thrown in (a redeal, or a game
    ended by a kick or a give one) showed no one's hand, so each viewer sees only its own
    seat's cards there (all of them once the game is over and its seed public). An uncalled
    renege is no one's to know until the game is over (R27): a call shows what it caught."""
    if record.reneges:
        record = record._replace(reneges=())
    if record.played_out:
        return record
    d = record.dealt
    return record._replace(
        dealt=(
            d[0] if viewer == 0 else 0,
            d[1] if viewer == 1 else 0,
            d[2] if viewer == 2 else 0,
            d[3] if viewer == 3 else 0,
        )
    )


# Spades, hearts, clubs, diamonds: neighbouring suits of other colours are easy to tell apart.
_HELD_ORDER = (3, 2, 0, 1)


def sorted_hand(hand: Hand, trump: int | None) -> list[Card]:
    """How a player holds the cards: trumps first (before trump is fixed, the kick's suit),
    then the other suits in alternating colours, each high to low. The page shows the hand
    in this order too."""
    return [card for card in _HOLDING[trump] if hand >> card & 1]


def _holding(trump: int | None) -> tuple[Card, ...]:
    """The whole deck in the order a player holds it with ``trump`` (``sorted_hand``)."""
    start = _HELD_ORDER.index(trump) if trump is not None else 0
    order = _HELD_ORDER[start:] + _HELD_ORDER[:start]
    return tuple(make(rank, suit) for suit in order for rank in range(len(RANKS) - 1, -1, -1))


_HOLDING = {trump: _holding(trump) for trump in (None, 0, 1, 2, 3)}
