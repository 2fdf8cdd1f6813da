"""The game as a state machine: ``new_game``, ``legal_actions``, ``apply``.

A game is ``(rules, seed, actions)``: its state is the replay of the actions from the
seeded deal. Each ``apply`` also runs everything that follows the action without a
decision — collecting the trick, scoring the deal, dealing the next one and turning its
kick — so the state returned always waits for a seat to act, or is over. The rules
themselves are the steps of a ``WorkingState`` (table.py); ``apply`` checks the action, steps a
copy of the state and hands back that copy, frozen.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from app.reasons import N_, Reason, reason
from app.rules.board import RENEGE_MODES, board_dealer
from app.rules.cards import DECK_SIZE
from app.rules.config import Rules
from app.rules.errors import IllegalMove, NotOffered
from app.rules.legal import give_one_refusal, legal_actions, legal_play_mask
from app.rules.renege import BAD_SEAT, NOT_RECKONING, call_refusal, holds_honour
from app.rules.shuffle import SHUFFLE, SHUFFLES, first_dealer_for, shuffled_deck
from app.rules.state import Action, Phase, Renege, State
from app.rules.tricks import renege_kind, why_illegal
from app.rules.working import WorkingState

__all__ = [
    "apply",
    "current_seat",
    "first_dealer_for",
    "give_one_refusal",
    "legal_actions",
    "legal_play_mask",
    "new_game",
    "replay",
    "shuffled_deck",
]


def new_game(
    rules: Rules,
    seed: int,
    first_dealer: int | None = None,
    *,
    stacked: Sequence[Sequence[int]] = (),
    shuffle: int = SHUFFLE,
    board: int = 0,
) -> State:
    """A new game, its first deal dealt and kicked.

    ``stacked`` gives the exact deck order (top first) for the first deals, for tests; later
    deals are shuffled from ``seed`` by ``shuffle`` (app/rules/shuffle.py). ``board``: the
    game is that board of the event dealt from ``seed``, played as one hand (R30-R31); its
    dealer is the board's unless ``first_dealer`` says otherwise.
    """
    for deck in stacked:
        if sorted(deck) != list(range(52)):
            raise ValueError("a stacked deck must hold each of the 52 cards once")
    if shuffle not in SHUFFLES:
        raise ValueError(f"unknown shuffle {shuffle!r}")
    if board:
        if shuffle != SHUFFLE:
            raise ValueError("a board is dealt by the documented shuffle")
        if rules.renege not in RENEGE_MODES:
            raise ValueError("a board plays renege `off` or `one` (R31)")
        dealer = board_dealer(board) if first_dealer is None else first_dealer
    else:
        dealer = first_dealer_for(seed, shuffle) if first_dealer is None else first_dealer
    if dealer not in range(4):
        raise ValueError("the dealer is a seat 0-3")
    decks = tuple(tuple(d) for d in stacked)
    return WorkingState.new(rules, seed, dealer, decks, shuffle, board).freeze()


def replay(
    rules: Rules,
    seed: int,
    first_dealer: int | None,
    actions: Iterable[Action],
    *,
    stacked: Sequence[Sequence[int]] = (),
    shuffle: int = SHUFFLE,
    board: int = 0,
) -> State:
    state = new_game(rules, seed, first_dealer, stacked=stacked, shuffle=shuffle, board=board)
    for action in actions:
        state = apply(state, action)
    return state


def current_seat(state: State) -> int | None:
    return state.turn


def apply(state: State, action: Action) -> State:
    """The state after the seat to act takes ``action``; raises a RuleError if it may not."""
    table = WorkingState.of(state)
    step(table, action)
    return table.freeze()


def step(table: WorkingState, action: Action) -> None:
    """``apply`` in place: ``table`` takes ``action``, or a RuleError says why it may not."""
    phase = table.phase
    kind = action.type
    if kind in ("call", "reckoned", "score"):
        _table_action(table, action)
        return
    if phase is Phase.PLAY and kind == "play":
        card = action.card
        seat = table.turn
        assert seat is not None and table.trump is not None
        if card is None:
            raise IllegalMove("R13", CARD_NEEDED)
        if not 0 <= card < DECK_SIZE:
            # Callers outside the engine speak card codes; a stray index must still be
            # refused by rule, never crash the caller.
            raise IllegalMove("R3", NOT_A_CARD, index=card)
        forbid = table.rules.undertrump == "forbidden"
        hand = table.hands[seat]
        if table.rules.renege != "off" and hand >> card & 1:
            # R20-R21: any card is played; a renege is kept, judged, for a call to find.
            renege = renege_kind(card, hand, table.trick, table.trump, forbid)
            if renege is not None:
                lift = len(table.tricks) + 1
                honour = holds_honour(hand, table.trump)
                table.reneges += (Renege(seat, lift, card, renege, honour),)
            table.play(card)
            return
        refusal = why_illegal(card, hand, table.trick, table.trump, forbid)
        if refusal is not None:
            raise refusal
        table.play(card)
    elif phase is Phase.BEG and kind == "stand":
        table.stand()
    elif phase is Phase.BEG and kind == "beg":
        table.beg()
    elif phase is Phase.GIVE_OR_RUN and kind == "give_one":
        refusal = give_one_refusal(table)
        if refusal is not None:
            raise refusal
        table.give_one()
    elif phase is Phase.GIVE_OR_RUN and kind == "run_pack":
        table.run_pack()
    else:
        rule = "R9" if phase is not Phase.GAME_OVER else "R19"
        raise NotOffered(rule, NOT_OFFERED[phase], action=kind)


CARD_NEEDED = reason("card_needed", "play needs a card", N_("Choose a card to play."))
NOT_A_CARD = reason("not_a_card", "{index} is not a card", N_("That is not a card."))

# An action the phase does not offer, by the phase: what it offers instead.
NOT_OFFERED: dict[Phase, Reason] = {
    Phase.BEG: reason(
        "beggar_to_decide",
        "{action} is not possible now: the beggar may stand or beg",
        N_("That is not possible now: the beggar may stand or beg."),
    ),
    Phase.GIVE_OR_RUN: reason(
        "dealer_to_decide",
        "{action} is not possible now: the dealer may give one or run the pack",
        N_("That is not possible now: the dealer may give one or run the pack."),
    ),
    Phase.PLAY: reason(
        "cards_in_play",
        "{action} is not possible now: cards are being played",
        N_("That is not possible now: cards are being played."),
    ),
    Phase.RECKONING: reason(
        "hand_being_reckoned",
        "{action} is not possible now: the hand is being reckoned: call renege or say 'score it'",
        N_("The hand is being counted: call renege or say 'score it'."),
    ),
    Phase.GAME_OVER: reason(
        "game_over", "{action} is not possible now: the game is over", N_("The game is over.")
    ),
}


def _table_action(table: WorkingState, action: Action) -> None:
    """R22-R23: a call of renege, a seat's "score it", the reckoning's time running out."""
    if action.type == "call":
        seat = -1 if action.seat is None else action.seat
        lift = 0 if action.lift is None else action.lift
        refusal = call_refusal(table, seat, lift)
        if refusal is not None:
            raise refusal
        table.call(seat, lift)
        return
    if table.phase is not Phase.RECKONING:
        raise NotOffered("R23", NOT_RECKONING)
    if action.type == "score":
        table.score_deal()
        return
    if action.seat is None or not 0 <= action.seat < 4:
        raise IllegalMove("R23", BAD_SEAT, seat=-1 if action.seat is None else action.seat)
    table.say_reckoned(action.seat)
