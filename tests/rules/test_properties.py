"""Properties of whole random games: random seeds, random house rules, random legal actions.

Each example plays a full game to its end and checks every state on the way. Hypothesis
draws the game (rules, seed, first dealer, and the seed of the player choosing the actions);
the settings are derandomized so a CI run is deterministic.
"""

from __future__ import annotations

import copy
import json
import os
import random
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules import (
    Action,
    Award,
    HandRecord,
    Phase,
    RuleError,
    Rules,
    State,
    apply,
    current_seat,
    legal_actions,
    new_game,
    observe,
    replay,
)
from app.rules.cards import FULL_DECK, SUITS, code, mask_codes
from app.views.game import game_view
from app.views.records import hand_records
from app.views.shapes import action_view
from tests.rules import oracle
from tests.rules.oracle import Point

rules_st = st.builds(
    Rules,
    target=st.sampled_from([7, 10, 14, 21]),
    game_points=st.sampled_from([1, 2]),
    game_tie=st.sampled_from(["none", "non_dealer"]),
    give_one_can_win=st.booleans(),
    give_one_needs_trump=st.booleans(),
    undertrump=st.sampled_from(["allowed", "forbidden"]),
    kick_two=st.booleans(),
    flip_last_card=st.booleans(),
    # renege mode has its own properties (test_renege_properties.py)
    renege=st.just("off"),
    false_call=st.just("penalty"),
)

game_st = st.tuples(
    rules_st,
    st.integers(0, 2**63),  # the game's seed
    st.none() | st.integers(0, 3),  # first dealer
    st.integers(0, 2**32),  # the seed of the random player
)

EVERY_ACTION: tuple[Action, ...] = (
    Action("stand"),
    Action("beg"),
    Action("give_one"),
    Action("run_pack"),
    *(Action("play", c) for c in range(52)),
)

# Games per run: 800 (160 for the views, 400 against the oracle) keep tests/rules well
# under a minute on a loaded 2-core machine. RULES_PROPERTY_GAMES=20000 runs a deeper search.
GAMES = int(os.environ.get("RULES_PROPERTY_GAMES", "800"))

