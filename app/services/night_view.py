"""A night as API.md's ``<night>``: pairs, rounds and tables (each table's match as counted,
and the live score of a game in play, read from its room), standings and awards."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

from app.night import plan
from app.night.awards import NightAward
from app.night.pairing import owner_of
from app.night.standings import Standing
from app.night.state import (
    Json,
    NightState,
    NightTableRow,
    night_awards,
    night_standings,
    played_of,
    table_counts,
)
from app.services import errors
from app.services.csv_export import CsvWriter
from app.services.snapshot import RoomSnap, SeatInfo

Snapshot = Callable[[str], RoomSnap]


def standing_json(s: Standing) -> Json:
    line = asdict(s)
    line.pop("beaten", None)
    return line


def award_json(a: NightAward) -> Json:
    return {k: v for k, v in asdict(a).items() if v is not None}


def seat_json(info: SeatInfo | None, player: str) -> Json | None:
    """Who sits in a seat of a night's table whose player is ``player``: a substitute (a
    computer player, or a person by another name: only the director seats either) says whom
    they play for, and whether that player has come back for the seat (theirs from the next
    deal, or a person's from the match's next game)."""
    if info is None:
        return None
    substitute = info.bot or info.name != player
    return {
        "name": info.name,
        "bot": info.bot,
        "level": info.level if info.bot else None,
        "substitute_for": player if substitute else None,
        "claimed_back": info.claim is not None,
    }


def _owner(t: NightTableRow, players: dict[int, list[str]], seat: int) -> str:
    side, slot = owner_of(seat)
    return players[(t.pair_a, t.pair_b)[side]][slot]


def table_json(t: NightTableRow, snap: RoomSnap | None, players: dict[int, list[str]]) -> Json:
    bulls, hangs, chalk = table_counts(t)
    scores = [0, 0]
    state = "over" if t.winner is not None else "waiting"
    seats: list[Json | None] = [None, None, None, None]
    game_number = len(t.games)
    if snap is not None:
        seats = [seat_json(info, _owner(t, players, n)) for n, info in enumerate(snap.seats)]
        if snap.game is not None:
            game_number = snap.game.number
            if t.winner is None:
                scores = list(snap.game.state.scores)
                state = "playing"
    if t.winner is not None and t.games:
        scores = list(t.games[-1].get("scores") or (0, 0))
    return {
        "table": t.number,
        "room": t.room_code,
        "pairs": [t.pair_a, t.pair_b],
        "bullseyes": list(bulls),
        "scores": scores,
        "state": state,
        "winner": t.winner,
        "game": game_number,
        "hang_jacks": list(hangs),
        "chalk": list(chalk),
        "forfeit": t.forfeit,
        "corrected": t.corrected is not None and t.forfeit is None,
        "seats": seats,
    }


def grace_left(started_at: datetime, grace_s: int, now: datetime) -> int:
    """Whole seconds of a round's grace time left at ``now`` (0 once it is over)."""
    return max(0, int(grace_s - (now - started_at).total_seconds()))


def with_grace(body: Json, now: datetime | None = None) -> Json:
    """A night's JSON with each round's ``grace_left`` as of ``now``: the one part of it that
    changes with the clock alone, so that one body built per change serves every stream."""
    now = now or datetime.now(UTC)
    grace_s = int(body["options"]["grace_s"])
    rounds = []
    for r in body["rounds"]:
        started = datetime.fromisoformat(r["started_at"])
        started = started if started.tzinfo else started.replace(tzinfo=UTC)
        rounds.append({**r, "grace_left": grace_left(started, grace_s, now)})
    return {**body, "rounds": rounds}


