"""The engine's in-place layer: a State is immutable, a WorkingState is its working copy
(clone, step, freeze), and an imagined deal (what the bots search on) plays exactly as the
game does."""

from __future__ import annotations

import random
from dataclasses import FrozenInstanceError

import pytest

from app.rules import Phase, Rules, State, apply, legal_actions, new_game, observe
from app.rules.engine import step
from app.rules.imagined import Imagined, imagined
from app.rules.shuffle import PYTHON_RANDOM, first_dealer_for, shuffled_deck
from app.rules.state import BEG
from app.rules.working import WorkingState
from tests.rules.stack import stack


def test_r5_r6_games_stored_before_the_documented_shuffle_deal_bit_for_bit_as_always() -> None:
    # Their action logs replay from their seed: these values were dealt by Python's random.
    assert shuffled_deck(12345, 1, PYTHON_RANDOM)[:12] == (
        40, 37, 46, 16, 39, 42, 17, 2, 8, 13, 38, 31,
    )  # fmt: skip
    assert shuffled_deck(2**63, 7, PYTHON_RANDOM)[-5:] == (0, 47, 15, 45, 40)
    dealers = [first_dealer_for(seed, PYTHON_RANDOM) for seed in range(12)]
    assert dealers == [2, 1, 0, 3, 3, 0, 3, 1, 0, 2, 1, 1]
    state = new_game(Rules(), 12345, shuffle=PYTHON_RANDOM)
    assert state.dealer == first_dealer_for(12345, PYTHON_RANDOM) and state.shuffle == PYTHON_RANDOM


def test_r5_r6_the_deal_is_shuffled_from_the_seed_as_docs_fairness_md_states() -> None:
    # docs/fairness.md's worked example: any change here breaks every player's own check.
    assert shuffled_deck(12345, 1)[:12] == (40, 22, 51, 50, 48, 44, 21, 8, 49, 15, 16, 12)
    assert shuffled_deck(2**63, 7)[-5:] == (9, 16, 46, 30, 37)
    assert [first_dealer_for(seed) for seed in range(12)] == [1, 0, 2, 0, 0, 1, 0, 0, 0, 1, 2, 0]


def test_a_state_cannot_be_changed() -> None:
    state = new_game(Rules(), 1)
    with pytest.raises(FrozenInstanceError):
        state.turn = 0
    with pytest.raises(FrozenInstanceError):
        del state.scores


def test_a_clone_steps_alone_and_freezes_into_a_state() -> None:
    state = new_game(Rules(), 3)
    table = WorkingState.of(state)
    twin = table.clone()
    step(table, legal_actions(state)[0])
    assert twin == state and table != state
    after = table.freeze()
    assert type(after) is State and after == apply(state, legal_actions(state)[0])
    with pytest.raises(FrozenInstanceError):
        after.turn = None


def _play_the_deal(state: State, rng: random.Random) -> tuple[State, Imagined]:
    """Play ``state``'s deal to its end by random actions, and the same actions on the deal
    as its seat to act imagines it with the true hands and stock."""
    assert state.turn is not None
    deal = imagined(observe(state, state.turn)).deal(state.hands, state.dealt, state.stock)
    number = state.hand_number
    while state.hand_number == number and state.phase is not Phase.GAME_OVER:
        assert deal.turn == state.turn
        action = rng.choice(legal_actions(state))
        state = apply(state, action)
        step(deal, action)
    return state, deal


@pytest.mark.parametrize(
    ("rules", "ends"),
    [
        (Rules(), {"played", "redeal"}),
        (Rules(target=7, flip_last_card=True, undertrump="forbidden"), {"played", "won"}),
    ],
)
def test_an_imagined_deal_scores_as_the_game_and_ends_with_the_deal(
    rules: Rules, ends: set[str]
) -> None:
    rng = random.Random(9)
    endings = set()  # which endings these seeds deal (a redeal is rare: the next test stacks one)
    for seed in range(150):
        state = new_game(rules, seed)
        for _ in range(rng.randrange(8)):  # from the bid, or from a card part-way through
            if state.phase is Phase.GAME_OVER:
                break
            state = apply(state, rng.choice(legal_actions(state)))
        if state.phase is Phase.GAME_OVER:
            continue
        after, deal = _play_the_deal(state, rng)
        record = next(r for r in after.history if r.n == state.hand_number)
        assert deal.turn is None  # R5: an imagined deal stops where the next deal would begin
        assert deal.scores == record.scores_after
        assert state.awards + deal.awards == record.awards and deal.tricks == record.tricks
        ended = max(deal.scores) >= rules.target  # R19: by this deal's last award
        assert deal.winner == (after.winner if ended else None)
        endings.add("won" if ended else "redeal" if record.redeal else "played")
    assert endings == ends


def test_r12_an_imagined_run_of_the_pack_that_runs_out_ends_the_deal() -> None:
    state = apply(new_game(Rules(), 0, 0, stacked=[stack(0, {}, "2C 3C 4C")]), BEG)
    deal = imagined(observe(state, 0)).deal(state.hands, state.dealt, state.stock)
    deal.run_pack()
    assert deal.turn is None and deal.trump is None and deal.decision == "run_pack"
