"""Bots see only what their seat sees: the Observation, never the State or another hand."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from app.bots import Budget, choose
from app.bots.knowledge import knowledge_of
from app.rules import Rules, apply, new_game, observe
from app.rules.state import BEG, STAND, Phase, State

BOTS = Path(__file__).resolve().parents[2] / "app" / "bots"
# The referee's tools: a bot module that imports one of these could look at hidden cards.
REFEREE = {
    "State",
    "WorkingState",
    "observe",
    "apply",
    "step",
    "new_game",
    "replay",
    "current_seat",
    "legal_actions",
}
TINY = Budget(ms=None, cap_ms=None, max_worlds=8)


def test_bot_modules_never_import_the_state_or_the_referee() -> None:
    paths = sorted(BOTS.glob("*.py"))
    assert len(paths) > 3, "the bots' modules were not found"
    for path in paths:
        if path.name == "arena.py":  # the arena is the referee between bots
            continue
        # The review replays a finished game (the referee's part) and judges each decision
        # from that seat's observation only (tests/bots/test_review.py, the hidden cards).
        if path.name == "review.py":
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = {a.name for a in node.names}
                assert not names & REFEREE, (path.name, names & REFEREE)
                assert node.module not in ("app.rules.engine", "app.rules.state") or not (
                    names - {"Action", "Phase", "STAND", "BEG", "GIVE_ONE", "RUN_PACK", "play"}
                ), (path.name, names)
            elif isinstance(node, ast.Import):
                modules = {a.name for a in node.names}
                assert not modules & {"app.rules.engine", "app.rules.state"}, (path.name, modules)


def _deck(seed: int) -> list[int]:
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    return deck


def _reshuffle_hidden(deck: list[int], dealer: int, seat: int, seed: int) -> list[int]:
    """The same deck for ``seat``: its own cards and the kick in place, every other card
    (other hands and the stock) moved at random."""
    rel = (seat - dealer - 1) % 4
    own = {3 * rel + i for i in range(3)} | {12 + 3 * rel + i for i in range(3)}
    hidden = [p for p in range(52) if p not in own and p != 24]
    cards = [deck[p] for p in hidden]
    random.Random(seed).shuffle(cards)
    out = list(deck)
    for p, c in zip(hidden, cards, strict=True):
        out[p] = c
    return out


def _pair(seed: int, dealer: int, seat: int) -> tuple[State, State]:
    deck = _deck(seed)
    other = _reshuffle_hidden(deck, dealer, seat, seed + 1)
    rules = Rules()
    return new_game(rules, 0, dealer, stacked=[deck]), new_game(rules, 0, dealer, stacked=[other])


@pytest.mark.parametrize("level", ["easy", "standard"])
def test_same_observation_different_hidden_hands_same_decision(level: str) -> None:
    checked = 0
    for seed in range(12):
        dealer = seed % 4
        beggar = (dealer + 1) % 4
        a, b = _pair(seed, dealer, beggar)
        assert a.hands != b.hands  # the hidden cards differ ...
        assert observe(a, beggar) == observe(b, beggar)  # ... but not what the beggar sees
        # The beggar's bid, then (after standing) its opening lead.
        for sa, sb in ((a, b), (apply(a, STAND), apply(b, STAND))):
            oa, ob = observe(sa, beggar), observe(sb, beggar)
            assert oa == ob
            da = choose(oa, level, rng=random.Random(seed), budget=TINY)  # type: ignore[arg-type]
            db = choose(ob, level, rng=random.Random(seed), budget=TINY)  # type: ignore[arg-type]
            assert da == db
            checked += 1
        # The dealer's give-or-run, after a beg, seen from the dealer's seat.
        a, b = _pair(seed, dealer, dealer)
        a, b = apply(a, BEG), apply(b, BEG)
        oa, ob = observe(a, dealer), observe(b, dealer)
        assert a.hands != b.hands and oa == ob
        da = choose(oa, level, rng=random.Random(seed), budget=TINY)  # type: ignore[arg-type]
        assert da == choose(ob, level, rng=random.Random(seed), budget=TINY)  # type: ignore[arg-type]
        checked += 1
    assert checked == 36


def test_voids_inferred_from_the_play_are_true_of_the_hidden_hands() -> None:
    """Soundness of what the bots deduce: a card a seat is 'known' not to hold, it does not
    hold, under both undertrump options, at every decision of many deals."""
    rng = random.Random(5)
    deductions = 0
    for variant in (Rules(), Rules(undertrump="forbidden")):
        for game in range(30):
            state = new_game(variant, game)
            for _ in range(300):
                if state.phase is Phase.GAME_OVER:
                    break
                seat = state.turn
                assert seat is not None
                obs = observe(state, seat)
                if state.phase is Phase.PLAY:
                    know = knowledge_of(obs)
                    for s in range(4):
                        assert not state.hands[s] & know.barred[s]
                        deductions += know.barred[s] != 0
                    for s in ((seat + 1) % 4, (seat + 3) % 4):
                        assert not state.hands[s] & know.not_with_opponents
                    world = know.sample(rng)
                    for s in range(4):
                        assert world[s].bit_count() == state.hands[s].bit_count()
                        assert not world[s] & know.barred[s] or s == seat
                        assert not world[s] & know.out
                action = rng.choice(obs.legal)
                state = apply(state, action)
    assert deductions > 100