SETTINGS = settings(
    max_examples=GAMES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def all_awards(state: State) -> list[Award]:
    """Every award of the game so far, in the order applied."""
    out = [a for record in state.history for a in record.awards]
    if state.phase is not Phase.GAME_OVER:  # at the end the deal is already in the history
        out += state.awards
    return out


def play_game(
    rules: Rules, seed: int, dealer: int | None, chooser: int
) -> Iterator[tuple[State, Action | None, State]]:
    """(state before, action, state after) for each action of a random game to its end."""
    rng = random.Random(chooser)
    state = new_game(rules, seed, dealer)
    yield state, None, state
    while state.phase is not Phase.GAME_OVER:
        # Beg about half the time and give one about half the time it is offered, so that
        # runs of the pack and redeals come up often.
        action = rng.choice(legal_actions(state))
        after = apply(state, action)
        yield state, action, after
        state = after


def check_cards_conserved(s: State) -> None:
    parts = [*s.hands, *s.won, sum(1 << c for _, c in s.trick)]
    parts += [sum(1 << c for c in s.kicks), sum(1 << c for c in s.stock)]
    assert sum(p.bit_count() for p in parts) == 52, "a card is duplicated or lost"
    union = 0
    for p in parts:
        union |= p
    assert union == FULL_DECK
    assert len(s.kicks) + len(s.stock) + sum(d.bit_count() for d in s.dealt) == 52
    for seat in range(4):
        assert s.hands[seat] & ~s.dealt[seat] == 0


def check_turn_and_hand_sizes(s: State) -> None:
    sizes = [h.bit_count() for h in s.hands]
    if s.phase is Phase.PLAY:
        assert s.trump is not None
        if not s.trick:
            assert len(set(sizes)) == 1 and sizes[0] > 0  # equal at the start of each trick
            if s.tricks:
                assert s.turn == s.tricks[-1].winner  # R13
            else:
                assert s.turn == s.beggar
        else:
            leader = s.trick[0][0]
            assert s.turn == (leader + len(s.trick)) % 4  # R4
            played = {seat for seat, _ in s.trick}
            for seat in range(4):
                assert sizes[seat] == sizes[leader] + (0 if seat in played else 1)
        assert len(set(sizes)) <= 2 and sizes[0] in range(0, 13)
    elif s.phase is Phase.BEG:
        assert s.turn == s.beggar and s.trump is None and sizes == [6, 6, 6, 6]
        assert len(s.kicks) == 1
    elif s.phase is Phase.GIVE_OR_RUN:
        assert s.turn == s.dealer and sizes == [6, 6, 6, 6]
    else:
        assert s.turn is None and s.winner in (0, 1)
    assert current_seat(s) == s.turn


def check_scores_and_end(before: State, after: State) -> None:
    """Scores grow by exactly the new awards; the game ends on the first award that brings
    a team to the target (R19), and only then."""
    if before.history is after.history and before.awards is after.awards:
        assert after.scores == before.scores and after.phase is not Phase.GAME_OVER
        return
    old, new = all_awards(before), all_awards(after)
    assert new[: len(old)] == old, "awards are never taken back"
    gained = [0, 0]
    for a in new[len(old) :]:
        gained[a.team] += a.points
    assert after.scores == (before.scores[0] + gained[0], before.scores[1] + gained[1])
    running = [0, 0]
    target = after.rules.target
    for i, a in enumerate(new):
        assert a.points > 0
        running[a.team] += a.points
        if running[a.team] >= target:
            assert i == len(new) - 1, "an award was applied after the game was won"
            assert after.phase is Phase.GAME_OVER and after.winner == a.team
            break
    else:
        assert after.phase is not Phase.GAME_OVER and after.winner is None
    assert tuple(running) == after.scores
    cumulative = [0, 0]
    for record in after.history:
        for a in record.awards:
            cumulative[a.team] += a.points
        assert record.scores_after == tuple(cumulative)


def check_history(after: State) -> None:
    for i, record in enumerate(after.history):
        assert record.n == i + 1
        if i:
            prev = after.history[i - 1]
            # R5: same dealer after a redeal, the next seat after a played deal.
            assert record.dealer == (prev.dealer if prev.redeal else (prev.dealer + 1) % 4)
        if record.redeal:
            assert record.trump is None and not record.tricks and record.decision == "run_pack"
        if record.tricks:
            assert len(record.tricks) == record.dealt[0].bit_count()
    if after.phase is not Phase.GAME_OVER:
        assert after.hand_number == len(after.history) + 1
    else:
        assert after.hand_number == len(after.history)


def check_only_legal_actions_apply(state: State, rng: random.Random, everything: bool) -> None:
    legal = set(legal_actions(state))
    candidates = EVERY_ACTION if everything else rng.sample(EVERY_ACTION, 2)
    for action in candidates:
        if action in legal:
            if everything:
                apply(state, action)  # must not raise
            continue
        # a deep copy on the steps that try everything (an alias would equal itself anyway)
        before = copy.deepcopy(state) if everything else None
        try:
            apply(state, action)
        except RuleError as err:
            assert str(err).startswith("R"), err
            assert err.rule and str(err).startswith(err.rule + ": ")
        else:
            raise AssertionError(f"{action} applied but is not legal")
        assert before is None or state == before


def public_cards(record: HandRecord) -> set[str]:
    cards = {code(c) for c in record.kicks}
    for trick in record.tricks:
        cards |= {code(c) for _, c in trick.cards}
    return cards


def check_observe(s: State, records_from: int) -> None:
    """The views of ``s`` for every seat and a spectator, and the hand records from
    ``records_from`` on (each record is checked when it is new and again at the end)."""
    game_over = s.phase is Phase.GAME_OVER
    for seat in (0, 1, 2, 3, None):
        view = observe(s, seat)
        data = game_view(view).model_dump()
        last_hand = data.pop("last_hand")
        if not s.tricks:  # until this deal's first lift, the previous deal's last
            data.pop("last_trick")
        hidden = set()
        for other in range(4):
            if other != seat:
                hidden |= set(mask_codes(s.hands[other]))
        assert not hidden & _strings(data), (seat, hidden & _strings(data))
        assert view.hand == (s.hands[seat] if seat is not None else 0)
        if last_hand is not None:
            assert _strings(last_hand) & {code(c) for c in range(52)} <= public_cards(s.history[-1])
        if seat is not None and seat == s.turn:
            assert data["legal"] == [action_view(a).model_dump() for a in legal_actions(s)]
        else:
            assert data["legal"] == [] and data["refused"] == []
        shown = hand_records(view)
        for record in s.history[records_from:]:
            rec = shown[record.n - 1].model_dump()
            if not (record.played_out or game_over):
                assert all(rec["dealt"][str(o)] is None for o in range(4) if o != seat)
                secret = set()
                for o in range(4):
                    if o != seat:
                        secret |= set(mask_codes(record.dealt[o]))
                assert not secret & _strings(rec) - public_cards(record)
    json.dumps(game_view(observe(s, None)).model_dump())


def _strings(value: object) -> set[str]:
    """Every string anywhere in a JSON value (keys included)."""
    out: set[str] = set()
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            out.add(k)
            out |= _strings(v)
    elif isinstance(value, list):
        for v in value:
            out |= _strings(v)
    return out


@SETTINGS
@given(game_st)
def test_random_games_keep_the_cards_scores_turns_and_end(
    drawn: tuple[Rules, int, int | None, int],
) -> None:
    rules, seed, dealer, chooser = drawn
    rng = random.Random(chooser ^ 0x5EED)
    actions: list[Action] = []
    state = None
    for before, action, after in play_game(rules, seed, dealer, chooser):
        check_cards_conserved(after)
        check_turn_and_hand_sizes(after)
        check_scores_and_end(before, after)
        check_only_legal_actions_apply(after, rng, everything=rng.random() < 0.02)
        if action is not None:
            actions.append(action)
        state = after
    assert state is not None
    check_history(state)
    assert state.phase is Phase.GAME_OVER and legal_actions(state) == []
    assert max(state.scores) >= rules.target > min(state.scores)
    # A game is (rules, seed, actions): replaying them gives the same state.
    assert replay(rules, seed, dealer, actions) == state


@settings(SETTINGS, max_examples=max(GAMES // 5, 1))
@given(game_st)
def test_random_games_never_show_a_seat_another_seats_cards(
    drawn: tuple[Rules, int, int | None, int],
) -> None:
    rules, seed, dealer, chooser = drawn
    for before, _, after in play_game(rules, seed, dealer, chooser):
        over = after.phase is Phase.GAME_OVER
        check_observe(after, 0 if over else len(before.history))


def expected_awards(record: HandRecord, before: tuple[int, int], rules: Rules) -> list[Point]:
    """What the oracle says a finished deal scores, in order, cut at the target (R19)."""
    kicks = [code(c) for c in record.kicks]
    points = [Point("kick", record.dealer % 2, p, k) for k in kicks[:1] if (p := kp(k, rules))]
    if record.decision == "give_one":
        points.append(Point("give_one", (record.dealer + 1) % 2, 1))
    points += [Point("kick", record.dealer % 2, p, k) for k in kicks[1:] if (p := kp(k, rules))]
    if record.tricks:
        assert record.trump is not None
        dealt = {s: set(mask_codes(record.dealt[s])) for s in range(4)}
        lifted: dict[int, set[str]] = {0: set(), 1: set()}
        for trick in record.tricks:
            lifted[trick.winner % 2] |= {code(c) for _, c in trick.cards}
        points += oracle.deal_points(
            dealt, lifted, SUITS[record.trump], record.dealer, rules.game_points, rules.game_tie
        )
    scores = list(before)
    for i, point in enumerate(points):
        scores[point.team] += point.points
        if scores[point.team] >= rules.target:
            return points[: i + 1]
    return points


def kp(card: str, rules: Rules) -> int:
    return oracle.kick_points(card, rules.kick_two)


def check_record_against_the_rules(
    record: HandRecord, before: tuple[int, int], rules: Rules
) -> None:
    got = [
        Point(a.kind, a.team, a.points, code(a.card) if a.card is not None else None, a.seat)
        for a in record.awards
    ]
    assert got == expected_awards(record, before, rules)
    kicks = [code(c) for c in record.kicks]
    first = oracle.suit(kicks[0])
    if record.decision in ("stand", "give_one") and record.trump is not None:
        assert SUITS[record.trump] == first  # R9, R10
    if record.decision == "run_pack":
        # R10: runs go on while the same suit shows; R12: redeal when no new suit showed.
        assert all(oracle.suit(k) == first for k in kicks[1:-1])
        new_suit = oracle.suit(kicks[-1]) != first
        if record.trump is not None:
            assert new_suit and SUITS[record.trump] == oracle.suit(kicks[-1])
        gained = [sum(a.points for a in record.awards if a.team == t) for t in (0, 1)]
        ended = any(before[t] + gained[t] >= rules.target for t in (0, 1))
        assert record.redeal == (not new_suit and not ended)
        size = record.dealt[0].bit_count()
        if len(kicks) == 4:  # R12: the last card turned
            assert rules.flip_last_card and size == 12
        else:
            assert size == {2: 9, 3: 12}[len(kicks)]
    else:
        assert not record.redeal and len(kicks) == 1 and record.dealt[0].bit_count() == 6


@settings(SETTINGS, max_examples=max(GAMES // 2, 1))
@given(game_st)
def test_random_games_follow_the_rule_book(drawn: tuple[Rules, int, int | None, int]) -> None:
    """Plays, tricks and every deal's awards agree with the plain rewrite in oracle.py."""
    rules, seed, dealer, chooser = drawn
    forbidden = rules.undertrump == "forbidden"
    state = None
    for _, _, after in play_game(rules, seed, dealer, chooser):
        if after.phase is Phase.PLAY and after.turn is not None and after.trump is not None:
            hand = set(mask_codes(after.hands[after.turn]))
            on_table = [code(c) for _, c in after.trick]
            want = oracle.legal_plays(hand, on_table, SUITS[after.trump], forbidden)
            got = {code(a.card) for a in legal_actions(after) if a.card is not None}
            assert got == want, (hand, on_table)
        state = after
    assert state is not None
    previous = (0, 0)
    for record in state.history:
        for trick in record.tricks:
            assert record.trump is not None
            cards = [code(c) for _, c in trick.cards]
            assert trick.winner == trick.cards[oracle.trick_winner(cards, SUITS[record.trump])][0]
            assert [s for s, _ in trick.cards] == [(trick.leader + i) % 4 for i in range(4)]
        check_record_against_the_rules(record, previous, rules)
        previous = record.scores_after
