"""The night's side prizes, read off the tables' game records (the JSON of
``app/services/records.py``): most hang jacks, the first hang jack of each suit, the highest
Game count, most bullseyes, most games won in a row, and, where the records carry renege
calls (renege mode, RULES.md R20-R27), most reneges caught.

Ties: the pair that reached the figure first takes the prize (records are read in the order
they were played: round, table, game)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

SUIT_ORDER = ("C", "D", "H", "S")


@dataclass(frozen=True, slots=True)
class GameSheet:
    """One game of a night: where it was played, the pairs (team 0's first) and its record."""

    round: int
    table: int
    number: int
    pairs: tuple[int, int]
    record: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class NightAward:
    kind: str  # most_hang_jacks, first_hang_jack, highest_game, most_bullseyes, longest_run,
    # most_reneges_caught
    pair: int
    value: int
    suit: str | None = None  # first_hang_jack: the suit
    round: int | None = None  # first_hang_jack and highest_game: where it happened
    table: int | None = None


def _hands(sheet: GameSheet) -> list[Mapping[str, Any]]:
    hands = sheet.record.get("hands") or []
    return [h for h in hands if isinstance(h, Mapping)]


def _most(counts: dict[int, int], first_at: dict[int, int], kind: str) -> NightAward | None:
    if not counts or max(counts.values()) <= 0:
        return None
    best = max(counts.values())
    pair = min((p for p, n in counts.items() if n == best), key=lambda p: first_at[p])
    return NightAward(kind, pair, best)


def awards(sheets: Sequence[GameSheet]) -> list[NightAward]:
    ordered = sorted(sheets, key=lambda s: (s.round, s.table, s.number))
    hang: dict[int, int] = {}
    hang_at: dict[int, int] = {}
    first_jack: dict[str, NightAward] = {}
    best_game: NightAward | None = None
    wins: dict[int, int] = {}
    wins_at: dict[int, int] = {}
    run: dict[int, int] = {}
    longest: dict[int, int] = {}
    longest_at: dict[int, int] = {}
    caught: dict[int, int] = {}
    caught_at: dict[int, int] = {}
    for step, sheet in enumerate(ordered):
        for hand in _hands(sheet):
            for award in hand.get("awards") or []:
                if award.get("kind") != "hang_jack":
                    continue
                pair = sheet.pairs[int(award["team"])]
                hang[pair] = hang.get(pair, 0) + 1
                hang_at.setdefault(pair, step)
                suit = str(award.get("card") or "")[-1:]
                if suit and suit not in first_jack:
                    first_jack[suit] = NightAward(
                        "first_hang_jack", pair, 1, suit, sheet.round, sheet.table
                    )
            totals = hand.get("game_totals")
            if totals:
                for team, count in enumerate(totals):
                    if best_game is None or int(count) > best_game.value:
                        best_game = NightAward(
                            "highest_game",
                            sheet.pairs[team],
                            int(count),
                            round=sheet.round,
                            table=sheet.table,
                        )
            for call in hand.get("calls") or []:
                if isinstance(call, Mapping) and call.get("upheld"):
                    pair = sheet.pairs[int(call["seat"]) % 2]
                    caught[pair] = caught.get(pair, 0) + 1
                    caught_at.setdefault(pair, step)
        winner = sheet.record.get("winner")
        if sheet.record.get("over") and winner in (0, 1):
            won, lost = sheet.pairs[int(winner)], sheet.pairs[1 - int(winner)]
            wins[won] = wins.get(won, 0) + 1
            wins_at.setdefault(won, step)
            run[won] = run.get(won, 0) + 1
            run[lost] = 0
            if run[won] > longest.get(won, 0):
                longest[won] = run[won]
                longest_at[won] = step
    found = [
        _most(hang, hang_at, "most_hang_jacks"),
        *(first_jack[s] for s in SUIT_ORDER if s in first_jack),
        best_game,
        _most(wins, wins_at, "most_bullseyes"),
        _most(longest, longest_at, "longest_run"),
        _most(caught, caught_at, "most_reneges_caught"),
    ]
    return [a for a in found if a is not None]


def hang_jacks(sheets: Sequence[GameSheet], pair: int) -> tuple[int, int]:
    """Hang jacks made and suffered by ``pair`` in these games."""
    made = suffered = 0
    for sheet in sheets:
        if pair not in sheet.pairs:
            continue
        mine = sheet.pairs.index(pair)
        for hand in _hands(sheet):
            for award in hand.get("awards") or []:
                if award.get("kind") == "hang_jack":
                    if int(award["team"]) == mine:
                        made += 1
                    else:
                        suffered += 1
    return made, suffered
