"""One finished game counted: each seat's and each partnership's figures, read from the
game's deal records (``State.history``). The one place the stats are scored: the room's
stats (app/services/stats.py) add these up per player and partnership, and a player's career
(app/services/career.py) keeps each seat's as it was counted when the game ended.

Credit: High, Low and a jack won home go to the player who was dealt the card; a hang jack
is made by the player whose card took the lift holding it and suffered by the jack's holder;
kick points, gave one and ran the pack go to the dealer; bullseyes, Game won and the highest
Game count are a partnership's, and count for both of its players. R22: a call of renege
counts for the caller (caught or wrong), a renege for the player who played it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from app.rules.cards import code
from app.rules.state import HandRecord


@dataclass
class Count:
    """A player's or a partnership's figures over one game or many (``add``)."""

    games: int = 0
    bullseyes: int = 0
    hands: int = 0
    made: dict[str, int] = field(default_factory=dict)
    suffered: dict[str, int] = field(default_factory=dict)
    jacks_won_home: int = 0
    kick_points: int = 0
    high: int = 0
    low: int = 0
    game_won: int = 0
    highest_game_count: int | None = None
    gave_one: int = 0
    ran_the_pack: int = 0
    reneges_caught: int = 0
    wrong_calls: int = 0
    reneges: int = 0
    reneges_called: int = 0

    def add(self, other: Count) -> None:
        """Count ``other`` (another game) in too."""
        for name in (
            "games",
            "bullseyes",
            "hands",
            "jacks_won_home",
            "kick_points",
            "high",
            "low",
            "game_won",
            "gave_one",
            "ran_the_pack",
            "reneges_caught",
            "wrong_calls",
            "reneges",
            "reneges_called",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for mine, theirs in ((self.made, other.made), (self.suffered, other.suffered)):
            for jack, n in theirs.items():
                mine[jack] = mine.get(jack, 0) + n
        if other.highest_game_count is not None and (
            self.highest_game_count is None or other.highest_game_count > self.highest_game_count
        ):
            self.highest_game_count = other.highest_game_count


@dataclass(frozen=True)
class GameCount:
    """One finished game's figures: per team (0: seats 0 and 2) and per seat; ``before``,
    per seat, the deals a computer player played before a latecomer took the seat."""

    teams: tuple[Count, Count]
    seats: tuple[Count, Count, Count, Count]
    before: tuple[Count, Count, Count, Count]


def count_game(
    history: tuple[HandRecord, ...], winner: int, since: Sequence[int] = (1, 1, 1, 1)
) -> GameCount:
    """The figures of one finished game that team ``winner`` won, from its deals' records.
    ``since``: per seat, the first deal of the player who finished the game there (a
    latecomer's, app/services/snapshot.py ``deals_from``): the game, its bullseye and the
    deals from then on are theirs, the deals before it the computer player's (``before``)."""
    teams = (Count(), Count())
    seats = (Count(), Count(), Count(), Count())
    before = (Count(), Count(), Count(), Count())

    def both(team: int) -> tuple[Count, Count, Count]:
        return teams[team], seats[team], seats[team + 2]

    for team in (0, 1):
        for c in both(team):
            c.games += 1
    for c in both(winner):
        c.bullseyes += 1
    for hand in history:
        _deal(hand, teams, tuple(seats[s] if hand.n >= since[s] else before[s] for s in range(4)))
    return GameCount(teams, seats, before)


def _deal(hand: HandRecord, teams: tuple[Count, Count], seats: tuple[Count, ...]) -> None:
    if not hand.redeal:  # deals played, not redealt
        for c in (*teams, *seats):
            c.hands += 1
    dealer = hand.dealer
    if hand.decision == "give_one":
        teams[dealer % 2].gave_one += 1
        seats[dealer].gave_one += 1
    elif hand.decision == "run_pack":
        teams[dealer % 2].ran_the_pack += 1
        seats[dealer].ran_the_pack += 1
    for award in hand.awards:
        kind, team = award.kind, award.team
        if kind == "kick":
            teams[team].kick_points += award.points
            seats[dealer].kick_points += award.points
        elif kind in ("high", "low") and award.seat is not None:
            for c in (teams[team], seats[award.seat]):
                setattr(c, kind, getattr(c, kind) + 1)
        elif kind == "jack" and award.seat is not None:
            teams[team].jacks_won_home += 1
            seats[award.seat].jacks_won_home += 1
        elif kind == "hang_jack" and award.card is not None and award.seat is not None:
            jack = code(award.card)
            # made by the player whose card took the lift that held the jack
            taker = next(t.winner for t in hand.tricks if any(c == award.card for _, c in t.cards))
            for c in (teams[team], seats[taker]):
                c.made[jack] = c.made.get(jack, 0) + 1
            for c in (teams[1 - team], seats[award.seat]):
                c.suffered[jack] = c.suffered.get(jack, 0) + 1
        elif kind == "game":
            for c in (teams[team], seats[team], seats[team + 2]):
                c.game_won += 1
    for called in hand.calls:  # R22: the caller's side and the caller
        for c in (teams[called.seat % 2], seats[called.seat]):
            if called.upheld:
                c.reneges_caught += 1
            else:
                c.wrong_calls += 1
    for renege in hand.reneges:  # finished games only: every renege is public (R27)
        for c in (teams[renege.seat % 2], seats[renege.seat]):
            c.reneges += 1
            c.reneges_called += renege.called
    if hand.game_totals is not None:
        for team in (0, 1):
            total = hand.game_totals[team]
            for c in (teams[team], seats[team], seats[team + 2]):
                if c.highest_game_count is None or total > c.highest_game_count:
                    c.highest_game_count = total


# What a player's career keeps of a seat's figures in one game (API.md `stats`, less the
# games and wins its rows count), under the names API.md gives them.
CAREER_FIGURES = (
    "hands",
    "hang_jacks_made",
    "hang_jacks_suffered",
    "jacks_home",
    "kick_points",
    "high",
    "low",
    "game",
    "reneges_caught",
    "wrong_calls",
    "reneges",
)


def career_figures(count: Count) -> dict[str, int]:
    """A seat's figures for one game, as a player's career keeps them."""
    return {
        "hands": count.hands,
        "hang_jacks_made": sum(count.made.values()),
        "hang_jacks_suffered": sum(count.suffered.values()),
        "jacks_home": count.jacks_won_home,
        "kick_points": count.kick_points,
        "high": count.high,
        "low": count.low,
        "game": count.game_won,
        "reneges_caught": count.reneges_caught,
        "wrong_calls": count.wrong_calls,
        "reneges": count.reneges,
    }
