"""What a decided change adds to the database: a seat, a game, or one action (the rows the
snapshot after it has and the one before it lacks), inside the caller's write transaction."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import Connection

from app.rules import Phase
from app.services import career
from app.services.snapshot import RoomSnap, lineup_json
from app.store import daily_repo, repo


def persist(conn: Connection, before: RoomSnap, after: RoomSnap) -> RoomSnap:
    """Write what ``after`` adds to ``before`` (a seat, a game, or one action)."""
    version = after.version
    changed = [
        (old, new)
        for old, new in zip(before.seats, after.seats, strict=True)
        if old is not new and old != new
    ]
    # A row written again for the person who held it (a guest's seat claimed by the profile
    # they made, a player's seat rewritten) keeps whether a page of it is in sight; a seat
    # that changed hands starts out of sight (repo.insert_seat).
    sight = {
        new.seat: (repo.hidden_at_of(conn, after.id, old.seat),)
        for old, new in changed
        if old is not None
        and new is not None
        and old.seat == new.seat
        and not old.bot
        and not new.bot
        and (old.player is None or (new.player is not None and old.player.id == new.player.id))
    }
    # Rows of seats that changed hands go first: a player moved or a token passed on finds
    # its seat number and token free (both unique) when its new row is written.
    for old, _ in changed:
        if old is not None:
            repo.delete_seat(conn, after.id, old.seat)
    for _, new in changed:
        if new is not None:
            repo.insert_seat(
                conn,
                room_id=after.id,
                seat=new.seat,
                name=new.name,
                bot=new.bot,
                level=new.level,
                token_hash=new.token_hash,
                version=version,
                claim=(new.claim.name, new.claim.token_hash) if new.claim else None,
                player=new.player.id if new.player else None,
                claim_player=new.claim.player.id if new.claim and new.claim.player else None,
                sight=sight.get(new.seat),
            )
    if before.host != after.host:
        repo.set_host(conn, after.id, after.host)
    for old_who, new_who, player in relinked(before, after):
        repo.relink_lineups(conn, after.id, old_who, new_who, player)
        career.claimed(conn, after.id, new_who, player)  # the guest's finished games
    game = after.game
    if game is None:
        return after
    if before.game is None or game.number != before.game.number:
        game_id = repo.insert_game(
            conn,
            room_id=after.id,
            number=game.number,
            rules=after.rules.model_dump(mode="json"),
            seed=game.seed,
            shuffle=game.state.shuffle,
            first_dealer=game.first_dealer,
            version=version,
            turn=game.state.turn,
            lineup=lineup_json(game.lineup),
            board=game.state.board,
        )
        started = replace(after, game=replace(game, id=game_id))
        if game.state.winner is not None:  # over at its first kick (R19)
            repo.set_winner(conn, game_id, game.state.winner)
            return career.game_ended(conn, started)
        return started
    if game.last is not None and game.seq != before.game.seq:
        log = game.last
        repo.insert_action(
            conn,
            game_id=game.id,
            seq=log.seq,
            seat=log.seat,
            type=log.type,
            card=log.card,
            version=log.version,
            auto=log.auto,
            lift=log.lift,
        )
        repo.set_turn(conn, game.id, game.state.turn, over=game.state.winner is not None)
        if game.lineup != before.game.lineup:
            repo.set_lineup(conn, game.id, lineup_json(game.lineup))  # a latecomer's seat now
        if game.state.winner is not None:  # this move ended the game
            repo.set_winner(conn, game.id, game.state.winner)
            if game.state.board:  # R31: a board's result, for its event's traveller
                assert after.at is not None
                daily_repo.record_board(
                    conn, after.code, game.state.board, game.state.scores, after.at
                )
            # Careers and ratings, once, in commit order, from the final state in memory.
            return career.game_ended(conn, after)
        if game.state.phase is Phase.RECKONING and before.game.state.phase is not Phase.RECKONING:
            # R23: the hand's last card: its reckoning counts from this commit, everywhere.
            assert after.at is not None
            repo.set_reckon_since(conn, game.id, after.at)
            return replace(after, game=replace(game, reckon_since=after.at))
    return after


def relinked(before: RoomSnap, after: RoomSnap) -> set[tuple[str, str, int]]:
    """The players a claim (app/services/decide.py ``ClaimSeat``) linked to the games already
    played: (the guest's token hash, the player's, the player) as the lineups changed."""
    pairs = [(before.game, after.game)] if before.game and after.game else []
    lineups = [(b.lineup, a.lineup) for b, a in pairs]
    lineups += [(b.lineup, a.lineup) for b, a in zip(before.results, after.results, strict=False)]
    out = set()
    for old, new in lineups:
        if old is None or new is None or old is new:
            continue
        for was, now in zip(old, new, strict=True):
            if was.who and now.who and now.player is not None and was.who != now.who:
                out.add((was.who, now.who, now.player))
    return out
