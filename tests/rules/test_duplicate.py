"""R30-R34, duplicate: a board's deck and dealer from the event's seed, one hand scored as one
hand, matchpoints, the seed kept until the event ends, computer players that meet alike play
alike. The decks are derived here from docs/fairness.md's few lines, not from the engine."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app import bots, verify
from app.rules import Rules, apply, legal_actions, new_game, observe
from app.rules.board import (
    board_chances,
    board_dealer,
    board_deck,
    board_label,
    board_moves,
    board_score,
)
from app.rules.cards import DECK_SIZE, code, mask_codes
from app.rules.matchpoints import Traveller, matchpoints, percent, top, unplayed
from app.rules.state import BEG, GIVE_ONE, RUN_PACK, SCORE, Action, Phase, State
from app.services.keeper import chances


def _stream(seed: int, label: str) -> Iterator[int]:
    i = 0
    while True:
        yield from hashlib.sha256(f"allfours:{seed}:{label}:{i}".encode()).digest()
        i += 1


def _deck(seed: int, label: str) -> list[int]:
    """docs/fairness.md's deck, for the stream ``label``: written again, on purpose."""
    cards = list(range(DECK_SIZE))
    source = _stream(seed, label)
    for i in range(DECK_SIZE - 1, 0, -1):
        m = i + 1
        limit = 256 - 256 % m
        j = next(b for b in source if b < limit) % m
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _dealt(deck: list[int], dealer: int) -> list[int]:
    """What each seat holds after the first six cards each (R6), as fairness.md deals."""
    hands = [0, 0, 0, 0]
    for rnd in range(2):
        for i in range(4):
            seat = (dealer + 1 + i) % 4
            for card in deck[12 * rnd + 3 * i : 12 * rnd + 3 * i + 3]:
                hands[seat] |= 1 << card
    return hands


def _play_out(state: State, rng: random.Random) -> State:
    while state.winner is None:
        if state.phase is Phase.RECKONING:
            state = apply(state, SCORE)
            continue
        state = apply(state, rng.choice(legal_actions(state)))
    return state


SEED = 2**127 + 12345


@pytest.mark.parametrize("board", [1, 2, 3, 4, 5, 8, 13])
def test_r30_every_table_gets_the_board_dealt_from_the_event_seed(board: int) -> None:
    deck = _deck(SEED, f"b{board}")
    dealer = (board - 1) % 4
    for _table in range(3):
        state = new_game(Rules(), SEED, board=board)
        assert state.board == board and state.dealer == dealer == board_dealer(board)
        assert list(board_deck(SEED, board)) == deck
        assert list(state.dealt) == _dealt(deck, dealer)
        assert state.kicks == (deck[24],)


def test_r30_a_boards_deck_is_not_a_games_deal_nor_another_boards() -> None:
    assert board_label(3) == "b3" and board_label(3, 1) == "b3r1"
    decks = {tuple(_deck(SEED, f"b{n}")) for n in range(1, 9)}
    assert len(decks) == 8
    assert tuple(_deck(SEED, "1")) not in decks


def test_r30_a_redeal_comes_from_its_own_stream_and_keeps_the_dealer() -> None:
    found = 0
    for board in range(1, 400):
        state = new_game(Rules(), SEED, board=board)
        if state.phase is not Phase.BEG:
            continue
        ran = apply(apply(state, BEG), RUN_PACK)
        if ran.hand_number == 1:
            continue
        found += 1
        redeal = _deck(SEED, f"b{board}r1")
        assert list(board_deck(SEED, board, 1)) == redeal
        assert ran.dealer == board_dealer(board) and ran.history[0].redeal
        assert list(ran.dealt) == _dealt(redeal, ran.dealer)
        if found == 3:
            break
    assert found == 3


def test_r30_seats_0_and_2_are_north_south() -> None:
    assert board_score((5, 2)) == 3 and board_score((0, 4)) == -4


