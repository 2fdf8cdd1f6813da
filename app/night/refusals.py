"""How a night's decision refuses: by kind, with its reason (app/night/reasons.py). The
night sits below the services, so it names the kind and the services answer it as their
own error of that kind (app/services/nights.py ``answered``)."""

from __future__ import annotations

from typing import ClassVar, Literal

from app.reasons import Param, Reason, Refusal

Kind = Literal["not_found", "unauthorized", "forbidden", "conflict", "invalid"]


class NightRefused(Refusal):
    kind: ClassVar[Kind] = "conflict"

    def __init__(self, reason: Reason, **params: Param) -> None:
        super().__init__(reason, params)


class Missing(NightRefused):
    kind = "not_found"


class Unsigned(NightRefused):
    """No token where one is needed."""

    kind = "unauthorized"


class NotAllowed(NightRefused):
    kind = "forbidden"


class Refused(NightRefused):
    kind = "conflict"


class Malformed(NightRefused):
    kind = "invalid"
