"""The stats page of a room (``/r/{code}/stats``), from the figures of
app/services/stats.py alone: one table per partnership and one per player, each game with
its replay."""

from __future__ import annotations

from dataclasses import dataclass

from app.services.identity import grouped_code
from app.services.stats import Figures, StatsOut
from app.web.cards import card_short
from app.web.render import environment

DASH = "\N{EN DASH}"


@dataclass(frozen=True, slots=True)
class Column:
    key: str
    label: str
    title: str  # what it counts, for the header's tooltip and a screen reader


COLUMNS = (
    Column("games", "Games", "finished games played"),
    Column("bullseyes", "Bullseyes", "games won"),
    Column("hang_jacks_made", "Hang jacks", "jacks of trumps hanged: taken from the opponents"),
    Column("hang_jacks_suffered", "Hanged", "own jacks of trumps the opponents hanged"),
    Column("jacks_won_home", "Jacks home", "own jacks of trumps won in a lift"),
    Column("kick_points", "Kick points", "points of the cards turned up as dealer"),
    Column("high", "High", "High won"),
    Column("low", "Low", "Low won"),
    Column("game_won", "Game", "Game points won"),
    Column("highest_game_count", "Best Game count", "the most counted for Game in one deal"),
    Column("gave_one", "Gave one", "begged, the dealer gave one"),
    Column("ran_the_pack", "Ran the pack", "begged, the dealer ran the pack"),
)


@dataclass(frozen=True, slots=True)
class Row:
    name: str
    cells: tuple[tuple[str, str], ...]  # (column key, text)
    made_with: str  # "J♥ x2, J♠", with a multiplication sign
    suffered_with: str


@dataclass(frozen=True, slots=True)
class GameLine:
    game: int
    text: str  # "Ann & Cal won 14-9 against Ben & Dee", with an en dash
    replay: str


def _with(jacks: dict[str, int]) -> str:
    return ", ".join(
        card_short(card) + (f" \N{MULTIPLICATION SIGN}{n}" if n > 1 else "")
        for card, n in jacks.items()
    )


def _row(name: str, f: Figures) -> Row:
    cells = []
    for col in COLUMNS:
        value = getattr(f, col.key)
        cells.append((col.key, DASH if value is None else str(value)))
    return Row(name, tuple(cells), _with(f.hang_jacks_made_with), _with(f.hang_jacks_suffered_with))


def render_stats(stats: StatsOut) -> str:
    names = [p.name for p in stats.players]
    pairs = [_row(" & ".join(p.names), p) for p in stats.partnerships]
    players = [_row(p.name + (" (computer)" if p.bot else ""), p) for p in stats.players]
    games = []
    for g in stats.games:
        won = g.winner
        winners = f"{names[g.seats[won]]} & {names[g.seats[won + 2]]}"
        losers = f"{names[g.seats[1 - won]]} & {names[g.seats[3 - won]]}"
        score = f"{g.scores[won]}{DASH}{g.scores[1 - won]}"
        games.append(GameLine(g.game, f"{winners} won {score} against {losers}", g.replay))
    return (
        environment()
        .get_template("stats.html")
        .render(
            room=stats.room,
            grouped=grouped_code(stats.room),
            columns=COLUMNS,
            pairs=pairs,
            players=players,
            games=games,
        )
    )


def render_stats_unavailable(code: str) -> str:
    return (
        environment()
        .get_template("stats.html")
        .render(room=None, grouped=None, missing=code[:40], columns=COLUMNS)
    )
