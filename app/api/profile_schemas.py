"""The public profile and the leaderboard (API.md § Fourth round, *Players* and *Ratings*)
as the OpenAPI document describes them; a test validates real answers against these."""

from __future__ import annotations

from pydantic import Field

from app.views.shapes import Shown


class RatingOut(Shown):
    mu: float
    sigma: float
    ordinal: float = Field(
        description="mu - 3 sigma: what the leaderboard sorts by; the pages show it x100, rounded"
    )


class PlayerRatingOut(RatingOut):
    games: int = Field(description="rated games played")
    provisional: bool = Field(description="fewer than 10 rated games")


class CareerStatsOut(Shown):
    """Over every finished game the player sat through (rated or not), as a room's stats
    count a seat."""

    games: int
    wins: int
    bullseyes_won: int = Field(description="= wins: a game won is a bullseye")
    bullseyes_lost: int = Field(description="games lost")
    hands: int = Field(description="deals played (redeals not counted)")
    hang_jacks_made: int
    hang_jacks_suffered: int = Field(description="the player's own jack hanged")
    jacks_home: int
    kick_points: int = Field(description="as dealer")
    high: int
    low: int
    game: int = Field(description="hands whose Game point the player's team won")
    reneges_caught: int
    wrong_calls: int
    reneges: int


class PersonOut(Shown):
    """A player at a table: a profile's handle, or (a guest, a computer player, a deleted
    profile) the name the seat was played under."""

    handle: str | None = Field(None, description="present for a profile")
    name: str | None = Field(None, description="present for anyone else")
    bot: bool | None = Field(None, description="present (true) for a computer player")
    level: str | None = Field(None, description="a computer player's level")


class TallyOut(PersonOut):
    games: int
    wins: int = Field(description="games the player won with (or against) them")


class RecentOut(Shown):
    room: str
    game: int = Field(description="the game's number in its room")
    ended_at: str
    partner: PersonOut
    opponents: list[PersonOut] = Field(min_length=2, max_length=2)
    scores: list[int] = Field(
        min_length=2, max_length=2, description="the final score: the player's team's first"
    )
    won: bool
    rated: bool
    rating_change: int | None = Field(
        description="a rated game's change of the shown rating (the ordinal x100, rounded)"
    )
    after: RatingOut | None = Field(description="the rating after a rated game")
    average_loss: float | None = Field(
        None,
        description="the player's average loss a decision in the game's review (issue #38),"
        " once one was asked for and done; else null",
    )


class HistoryOut(Shown):
    ended_at: str
    after: RatingOut


class FinishedOut(Shown):
    """API.md § Fifth round, *Leavers*: games at public tables, counted as each ends."""

    finished: int = Field(description="public games the player sat through to the end")
    started: int = Field(
        description="public games the player was dealt into that have ended (left or not)"
    )


class ProfileOut(Shown):
    handle: str
    name: str
    listed: bool
    rating: PlayerRatingOut
    stats: CareerStatsOut
    partners: list[TallyOut] = Field(description="most games together first")
    opponents: list[TallyOut] = Field(description="head to head, most games first")
    recent: list[RecentOut] = Field(description="the last 20 games, newest first")
    history: list[HistoryOut] = Field(description="the rating after each rated game, oldest first")
    finished: FinishedOut = Field(
        description="public games finished / started: a game the player left (the computer"
        " played their seat from a turn they missed to the end) is started, not finished"
    )
    average_loss: float | None = Field(
        None,
        description="the player's average loss a decision over the last games reviewed"
        " (issue #38); null before any",
    )
    daily: list[DailyDayOut] = Field(
        default_factory=list, description="the player's days of today's boards, newest first"
    )


class DailyDayOut(Shown):
    date: str = Field(description="the day (GET /api/daily/{date})")
    percent: float = Field(description="the player's percentage over the boards they played")
    rank: int = Field(description="their place in the day's ranking (so far, while it runs)")


class RankedOut(Shown):
    rank: int
    handle: str
    name: str
    rating: PlayerRatingOut


class LeaderboardOut(Shown):
    sort: str
    players: list[RankedOut]
