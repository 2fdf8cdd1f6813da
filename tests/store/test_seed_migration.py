"""Migration 0003: seeds become decimal text (fresh seeds have 128 bits), and the games stored
before the documented shuffle keep Python's, so their logs still replay after an upgrade."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from app.rules import Rules, apply, legal_actions, new_game, observe
from app.rules.cards import code
from app.rules.shuffle import PYTHON_RANDOM, SHUFFLE
from app.serve import migrate
from app.services.snapshot import load
from app.store import repo
from app.store.db import make_engine, read, write
from tests.databases import BACKENDS, make_database

OLD_SEED = 2**62 + 12345  # a seed of the old 63-bit kind


@pytest.fixture(params=BACKENDS)
def old_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from make_database(request.param, tmp_path, revision="0002")


def test_an_upgrade_keeps_old_games_replaying_and_stores_128_bit_seeds(old_database: str) -> None:
    # A game in progress, stored at revision 0002 with the old shuffle's deals.
    rules = Rules()
    state = new_game(rules, OLD_SEED, shuffle=PYTHON_RANDOM)
    rng = random.Random(3)
    moves = []
    for _ in range(30):
        action = rng.choice(legal_actions(state))
        moves.append((state.turn, action))
        state = apply(state, action)
    engine = make_engine(old_database)
    with write(engine) as conn:
        conn.execute(
            text("INSERT INTO rooms (code, rules, seed, version) VALUES ('old', '{}', :s, :v)"),
            {"s": -7, "v": 1 + len(moves)},
        )
        room_id = conn.execute(text("SELECT id FROM rooms")).scalar_one()
        conn.execute(
            text(
                "INSERT INTO games (room_id, number, rules, seed, first_dealer, started_version,"
                " turn, over) VALUES (:r, 1, '{}', :s, :d, 1, :t, false)"
            ),
            {"r": room_id, "s": OLD_SEED, "d": new_game(rules, OLD_SEED, shuffle=1).dealer,
             "t": state.turn},
        )  # fmt: skip
        game_id = conn.execute(text("SELECT id FROM games")).scalar_one()
        for seq, (seat, action) in enumerate(moves, 1):
            conn.execute(
                text(
                    "INSERT INTO actions (game_id, seq, seat, type, card, version, auto)"
                    " VALUES (:g, :q, :s, :t, :c, :v, false)"
                ),
                {
                    "g": game_id,
                    "q": seq,
                    "s": seat,
                    "t": action.type,
                    "c": code(action.card) if action.card is not None else None,
                    "v": 1 + seq,
                },
            )
    engine.dispose()

    migrate(old_database)
    engine = make_engine(old_database)
    with read(engine) as conn:
        room = repo.room_by_code(conn, "old")
        assert room is not None and room.seed == -7
        snap = load(conn, room)
    assert snap.game is not None and snap.game.seed == OLD_SEED
    assert snap.game.state == state and snap.game.state.shuffle == PYTHON_RANDOM
    # dealt before commitments: nothing to check
    assert observe(snap.game.state, None).seed_commitment is None

    big = 2**128 - 1
    with write(engine) as conn:
        room_id = repo.insert_room(conn, code="new", rules={}, seed=-(2**63 - 1))
        repo.insert_game(
            conn,
            room_id=room_id,
            number=1,
            rules={},
            seed=big,
            first_dealer=0,
            version=1,
            turn=1,
            shuffle=SHUFFLE,
        )
    with read(engine) as conn:
        new = repo.room_by_code(conn, "new")
        assert new is not None and new.seed == -(2**63 - 1)
        game = repo.latest_game(conn, new.id)
        assert game is not None and (game.seed, game.shuffle) == (big, SHUFFLE)
    engine.dispose()


def _downgrade(url: str, revision: str) -> None:
    from alembic import command
    from alembic.config import Config

    from app.serve import ROOT

    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["configure_logger"] = False
    command.downgrade(config, revision)


def test_a_downgrade_keeps_63_bit_seeds_and_refuses_larger_ones(old_database: str) -> None:
    migrate(old_database)
    engine = make_engine(old_database)
    with write(engine) as conn:
        repo.insert_room(conn, code="admin", rules={}, seed=-(2**63 - 1))
    _downgrade(old_database, "0002")
    with read(engine) as conn:
        assert conn.execute(text("SELECT seed FROM rooms")).scalar_one() == -(2**63 - 1)
    migrate(old_database)
    with write(engine) as conn:
        repo.insert_room(conn, code="fresh", rules={}, seed=2**127 + 1)
    _downgrade(old_database, "0003")  # the later migrations first: they do not hold seeds
    with pytest.raises(RuntimeError, match="more than 63 bits"):
        _downgrade(old_database, "0002")
    with read(engine) as conn:  # nothing changed
        rows = conn.execute(text("SELECT code, seed FROM rooms")).all()
        seeds = {code: int(seed) for code, seed in rows}
    assert seeds == {"admin": -(2**63 - 1), "fresh": 2**127 + 1}
    engine.dispose()