def test_r31_a_board_is_one_hand_with_no_target() -> None:
    rng = random.Random(31)
    for board in range(1, 41):
        rules = Rules(target=7)
        state = _play_out(new_game(rules, SEED, board=board), rng)
        played = [h for h in state.history if not h.redeal]
        assert len(played) == 1, "one hand, redeals apart"
        assert state.phase is Phase.GAME_OVER
        assert sum(state.scores) == sum(a.points for h in state.history for a in h.awards)
        ns, ew = state.scores
        assert state.winner == (0 if ns > ew else 1 if ew > ns else (state.dealer + 1) % 2)


def test_r31_give_one_is_offered_whatever_the_target() -> None:
    # R11 hangs on the target: at a board the dealer may always give one (even a
    # target of 7 with the beggar's team at 6 from a kick would not matter).
    for board in range(1, 60):
        state = new_game(Rules(target=7), SEED, board=board)
        if state.phase is Phase.BEG:
            begged = apply(state, BEG)
            assert GIVE_ONE in legal_actions(begged)
            given_one = apply(begged, GIVE_ONE)
            assert given_one.scores[(begged.dealer + 1) % 2] == 1
            return
    raise AssertionError("no board to beg")


def test_r31_kick_points_count_and_renege_mode_is_one_only() -> None:
    for board in range(1, 200):
        state = new_game(Rules(), SEED, board=board)
        if state.awards and state.awards[0].kind == "kick":
            assert state.scores[state.dealer % 2] == state.awards[0].points
            break
    else:
        raise AssertionError("no board kicked points")
    new_game(Rules(renege="one"), SEED, board=1)
    for mode in ("bullseye", "trinidad"):
        with pytest.raises(ValueError):
            new_game(Rules(renege=mode), SEED, board=1)


def test_r32_matchpoints_of_a_board() -> None:
    assert matchpoints([3, 1, 1, -2]) == [(6, 0), (3, 3), (3, 3), (0, 6)]
    assert matchpoints([2]) == [(0, 0)] and top(1) == 0 and top(5) == 8
    assert percent(6, 8) == 75.0 and percent(0, 0) == 50.0
    assert unplayed(8, "ns", "ns") == pytest.approx(3.2)
    assert unplayed(8, "ew", "ns") == pytest.approx(4.8)
    assert unplayed(8, "ew", None) == 4.0


@given(st.lists(st.integers(-30, 30), min_size=1, max_size=40))
def test_r32_matchpoints_sum_and_symmetry(scores: list[int]) -> None:
    n = len(scores)
    got = matchpoints(scores)
    # Every pair of results shares 2 matchpoints: the NS total is n (n - 1).
    assert sum(ns for ns, _ in got) == n * (n - 1)
    assert all(ns + ew == top(n) for ns, ew in got)
    # Symmetry: the board seen from the other side (scores negated) swaps the two.
    assert matchpoints([-s for s in scores]) == [(ew, ns) for ns, ew in got]
    # The keeper, fed one result at a time in any order, agrees at every step.
    keeper = Traveller()
    order = list(range(n))
    random.Random(n).shuffle(order)
    for k, i in enumerate(order, 1):
        keeper.add(scores[i])
        seen = [scores[j] for j in order[:k]]
        assert [keeper.pair(s) for s in seen] == matchpoints(seen)


def test_r32_a_score_not_on_the_board_is_refused() -> None:
    with pytest.raises(ValueError):
        Traveller.of([1, 2]).ns(3)


def test_r33_a_played_boards_view_keeps_the_event_seed() -> None:
    state = _play_out(new_game(Rules(), SEED, board=2), random.Random(2))
    seen = observe(state, 0)
    assert seen.winner is not None and seen.seed is None and seen.board == 2
    assert seen.seed_commitment == hashlib.sha256(str(SEED).encode()).hexdigest()
    assert observe(_play_out(new_game(Rules(), SEED), random.Random(2)), 0).seed == SEED


