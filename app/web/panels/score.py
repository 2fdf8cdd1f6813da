"""The score: the two partnerships, their chalk and the game's winner."""

from __future__ import annotations

from dataclasses import dataclass

from app.i18n import _, pgettext
from app.services.view import RoomView
from app.web.panels.seats import Seats
from app.web.words import partners

DASH = "\N{EN DASH}"  # between two scores: 14-9 reads as a range


@dataclass(frozen=True, slots=True)
class Team:
    team: int
    name: str  # "You & Cy", "Bob & Dan"
    partner: str | None  # the viewer's partner, on the viewer's own team ("Cy")
    short: str  # "Us", "Them", "Team 1"
    score: int
    tally: tuple[int, ...]  # strokes per five-bar gate, e.g. (5, 5, 2)
    ours: bool | None
    winner: bool


@dataclass(frozen=True, slots=True)
class Score:
    teams: tuple[Team, Team]  # team 0 first
    target: int
    winner: Team | None  # once the game is over

    @property
    def for_viewer(self) -> tuple[Team, Team]:
        """The viewer's own team first ("Us" above "Them"); team 0 first for a spectator."""
        first, second = self.teams
        return (second, first) if second.ours else (first, second)


def score(view: RoomView, seats: Seats) -> Score:
    won = view.winner if view.phase == "game_over" else None
    teams = (_team(0, seats, view.scores[0], won), _team(1, seats, view.scores[1], won))
    return Score(
        teams=teams,
        target=view.rules.target,
        winner=teams[won] if won is not None else None,
    )


def tally(score: int) -> tuple[int, ...]:
    """Chalk marks in gates of five: 12 -> (5, 5, 2)."""
    score = max(score, 0)
    return (5,) * (score // 5) + ((score % 5,) if score % 5 else ())


def _team(team: int, seats: Seats, score: int, winner: int | None) -> Team:
    you = seats.you
    a, b = seats.by_number[team], seats.by_number[team + 2]
    ours = None if you is None else you % 2 == team
    partner = None
    if you is not None and ours:
        partner = (b if a.you else a).display_name
        name = _("You & %(partner)s") % {"partner": partner}
        short = pgettext("team label", "Us")
    else:
        name = partners(a.display_name, b.display_name)
        short = (
            pgettext("team label", "Them") if ours is False else _("Team %(n)s") % {"n": team + 1}
        )
    return Team(
        team=team,
        name=name,
        partner=partner,
        short=short,
        score=score,
        tally=tally(score),
        ours=ours,
        winner=winner == team,
    )
