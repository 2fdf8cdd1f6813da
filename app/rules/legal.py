"""What the seat to act may do now, and why not the rest: asked by the engine before it steps,
by the observer for the seat's view, by the bots' imagined deals. Below all three, so none of
them imports another for it."""

from __future__ import annotations

from app.reasons import N_, reason
from app.rules.cards import DECK_SIZE, SUIT_MASK, SUITS, Hand, cards_in, suit_of
from app.rules.errors import IllegalMove
from app.rules.state import BEG, GIVE_ONE, RUN_PACK, STAND, Action, Phase, State
from app.rules.tricks import legal_cards, why_illegal

_PLAYS = tuple(Action("play", card) for card in range(DECK_SIZE))

GIVE_ONE_WOULD_WIN = reason(
    "give_one_would_win",
    "giving one would win the game for the beggar's team: you must run the pack",
    N_("Giving one would win the game for the beggar's team: you must run the pack"),
)
GIVE_ONE_NEEDS_TRUMP = reason(
    "give_one_needs_trump",
    "you hold no {suit}: you must run the pack",
    N_("You hold no %(suit)s: you must run the pack"),
)


def legal_play_mask(state: State) -> Hand:
    """R14: the cards the seat to play may play."""
    assert state.turn is not None and state.trump is not None
    return legal_cards(
        state.hands[state.turn], state.trick, state.trump, state.rules.undertrump == "forbidden"
    )


def give_one_refusal(state: State) -> IllegalMove | None:
    """Why the dealer may not give one now (R11, `give_one_needs_trump`), or None."""
    rules = state.rules
    beggar_team = state.beggar % 2
    # R31: a board has no target, so no give one can win it (R11 does not apply).
    if (
        not state.board
        and not rules.give_one_can_win
        and state.scores[beggar_team] + 1 >= rules.target
    ):
        return IllegalMove("R11", GIVE_ONE_WOULD_WIN)
    kick_suit = suit_of(state.kicks[0])
    if rules.give_one_needs_trump and not state.hands[state.dealer] & SUIT_MASK[kick_suit]:
        needs = GIVE_ONE_NEEDS_TRUMP
        return IllegalMove("R10 (give one needs trump)", needs, suit=SUITS[kick_suit])
    return None


def legal_actions(state: State) -> list[Action]:
    """Every action the seat to act may take (empty once the game is over)."""
    phase = state.phase
    if phase is Phase.PLAY:
        if state.rules.renege != "off":  # R20: any card of the hand
            assert state.turn is not None
            return [_PLAYS[c] for c in cards_in(state.hands[state.turn])]
        return [_PLAYS[c] for c in cards_in(legal_play_mask(state))]
    if phase is Phase.BEG:
        return [STAND, BEG]
    if phase is Phase.GIVE_OR_RUN:
        return [GIVE_ONE, RUN_PACK] if give_one_refusal(state) is None else [RUN_PACK]
    return []


def refusals(state: State) -> tuple[tuple[Action, IllegalMove], ...]:
    """The actions the seat to act is shown but may not take, and the rule each breaks."""
    if state.phase is Phase.GIVE_OR_RUN:
        refusal = give_one_refusal(state)
        return ((GIVE_ONE, refusal),) if refusal else ()
    if state.phase is Phase.PLAY and state.trick and state.rules.renege == "off":
        assert state.turn is not None and state.trump is not None
        hand = state.hands[state.turn]
        forbidden = state.rules.undertrump == "forbidden"
        out = []
        for card in cards_in(hand):
            err = why_illegal(card, hand, state.trick, state.trump, forbidden)
            if err is not None:
                out.append((_PLAYS[card], err))
        return tuple(out)
    return ()


def renege_cards(state: State) -> Hand:
    """R20: with renege on, the cards of the hand to play that would renege (R21)."""
    if state.phase is not Phase.PLAY or state.rules.renege == "off":
        return 0
    assert state.turn is not None
    return state.hands[state.turn] & ~legal_play_mask(state)
