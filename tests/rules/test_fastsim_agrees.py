"""The fast path (app.rules.fastsim) agrees with the engine, the reference.

Each fast deal is replayed through the engine from its own deck order with its own choices:
the engine must offer the same options, find the same legal cards at every turn, give the
tricks to the same seats and make the same awards, in the same order, as the fast path —
under many house-rule sets. The batch playout is checked the same way from positions in the
middle of a deal, in worlds that differ in who holds the unseen cards.
"""

from __future__ import annotations

import itertools
import random
import zlib
from dataclasses import replace

import numpy as np
import pytest

from app.rules import Action, Phase, Rules, State, apply, legal_actions, new_game
from app.rules.cards import SUIT_MASK, cards_in, code, mask_of, parse, suit_of
from app.rules.engine import give_one_refusal, legal_play_mask
from app.rules.fastsim import (
    DealTrace,
    SeatPolicies,
    deal_worlds,
    playout,
    playout_traced,
    simulate_deals,
)
from app.rules.state import GIVE_ONE, play

OPTIONS = {
    "target": (7, 10, 14, 21),
    "game_points": (1, 2),
    "game_tie": ("none", "non_dealer"),
    "give_one_can_win": (False, True),
    "give_one_needs_trump": (False, True),
    "undertrump": ("allowed", "forbidden"),
    "kick_two": (False, True),
    "flip_last_card": (False, True),
}


def _rule_sets(count: int) -> list[Rules]:
    """The defaults, every option flipped alone, then random combinations."""
    sets = [Rules()]
    for name, values in OPTIONS.items():
        sets.extend(Rules(**{name: v}) for v in values[1:])
    combos = list(itertools.product(*OPTIONS.values()))
    for combo in random.Random(2).sample(combos, count - len(sets)):
        sets.append(Rules(**dict(zip(OPTIONS, combo, strict=True))))
    return sets


RULE_SETS = _rule_sets(24)
# one policy for all seats, or one per seat
POLICY_MIX: list[SeatPolicies] = [
    "random",
    ("greedy", "random", "random", "greedy"),
    "random",
    "greedy",
]


def _truncate(
    awards: list[tuple[str, int, int]], start: list[int], target: int
) -> list[tuple[str, int, int]]:
    """R19: awards apply one at a time and stop the moment a team reaches the target."""
    scores = list(start)
    out = []
    for kind, team, pts in awards:
        out.append((kind, team, pts))
        scores[team] += pts
        if scores[team] >= target:
            break
    return out


def _replay(trace: DealTrace, rules: Rules, start: list[int]) -> State:
    """Drive the engine through the fast deal; checks every step on the way."""
    state = new_game(rules, 0, trace.dealer, stacked=trace.decks)
    # Only the beggar's team starts ahead (to reach R11): the kick never scores for it.
    assert start[trace.dealer % 2] == 0
    state = replace(state, scores=(state.scores[0] + start[0], state.scores[1] + start[1]))
    for attempt, decisions in enumerate(trace.decisions):
        if state.phase is Phase.GAME_OVER:
            return state
        assert state.hand_number == attempt + 1
        for decision in decisions:
            if decision in ("give_one", "run_pack"):
                assert (give_one_refusal(state) is None) == trace.give_offered[attempt]
            assert Action(decision) in legal_actions(state)  # type: ignore[arg-type]
            state = apply(state, Action(decision))  # type: ignore[arg-type]
            if state.phase is Phase.GAME_OVER:
                return state
    assert state.phase is Phase.PLAY
    assert state.trump == trace.trump
    assert list(state.dealt) == trace.dealt
    for seat, card, legal in trace.plays:
        assert state.turn == seat
        assert legal_play_mask(state) == legal
        state = apply(state, play(card))
    return state


