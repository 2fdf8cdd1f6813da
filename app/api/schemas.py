"""Request and response bodies of the JSON API (API.md)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

from app.bots import LEVELS
from app.rules import DEFAULT_PRESET, PRESETS, Rules, preset_rules
from app.rules.cards import BadCardCode, parse
from app.rules.state import ACTION_TYPES
from app.services.decide import SEED_LIMIT as SEED_MAX
from app.services.errors import ApiError, Invalid
from app.services.names import NAME_MAX, clean_name
from app.services.options import DEFAULT_OPTIONS, RoomOptions
from app.services.view import RoomView
from app.views.records import HandRecordView
from app.views.shapes import CardCode

Seat = Annotated[int, Field(ge=0, le=3, description="a seat, 0-3")]


def _known_preset(preset: str) -> str:
    if preset not in PRESETS:
        raise ValueError(f"unknown preset; the presets are {', '.join(PRESETS)}")
    return preset


def _player_name(value: str) -> str:
    try:
        return clean_name(value)
    except Invalid as err:
        raise RefusedValue(err) from None


class RefusedValue(ValueError):
    """A field's value refused by a service's check: the validation answer keeps its reason
    (app/api/errors.py)."""

    def __init__(self, refused: ApiError) -> None:
        super().__init__(refused.detail)
        self.refused = refused


PresetName = Annotated[
    str, AfterValidator(_known_preset), Field(json_schema_extra={"enum": list(PRESETS)})
]
"""A named set of house rules (RULES.md "Presets"), for a room and a club night's tables."""

# The schema states what clean_name checks; clean_name gives the refusals their words.
PlayerName = Annotated[
    str,
    AfterValidator(_player_name),
    Field(
        json_schema_extra={"minLength": 1, "maxLength": NAME_MAX, "pattern": r"\S"},
        description=f"1-{NAME_MAX} characters once trimmed, visible, not a label of the table",
    ),
]
"""A player's name, at a room's seat and in a club night's pair: cleaned as clean_name does."""


class CreateRoom(BaseModel):
    model_config = ConfigDict(extra="forbid")

    preset: PresetName | None = Field(
        None,
        description='a named set of house rules (RULES.md "Presets"); '
        f"{DEFAULT_PRESET!r} when absent. Options given in `rules` override it.",
    )
    rules: Rules | None = Field(None, description="the house-rule options of RULES.md")
    options: RoomOptions = Field(
        DEFAULT_OPTIONS, description="table settings that are not rules: the match, a turn timer"
    )
    seed: int | None = Field(
        None, ge=-SEED_MAX, le=SEED_MAX, description="admin only: reproducible deals"
    )

    def chosen_rules(self) -> Rules:
        """The preset's rules with the options this body set explicitly on top."""
        explicit = self.rules.model_dump(exclude_unset=True) if self.rules else None
        return preset_rules(self.preset, explicit)


class RoomCreated(BaseModel):
    code: str
    url: str


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: PlayerName
    seat: Seat | None = Field(
        None,
        description="omitted: the first free seat; a computer player's seat is taken at once"
        " when no hand is in play, else from the next deal",
    )


class Joined(BaseModel):
    seat: int
    token: str | None = Field(
        description="the seat token (null: a player's seat, for which the player key acts)"
    )
    pending: bool = Field(
        False,
        exclude_if=lambda pending: not pending,  # the contract's {seat, token} otherwise
        description="present (true) for a computer player's seat taken while a hand is in"
        " play: the seat is the caller's from the next deal (they watch until then)",
    )


class SeatBot(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: Seat
    level: Literal[LEVELS] | None = Field(None, description="default: standard")  # type: ignore[valid-type]


class RenegeIn(BaseModel):
    """R22: a call of renege on one lift of the current hand."""

    model_config = ConfigDict(extra="forbid", strict=True)

    lift: int = Field(ge=1, le=12, description="the lift called, 1 = the hand's first")


class ActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal[ACTION_TYPES]  # type: ignore[valid-type]
    card: CardCode | None = Field(
        None, description="a card code (R3: rank AKQJT98765432, suit CDHS)"
    )
    version: int | None = Field(
        None, ge=0, le=2**31 - 1, description="the version this move was computed against"
    )

    @field_validator("card")
    @classmethod
    def _card(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                parse(value)
            except BadCardCode as err:
                raise ValueError(str(err)) from None
        return value


class ErrorOut(BaseModel):
    """Every refusal: a machine-readable ``error`` (its kind) and ``code`` (its precise
    reason), the ``params`` its sentence names, and an English ``detail``."""

    error: str
    detail: str
    code: str = Field(description="the precise reason, stable (the error's kind if none finer)")
    params: dict[str, str | int] = Field(description="what the reason names: {'suit': 'H'}")


# The view's shapes (API.md "The view", "The hand record") are app/views' copies of what
# app/rules/view.py's observe shows, and app/services/view.py's RoomView.
# The models whose integer bounds the OpenAPI document takes from pydantic (app/api/openapi.py).
DOCUMENTED_MODELS: tuple[type[BaseModel], ...] = (
    CreateRoom,
    Join,
    SeatBot,
    ActionIn,
    RoomView,
    HandRecordView,
)
