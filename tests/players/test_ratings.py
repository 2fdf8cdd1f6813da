"""Ratings against openskill itself: a few hundred random rated games fed through the one
function that counts a finished game in (app/services/career.py ``count_in``), the ratings
kept compared with PlackettLuce's own ``rate`` applied in the same order."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from openskill.models import PlackettLuce

from app.services.career import is_rated, leaderboard
from app.store import career_repo, repo
from app.store.db import read
from tests.api.table import new_room
from tests.players.test_careers import count_game
from tests.players.test_profiles import make

GAMES = 300
LEAVER_GAMES = 200


def test_ratings_agree_with_openskill_over_random_rated_games(client: TestClient) -> None:
    engine = client.app.state.ctx.engine  # type: ignore[attr-defined]
    handles = [f"os_{n}" for n in range(8)]
    for h in handles:
        make(client, h)
    code = new_room(client)
    with read(engine) as conn:
        ids = [career_repo.player_of(conn, h).id for h in handles]  # type: ignore[union-attr]
        room = repo.room_by_code(conn, code)
    assert room is not None
    model = PlackettLuce()
    theirs = {i: model.rating() for i in ids}
    rng = random.Random(34)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for n in range(1, GAMES + 1):
        four = rng.sample(ids, 4)
        winner = rng.randrange(2)
        count_game(
            engine,
            room_id=room.id,
            number=n,
            players=four,
            winner=winner,
            rated=True,
            at=start + timedelta(minutes=n),
        )
        teams = [[theirs[four[0]], theirs[four[2]]], [theirs[four[1]], theirs[four[3]]]]
        (a, c), (b, d) = model.rate(teams, ranks=[0, 1] if winner == 0 else [1, 0])
        theirs.update(zip(four, (a, b, c, d), strict=True))
    with read(engine) as conn:
        kept = {pid: (mu, sigma, games) for pid, mu, sigma, games in career_repo.all_ratings(conn)}
        rows = career_repo.all_careers(conn)
    assert len(rows) == 4 * GAMES
    for pid in ids:
        mu, sigma, games = kept[pid]
        assert abs(mu - theirs[pid].mu) < 1e-9 and abs(sigma - theirs[pid].sigma) < 1e-9
        assert games == sum(r["player_id"] == pid for r in rows)
    board = leaderboard(engine)["players"]
    expected = sorted(ids, key=lambda i: -(theirs[i].mu - 3 * theirs[i].sigma))
    assert [p["handle"] for p in board] == [handles[ids.index(i)] for i in expected]
    assert not any(p["rating"]["provisional"] for p in board)  # ~150 games each


def test_rated_needs_four_different_players_from_the_first_deal_to_the_end() -> None:
    from app.services.snapshot import Occupant, SeatInfo, SeatPlayer

    def seat(n: int, player: int | None) -> SeatInfo:
        held = SeatPlayer(player, f"p{player}") if player is not None else None
        return SeatInfo(n, f"P{n}", player is None, None, f"h{n}", None, held)

    lineup = tuple(Occupant(f"P{n}", False, None, f"h{n}", 10 + n) for n in range(4))
    four = [seat(n, 10 + n) for n in range(4)]
    assert is_rated(lineup, four)  # type: ignore[arg-type]
    # the away cover plays in the player's own seat: the seat still names them
    # a computer player seated by the host in an away player's place: no player there
    assert not is_rated(lineup, [*four[:3], seat(3, None)])  # type: ignore[arg-type]
    # a seat changing hands to another player
    assert not is_rated(lineup, [*four[:3], seat(3, 99)])  # type: ignore[arg-type]
    # a guest at the first deal
    guest = (*lineup[:3], Occupant("G", False, None, "g", None))
    assert not is_rated(guest, four)  # type: ignore[arg-type]
    # one player in two seats is not four players
    twice = (*lineup[:3], Occupant("P0", False, None, "h3", 10))
    assert not is_rated(twice, [*four[:3], seat(3, 10)])  # type: ignore[arg-type]
    assert not is_rated(None, four)


def test_leavers_ratings_agree_with_openskill_over_random_games(client: TestClient) -> None:
    """A leaver is rated as their team's loss, their partner not at all, the others by the
    table's result: openskill's own ``rate`` applied the same way, game after game."""
    engine = client.app.state.ctx.engine  # type: ignore[attr-defined]
    model = PlackettLuce()
    handles = [f"lv_{n}" for n in range(8)]
    for h in handles:
        make(client, h)
    code = new_room(client)
    with read(engine) as conn:
        ids = [career_repo.player_of(conn, h).id for h in handles]  # type: ignore[union-attr]
        room = repo.room_by_code(conn, code)
    assert room is not None
    theirs = {i: model.rating() for i in ids}
    games = dict.fromkeys(ids, 0)
    rng = random.Random(43)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for n in range(1, LEAVER_GAMES + 1):
        four = rng.sample(ids, 4)
        winner = rng.randrange(2)
        left = frozenset(s for s in range(4) if rng.random() < 0.15)
        count_game(
            engine,
            room_id=room.id,
            number=n,
            players=four,
            winner=winner,
            rated=True,
            at=start + timedelta(minutes=n),
            left=left,
        )
        teams = [[theirs[four[0]], theirs[four[2]]], [theirs[four[1]], theirs[four[3]]]]

        def after(won: int, teams: list[list[Any]] = teams) -> list[Any]:
            (a, c), (b, d) = model.rate(teams, ranks=[0, 1] if won == 0 else [1, 0])
            return [a, b, c, d]

        played = after(winner)
        for seat, pid in enumerate(four):
            if seat in left:
                theirs[pid] = after(1 - seat % 2)[seat]  # their team's loss
            elif (seat + 2) % 4 in left:
                continue  # the partner of a leaver: unmoved, not a rated game for them
            else:
                theirs[pid] = played[seat]
            games[pid] += 1
    with read(engine) as conn:
        kept = {pid: (mu, sigma, g) for pid, mu, sigma, g in career_repo.all_ratings(conn)}
        rows = [r for r in career_repo.all_careers(conn) if r["player_id"] in ids]
    assert len(rows) == 4 * LEAVER_GAMES and any(r["left"] for r in rows)
    for pid in ids:
        mu, sigma, rated_games = kept[pid]
        assert abs(mu - theirs[pid].mu) < 1e-9 and abs(sigma - theirs[pid].sigma) < 1e-9
        assert rated_games == games[pid] == sum(r["player_id"] == pid and r["rated"] for r in rows)


def test_a_leavers_seat_taken_by_the_computer_keeps_the_game_rated() -> None:
    """A computer player in a leaver's seat at the end keeps the game rated; in the seat of
    a player who did not leave (no move made for them), or a stranger there, it is not."""

    from app.services.snapshot import Occupant, SeatInfo, SeatPlayer

    def seat(n: int, player: int | None) -> SeatInfo:
        held = SeatPlayer(player, f"p{player}") if player is not None else None
        return SeatInfo(n, f"P{n}", player is None, None, f"h{n}", None, held)

    lineup = tuple(Occupant(f"P{n}", False, None, f"h{n}", 10 + n) for n in range(4))
    four = [seat(n, 10 + n) for n in range(4)]
    computer = [*four[:3], seat(3, None)]
    assert is_rated(lineup, computer, frozenset({3}))  # type: ignore[arg-type]
    assert not is_rated(lineup, computer, frozenset({1}))  # type: ignore[arg-type]
    assert not is_rated(lineup, [*four[:3], seat(3, 99)], frozenset({3}))  # type: ignore[arg-type]
    assert is_rated(lineup, four, frozenset({2}))  # type: ignore[arg-type]  # away, kept
