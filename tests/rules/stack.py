"""Stacked decks: build the exact deck order that deals what a test wants.

The engine deals from the top (index 0): three cards to each seat starting at
``(dealer + 1) % 4``, twice round, then turns the kick. Each run of the pack deals three more
to each seat in the same order and turns one more card (RULES.md R6, R10). ``stack`` lays the
cards a test names into exactly those positions and fills every slot it leaves open with the
remaining cards, lowest card index first (clubs 2 upwards), so a stacked deck is always a
whole, duplicate-free deck.

Cards are written as R3 codes, space separated: ``stack(0, {1: "AH KH QH 2C 3C 4C"}, "5H")``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from app.rules import DEFAULT_RULES, Action, Phase, Rules, State, apply, new_game
from app.rules.cards import Card, Hand, mask_of, parse
from app.rules.engine import legal_play_mask
from app.rules.state import SCORE

Cards = str | Sequence[str]


def cards(text: Cards) -> list[Card]:
    """``"AH KH"`` (or ``["AH", "KH"]``) -> the cards."""
    words = text.split() if isinstance(text, str) else list(text)
    return [parse(w) for w in words]


def codeset(text: str) -> set[str]:
    """``"AH KH"`` -> ``{"AH", "KH"}``, to compare with sets of codes."""
    return set(text.split())


def card(text: str) -> Card:
    return parse(text)


def mask(text: Cards) -> Hand:
    return mask_of(cards(text))


def seat_order(dealer: int) -> list[int]:
    """The order cards are dealt and play starts: the dealer's right first (R4, R6)."""
    return [(dealer + 1 + i) % 4 for i in range(4)]


def stack(
    dealer: int,
    hands: Mapping[int, Cards] | None = None,
    kicks: Cards = (),
    runs: Sequence[Mapping[int, Cards]] = (),
    rest: Cards = (),
) -> list[Card]:
    """The deck (top first) that deals ``hands`` (up to 6 cards a seat), turns ``kicks[0]``,
    then for each run deals ``runs[i]`` (up to 3 cards a seat) and turns ``kicks[i + 1]``;
    ``rest`` follows the last kick (the cards ``flip_last_card`` turns). Open slots are
    filled with the unnamed cards, lowest index first.
    """
    hands = hands or {}
    kick_cards = cards(kicks)
    if len(runs) > max(len(kick_cards) - 1, 0):
        raise ValueError("each run needs the kick it turns")
    named = [c for h in hands.values() for c in cards(h)] + kick_cards
    named += [c for r in runs for h in r.values() for c in cards(h)] + cards(rest)
    if len(set(named)) != len(named):
        raise ValueError(f"a card is named twice: {sorted(named)}")
    pool = [c for c in range(52) if c not in set(named)]

    def take(wanted: list[Card], n: int) -> list[Card]:
        if len(wanted) > n:
            raise ValueError(f"{len(wanted)} cards named where {n} are dealt")
        return wanted + [pool.pop(0) for _ in range(n - len(wanted))]

    first = {s: take(cards(hands.get(s, ())), 6) for s in range(4)}
    deck: list[Card] = []
    for half in (0, 1):
        for s in seat_order(dealer):
            deck += first[s][3 * half : 3 * half + 3]
    for i, kick in enumerate(kick_cards):
        deck.append(kick)
        if i < len(kick_cards) - 1:
            run = runs[i] if i < len(runs) else {}
            for s in seat_order(dealer):
                deck += take(cards(run.get(s, ())), 3)
    deck += cards(rest) + pool
    assert sorted(deck) == list(range(52))
    return deck


def game(dealer: int, *decks: Sequence[Card], rules: Rules = DEFAULT_RULES, seed: int = 0) -> State:
    """A new game whose first deals come from ``decks``."""
    return new_game(rules, seed, dealer, stacked=list(decks))


