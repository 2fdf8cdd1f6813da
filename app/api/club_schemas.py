"""The clubs' request and answer shapes (API.md § Fourth round, Clubs and seasons)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.api.night_schemas import plain_text
from app.night.standings import Order


def _visible(name: str) -> str:
    name = " ".join(plain_text(name).split())
    if not name:
        raise ValueError("a name is needed")
    return name


class CreateClub(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=80, description="the club's name")
    order: Order = Field("wins_first", description="how the season's standings are ranked")

    _name = field_validator("name")(_visible)


class ClubCreated(BaseModel):
    code: str
    url: str = Field(description="the club's page")


class InviteOut(BaseModel):
    url: str = Field(
        description="the invite link, absolute (ALLFOURS_PUBLIC_URL, else the request's "
        "origin): who opens it may join the club"
    )
    invite: str = Field(description="the invite's token (what POST .../join takes)")


class InvitesRevoked(BaseModel):
    revoked: int


class JoinClub(BaseModel):
    model_config = ConfigDict(extra="forbid")

    invite: str = Field(min_length=1, max_length=200, description="the invite link's token")


class Member(BaseModel):
    handle: str
    name: str
    role: str = Field(description="admin or member")


class ClubMemberOut(BaseModel):
    handle: str | None = Field(
        description="null for an unlisted member, to a reader who is not a member (API.md §"
        " Fifth round, Privacy)"
    )
    name: str
    role: str = Field(description="admin or member")


class NameAdmin(BaseModel):
    model_config = ConfigDict(extra="forbid")

    handle: str = Field(min_length=1, max_length=40)


class StartSeason(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=80, description="the season's name")
    after: int | None = Field(
        None,
        ge=0,
        description="the number of the latest season the admin saw (0: none): another one"
        " started meanwhile refuses the start with 409",
    )

    _name = field_validator("name")(_visible)


class SeasonOut(BaseModel):
    number: int
    name: str
    started_at: str
    ended_at: str | None


class ClubView(BaseModel):
    code: str
    name: str
    order: Order
    members: list[ClubMemberOut]
    seasons: list[SeasonOut]
    nights: list[dict[str, Any]] = Field(
        description="each night's code, name, season, state, winner (once over) and url"
    )
    standings: dict[str, Any] | None = Field(
        description="the latest season's standings: pairs and players (rank, players, nights,"
        " played, wins, losses, bullseyes_for/against, hang_jacks_for/against, head_to_head,"
        " chalk_difference) and its awards"
    )


class TakeNight(BaseModel):
    model_config = ConfigDict(extra="forbid")

    night: str = Field(min_length=1, max_length=32, description="the night's code")
    director_token: str = Field(
        min_length=1, max_length=200, description="the night's director token (its director)"
    )


class NightTaken(BaseModel):
    night: str
    season: int = Field(description="the number of the season the night now belongs to")
