"""Ratings against openskill itself: a few hundred random rated games fed through the one
function that counts a finished game in (app/services/career.py ``count_in``), the ratings
kept compared with PlackettLuce's own ``rate`` applied in the same order."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient
from openskill.models import PlackettLuce

from app.services.career import count_in, leaderboard
from app.store import career_repo, repo
from app.store.db import read, write
from tests.api.table import new_room
from tests.players.test_profiles import make

GAMES = 300


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
        with write(engine) as conn:
            game_id = repo.insert_game(
                conn,
                room_id=room.id,
                number=n,
                rules={},
                seed=n,
                first_dealer=0,
                version=0,
                turn=None,
                shuffle=2,
            )
            count_in(
                conn,
                game_id=game_id,
                players=four,
                history=(),
                winner=winner,
                scores=(14, 9) if winner == 0 else (9, 14),
                rated_game=True,
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
    from app.services.career import is_rated
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
