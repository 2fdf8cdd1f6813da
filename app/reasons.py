"""Why something was refused, as data: a stable code, its parameters, and the words for it.

A refusal is raised with a :class:`Reason` and the parameters its words name
(``IllegalMove("R14", MUST_FOLLOW, suit="H")``, ``errors.Conflict(GAME_STARTED)``). The JSON
API answers the code, the parameters and the English detail formatted from them; a page
formats the reason's sentence in its reader's language from the same code and parameters
(``app/web/refusals.py``). Nothing ever reads a reason back out of its English text.

This module is pure (the rules engine imports it): no I/O, no translation machinery.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

Param = str | int


def N_(message: str) -> str:
    """Marks a constant for the catalogs; it is translated where it is shown (``_``)."""
    return message


@dataclass(frozen=True, slots=True)
class Reason:
    """One kind of refusal.

    ``detail`` is the API's English text, a ``str.format`` template over the parameters as
    English words (a suit parameter is a suit letter, spelt out as "hearts"); ``sentence`` is
    the page's sentence, a catalog message with ``%(name)s`` placeholders over the parameters
    as the reader's words.
    """

    code: str
    detail: str
    sentence: str

    def english(self, params: Mapping[str, Param]) -> str:
        return self.detail.format(**{k: english_word(k, v) for k, v in params.items()})


REASONS: dict[str, Reason] = {}
"""Every reason the code can give, by code (filled as the modules that define them load)."""


def reason(code: str, detail: str, sentence: str) -> Reason:
    """Defines the reason ``code``; a code is defined once in the whole program."""
    if code in REASONS:
        raise ValueError(f"reason {code!r} is defined twice")
    REASONS[code] = found = Reason(code, detail, sentence)
    return found


# Parameters whose value is a suit letter (C, D, H, S) or a card code ("4C"): the words for
# them differ by language. Any other parameter is shown as it is.
SUIT_PARAMS = frozenset({"suit", "trump", "led"})
CARD_PARAMS = frozenset({"card"})

_SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def english_word(name: str, value: Param) -> str:
    if name in SUIT_PARAMS and isinstance(value, str):
        return _SUIT_WORDS.get(value, value)
    return str(value)


class Refusal(Exception):
    """A refusal that carries its reason and parameters (the rules' and the services')."""

    reason: Reason
    params: dict[str, Param]

    def __init__(self, reason: Reason, params: Mapping[str, Param]) -> None:
        self.reason = reason
        self.params = dict(params)
        super().__init__(reason.english(self.params))

    @property
    def code(self) -> str:
        return self.reason.code


def error_body(
    error: str, detail: str, code: str | None = None, params: Mapping[str, Param] | None = None
) -> dict[str, object]:
    """The API's error shape, for every error whichever layer answers it (API.md): ``code``
    is the precise reason, the error's kind where no finer one is named."""
    return {"error": error, "detail": detail, "code": code or error, "params": dict(params or {})}
