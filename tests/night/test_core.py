"""The club night's pure core: pairing, standings, awards, the next round (issue #27)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.night import pairing
from app.night.awards import GameSheet, awards
from app.night.plan import Played, Shape, next_draw, night_winner, total_rounds
from app.night.standings import Bye, MatchResult, standings


@given(st.integers(2, 40))
def test_round_robin_every_pair_meets_every_other_once(n: int) -> None:
    pairs = list(range(1, n + 1))
    draws = pairing.round_robin(pairs)
    assert len(draws) == (n - 1 if n % 2 == 0 else n)
    meetings = Counter(frozenset(t) for d in draws for t in d.tables)
    assert set(meetings) == {frozenset(c) for c in combinations(pairs, 2)}
    assert set(meetings.values()) == {1}
    for d in draws:
        assert len(d.tables) == n // 2
        seated = [p for t in d.tables for p in t] + ([d.bye] if d.bye is not None else [])
        assert sorted(seated) == pairs  # each pair once a round
        assert (d.bye is None) == (n % 2 == 0)
    if n % 2:
        assert sorted(d.bye for d in draws if d.bye is not None) == pairs  # one bye each


def _random_result(rnd: random.Random, round_: int, table: int, a: int, b: int) -> MatchResult:
    to = 2
    loser = rnd.randint(0, to - 1)
    won_first = rnd.random() < 0.5
    bulls = (to, loser) if won_first else (loser, to)
    return MatchResult(
        round_,
        table,
        (a, b),
        bulls,
        (rnd.randint(0, 3), rnd.randint(0, 3)),
        (rnd.randint(0, 40), rnd.randint(0, 40)),
        a if won_first else b,
    )


def _play(shape: Shape, teams: list[tuple[int, str | None]], seed: int) -> list[Played]:
    rnd = random.Random(seed)
    rounds: list[Played] = []
    while (draw := next_draw(shape, teams, rounds)) is not None:
        n = len(rounds) + 1
        results = tuple(_random_result(rnd, n, t, a, b) for t, (a, b) in enumerate(draw.tables, 1))
        rounds.append(Played(draw, results))
        assert len(rounds) <= 64
    return rounds


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 33), st.integers(0, 10**6), st.sampled_from([4, 8]))
def test_swiss_never_repeats_and_the_knockout_is_seeded(n: int, seed: int, k: int) -> None:
    teams: list[tuple[int, str | None]] = [(p, None) for p in range(1, n + 1)]
    shape = Shape("swiss_knockout", knockout=k)  # type: ignore[arg-type]
    rounds = _play(shape, teams, seed)
    assert len(rounds) == total_rounds(shape, teams)
    swiss_n = len(rounds) - (({4: 2, 8: 3}[k]) if n >= k else 0)
    swiss = rounds[:swiss_n]
    meetings = Counter(frozenset(t) for p in swiss for t in p.draw.tables)
    assert set(meetings.values()) <= {1}
    byes = [p.draw.bye for p in swiss if p.draw.bye is not None]
    assert len(byes) == len(set(byes))
    if n >= k:
        results = [r for p in swiss for r in p.results]
        byes_ = [Bye(i, p.draw.bye) for i, p in enumerate(swiss, 1) if p.draw.bye is not None]
        seeds = [s.pair for s in standings(list(range(1, n + 1)), results, byes_)][:k]
        first = rounds[swiss_n].draw.tables
        order = {4: [(1, 4), (2, 3)], 8: [(1, 8), (4, 5), (3, 6), (2, 7)]}[k]
        assert list(first) == [(seeds[a - 1], seeds[b - 1]) for a, b in order]
        assert len(rounds[-1].draw.tables) == 1  # a final
        assert night_winner(shape, teams, rounds) == rounds[-1].results[0].winner


def test_swiss_pairs_equal_records() -> None:
    # After round 1 of 8 pairs: the four winners meet each other, the four losers too.
    ranked = [1, 3, 5, 7, 2, 4, 6, 8]
    history = [pairing.Draw(((1, 2), (3, 4), (5, 6), (7, 8)))]
    wins = {1: 1, 3: 1, 5: 1, 7: 1, 2: 0, 4: 0, 6: 0, 8: 0}
    draw = pairing.swiss(ranked, history, score=wins.__getitem__)
    assert draw is not None
    for a, b in draw.tables:
        assert wins[a] == wins[b]


def test_the_bracket_by_seed() -> None:
    assert pairing.bracket([11, 12, 13, 14, 15, 16, 17, 18]).tables == (
        (11, 18),
        (14, 15),
        (13, 16),
        (12, 17),
    )
    assert pairing.bracket([5, 6, 7, 8]).tables == ((5, 8), (6, 7))
    assert pairing.next_knockout([11, 14, 13, 12]).tables == ((11, 14), (13, 12))  # type: ignore[union-attr]


@given(st.integers(1, 8))
def test_team_match_every_pair_meets_each_of_the_other_club(t: int) -> None:
    side_a = list(range(1, t + 1))
    side_b = list(range(t + 1, 2 * t + 1))
    teams = [(p, "A") for p in side_a] + [(p, "B") for p in side_b]
    rounds = _play(Shape("teams"), teams, t)  # type: ignore[arg-type]
    assert len(rounds) == t
    meetings = Counter(frozenset(tb) for p in rounds for tb in p.draw.tables)
    assert set(meetings) == {frozenset((a, b)) for a in side_a for b in side_b}
    for p in rounds:
        for a, b in p.draw.tables:
            assert a in side_a and b in side_b


def test_team_target_ends_the_night() -> None:
    teams = [(1, "A"), (2, "A"), (3, "B"), (4, "B")]
    shape = Shape("teams", team_target=3)
    first = next_draw(shape, teams, [])
    assert first is not None
    played = Played(
        first,
        (MatchResult(1, 1, (1, 3), (2, 0), winner=1), MatchResult(1, 2, (2, 4), (2, 1), winner=2)),
    )
    assert next_draw(shape, teams, [played]) is None
    assert night_winner(shape, teams, [played]) == "A"


def _independent(
    pairs: list[int], results: list[MatchResult], byes: list[Bye]
) -> dict[int, dict[str, int]]:
    count = {p: Counter[str]() for p in pairs}
    for r in results:
        if r.winner is None:
            continue
        for me, them in ((0, 1), (1, 0)):
            c = count[r.pairs[me]]
            c["played"] += 1
            c["wins" if r.winner == r.pairs[me] else "losses"] += 1
            c["bullseyes_for"] += r.bullseyes[me]
            c["bullseyes_against"] += r.bullseyes[them]
            c["hang_jacks_for"] += r.hang_jacks[me]
            c["hang_jacks_against"] += r.hang_jacks[them]
            c["chalk_difference"] += r.chalk[me] - r.chalk[them]
    for b in byes:
        scored = [
            x for r in results if r.round == b.round and r.winner is not None for x in r.bullseyes
        ]
        count[b.pair]["played"] += 1
        count[b.pair]["wins"] += 1
        count[b.pair]["bullseyes_for"] += sum(scored) // len(scored) if scored else 0
    return {p: dict(c) for p, c in count.items()}


@settings(max_examples=80, deadline=None)
@given(
    st.integers(2, 12), st.integers(0, 10**6), st.sampled_from(["wins_first", "bullseyes_first"])
)
def test_standings_equal_an_independent_count(n: int, seed: int, order: str) -> None:
    pairs = list(range(1, n + 1))
    teams: list[tuple[int, str | None]] = [(p, None) for p in pairs]
    rounds = _play(Shape("round_robin"), teams, seed)
    results = [r for p in rounds for r in p.results]
    byes = [Bye(i, p.draw.bye) for i, p in enumerate(rounds, 1) if p.draw.bye is not None]
    table = standings(pairs, results, byes, order)  # type: ignore[arg-type]
    expected = _independent(pairs, results, byes)
    for s in table:
        for column, value in expected[s.pair].items():
            assert getattr(s, column) == value, (s.pair, column)
    first = "wins" if order == "wins_first" else "bullseyes_for"
    keys = [getattr(s, first) for s in table]
    assert keys == sorted(keys, reverse=True)
    ranks = [s.rank for s in table]
    assert ranks == sorted(ranks) and ranks[0] == 1


def test_tie_breaks_in_order() -> None:
    # 1 and 2 level on wins and bullseyes; 2 has fewer against.
    results = [
        MatchResult(1, 1, (1, 3), (2, 1), winner=1),
        MatchResult(1, 2, (2, 4), (2, 0), winner=2),
    ]
    table = standings([1, 2, 3, 4], results)
    assert [s.pair for s in table][:2] == [2, 1]
    # 1 and 2 level up to hang jacks (one win, 3 bullseyes for and against): 1 beat 2, so 1
    # goes first whatever the chalk says.
    results = [
        MatchResult(1, 1, (1, 2), (2, 1), chalk=(10, 30), winner=1),
        MatchResult(2, 1, (2, 3), (2, 1), winner=2),
        MatchResult(2, 2, (1, 4), (1, 2), winner=4),
    ]
    by_pair = {s.pair: s for s in standings([1, 2, 3, 4], results)}
    assert by_pair[1].rank < by_pair[2].rank
    assert by_pair[1].head_to_head == 1 and by_pair[2].head_to_head == 0
    assert by_pair[2].chalk_difference > by_pair[1].chalk_difference
    # Level on everything: the same rank.
    even = [
        MatchResult(1, 1, (1, 2), (2, 1), winner=1),
        MatchResult(2, 1, (1, 2), (1, 2), winner=2),
    ]
    assert [s.rank for s in standings([1, 2], even)] == [1, 1]


def test_a_bye_is_a_win_with_the_rounds_average_rounded_down() -> None:
    results = [
        MatchResult(1, 1, (1, 2), (2, 1), winner=1),
        MatchResult(1, 2, (3, 4), (2, 0), winner=3),
    ]
    table = {s.pair: s for s in standings([1, 2, 3, 4, 5], results, [Bye(1, 5)])}
    assert table[5].wins == 1 and table[5].played == 1
    assert table[5].bullseyes_for == 5 // 4  # (2 + 1 + 2 + 0) / 4 rounded down
    assert table[5].bullseyes_against == 0


def _hand(awards_: list[dict[str, object]], totals: list[int] | None = None) -> dict[str, object]:
    return {"awards": awards_, "game_totals": totals}


def test_awards_from_the_records() -> None:
    jack = {"kind": "hang_jack", "team": 0, "points": 3, "card": "JS", "seat": 1}
    sheets = [
        GameSheet(1, 1, 1, (1, 2), {"over": True, "winner": 0, "hands": [_hand([jack], [31, 50])]}),
        GameSheet(1, 1, 2, (1, 2), {"over": True, "winner": 0, "hands": [_hand([], [20, 61])]}),
        GameSheet(
            1,
            2,
            1,
            (3, 4),
            {
                "over": True,
                "winner": 1,
                "hands": [
                    _hand([{**jack, "team": 1, "card": "JH"}, {**jack, "team": 1, "card": "JS"}])
                ],
            },
        ),
        GameSheet(
            2,
            1,
            1,
            (1, 4),
            {
                "over": True,
                "winner": 1,
                "hands": [_hand([], None) | {"calls": [{"seat": 1, "upheld": True}]}],
            },
        ),
    ]
    found = {(a.kind, a.suit): a for a in awards(sheets)}
    assert (
        found[("most_hang_jacks", None)].pair == 4 and found[("most_hang_jacks", None)].value == 2
    )
    assert found[("first_hang_jack", "S")].pair == 1
    assert found[("first_hang_jack", "H")].pair == 4
    assert found[("highest_game", None)].pair == 2 and found[("highest_game", None)].value == 61
    assert found[("most_bullseyes", None)].pair == 1 and found[("most_bullseyes", None)].value == 2
    assert found[("longest_run", None)].pair == 1 and found[("longest_run", None)].value == 2
    assert found[("most_reneges_caught", None)].pair == 4
