"""A season's standings (app/night/season.py) against an independent count: each table's
match counted straight from its games (or the director's correction), each bye as the round's
average, per pair of the same two players and per player, over random seasons."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.night.season import SeasonNight, SeasonTable, Who, guest, profile, season_table
from app.night.state import (
    NightRow,
    NightState,
    NightTableRow,
    PairRow,
    RoundRow,
    night_standings,
)

PEOPLE: list[Who] = [profile(n) for n in range(1, 7)] + [guest("Ivy"), guest("Jo")]
COLUMNS = (
    "played",
    "wins",
    "losses",
    "bullseyes_for",
    "bullseyes_against",
    "hang_jacks_for",
    "hang_jacks_against",
    "chalk_difference",
)
Json = dict[str, Any]


@st.composite
def games(draw: st.DrawFn) -> list[Json]:
    found = []
    for number in range(1, draw(st.integers(0, 3)) + 1):
        hands = [
            {
                "awards": [
                    {"kind": "hang_jack", "team": t, "card": "J" + draw(st.sampled_from("CDHS"))}
                    for t in draw(st.lists(st.integers(0, 1), max_size=2))
                ],
                "game_totals": draw(st.lists(st.integers(0, 40), min_size=2, max_size=2)),
            }
            for _ in range(draw(st.integers(0, 2)))
        ]
        found.append(
            {
                "number": number,
                "winner": draw(st.integers(0, 1)),
                "scores": draw(st.lists(st.integers(0, 14), min_size=2, max_size=2)),
                "hands": hands,
            }
        )
    return found


@st.composite
def a_night(draw: st.DrawFn, night_id: int) -> SeasonNight:
    people = draw(st.permutations(PEOPLE))
    count = draw(st.integers(2, 4))
    partners = {n: (people[2 * n - 2], people[2 * n - 1]) for n in range(1, count + 1)}
    pairs = tuple(PairRow(n, [w[2:] for w in partners[n]], None) for n in partners)
    rounds: list[RoundRow] = []
    tables: list[NightTableRow] = []
    for r in range(1, draw(st.integers(1, 3)) + 1):
        order = draw(st.permutations(list(partners)))
        bye = order[-1] if len(order) % 2 else None
        rounds.append(RoundRow(r, bye, datetime(2026, 12, 1, tzinfo=UTC)))
        for t in range(len(order) // 2):
            a, b = order[2 * t], order[2 * t + 1]
            over = draw(st.booleans())
            tables.append(
                NightTableRow(
                    len(tables) + 1,
                    night_id,
                    r,
                    t + 1,
                    f"room{night_id}x{r}x{t}",
                    a,
                    b,
                    draw(games()),
                    draw(st.sampled_from([a, b])) if over else None,
                    None,
                    draw(st.none() | st.lists(st.integers(0, 3), min_size=2, max_size=2)),
                )
            )
    row = NightRow(night_id, f"n{night_id}", "a night", "round_robin", None, {}, {}, "x", False, 1)
    return SeasonNight(NightState(row, pairs, tuple(rounds), tuple(tables)), partners)


@st.composite
def seasons(draw: st.DrawFn) -> list[SeasonNight]:
    return [draw(a_night(n)) for n in range(1, draw(st.integers(1, 4)) + 1)]


def independent(nights: list[SeasonNight]) -> tuple[dict[Any, Json], dict[Any, Json]]:
    """Each pair's (the two players, in any order) and each player's line, counted simply."""
    lines: dict[frozenset[Who], Json] = defaultdict(lambda: defaultdict(int))
    seen: dict[frozenset[Who], set[int]] = defaultdict(set)
    for i, night in enumerate(nights):
        two = {n: frozenset(w) for n, w in night.partners.items()}
        for p in two.values():
            lines[p]["played"] += 0
        by_round: dict[int, list[int]] = defaultdict(list)
        for t in night.state.tables:
            if t.winner is None:
                continue
            bulls = [0, 0]
            hangs = [0, 0]
            chalk = [0, 0]
            for g in t.games:
                bulls[g["winner"]] += 1
                for side in (0, 1):
                    chalk[side] += g["scores"][side]
                for h in g["hands"]:
                    for a in h["awards"]:
                        hangs[a["team"]] += 1
            if t.corrected is not None:
                bulls = list(t.corrected)
            by_round[t.round] += bulls
            for side, me in enumerate((t.pair_a, t.pair_b)):
                line = lines[two[me]]
                seen[two[me]].add(i)
                line["played"] += 1
                line["wins"] += t.winner == me
                line["losses"] += t.winner != me
                line["bullseyes_for"] += bulls[side]
                line["bullseyes_against"] += bulls[1 - side]
                line["hang_jacks_for"] += hangs[side]
                line["hang_jacks_against"] += hangs[1 - side]
                line["chalk_difference"] += chalk[side] - chalk[1 - side]
        for r in night.state.rounds:
            if r.bye is not None:
                scored = by_round[r.number]
                line = lines[two[r.bye]]
                seen[two[r.bye]].add(i)
                line["played"] += 1
                line["wins"] += 1
                line["bullseyes_for"] += sum(scored) // len(scored) if scored else 0
    pairs = {
        p: {**{c: line[c] for c in COLUMNS}, "nights": len(seen[p])} for p, line in lines.items()
    }
    people: dict[Who, Json] = {}
    nights_of: dict[Who, set[int]] = defaultdict(set)
    for p, line in pairs.items():
        for w in p:
            mine = people.setdefault(w, dict.fromkeys(COLUMNS, 0))
            for c in COLUMNS:
                mine[c] += line[c]
            nights_of[w] |= seen[p]
    for w, mine in people.items():
        mine["nights"] = len(nights_of[w])
    return pairs, people


def counted(table: SeasonTable) -> tuple[dict[Any, Json], dict[Any, Json]]:
    def of(line: Any) -> Json:
        return {**{c: getattr(line.line, c) for c in COLUMNS}, "nights": line.nights}

    return (
        {frozenset(x.who): of(x) for x in table.pairs},
        {x.who[0]: of(x) for x in table.players},
    )


@settings(max_examples=150, deadline=None)
@given(seasons(), st.sampled_from(["wins_first", "bullseyes_first"]))
def test_the_season_counts_as_an_independent_count(nights: list[SeasonNight], order: Any) -> None:
    table = season_table(nights, order)
    assert counted(table) == independent(nights)
    for lines in (table.pairs, table.players):
        ranks = [x.line.rank for x in lines]
        assert ranks == sorted(ranks) and (not ranks or ranks[0] == 1)
        first = "wins" if order == "wins_first" else "bullseyes_for"
        heads = [getattr(x.line, first) for x in lines]
        assert heads == sorted(heads, reverse=True)


@settings(max_examples=60, deadline=None)
@given(seasons())
def test_the_season_awards_count_every_game(nights: list[SeasonNight]) -> None:
    won: dict[frozenset[Who], int] = defaultdict(int)
    hanged: dict[frozenset[Who], int] = defaultdict(int)
    for night in nights:
        for t in night.state.tables:
            sides = (frozenset(night.partners[t.pair_a]), frozenset(night.partners[t.pair_b]))
            for g in t.games:
                won[sides[g["winner"]]] += 1
                for h in g["hands"]:
                    for a in h["awards"]:
                        hanged[sides[a["team"]]] += 1
    found = {a.award.kind: a for a in season_table(nights).awards}
    for kind, counts in (("most_bullseyes", won), ("most_hang_jacks", hanged)):
        if counts:
            best = max(counts.values())
            assert found[kind].award.value == best
            assert counts[frozenset(found[kind].who)] == best
        else:
            assert kind not in found


@settings(max_examples=60, deadline=None)
@given(seasons())
def test_the_order_of_the_same_two_players_does_not_matter(nights: list[SeasonNight]) -> None:
    swapped = [
        SeasonNight(n.state, {p: (w[1], w[0]) for p, w in n.partners.items()}) for n in nights
    ]
    assert counted(season_table(swapped)) == counted(season_table(nights))


@settings(max_examples=100, deadline=None)
@given(a_night(1), st.sampled_from(["wins_first", "bullseyes_first"]))
def test_a_season_of_one_night_ranks_as_the_night(night: SeasonNight, order: Any) -> None:
    """Ties broken as a night's: the same ranks and tie-break columns, pair for pair."""
    row = replace(night.state.row, options={"standings": order})
    state = replace(night.state, row=row)
    by_night = {
        frozenset(night.partners[s.pair]): (s.rank, s.head_to_head, s.chalk_difference)
        for s in night_standings(state)
    }
    table = season_table([SeasonNight(state, night.partners)], order)
    by_season = {
        frozenset(x.who): (x.line.rank, x.line.head_to_head, x.line.chalk_difference)
        for x in table.pairs
    }
    assert by_season == by_night
