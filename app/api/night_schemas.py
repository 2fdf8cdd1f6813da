"""The club night's request and answer shapes (API.md § Third round, Club night)."""

from __future__ import annotations

import unicodedata
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from app.api.schemas import CreateRoom, PlayerName, PresetName
from app.night.options import NightOptions
from app.rules import Rules


def plain_text(text: str) -> str:
    """Text a person typed, without control or unassigned characters (never stored)."""
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in text):
        raise ValueError("control or unassigned characters are not allowed")
    return text


NightFormat = Literal["round_robin", "swiss_knockout", "teams"]


class CreateNight(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=80, description="the night's name")
    format: NightFormat = "round_robin"
    preset: PresetName | None = Field(None, description="the tables' preset (as for a room)")
    rules: Rules | None = Field(None, description="the tables' house rules (as for a room)")
    options: NightOptions = NightOptions()
    club: str | None = Field(
        None,
        max_length=32,
        description="a club's code: the night belongs to the club's running season (the"
        " opener, signed in, is one of the club's admins)",
    )

    @field_validator("name")
    @classmethod
    def _visible(cls, name: str) -> str:
        name = " ".join(plain_text(name).split())
        if not name:
            raise ValueError("a night needs a name")
        return name

    def chosen_rules(self) -> Rules:
        return CreateRoom(preset=self.preset, rules=self.rules).chosen_rules()


class NightCreated(BaseModel):
    code: str
    director_token: str = Field(description="the director's token: keep it, it is shown once")
    url: str = Field(description="the night's page for the players")
    director_url: str = Field(description="the director's page (with the token as a cookie)")
    board_url: str


def _no_handles() -> list[str | None]:
    return [None, None]


class RegisterPair(BaseModel):
    model_config = ConfigDict(extra="forbid")

    names: list[PlayerName] = Field(
        default_factory=list, max_length=2, description="the two partners (or players)"
    )
    handles: list[str | None] = Field(
        default_factory=_no_handles,
        min_length=2,
        max_length=2,
        description="the partners' handles, where they have a profile: seated by it each"
        " round, under its name (which takes the place of the one in names), no link"
        " needed (null: a guest, by name and link)",
    )
    team: str | None = Field(None, max_length=40, description="the club (a team match)")
    players: list[str] | None = Field(
        None,
        min_length=2,
        max_length=2,
        description="the two partners by handle (a club night: members of its club), seated"
        " by their profiles each round; instead of names and handles",
    )

    @field_validator("team")
    @classmethod
    def _team(cls, team: str | None) -> str | None:
        return plain_text(team) if team is not None else None

    @model_validator(mode="after")
    def _partners(self) -> RegisterPair:
        if self.players is not None:
            if any(not h or len(h) > 40 for h in self.players):
                raise ValueError("each of players is a handle")
            self.names = [h for h in self.players]
            self.handles = [h for h in self.players]
        elif len(self.names) != 2:
            raise ValueError("names: the two partners")
        return self


class PairRegistered(BaseModel):
    pair: int
    links: list[str] = Field(description="each player's own link, the first partner's first")


class NextRound(BaseModel):
    model_config = ConfigDict(extra="forbid")

    force: bool = Field(False, description="draw it even though a table is still playing")


class Registration(BaseModel):
    model_config = ConfigDict(extra="forbid")

    open: bool


class Forfeit(BaseModel):
    model_config = ConfigDict(extra="forbid")

    pair: int = Field(ge=1, description="the pair that gives up its match")


class Substitute(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: int = Field(ge=0, le=3)
    name: PlayerName | None = Field(None, description="a person's name")
    bot: str | None = Field(None, description="a computer player's level")


class ComputerPlayers(BaseModel):
    model_config = ConfigDict(extra="forbid")

    level: str = Field("standard", description="the computer players' level")
    table: int | None = Field(
        None, ge=1, le=64, description="one table (default: every table of the round)"
    )


class Correction(BaseModel):
    model_config = ConfigDict(extra="forbid")

    round: int | None = Field(None, ge=1, description="the round (default: the current one)")
    bullseyes: list[int] = Field(
        min_length=2, max_length=2, description="the match's bullseyes, seats 0+2 first"
    )


class NightSeat(BaseModel):
    room: str
    seat: int
    token: str | None = Field(
        description="the seat token at that table (null: a player's, their key acts for it)"
    )
    url: str
    pending: bool = Field(
        description="the seat is the caller's from later: a computer player's seat from its"
        " next deal; a player's own seat that a person substitutes in, from the match's next"
        " game (the substitute finishes the one in play; at once between games)"
    )
    link: str | None = Field(None, description="a substitute's link to the seat")


class PairOut(BaseModel):
    pair: int
    names: list[str]
    team: str | None


class SeatOut(BaseModel):
    name: str = Field(
        description="who sits there; a computer player the director seated for a player bears"
        " that player's name"
    )
    bot: bool
    level: str | None = Field(None, description="a computer player's level")
    substitute_for: str | None = Field(
        description="a substitute's seat (a computer player, or a person the director seated):"
        " the name of the pair's player it belongs to; null: the player themself"
    )
    claimed_back: bool = Field(
        description="the seat's player has come back: the seat is theirs from the next deal"
        " (a computer player's) or from the match's next game (a person's)"
    )


class TableOut(BaseModel):
    table: int
    room: str
    pairs: list[int] = Field(description="the pair at seats 0 and 2, the pair at 1 and 3")
    bullseyes: list[int]
    scores: list[int] = Field(description="the game in play's chalk (the last game's, once over)")
    state: Literal["waiting", "playing", "over"]
    winner: int | None
    game: int
    hang_jacks: list[int]
    chalk: list[int] = Field(description="game points over the match's finished games")
    forfeit: int | None = Field(description="the pair that forfeited, if one did")
    corrected: bool = Field(description="the result was set by the director")
    seats: list[SeatOut | None] = Field(description="seats 0-3; null: empty")


class RoundOut(BaseModel):
    round: int
    bye: int | None
    started_at: str
    grace_left: int
    tables: list[TableOut]


class StandingOut(BaseModel):
    pair: int
    rank: int
    played: int
    wins: int
    losses: int
    bullseyes_for: int
    bullseyes_against: int
    hang_jacks_for: int
    hang_jacks_against: int
    head_to_head: int
    chalk_difference: int


class AwardOut(BaseModel):
    kind: Literal[
        "most_hang_jacks",
        "first_hang_jack",
        "highest_game",
        "most_bullseyes",
        "longest_run",
        "most_reneges_caught",
    ]
    pair: int
    value: int
    suit: str | None = None
    round: int | None = None
    table: int | None = None


class ClubOut(BaseModel):
    team: str
    pairs: list[int]
    bullseyes: int


class NightOut(BaseModel):
    """API.md ``<night>``."""

    code: str
    name: str
    format: str
    version: int
    preset: str | None
    rules: dict[str, object]
    options: NightOptions
    registration_open: bool
    state: Literal["registering", "playing", "between_rounds", "over"]
    rounds_total: int
    winner: int | str | None
    pairs: list[PairOut]
    rounds: list[RoundOut]
    standings: list[StandingOut]
    awards: list[AwardOut]
    clubs: list[ClubOut] | None = None


NIGHT_MODELS = (
    CreateNight,
    NightCreated,
    RegisterPair,
    PairRegistered,
    NextRound,
    Registration,
    Forfeit,
    Substitute,
    Correction,
    NightSeat,
    NightOut,
)