def night_json(state: NightState, snapshot: Snapshot | None = None) -> Json:
    """The night now; ``snapshot`` reads a room (live scores), None: the stored counts only."""
    options = state.options
    now = datetime.now(UTC)
    rounds = []
    players = {p.number: list(p.names) for p in state.pairs}
    for r in state.rounds:
        mine = state.tables_of(r.number)
        live = r is state.current
        tables = [table_json(t, _live(snapshot, t) if live else None, players) for t in mine]
        rounds.append(
            {
                "round": r.number,
                "bye": r.bye,
                "started_at": r.started_at.isoformat(),
                "grace_left": grace_left(r.started_at, options.grace_s, now),
                "tables": tables,
            }
        )
    played = played_of(state)
    over = _over(state, played)
    body: Json = {
        "code": state.code,
        "name": state.row.name,
        "format": state.row.format,
        "version": state.row.version,
        "preset": state.row.preset,
        "rules": state.row.rules,
        "options": options.model_dump(mode="json"),
        "registration_open": state.row.registration_open and not state.rounds,
        "state": _state(state, played, over),
        "rounds_total": plan.total_rounds(state.shape, state.teams) if state.pairs else 0,
        "winner": plan.night_winner(state.shape, state.teams, played) if over else None,
        "pairs": [{"pair": p.number, "names": p.names, "team": p.team} for p in state.pairs],
        "rounds": rounds,
        "standings": [standing_json(s) for s in night_standings(state)],
        "awards": [award_json(a) for a in night_awards(state)],
    }
    if state.row.format == "teams":
        side_a, side_b = plan.clubs(state.teams)
        totals = plan.team_totals(state.teams, played)
        names = [p.team for p in state.pairs]
        clubs = list(dict.fromkeys(n for n in names if n))[:2]
        body["clubs"] = [
            {"team": name, "pairs": side, "bullseyes": total}
            for name, side, total in zip(clubs, (side_a, side_b), totals, strict=False)
        ]
    return body


def _over(state: NightState, played: list[plan.Played]) -> bool:
    return (
        bool(played)
        and played[-1].over
        and plan.next_draw(state.shape, state.teams, played) is None
    )


def night_state(state: NightState) -> tuple[str, str | None]:
    """registering, playing, between_rounds or over, and who won it once over: a pair's
    names, or a team match's club (a club's list of its nights)."""
    played = played_of(state)
    over = _over(state, played)
    won = plan.night_winner(state.shape, state.teams, played) if over else None
    if isinstance(won, int):
        won = " & ".join(next(p.names for p in state.pairs if p.number == won))
    return _state(state, played, over), won


def _state(state: NightState, played: list[plan.Played], over: bool) -> str:
    if not played:
        return "registering"
    if over:
        return "over"
    return "playing" if not played[-1].over else "between_rounds"


def _live(snapshot: Snapshot | None, t: NightTableRow) -> RoomSnap | None:
    if snapshot is None:
        return None
    try:
        return snapshot(t.room_code)
    except errors.NotFound:
        return None


def export_json(state: NightState, records: Callable[[str, int], Json]) -> Json:
    """The night whole: its results and standings, and every table's game records (each as
    ``python -m app.verify`` checks it)."""
    games: list[Json] = []
    for t in state.tables:
        for g in t.games:
            games.append(
                {
                    "round": t.round,
                    "table": t.number,
                    "pairs": [t.pair_a, t.pair_b],
                    "record": records(t.room_code, int(g["number"])),
                }
            )
    return {"format": "allfours-night/1", "night": night_json(state), "games": games}


def export_csv(state: NightState) -> str:
    """The standings, then every match's result, as CSV."""
    out = io.StringIO()
    w = CsvWriter(out)
    names = {p.number: " & ".join(p.names) for p in state.pairs}
    columns = [
        "rank",
        "pair",
        "names",
        "played",
        "wins",
        "losses",
        "bullseyes_for",
        "bullseyes_against",
        "hang_jacks_for",
        "hang_jacks_against",
        "head_to_head",
        "chalk_difference",
    ]
    w.writerow(["standings"])
    w.writerow(columns)
    for s in night_standings(state):
        line: dict[str, Any] = {**standing_json(s), "names": names.get(s.pair, "")}
        w.writerow([line[c] for c in columns])
    w.writerow([])
    w.writerow(["results"])
    w.writerow(
        [
            "round",
            "table",
            "room",
            "pair_a",
            "pair_b",
            "bullseyes_a",
            "bullseyes_b",
            "winner",
            "note",
        ]
    )
    for t in state.tables:
        (a, b), _, _ = table_counts(t)
        note = "forfeit" if t.forfeit else "corrected" if t.corrected is not None else ""
        w.writerow([t.round, t.number, t.room_code, t.pair_a, t.pair_b, a, b, t.winner or "", note])
    for r in state.rounds:
        if r.bye is not None:
            w.writerow([r.number, "", "", r.bye, "", "", "", r.bye, "bye"])
    return out.getvalue()
