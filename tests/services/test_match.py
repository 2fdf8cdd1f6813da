"""The match tally (app/services/match.py): bullseyes per partnership across rematches,
a new match after one is won, and again 0-0 when the partnerships change between games,
whatever moved the seats."""

from __future__ import annotations

from dataclasses import replace

from app.rules import Rules
from app.rules.state import Phase
from app.services.match import match_of, sides, tally
from app.services.options import RoomOptions
from app.services.snapshot import GameResult, Lineup, Occupant, RoomSnap

ANN, BEN, CAL, DEE = (Occupant(n, False, None, f"hash-{n}") for n in ("Ann", "Ben", "Cal", "Dee"))
BOT = Occupant("Bot (standard)", True, "standard", None)
SEATED: Lineup = (ANN, BEN, CAL, DEE)


def won(number: int, winner: int, lineup: Lineup = SEATED) -> GameResult:
    return GameResult(number, lineup, winner)


def test_bullseyes_count_per_partnership_until_the_match_is_won() -> None:
    count, over = tally([won(1, 0), won(2, 1), won(3, 0)], to=2)
    assert over and count == {sides(SEATED)[0]: 2, sides(SEATED)[1]: 1}
    count, over = tally([won(1, 0), won(2, 1)], to=2)
    assert not over and set(count.values()) == {1}


def test_a_won_match_is_followed_by_a_new_one() -> None:
    count, over = tally([won(1, 0), won(2, 0), won(3, 1)], to=2)
    assert not over and count == {sides(SEATED)[0]: 0, sides(SEATED)[1]: 1}


def test_new_partners_start_the_tally_again() -> None:
    swapped: Lineup = (ANN, CAL, BEN, DEE)  # Ann now partners Ben
    count, _ = tally([won(1, 0), won(2, 0, swapped)], to=3)
    assert count == {sides(swapped)[0]: 1, sides(swapped)[1]: 0}


def test_partnerships_changing_sides_or_places_keep_their_tally() -> None:
    # Ann & Cal move to seats 1 and 3, partners still; then the partners swap places.
    moved: Lineup = (BEN, ANN, DEE, CAL)
    crossed: Lineup = (DEE, CAL, BEN, ANN)
    count, _ = tally([won(1, 0), won(2, 1, moved), won(3, 1, crossed)], to=4)
    ann_cal = frozenset({"human:hash-Ann", "human:hash-Cal"})
    assert count[ann_cal] == 3


def test_two_computer_players_of_one_level_are_alike_and_four_still_have_two_teams() -> None:
    left: Lineup = (ANN, BOT, CAL, replace(BOT, name="Bot 2"))
    assert sides(left)[1] == frozenset({"bot:standard"})
    four: Lineup = (BOT, BOT, BOT, BOT)
    first, second = sides(four)
    assert first != second
    count, _ = tally([won(1, 0, four), won(2, 1, four)], to=3)
    assert sorted(count.values()) == [1, 1]


def _snap(results: tuple[GameResult, ...], match: int) -> RoomSnap:
    from app.rules import new_game
    from app.services.snapshot import GameInfo, SeatInfo

    seats = tuple(SeatInfo(i, o.name, o.bot, o.level, o.who) for i, o in enumerate(SEATED))
    game = GameInfo(9, len(results) + 1, 5, 0, 1, 0, None, new_game(Rules(), 5, 0), SEATED)
    return RoomSnap(
        1, "abc", 10, Rules(), None, (seats[0], seats[1], seats[2], seats[3]), game,
        options=RoomOptions(match=match), results=results,
    )  # fmt: skip


def test_the_view_shows_the_match_of_the_game_in_play() -> None:
    snap = _snap((won(1, 1),), 2)
    assert snap.game is not None and snap.game.state.phase is not Phase.GAME_OVER
    assert match_of(snap) == ((0, 1), 2, None)
    # After a won match the game in play opens a new one: 0-0.
    assert match_of(_snap((won(1, 1), won(2, 1)), 2)) == ((0, 0), 2, None)
    assert match_of(replace(_snap((), 3), game=None)) == ((0, 0), 3, None)