def _table(seed: int, board: int, person: random.Random) -> list[Action]:
    """A board at a table: seat 0 plays by ``person``'s choices, seats 1-3 are standard
    computer players drawing their chances by R34. The actions, in order."""
    state = new_game(Rules(), seed, board=board)
    moves: list[Action] = []
    while state.winner is None:
        seat = state.turn
        if seat is None:
            state = apply(state, SCORE)
            continue
        legal = legal_actions(state)
        if seat == 0:
            action = person.choice(legal)
        else:
            rng, budget = chances(state, random.randrange(10**6), "standard")
            action = bots.choose(observe(state, seat), "standard", rng=rng, budget=budget)
        moves.append(action)
        state = apply(state, action)
    return moves


def test_r34_two_tables_where_the_person_plays_alike_meet_the_same_computer_play() -> None:
    # The room's version (the second argument of chances) differs from table to table: a
    # board's chances must not hang on it.
    for board in (1, 2):
        one = _table(SEED, board, random.Random(board))
        two = _table(SEED, board, random.Random(board))
        assert one == two


def test_r34_the_chances_hang_on_the_seed_the_board_and_the_moves() -> None:
    a = new_game(Rules(), SEED, board=1)
    b = new_game(Rules(), SEED, board=1)
    assert board_chances(a).random() == board_chances(b).random()
    first = board_chances(a).random()
    assert first != board_chances(new_game(Rules(), SEED + 1, board=1)).random()
    assert first != board_chances(new_game(Rules(), SEED, board=5)).random()
    if a.phase is Phase.BEG:
        stood = apply(a, legal_actions(a)[0])
        assert board_moves(stood) != board_moves(a)
        assert board_chances(stood).random() != board_chances(a).random()
    budget = bots.BOARD_BUDGETS["standard"]
    assert budget.cap_ms is None and budget.ms is None and budget.max_worlds


def _boards_record(seed: int, boards: int, tables: int) -> dict[str, object]:
    """A duplicate event's boards as the server shows them once it is over."""
    rng = random.Random(seed % 1000)
    out = []
    for n in range(1, boards + 1):
        first = new_game(Rules(), seed, board=n)
        dealt = [mask_codes(first.dealt[s]) for s in range(4)]
        scores = []
        points = []
        for _ in range(tables):
            state = _play_out(first, rng)
            points.append(list(state.scores))
            scores.append(board_score(state.scores))
        results = [
            {"points": p, "score": s, "matchpoints": list(mp)}
            for p, s, mp in zip(points, scores, matchpoints(scores), strict=True)
        ]
        kick = code(first.kicks[0])
        out.append(
            {"board": n, "dealer": first.dealer, "dealt": dealt, "kick": kick, "results": results}
        )
    commitment = hashlib.sha256(str(seed).encode()).hexdigest()
    return {
        "format": "allfours-boards/1",
        "seed": seed,
        "seed_commitment": commitment,
        "boards": out,
    }


def test_r30_r32_the_verifier_checks_boards_and_travellers(tmp_path: Path) -> None:
    record = _boards_record(SEED, 4, 5)
    report = verify.check(record)
    assert report[-1].startswith("4 boards and 20 results")
    path = tmp_path / "day.json"
    path.write_text(json.dumps(record))
    assert verify.main([str(path)]) == 0
    boards = record["boards"]
    assert isinstance(boards, list)
    wrong = copy.deepcopy(record)
    wrong["boards"][1]["results"][0]["matchpoints"][0] += 1  # type: ignore[index]
    with pytest.raises(verify.Mismatch, match="matchpoints"):
        verify.check(wrong)
    wrong = copy.deepcopy(record)
    wrong["boards"][2]["kick"] = "XX"  # type: ignore[index]
    with pytest.raises(verify.Mismatch, match="kick"):
        verify.check(wrong)
    secret = {**record, "seed": None}
    with pytest.raises(verify.Unchecked):
        verify.check(secret)
