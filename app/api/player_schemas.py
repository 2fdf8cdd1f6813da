"""Request and response bodies of the players' routes (API.md § Fourth round, *Players*)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field


class NewPlayer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    handle: str = Field(max_length=64, description="3-20 of a-z 0-9 _ -, any case; kept lower")
    name: str = Field(max_length=200, description="the name seats show (a seat name's rules)")
    language: str | None = Field(None, max_length=16, description="en, fr, de, ms or lb")
    claim: list[str] = Field(
        default_factory=list,
        max_length=16,
        description="seat tokens this browser holds: their seats become the player's",
    )


class PlayerKeyOut(BaseModel):
    handle: str
    name: str
    key: str = Field(description="the player key of this device: keep it, it is shown once")


class DeviceOut(BaseModel):
    id: int
    name: str = Field(
        description="the browser and its system as its User-Agent said, or as its player named it"
    )
    first_seen: datetime
    last_seen: datetime
    this_device: bool


class MeOut(BaseModel):
    handle: str
    name: str
    language: str | None
    listed: bool
    devices: list[DeviceOut]
    passkeys: list[dict[str, object]] = Field(default_factory=list)
    push_subscriptions: list[dict[str, object]] = Field(default_factory=list)
    friends: list[dict[str, object]] = Field(default_factory=list)
    blocks: list[dict[str, object]] = Field(default_factory=list)


class MeChange(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(None, max_length=200)
    language: str | None = Field(None, max_length=16)
    listed: bool | None = None


class RenameDevice(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(max_length=200, description="the device's new name, 1-40 characters")


class SigninLinkOut(BaseModel):
    url: str = Field(description="the link another device opens (or scans as a QR code)")
    code: str
    expires_in: int = Field(description="seconds: the link works once, within them")


class SigninIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: str = Field(max_length=200)
    # Ignored since issue #43 (a sign-in never moves a device's guest seats); still accepted.
    claim: list[str] = Field(
        default_factory=list, max_length=16, description="ignored: a sign-in claims no seat"
    )
