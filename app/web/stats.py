"""The stats page of a room (``/r/{code}/stats``), from the figures of
app/services/stats.py alone: one table per partnership and one per player, each game with
its replay."""

from __future__ import annotations

from dataclasses import dataclass

from app.i18n import N_, _, number
from app.services.identity import grouped_code
from app.services.stats import Figures, StatsOut
from app.web.cards import card_short
from app.web.render import environment
from app.web.words import partners, told_apart

DASH = "\N{EN DASH}"


@dataclass(frozen=True, slots=True)
class Column:
    key: str
    label: str
    title: str  # what it counts, for the header's tooltip and a screen reader


# The words are marked for the catalogs and translated as the page is rendered (``columns``).
COLUMNS = (
    Column("games", N_("Games"), N_("finished games played")),
    Column("bullseyes", N_("Bullseyes"), N_("games won")),
    Column(
        "hang_jacks_made",
        N_("Hang jacks"),
        N_("jacks of trumps hanged: taken from the opponents"),
    ),
    Column("hang_jacks_suffered", N_("Hanged"), N_("own jacks of trumps the opponents hanged")),
    Column("jacks_won_home", N_("Jacks home"), N_("own jacks of trumps won in a lift")),
    Column("kick_points", N_("Kick points"), N_("points of the cards turned up as dealer")),
    Column("high", N_("High"), N_("High won")),
    Column("low", N_("Low"), N_("Low won")),
    Column("game_won", N_("Game"), N_("Game points won")),
    Column(
        "highest_game_count", N_("Best Game count"), N_("the most counted for Game in one deal")
    ),
    Column("gave_one", N_("Gave one"), N_("begged, the dealer gave one")),
    Column("ran_the_pack", N_("Ran the pack"), N_("begged, the dealer ran the pack")),
)
# Renege mode's (R21-R25), shown only for a room that played it: elsewhere they are all 0.
RENEGE_COLUMNS = (
    Column("reneges_caught", N_("Reneges caught"), N_("calls of renege upheld")),
    Column("wrong_calls", N_("Wrong calls"), N_("calls of renege that found no renege")),
    Column("reneges", N_("Reneges"), N_("reneges played, called or not")),
    Column("reneges_called", N_("Reneges called"), N_("of those, the ones the other side called")),
)


def columns(*, renege: bool = False) -> tuple[Column, ...]:
    """The columns in the reader's language; renege mode's too if the room played it."""
    shown = COLUMNS + RENEGE_COLUMNS if renege else COLUMNS
    return tuple(Column(c.key, _(c.label), _(c.title)) for c in shown)


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


def _row(name: str, f: Figures, shown: tuple[Column, ...]) -> Row:
    cells = []
    for col in shown:
        value = getattr(f, col.key)
        cells.append((col.key, DASH if value is None else number(value)))
    return Row(name, tuple(cells), _with(f.hang_jacks_made_with), _with(f.hang_jacks_suffered_with))


def render_stats(stats: StatsOut) -> str:
    names = told_apart([(p.name, p.bot, p.level) for p in stats.players])
    shown = columns(renege=stats.renege)
    pairs = [_row(partners(*(names[i] for i in p.players)), p, shown) for p in stats.partnerships]
    players = [_row(name, p, shown) for name, p in zip(names, stats.players, strict=True)]
    games = []
    for g in stats.games:
        won = g.winner
        line = _("%(winners)s won %(score)s against %(losers)s") % {
            "winners": partners(names[g.seats[won]], names[g.seats[won + 2]]),
            "losers": partners(names[g.seats[1 - won]], names[g.seats[3 - won]]),
            "score": f"{number(g.scores[won])}{DASH}{number(g.scores[1 - won])}",
        }
        games.append(GameLine(g.game, line, g.replay))
    return (
        environment()
        .get_template("stats.html")
        .render(
            room=stats.room,
            grouped=grouped_code(stats.room),
            columns=shown,
            renege=stats.renege,
            pairs=pairs,
            players=players,
            games=games,
        )
    )


def render_stats_unavailable(code: str) -> str:
    return (
        environment()
        .get_template("stats.html")
        .render(room=None, grouped=None, missing=code[:40], columns=columns())
    )
