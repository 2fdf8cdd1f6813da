"""Ratings (API.md § Ratings): OpenSkill's Plackett-Luce model at its defaults, two teams
of two, the winners ranked first. Pure: the services apply it to games in the order they
ended, and the rebuild applies it again from the records."""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

PROVISIONAL_BELOW = 10  # rated games before a rating is more than provisional
_MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """What the leaderboard sorts by: mu - 3 sigma."""
        return self.mu - 3 * self.sigma

    def shown(self) -> int:
        """The ordinal as the pages show it: x100, rounded."""
        return round(self.ordinal * 100)

    def json(self) -> dict[str, float]:
        return {"mu": self.mu, "sigma": self.sigma}


def first_rating() -> Rating:
    fresh = _MODEL.rating()
    return Rating(fresh.mu, fresh.sigma)


def rated(seats: tuple[Rating, Rating, Rating, Rating], winner: int) -> list[Rating]:
    """The four seats' ratings after a game team ``winner`` (0: seats 0 and 2) won."""
    teams = [
        [
            _MODEL.create_rating([seats[0].mu, seats[0].sigma]),
            _MODEL.create_rating([seats[2].mu, seats[2].sigma]),
        ],
        [
            _MODEL.create_rating([seats[1].mu, seats[1].sigma]),
            _MODEL.create_rating([seats[3].mu, seats[3].sigma]),
        ],
    ]
    ranks = [0.0, 1.0] if winner == 0 else [1.0, 0.0]
    (a, c), (b, d) = _MODEL.rate(teams, ranks=ranks)
    return [Rating(r.mu, r.sigma) for r in (a, b, c, d)]


def rated_with_leavers(
    seats: tuple[Rating, Rating, Rating, Rating], winner: int, left: frozenset[int]
) -> list[Rating | None]:
    """The four seats' ratings after a game some seats ``left`` (API.md § Fifth round,
    *Leavers*; docs/careers-and-ratings.md): a leaver's is the rating their team's loss
    would give them, whatever the table's result; a leaver's partner who stayed is not
    rated (None: their rating does not move); the others take the table's result. With no
    leaver, exactly ``rated``."""
    played = rated(seats, winner)
    lost = {seat % 2: rated(seats, 1 - seat % 2) for seat in left}
    out: list[Rating | None] = []
    for seat in range(4):
        if seat in left:
            out.append(lost[seat % 2][seat])
        elif (seat + 2) % 4 in left:
            out.append(None)
        else:
            out.append(played[seat])
    return out