@pytest.mark.parametrize(
    ("rules", "policy"),
    [(r, POLICY_MIX[i % 4]) for i, r in enumerate(RULE_SETS)],
    ids=lambda v: (
        v
        if isinstance(v, str | tuple)
        else "-".join(
            f"{k}={getattr(v, k)}" for k in OPTIONS if getattr(v, k) != getattr(Rules(), k)
        )
        or "defaults"
    ),
)
def test_fast_deals_replay_identically_through_the_engine(
    rules: Rules, policy: SeatPolicies
) -> None:
    n = 250
    rng = np.random.default_rng(zlib.crc32(rules.model_dump_json().encode()))
    dealers = rng.integers(0, 4, size=n)
    start = np.zeros((n, 2), dtype=np.int64)
    # A third of the deals start with the beggar's team one point from the target (R11, R19).
    near = rng.random(n) < 1 / 3
    start[np.arange(n), (dealers + 1) % 2] = np.where(near, rules.target - 1, 0)
    batch = simulate_deals(
        n,
        rules,
        rng,
        dealer=dealers,
        scores=start,
        beg_rate=0.7,
        policy=policy,
        record=True,
    )
    assert batch.traces is not None
    for i, trace in enumerate(batch.traces):
        begin = start[i].tolist()
        state = _replay(trace, rules, begin)
        attempts = len(trace.decks)
        records = [r for r in state.history if r.n <= attempts]
        engine_awards = [(a.kind, a.team, a.points) for r in records for a in r.awards]
        expected = _truncate(trace.awards, begin, rules.target)
        assert engine_awards == expected, f"deal {i}: {trace}"
        if expected == trace.awards:  # the deal was played out and scored in full
            assert [r.redeal for r in records] == [True] * (attempts - 1) + [False]
            assert [t.winner for t in records[-1].tricks] == trace.winners
            totals = [0, 0]
            for _, team, pts in trace.awards:
                totals[team] += pts
            assert batch.points[i].tolist() == totals


def test_fast_deals_cover_every_path() -> None:
    """The agreement test above reaches give one, both runs, redeals and every hand size."""
    rules = Rules(flip_last_card=True)
    batch = simulate_deals(4000, rules, np.random.default_rng(5), beg_rate=0.7, record=True)
    assert batch.traces is not None
    assert set(batch.hand_size.tolist()) == {6, 9, 12}
    decisions = [d for t in batch.traces for a in t.decisions for d in a]
    assert {"stand", "beg", "give_one", "run_pack"} <= set(decisions)
    assert any(len(t.decks) > 1 for t in batch.traces)
    kinds = {k for t in batch.traces for k, _, _ in t.awards}
    assert kinds == {"kick", "give_one", "high", "low", "jack", "hang_jack", "game"}


def _engine_mid_deal(rules: Rules, rnd: random.Random) -> State:
    """A first deal stopped at a random point of its trick play."""
    state = new_game(rules, rnd.randrange(2**32))
    while state.phase is not Phase.PLAY:
        state = apply(state, rnd.choice(legal_actions(state)))
    stop = rnd.randrange(sum(bin(h).count("1") for h in state.hands))
    for _ in range(stop):
        state = apply(state, rnd.choice(legal_actions(state)))
    return state


def _voids(state: State) -> list[int]:
    """What the tricks so far show each seat lacks (R14): a plain card on a plain lead means
    no card of the suit led; a plain card on a trump lead means no trump."""
    assert state.trump is not None
    voids = [0, 0, 0, 0]
    for cards in [t.cards for t in state.tricks] + [state.trick]:
        if not cards:
            continue
        led = suit_of(cards[0][1])
        for seat, card in cards[1:]:
            trumped_a_plain_lead = suit_of(card) == state.trump != led
            if suit_of(card) != led and not trumped_a_plain_lead:
                voids[seat] |= SUIT_MASK[led]
    return voids