def act(text: str) -> Action:
    """``"stand"``, ``"beg"``, ``"give_one"``, ``"run_pack"`` or a card code to play."""
    if text in ("stand", "beg", "give_one", "run_pack"):
        return Action(text)  # type: ignore[arg-type]
    return Action("play", parse(text))


def do(state: State, *steps: str) -> State:
    """Apply the actions, each written as for ``act`` (several per string, space separated)."""
    for step in steps:
        for word in step.split():
            state = apply(state, act(word))
    return state


# Three cards of one suit turned one after another, beg and run the pack twice: a redeal
# worth these kick points to the dealer's team (R7, R12).
REDEAL_KICKS = {
    0: "2S 3S 4S",
    1: "AS 2S 3S",
    2: "6S 2S 3S",
    3: "JS 2S 3S",
    4: "JS AS 2S",
    5: "JS 6S 2S",
    6: "JS AS 6S",
}


def redeal_deck(dealer: int, points: int) -> list[Card]:
    """A deck where beg + run the pack twice shows no new suit: a redeal (R12) that scores
    ``points`` kick points for the dealer's team (R7). The three kicks are spades; what is
    dealt does not matter, since the deal is thrown in."""
    return stack(dealer, kicks=REDEAL_KICKS[points])


def rotate(hands: Mapping[int, Cards], k: int) -> dict[int, Cards]:
    """The same hands moved ``k`` seats on: with the dealer moved too, the same deal."""
    return {(s + k) % 4: h for s, h in hands.items()}


def play_out(state: State) -> State:
    """Play the deal in progress to its end, each seat playing its lowest legal card (never a
    renege, R20), and in renege mode let the reckoning's time run out (R23)."""
    n = state.hand_number
    while state.hand_number == n and state.phase is Phase.PLAY:
        legal = legal_play_mask(state)
        state = apply(state, Action("play", (legal & -legal).bit_length() - 1))
    if state.phase is Phase.RECKONING:
        state = apply(state, SCORE)
    return state


# A deal with no point in it for anyone (with game_tie "none"): spades are trump and none is
# dealt, and every card dealt is a 2-9, so Game is 0 to 0. It moves the deal on (R5).
QUIET_HANDS = {
    0: "2C 3C 4C 5C 6C 7C",
    1: "8C 9C 2D 3D 4D 5D",
    2: "6D 7D 8D 9D 2H 3H",
    3: "4H 5H 6H 7H 8H 9H",
}


def quiet_deck(dealer: int) -> list[Card]:
    return stack(dealer, QUIET_HANDS, "3S")


def reach(
    scores: tuple[int, int],
    dealer: int,
    *then: Sequence[Card],
    rules: Rules = DEFAULT_RULES,
) -> State:
    """A game brought by real deals to ``scores`` with ``dealer`` about to deal ``then[0]``.

    Kick points come from redeals (beg, run the pack, no new suit: R7, R12) and the deal
    moves on by quiet deals (R5). Needs ``game_tie="none"`` and scores below the target.
    """
    plan: list[tuple[str, list[Card]]] = []
    seat = dealer
    for team in (seat % 2, 1 - seat % 2):
        left = scores[team]
        if not left:
            continue
        if seat % 2 != team:
            plan.append(("quiet", quiet_deck(seat)))
            seat = (seat + 1) % 4
        while left:
            chunk = min(left, 6)
            plan.append(("redeal", redeal_deck(seat, chunk)))
            left -= chunk
    while seat != dealer:
        plan.append(("quiet", quiet_deck(seat)))
        seat = (seat + 1) % 4
    state = new_game(rules, 0, dealer, stacked=[d for _, d in plan] + [list(d) for d in then])
    for kind, _ in plan:
        state = do(state, "beg run_pack") if kind == "redeal" else play_out(do(state, "stand"))
    if plan:
        assert state.history[len(plan) - 1].scores_after == scores
    assert state.dealer == dealer
    return state
