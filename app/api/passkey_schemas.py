"""Request and response bodies of the passkeys' routes (API.md § Fourth round, *Players*)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app.players.passkeys import NAME_MAX, PasskeyRow


class PasskeyOut(BaseModel):
    id: int
    name: str = Field(description="the player's name for it, or the browser that made it")
    created_at: datetime
    last_used: datetime | None = Field(description="its last sign-in; null: never used")

    @classmethod
    def of(cls, row: PasskeyRow) -> PasskeyOut:
        return cls(id=row.id, name=row.name, created_at=row.created_at, last_used=row.used_at)


class NewPasskey(BaseModel):
    model_config = ConfigDict(extra="forbid")

    credential: dict[str, Any] = Field(
        description="what navigator.credentials.create() gave, as JSON (PublicKeyCredential"
        ".toJSON(): id, rawId, type, response.clientDataJSON and attestationObject in base64url)"
    )
    name: str | None = Field(None, max_length=4 * NAME_MAX, description="a name to list it by")


class PasskeySignin(BaseModel):
    model_config = ConfigDict(extra="forbid")

    credential: dict[str, Any] = Field(
        description="what navigator.credentials.get() gave, as JSON (id, rawId, type, "
        "response.clientDataJSON, authenticatorData, signature, userHandle in base64url)"
    )
    claim: list[str] = Field(
        default_factory=list,
        max_length=16,
        description="kept for older clients and ignored: signing in moves no seat (API.md "
        "§ Fifth round, a sign-in signs in, nothing more)",
    )


def passkeys_out(rows: list[PasskeyRow]) -> list[dict[str, object]]:
    """The passkeys as GET /api/me lists them (JSON values)."""
    return [PasskeyOut.of(row).model_dump(mode="json") for row in rows]
