"""Count every career and rating again from the game records: ``python -m
app.services.rebuild_careers`` (``make rebuild-careers``).

The careers (``player_games``) and the ratings are derived (app/services/career.py): this
forgets them and counts every finished game again, replayed from its action log, in the
order the games ended, through the same code that counted them when they ended, so it gives
the same numbers. Whether a game was rated is a fact of its end (who held the seats then) and
is kept as it was decided; who left it is read again from its action log (the moves the
computer made for a seat, app/services/career.py ``leavers``). Run it with the server
stopped, or at a quiet moment: it is one write transaction.
"""

from __future__ import annotations

import sys

from sqlalchemy import Engine

from app.services.career import count_in, leavers
from app.services.snapshot import deals_from, lineup_from, replay_game
from app.settings import Settings
from app.store import career_repo, repo
from app.store.db import make_engine, write


def rebuild(engine: Engine) -> int:
    """Forget every career and rating and count them again; the games counted."""
    counted = 0
    with write(engine) as conn:
        career_repo.forget_careers(conn)
        for game_id, _room, ended_at in career_repo.ended_games(conn):
            row = repo.game_by_id(conn, game_id)
            if row is None:
                continue
            game = replay_game(row, repo.actions_of(conn, row.id))
            state = game.state
            if state.winner is None:
                continue
            lineup = lineup_from(row.lineup)
            count_in(
                conn,
                game_id=row.id,
                players=[o.player for o in lineup] if lineup else [None] * 4,
                history=state.history,
                winner=state.winner,
                scores=state.scores,
                rated_game=row.rated and lineup is not None,
                at=repo.as_utc(ended_at),
                left=leavers(game.played_for),  # from the log's auto marks, as at the end
                since=deals_from(lineup),
            )
            counted += 1
    return counted


def main() -> None:
    engine = make_engine(Settings().database_url)
    counted = rebuild(engine)
    print(f"careers and ratings counted again from {counted} finished games", file=sys.stderr)


if __name__ == "__main__":
    main()
