"""Why a move or a request was refused, as a page says it in the reader's language.

Every refusal carries its reason (app/reasons.py): a code and its parameters. The JSON API
answers the English detail formatted from them, for scripts; a page formats the reason's
sentence, in its reader's language, from the same code and parameters, with its suit or card
in the reader's words. Nothing here reads the English text.
"""

from __future__ import annotations

from collections.abc import Mapping

from app.i18n import _
from app.reasons import CARD_PARAMS, REASONS, SUIT_PARAMS, Param, Reason
from app.rules.cards import SUITS
from app.services.errors import ApiError
from app.web.cards import card_short, suit_word


def sentence(reason: Reason, params: Mapping[str, Param]) -> str:
    """A reason's sentence in the reader's language, its suits and cards in the reader's
    words (``app/reasons.py``)."""
    words: dict[str, object] = {}
    for name, value in params.items():
        if name in SUIT_PARAMS and isinstance(value, str) and value in SUITS:
            words[name] = suit_word(value)
        elif name in CARD_PARAMS and isinstance(value, str):
            words[name] = card_short(value)
        else:
            words[name] = value
    return _(reason.sentence) % words


def refused_sentence(code: str, params: Mapping[str, Param]) -> str:
    """The sentence of a refusal the view names by its code (a card shown but not allowed)."""
    return sentence(REASONS[code], params)


def page_message(refused: ApiError) -> str:
    """An API refusal as a page tells its reader."""
    return sentence(refused.reason, refused.params)
