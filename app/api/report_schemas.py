"""Request and response bodies of reports and bans (API.md § Fourth round, *Reports*)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

ReportReason = Literal["cheating", "abuse", "other"]


class ReportIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    handle: str = Field(max_length=40, description="the player reported")
    room: str = Field(max_length=40, description="the table's code: the reporter sat there")
    reason: ReportReason
    text: str = Field(max_length=2000, description="a few words: 1-500 characters")


class ReportOut(BaseModel):
    id: int
    handle: str
    room: str
    reason: ReportReason
    text: str
    at: datetime


class ReportKept(ReportOut):
    reporter: str = Field(description="the handle of the player who reported")
    banned: bool = Field(description="whether the reported player is banned now")
    chat: list[dict[str, Any]] = Field(description="the room's chat as it was (<message>s)")
    records: list[dict[str, Any]] = Field(
        description="the records of the room's newest games, as GET .../games/{g} gave them"
    )


class ReportsOut(BaseModel):
    total: int
    offset: int
    reports: list[ReportKept]


class BanIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: str = Field(max_length=2000, description="why: 1-500 characters, for the record")


class BanOut(BaseModel):
    handle: str
    banned: bool
    reason: str | None = None
    at: datetime | None = None
    by: str | None = Field(
        None,
        description="who banned: the admin token is one shared token, so the door the admin came"
        ' through ("admin token": this route; "admin page": the signed-in admin page)',
    )
