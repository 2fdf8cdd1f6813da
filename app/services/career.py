"""Players' careers and ratings (API.md § Fourth round, *Players* and *Ratings*).

Counted once, when a game ends, inside the write transaction of the move that ended it
(app/services/persist.py): the game's ``ended_at``, whether it is rated, each seat's figures
(app/services/figures.py, the same count as the room's stats) as a career row of the
seat's player, and, for a rated game, the four ratings (OpenSkill Plackett-Luce,
app/players/ratings.py) applied in the order games ended. A claim (a guest who makes a
profile) counts the room's finished games the guest played, unrated. Everything here is
derived from the game records: ``python -m app.services.rebuild_careers`` counts it again.

Credited: a game is the player's who finishes it in a seat, from the deal they first played
there (``Occupant.since``: a latecomer who took a computer player's seat at a deal; the deals
before it stay the computer player's). Rated: the room's option ``rated`` is on and four
different players held the four seats from the first deal to the end (the lineup names four
distinct players, and the seats still hold them when the game ends: the away cover plays in
the player's own seat and keeps it; a claim or a deleted profile changes the seat's player),
or left it to the computer (API.md § Fifth round, *Leavers*).

A leaver: a player whose seat the computer played from a turn they missed to the game's end
(the away cover in their own seat, a turn timer, or a computer player put in their seat by
the host or by a ban). Read from the game's action log (``leavers``: every move of the seat
from that turn on is ``auto``), so the rebuild finds the same leavers. A leaver's rating
takes the loss and their partner's does not move (app/players/ratings.py
``rated_with_leavers``); the career row says the player left (the profile's ``finished``,
play now's cooling off: app/services/leavers.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Engine

from app.players.ratings import PROVISIONAL_BELOW, Rating, first_rating, rated_with_leavers
from app.players.reasons import NO_PLAYER
from app.rules.state import HandRecord
from app.services import errors
from app.services.figures import CAREER_FIGURES, career_figures, count_game
from app.services.snapshot import (
    Lineup,
    RoomSnap,
    SeatInfo,
    SeatRating,
    deals_from,
    lineup_from,
    replay_game,
)
from app.store import career_repo, repo, review_repo
from app.store.db import read

Json = dict[str, Any]
RECENT = 20  # games a profile lists


def leavers(played_for: Sequence[Sequence[object]]) -> frozenset[int]:
    """The seats the computer played from a turn their player missed to the game's end: at
    game over, the seats with moves made for them since their own last one (the game's
    ``played_for``, replayed from the action log's ``auto`` marks)."""
    return frozenset(seat for seat, moves in enumerate(played_for) if moves)


def is_rated(
    lineup: Lineup | None,
    seats: Sequence[SeatInfo | None],
    left: frozenset[int] = frozenset(),
) -> bool:
    """Four different players held the four seats from the first deal (the lineup) to the
    end (the seats now), or left theirs to a computer player (``left``: ``leavers``)."""
    if lineup is None or any(o.since != 1 for o in lineup):
        return False  # a seat a latecomer took from a computer player: not four from the start
    ids = [o.player for o in lineup]
    if any(i is None for i in ids) or len(set(ids)) != 4:
        return False
    return all(
        info is not None
        and (
            (info.player is not None and info.player.id == o.player) or (seat in left and info.bot)
        )
        for seat, (info, o) in enumerate(zip(seats, lineup, strict=True))
    )


def rating_of(mu: float | None, sigma: float | None) -> Rating:
    """A player's rating: the first one until a rated game changed it."""
    return first_rating() if mu is None or sigma is None else Rating(mu, sigma)


def rating_json(r: Rating) -> Json:
    return {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal}


def change(before: Rating, after: Rating) -> int:
    """A rated game's change as the pages show it: the shown ordinal's (x100, rounded)."""
    return after.shown() - before.shown()


def count_in(
    conn: Connection,
    *,
    game_id: int,
    players: Sequence[int | None],
    history: tuple[HandRecord, ...],
    winner: int,
    scores: tuple[int, int],
    rated_game: bool,
    at: datetime,
    left: frozenset[int] = frozenset(),
    since: Sequence[int] = (1, 1, 1, 1),
) -> tuple[datetime, list[Json] | None]:
    """Count a finished game in: a career row per seat a live profile held (``players``: per
    seat, from the lineup), and for a rated game the ratings applied (``left``: the seats
    whose players left it, ``leavers``: theirs take the loss, their partners' stay). The
    time it ended as kept (never before a game already counted for these players, so the
    order ratings are applied in is the order of ``ended_at``), and ``games.ratings``.
    ``since``: per seat, the first deal its player played (``deals_from``: a latecomer's
    career counts the game and the deals they played, not the computer player's before)."""
    held = {p for p in players if p is not None}
    found = career_repo.players_for_rating(conn, held)  # locked till the commit
    latest = career_repo.last_ended(conn, held) if held else None
    if latest is not None and at <= latest:
        at = latest + timedelta(microseconds=1)
    counted = count_game(history, winner, since)
    befores: list[Rating | None] = [None] * 4
    afters: list[Rating | None] = [None] * 4
    ratings = None
    if rated_game:
        four = [found[p] for p in players if p is not None]
        now = [rating_of(p.mu, p.sigma) for p in four]
        after = rated_with_leavers((now[0], now[1], now[2], now[3]), winner, left)
        ratings = []
        for seat, p in enumerate(four):
            moved = after[seat]
            if moved is None:
                continue  # a leaver's partner: this game leaves their rating alone
            befores[seat], afters[seat] = now[seat], moved
            career_repo.set_rating(conn, p.id, moved.mu, moved.sigma, p.rated_games + 1)
            ratings.append(
                {
                    "seat": seat,
                    "player": p.id,
                    "before": now[seat].json(),
                    "after": moved.json(),
                }
                | ({"left": True} if seat in left else {})
            )
    done: set[int] = set()
    for seat, player in enumerate(players):
        if player is None or player in done or player not in found or found[player].deleted:
            continue
        done.add(player)
        if career_repo.has_career(conn, player, game_id):
            continue
        figures = career_figures(counted.seats[seat])
        team = seat % 2
        b, a = befores[seat], afters[seat]
        career_repo.insert_career(
            conn,
            player_id=player,
            game_id=game_id,
            seat=seat,
            ended_at=at,
            won=winner == team,
            rated=rated_game and a is not None,
            figures={**figures, "scores": [scores[team], scores[1 - team]]},
            before=b.json() if b else None,
            after=a.json() if a else None,
            left=seat in left,
        )
    career_repo.set_ended(conn, game_id, ended_at=at, rated=rated_game, ratings=ratings)
    return at, ratings


def game_ended(conn: Connection, snap: RoomSnap) -> RoomSnap:
    """The move that ended ``snap``'s game counts it in (its final state is in memory: no
    replay), inside that move's write transaction; the snapshot gains its ratings."""
    game = snap.game
    assert game is not None and game.state.winner is not None
    lineup = game.lineup
    players = [o.player for o in lineup] if lineup is not None else [None] * 4
    left = leavers(game.played_for)
    rated_game = (
        snap.options.rated and not snap.options.hints and is_rated(lineup, snap.seats, left)
    )
    _, ratings = count_in(
        conn,
        game_id=game.id,
        players=players,
        history=game.state.history,
        winner=game.state.winner,
        scores=game.state.scores,
        rated_game=rated_game,
        at=snap.at or datetime.now(UTC),
        left=left,
        since=deals_from(lineup),
    )
    handles = {s.player.id: s.player.handle for s in snap.seats if s is not None and s.player}
    shown = tuple(
        SeatRating(
            int(e["seat"]),
            int(e["player"]),
            handles.get(int(e["player"])),
            Rating(**e["before"]),
            Rating(**e["after"]),
            bool(e.get("left")),
        )
        for e in ratings or ()
    )
    return replace(snap, game=replace(game, rated=rated_game, ratings=shown))


def claimed(conn: Connection, room_id: int, who: str, player: int) -> None:
    """A claim: the room's finished games the guest played (their lineups now name the
    player) become the player's, counted from their records, unrated (a claim never rates
    a game after the fact, nor re-rates anyone)."""
    for row in repo.finished_games(conn, room_id):
        lineup = row.lineup or []
        seats = [
            s for s, o in enumerate(lineup) if o.get("who") == who and o.get("player") == player
        ]
        since = deals_from(lineup_from(lineup))
        if not seats or career_repo.has_career(conn, player, row.id):
            continue
        game = replay_game(row, repo.actions_of(conn, row.id))
        state = game.state
        if state.winner is None:
            continue
        players: list[int | None] = [None] * 4
        players[seats[0]] = player
        found = career_repo.players_for_rating(conn, [player])
        if player not in found or found[player].deleted:
            return
        counted = count_game(state.history, state.winner, since)
        team = seats[0] % 2
        at = row.ended_at or career_repo.last_move_at(conn, row.id) or datetime.now(UTC)
        if row.ended_at is None:  # ended before careers were counted: when its last move was
            career_repo.set_ended(conn, row.id, ended_at=at, rated=False, ratings=None)
        career_repo.insert_career(
            conn,
            player_id=player,
            game_id=row.id,
            seat=seats[0],
            ended_at=at,
            won=state.winner == team,
            rated=False,
            figures={
                **career_figures(counted.seats[seats[0]]),
                "scores": [state.scores[team], state.scores[1 - team]],
            },
            left=bool(game.played_for[seats[0]]),
        )


# -- what the profile, the leaderboard and the export show -----------------------------------


def _who(occupant: dict[str, Any], handles: dict[int, str]) -> Json:
    """A player at a table as a profile names them: their handle, or the seat's name."""
    player = occupant.get("player")
    if player is not None and int(player) in handles:
        return {"handle": handles[int(player)]}
    who: Json = {"name": str(occupant.get("name", ""))}
    if occupant.get("bot"):  # the pages name a computer player as every page does
        who |= {"bot": True, "level": occupant.get("level")}
    return who


def career_json(conn: Connection, player_id: int, *, rating: Rating, rated_games: int) -> Json:
    """A player's rating, stats, partners, opponents and recent games."""
    rows = career_repo.careers_of(conn, player_id)
    others = {
        int(o["player"]) for row in rows for o in row.lineup or [] if o.get("player") is not None
    }
    handles = career_repo.handles_of(conn, others)
    games, wins = len(rows), sum(1 for r in rows if r.won)
    stats: Json = {
        "games": games,
        "wins": wins,
        "bullseyes_won": wins,
        "bullseyes_lost": games - wins,
    }
    for name in CAREER_FIGURES:
        stats[name] = sum(int(r.figures.get(name, 0)) for r in rows)
    partners: dict[tuple[str, str], Json] = {}
    opponents: dict[tuple[str, str], Json] = {}
    recent = []
    places: list[tuple[str, int, int]] = []  # each recent game's room, number and seat
    for row in rows:
        lineup = row.lineup or []
        if len(lineup) != 4:
            continue
        partner = _who(lineup[(row.seat + 2) % 4], handles)
        against = [_who(lineup[(row.seat + k) % 4], handles) for k in (1, 3)]
        for tally, whom in [(partners, partner), *((opponents, o) for o in against)]:
            key = next(iter(whom.items()))
            entry = tally.setdefault(key, {**whom, "games": 0, "wins": 0})
            entry["games"] += 1
            entry["wins"] += int(row.won)
        before = Rating(**row.before) if row.before else None
        after = Rating(**row.after) if row.after else None
        places.append((row.room, row.number, row.seat))
        recent.append(
            {
                "room": row.room,
                "game": row.number,
                "ended_at": row.ended_at.isoformat(),
                "partner": partner,
                "opponents": against,
                "scores": row.figures.get("scores"),
                "won": row.won,
                "rated": row.rated,
                "rating_change": change(before, after) if before and after else None,
                "after": rating_json(after) if after else None,
            }
        )

    history = [{"ended_at": r["ended_at"], "after": r["after"]} for r in recent if r["after"]]
    recent, places = recent[::-1][:RECENT], places[::-1][:RECENT]
    losses = review_repo.seat_losses(conn, [(room, number) for room, number, _ in places])
    reviewed = []
    for r, (room, number, seat) in zip(recent, places, strict=True):
        seats = losses.get((room, number))
        r["average_loss"] = seats[seat] if seats else None
        if seats:
            reviewed.append(seats[seat])

    def ranked(tally: dict[tuple[str, str], Json]) -> list[Json]:
        return sorted(tally.values(), key=lambda e: (-e["games"], -e["wins"], str(e)))

    return {
        "rating": {
            **rating_json(rating),
            "games": rated_games,
            "provisional": rated_games < PROVISIONAL_BELOW,
        },
        "stats": stats,
        "partners": ranked(partners),
        "opponents": ranked(opponents),
        "recent": recent,
        "history": history,
        # The public games the player sat through to the end, of those they started (a
        # leaver's don't count as finished): counted when each game ended.
        "finished": {
            "finished": sum(1 for r in rows if r.public and not r.left),
            "started": sum(1 for r in rows if r.public),
        },
        # Over the last games whose review was asked for (issue #38): the player's average
        # loss a decision, None before any.
        "average_loss": round(sum(reviewed) / len(reviewed), 3) if reviewed else None,
    }


def profile(engine: Engine, handle: str, viewer: int | None) -> Json:
    """``GET /api/players/{handle}``: a deleted or unknown profile is 404, and so is an
    unlisted one to anyone who never shared a table with it."""
    with read(engine) as conn:
        found = career_repo.player_of(conn, handle.strip().lower())
        live = career_repo.profile_of(conn, found.id) if found is not None else None
        if found is None or live is None:
            raise errors.NotFound(NO_PLAYER, handle=handle)
        name, listed = live
        hidden = not listed and viewer != found.id
        if hidden and (viewer is None or not career_repo.shared_table(conn, viewer, found.id)):
            raise errors.NotFound(NO_PLAYER, handle=handle)
        career = career_json(
            conn,
            found.id,
            rating=rating_of(found.mu, found.sigma),
            rated_games=found.rated_games,
        )
    return {"handle": found.handle, "name": name, "listed": listed, **career}


def leaderboard(engine: Engine, with_player: int | None = None) -> Json:
    """``GET /api/players?sort=rating``: listed players with a rated game, best first
    (``with_player``: only those who sat through a game with that player)."""
    with read(engine) as conn:
        among = career_repo.played_with(conn, with_player) if with_player is not None else None
        rows = career_repo.rated_players(conn, among)
    return {
        "sort": "rating",
        "players": [
            {
                "rank": n,
                "handle": r.handle,
                "name": r.name,
                "rating": {
                    **rating_json(Rating(r.mu, r.sigma)),
                    "games": r.rated_games,
                    "provisional": r.rated_games < PROVISIONAL_BELOW,
                },
            }
            for n, r in enumerate(rows, start=1)
        ],
    }


def export(engine: Engine, player_id: int) -> Json:
    """The career part of ``GET /api/me/export``: the rating, every game counted (its
    figures, and the rating before and after a rated one) and the sums."""
    with read(engine) as conn:
        rows = career_repo.careers_of(conn, player_id)
        mine = career_repo.rating_row(conn, player_id)
        mu, sigma, rated_games = mine if mine is not None else (None, None, 0)
        summed = career_json(conn, player_id, rating=rating_of(mu, sigma), rated_games=rated_games)
    return {
        "rating": summed["rating"],
        "stats": summed["stats"],
        "games": [
            {
                "room": r.room,
                "game": r.number,
                "seat": r.seat,
                "ended_at": r.ended_at.isoformat(),
                "won": r.won,
                "rated": r.rated,
                "figures": r.figures,
                "before": r.before,
                "after": r.after,
            }
            for r in rows
        ],
    }