def _worlds(state: State, n: int, rnd: random.Random) -> tuple[list[list[int]], list[list[int]]]:
    """World 0 is the truth; in the others the seat to play keeps its hand and the cards it
    cannot see are dealt afresh by ``deal_worlds``, keeping hand sizes and shown voids."""
    assert state.turn is not None
    played = [0, 0, 0, 0]
    for trick in state.tricks:
        for seat, card in trick.cards:
            played[seat] |= 1 << card
    for seat, card in state.trick:
        played[seat] |= 1 << card
    me = state.turn
    unseen = sum(h for s, h in enumerate(state.hands) if s != me)
    sizes = [0 if s == me else bin(h).count("1") for s, h in enumerate(state.hands)]
    known = [state.hands[me] if s == me else 0 for s in range(4)]
    dealt_worlds = deal_worlds(
        n - 1,
        unseen=unseen,
        sizes=sizes,
        rng=np.random.default_rng(rnd.randrange(2**32)),
        voids=_voids(state),
        known=known,
    )
    hands, dealt = [list(state.hands)], [list(state.dealt)]
    for row in dealt_worlds.tolist():
        hands.append(row)
        dealt.append([row[s] | played[s] for s in range(4)])
    return hands, dealt


@pytest.mark.parametrize("policy", ["random", "greedy", ("random", "greedy", "greedy", "random")])
@pytest.mark.parametrize("undertrump", ["allowed", "forbidden"])
def test_playout_agrees_with_the_engine(policy: SeatPolicies, undertrump: str) -> None:
    rnd = random.Random(f"{policy}{undertrump}")
    rng = np.random.default_rng(11)
    for k in range(40):
        rules = Rules(
            target=21,
            undertrump=undertrump,
            game_points=(1, 2)[k % 2],
            game_tie=("none", "non_dealer")[k // 2 % 2],
        )
        state = _engine_mid_deal(rules, rnd)
        assert state.trump is not None and state.turn is not None
        hands, dealt = _worlds(state, 12, rnd)
        first = None
        if k % 3 == 1:  # the seat to play is made to play a given legal card in each world
            first = []
            for h, d in zip(hands, dealt, strict=True):
                world = replace(
                    state, hands=(h[0], h[1], h[2], h[3]), dealt=(d[0], d[1], d[2], d[3])
                )
                first.append(rnd.choice(list(cards_in(legal_play_mask(world)))))
        points, scoring, trace = playout_traced(
            dealt=dealt,
            hands=hands,
            won=[list(state.won)] * 12,
            trick=list(state.trick),
            turn=state.turn,
            trump=state.trump,
            dealer=state.dealer,
            rules=rules,
            rng=rng,
            policy=policy,
            first=first,
        )
        assert trace is not None
        if first is not None:
            assert trace.cards[:, 0].tolist() == first
        for w in range(12):
            h, d = hands[w], dealt[w]
            world = replace(state, hands=(h[0], h[1], h[2], h[3]), dealt=(d[0], d[1], d[2], d[3]))
            for step in range(trace.cards.shape[1]):
                assert world.turn == trace.seats[w, step]
                assert legal_play_mask(world) == int(trace.legal[w, step])
                world = apply(world, play(int(trace.cards[w, step])))
            assert world.phase is not Phase.GAME_OVER
            record = world.history[-1]
            scored = [a for a in record.awards if a.kind not in ("kick", "give_one")]
            totals = [0, 0]
            for a in scored:
                totals[a.team] += a.points
            assert points[w].tolist() == totals
            played_tricks = record.tricks[len(state.tricks) :]
            assert [t.winner for t in played_tricks] == trace.winners[w].tolist()
            high = [a.team for a in scored if a.kind == "high"]
            assert high == ([] if scoring.high[w] < 0 else [scoring.high[w]])


def test_playout_returns_points_per_world() -> None:
    rules = Rules()
    state = _engine_mid_deal(rules, random.Random(3))
    assert state.trump is not None and state.turn is not None
    hands, dealt = _worlds(state, 500, random.Random(4))
    points = playout(
        dealt=np.array(dealt, dtype=np.uint64),
        hands=np.array(hands, dtype=np.uint64),
        won=np.array([list(state.won)] * 500, dtype=np.uint64),
        trick=list(state.trick),
        turn=state.turn,
        trump=state.trump,
        dealer=state.dealer,
        rules=rules,
        rng=np.random.default_rng(0),
    )
    assert points.shape == (500, 2)
    assert points.dtype == np.int64
    # High and Low are always awarded once a trump is in play; at most 1+1+3+1 points.
    assert (points.sum(axis=1) >= 0).all() and (points.sum(axis=1) <= 6).all()


def test_give_one_is_never_offered_against_r11() -> None:
    """R11 in the fast path: the beggar's team one short of the target is never given one."""
    rules = Rules(target=7)
    n = 2000
    dealers = np.zeros(n, dtype=np.int64)
    start = np.tile(np.array([0, 6]), (n, 1))  # dealer 0: the beggar's team is team 1
    batch = simulate_deals(
        n,
        rules,
        np.random.default_rng(9),
        dealer=dealers,
        scores=start,
        beg_rate=1.0,
        record=True,
    )
    assert batch.traces is not None
    assert all("give_one" not in a for t in batch.traces for a in t.decisions)
    state = replace(new_game(rules, 1, 0), scores=(0, 6))
    state = apply(state, Action("beg"))
    assert GIVE_ONE not in legal_actions(state)


def test_playout_refuses_an_illegal_first_card() -> None:
    state = _engine_mid_deal(Rules(), random.Random(8))
    assert state.trump is not None and state.turn is not None
    illegal = next(c for c in range(52) if not legal_play_mask(state) >> c & 1)
    with pytest.raises(ValueError, match="not legal"):
        playout(
            dealt=[list(state.dealt)],
            hands=[list(state.hands)],
            won=[list(state.won)],
            trick=list(state.trick),
            turn=state.turn,
            trump=state.trump,
            dealer=state.dealer,
            rules=Rules(),
            rng=np.random.default_rng(0),
            first=illegal,
        )


def test_per_seat_policies_follow_the_absolute_seats() -> None:
    """Greedy seats 0 and 2 against random seats 1 and 3, whoever deals: team 0 scores more."""
    batch = simulate_deals(
        20000, Rules(), np.random.default_rng(12), policy=("greedy", "random", "greedy", "random")
    )
    means = batch.points.mean(axis=0)
    assert means[0] > means[1] + 0.2


def _greedy_first(hand: list[str], trick: list[tuple[int, str]], trump: str) -> str:
    """The card the greedy policy plays from ``hand`` (seat 0) on ``trick``."""
    hands = [mask_of(parse(c) for c in hand), 0, 0, 0]
    used = set(hand) | {c for _, c in trick}
    spare = [c for c in range(52) if code(c) not in used]
    for seat in range(1, 4):  # the others get cards enough to finish the deal
        played = sum(1 for s, _ in trick if s == seat)
        for _ in range(len(hand) - played):
            hands[seat] |= 1 << spare.pop()
    won = [0, 0]
    cards = [(s, parse(c)) for s, c in trick]
    dealt = [hands[s] | sum(1 << c for t, c in cards if t == s) for s in range(4)]
    _, _, trace = playout_traced(
        dealt=[dealt],
        hands=[hands],
        won=[won],
        trick=cards,
        turn=0,
        trump="CDHS".index(trump),
        dealer=3,
        rules=Rules(),
        rng=np.random.default_rng(0),
        policy="greedy",
    )
    assert trace is not None
    return code(int(trace.cards[0, 0]))


def test_greedy_policy_wins_as_cheaply_as_it_can_or_throws_its_lowest() -> None:
    # an opponent leads: win with the cheapest card of the suit led that beats it
    assert _greedy_first(["AH", "QH", "2H", "3S"], [(1, "JH"), (2, "4H"), (3, "5H")], "S") == "QH"
    # cannot beat in the suit: the lowest trump that beats the trick
    assert _greedy_first(["2H", "9S", "4S"], [(1, "AH"), (2, "4H"), (3, "5H")], "S") == "4S"
    # the partner (seat 2) is winning: the lowest card, plain rather than trump
    assert _greedy_first(["2H", "KH", "2S"], [(2, "AH"), (3, "5H")], "S") == "2H"
    # no card beats the trick: the lowest-ranked legal card
    assert _greedy_first(["9C", "3D", "TD"], [(1, "AH"), (2, "4H"), (3, "5H")], "S") == "3D"
    # leading: a plain ace, else the lowest plain card, else the lowest trump
    assert _greedy_first(["KC", "AD", "2S"], [], "S") == "AD"
    assert _greedy_first(["KC", "5D", "2S"], [], "S") == "5D"
    assert _greedy_first(["9S", "2S"], [], "S") == "2S"


def test_playout_refuses_worlds_that_do_not_fit_the_trick() -> None:
    state = _engine_mid_deal(Rules(), random.Random(21))
    assert state.trump is not None and state.turn is not None
    hands = list(state.hands)
    other = (state.turn + 1) % 4
    hands[other] &= hands[other] - 1  # one card fewer for a seat
    with pytest.raises(ValueError, match=r"same number"):
        playout(
            dealt=[list(state.dealt)] * 2,
            hands=[list(state.hands), hands],
            won=[list(state.won)] * 2,
            trick=list(state.trick),
            turn=state.turn,
            trump=state.trump,
            dealer=state.dealer,
            rules=Rules(),
            rng=np.random.default_rng(0),
        )
    with pytest.raises(ValueError, match="hand sizes"):
        playout(
            dealt=[list(state.dealt)],
            hands=[hands],
            won=[list(state.won)],
            trick=list(state.trick),
            turn=state.turn,
            trump=state.trump,
            dealer=state.dealer,
            rules=Rules(),
            rng=np.random.default_rng(0),
        )


def test_the_pimc_example_of_the_playout_docstring_runs() -> None:
    state = _engine_mid_deal(Rules(), random.Random(31))
    assert state.trump is not None and state.turn is not None
    me, n, rng = state.turn, 50, np.random.default_rng(1)
    played_by_seat = [d & ~h for d, h in zip(state.dealt, state.hands, strict=True)]
    unseen = sum(h for s, h in enumerate(state.hands) if s != me)
    sizes = [0 if s == me else bin(h).count("1") for s, h in enumerate(state.hands)]
    voids = _voids(state)
    my_hand, won, trick = state.hands[me], list(state.won), list(state.trick)
    trump, dealer, rules = state.trump, state.dealer, state.rules
    my_legal_mask = legal_play_mask(state)

    worlds = deal_worlds(
        n,
        unseen=unseen,
        sizes=sizes,
        voids=voids,
        known=[my_hand if s == me else 0 for s in range(4)],
        rng=rng,
    )
    cards = list(cards_in(my_legal_mask))
    hands = np.repeat(worlds, len(cards), axis=0)  # world-major: (n * k, 4)
    dealt = hands | np.array(played_by_seat, dtype=np.uint64)
    pts = playout(
        dealt=dealt,
        hands=hands,
        won=np.tile(np.array(won, dtype=np.uint64), (n * len(cards), 1)),
        trick=trick,
        turn=me,
        trump=trump,
        dealer=dealer,
        rules=rules,
        rng=rng,
        policy="greedy",
        first=np.tile(cards, n),
    )
    gain = (pts[:, me % 2] - pts[:, 1 - me % 2]).reshape(n, len(cards)).mean(axis=0)
    assert gain.shape == (len(cards),)


def test_given_decks_and_forced_choices_replay_through_the_engine() -> None:
    """A bot's question: these cards, and I stand (or beg and the dealer runs the pack)."""
    rules = Rules(flip_last_card=True)
    n = 400
    rng = np.random.default_rng(41)
    decks = rng.permuted(np.tile(np.arange(52), (n, 1)), axis=1)
    beg = np.arange(n) % 2  # stand, beg, stand, beg, ...
    batch = simulate_deals(
        n, rules, rng, dealer=2, decks=decks, beg_rate=beg, give_rate=0.0, record=True
    )
    assert batch.traces is not None
    for i, trace in enumerate(batch.traces):
        assert trace.decks[0] == decks[i].tolist()
        assert trace.decisions[0] == (["beg", "run_pack"] if beg[i] else ["stand"])
        state = _replay(trace, rules, [0, 0])
        records = [r for r in state.history if r.n <= len(trace.decks)]
        awards = [(a.kind, a.team, a.points) for r in records for a in r.awards]
        assert awards == _truncate(trace.awards, [0, 0], rules.target)
    with pytest.raises(ValueError, match="52 cards"):
        simulate_deals(1, rules, rng, decks=np.zeros((1, 52), dtype=np.int64))
