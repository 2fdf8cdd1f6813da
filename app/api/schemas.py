"""Request and response bodies of the JSON API (API.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.bots import LEVELS
from app.rules import DEFAULT_PRESET, PRESETS, Rules, preset_rules
from app.rules.cards import BadCardCode, parse
from app.rules.state import ACTION_TYPES, AwardKind
from app.services.decide import SEED_LIMIT as SEED_MAX
from app.services.errors import Invalid
from app.services.names import NAME_MAX, clean_name

CARD_CODE = r"^[AKQJT2-9][CDHS]$"
# The schema states the codes; the validator below refuses others in R3's words.
CardCode = Annotated[str, Field(json_schema_extra={"pattern": CARD_CODE})]
Seat = Annotated[int, Field(ge=0, le=3, description="a seat, 0-3")]


def _preset_names(schema: dict[str, Any]) -> None:
    """The preset names as the string branch's enum (null stays allowed: the default)."""
    for branch in schema.get("anyOf", [schema]):
        if branch.get("type") == "string":
            branch["enum"] = list(PRESETS)


class CreateRoom(BaseModel):
    model_config = ConfigDict(extra="forbid")

    preset: str | None = Field(
        None,
        description='a named set of house rules (RULES.md "Presets"); '
        f"{DEFAULT_PRESET!r} when absent. Options given in `rules` override it.",
        json_schema_extra=_preset_names,
    )
    rules: Rules | None = Field(None, description="the house-rule options of RULES.md")
    seed: int | None = Field(
        None, ge=-SEED_MAX, le=SEED_MAX, description="admin only: reproducible deals"
    )

    @field_validator("preset")
    @classmethod
    def _known_preset(cls, preset: str | None) -> str | None:
        if preset is not None and preset not in PRESETS:
            raise ValueError(f"unknown preset; the presets are {', '.join(PRESETS)}")
        return preset

    def chosen_rules(self) -> Rules:
        """The preset's rules with the options this body set explicitly on top."""
        explicit = self.rules.model_dump(exclude_unset=True) if self.rules else None
        return preset_rules(self.preset, explicit)


class RoomCreated(BaseModel):
    code: str
    url: str


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # The schema states what clean_name checks; clean_name gives the refusals their words.
    name: str = Field(
        json_schema_extra={"minLength": 1, "maxLength": NAME_MAX, "pattern": r"\S"},
        description=f"1-{NAME_MAX} characters once trimmed, visible, not a label of the table",
    )
    seat: Seat | None = Field(None, description="omitted: the first free seat")

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        try:
            return clean_name(value)
        except Invalid as err:
            raise ValueError(err.detail) from None


class Joined(BaseModel):
    seat: int
    token: str


class SeatBot(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: Seat
    level: Literal[LEVELS] | None = Field(None, description="default: standard")  # type: ignore[valid-type]


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
    """Every refusal: a machine-readable ``error`` and an English ``detail``."""

    error: str
    detail: str


# -- the view (API.md "The view"), as the server writes it ------------------------------
# The routes send the view already rendered (app/services/view.py); these models describe
# it in the OpenAPI document, and a test validates real views against them (strict, no
# extra keys), so the two cannot drift apart.

Code = Annotated[str, Field(json_schema_extra={"pattern": CARD_CODE})]
SeatNumber = Annotated[int, Field(ge=0, le=3)]
Team = Annotated[int, Field(ge=0, le=1)]


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SeatOut(_Out):
    seat: SeatNumber
    name: str
    bot: bool
    level: str | None = Field(description="a computer player's level, null for a human")
    connected: bool = Field(description="an event stream open (bots always)")
    auto: bool = Field(description="a computer player covers for this absent human")


class PlayedCard(_Out):
    seat: SeatNumber
    card: Code


class LiftOut(_Out):
    leader: SeatNumber
    cards: list[PlayedCard]
    winner: SeatNumber


class ActionOut(_Out):
    type: Literal[ACTION_TYPES]  # type: ignore[valid-type]
    card: Code | None = None


class RefusedOut(ActionOut):
    reason: str = Field(description="why it is not allowed, naming the rule")
    rule: str


class AwardOut(_Out):
    kind: AwardKind
    team: Team
    points: int
    card: Code | None = None
    seat: SeatNumber | None = None


class ViewOut(_Out):
    """What the caller sees of the table (API.md "The view", with docs/server.md's keys)."""

    code: str
    version: int
    rules: Rules
    seats: list[SeatOut | None] = Field(min_length=4, max_length=4)
    you: SeatNumber | None = Field(description="the caller's seat, null for a spectator")
    game_number: int
    phase: Literal["lobby", "beg", "give_or_run", "play", "game_over"]
    dealer: SeatNumber | None
    beggar: SeatNumber | None
    turn: SeatNumber | None
    hand_number: int
    kicks: list[Code]
    kick_points: list[int]
    decision: Literal["stand", "give_one", "run_pack"] | None
    trump: Literal["C", "D", "H", "S"] | None
    hand: list[Code] = Field(description="the caller's own cards, as a player holds them")
    hand_sizes: list[int] = Field(min_length=4, max_length=4)
    trick: list[PlayedCard]
    last_trick: LiftOut | None
    tricks_won: list[int] = Field(min_length=2, max_length=2)
    legal: list[ActionOut]
    refused: list[RefusedOut]
    scores: list[int] = Field(min_length=2, max_length=2)
    last_hand: list[AwardOut] | None
    last_hand_totals: list[int] | None
    winner: Team | None
    seed: int | None = Field(None, description="the game's seed, once the game is over")


View = ViewOut

# The models whose integer bounds the OpenAPI document takes from pydantic (app/api/openapi.py).
DOCUMENTED_MODELS: tuple[type[BaseModel], ...] = (CreateRoom, Join, SeatBot, ActionIn, ViewOut)
