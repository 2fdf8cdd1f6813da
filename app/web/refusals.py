"""Why a move or a request was refused, as a page says it in the reader's language.

The rules and the services give their reasons in English (``RuleError``, ``ApiError``): that
is what the JSON API answers, for scripts, and it stays so. A page reads the same reason and
says it in its reader's language: each reason the rules give has its sentence here, with its
suit or card in the reader's words; any other refusal is said by its kind.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from app.i18n import N_, _
from app.reasons import CARD_PARAMS, REASONS, SUIT_PARAMS, Param, Reason
from app.rules.cards import SUIT_NAMES, SUITS
from app.services.errors import ApiError
from app.web.cards import card_short, suit_word

_SUIT_OF_NAME = dict(zip(SUIT_NAMES, SUITS, strict=True))
_CARD = r"([2-9TJQKA][CDHS])"
_SUIT = r"(clubs|diamonds|hearts|spades)"


def _suit(name: str) -> str:
    return suit_word(_SUIT_OF_NAME[name])


# The reasons of app/rules (tricks.py, table.py, engine.py), without their rule id, each with
# the sentence a page shows for it (no full stop: it is also a card's tooltip).
_RULE_REASONS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (
        re.compile(rf"trumps \({_SUIT}\) were led: you must play a trump"),
        lambda m: _("Trumps (%(suit)s) were led: you must play a trump") % {"suit": _suit(m[1])},
    ),
    (
        re.compile(rf"you must follow {_SUIT} or play a trump"),
        lambda m: _("You must follow %(suit)s or play a trump") % {"suit": _suit(m[1])},
    ),
    (
        re.compile(rf"you may not play a trump lower than {_CARD} while you hold other cards"),
        lambda m: (
            _("You may not play a trump lower than %(card)s while you hold other cards")
            % {"card": card_short(m[1])}
        ),
    ),
    (
        re.compile(r"giving one would win the game for the beggar's team: you must run the pack"),
        lambda m: _("Giving one would win the game for the beggar's team: you must run the pack"),
    ),
    (
        re.compile(rf"you hold no {_SUIT}: you must run the pack"),
        lambda m: _("You hold no %(suit)s: you must run the pack") % {"suit": _suit(m[1])},
    ),
    (
        re.compile(rf"{_CARD} is not in your hand"),
        lambda m: _("%(card)s is not in your hand") % {"card": card_short(m[1])},
    ),
    (
        re.compile(r"\w+ is not possible now: .*"),
        lambda m: _("That is not possible now."),
    ),
)


def rule_reason(rule: str, reason: str) -> str:
    """A refusal of the rules (``rule``, and ``reason`` as ``observe`` gives it, with or
    without its rule id in front) in the reader's language."""
    text = reason[len(rule) + 2 :] if reason.startswith(f"{rule}: ") else reason
    for pattern, say in _RULE_REASONS:
        match = pattern.fullmatch(text)
        if match is not None:
            return say(match)
    return _("That move is not allowed.")


_RULE_PREFIX = re.compile(r"(R\d+(?: \([^)]*\))?): (.*)")

# Refusals of the services a page's player meets, by their API detail.
_DETAILS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"only the table's host may do that"), N_("Only the table's host may do that.")),
    (
        re.compile(r"spectators read the chat; only seated players write"),
        N_("Spectators read the talk; the players write."),
    ),
    (re.compile(r"text must not be empty"), N_("Write something first.")),
    (re.compile(r"text must be at most \d+ characters"), N_("That message is too long.")),
    (re.compile(r"one nudge every \d+ seconds"), N_("You nudged a moment ago: wait a little.")),
    (
        re.compile(r"at most \d+ messages in \d+ seconds"),
        N_("Too many messages at once: wait a few seconds."),
    ),
    (re.compile(r"no other player is to act now"), N_("Nobody else is to play now.")),
    (re.compile(r"the table is full"), N_("The table is full.")),
    (re.compile(r"seat \d+ is (already )?taken.*"), N_("That seat is taken.")),
    (re.compile(r"the host keeps their own seat"), N_("The host keeps their own seat.")),
    (
        re.compile(r"every seat must be filled before the game starts"),
        N_("Every seat must be filled before the game starts."),
    ),
    (re.compile(r"the game has already started"), N_("The game has already started.")),
)

_FAILED = N_("That did not work.")  # a kind of refusal the page has no words for

# Any other refusal, by its kind (ApiError.error).
_KINDS: dict[str, str] = {
    "stale_version": N_("The table moved on: here it is as it is now."),
    "not_your_turn": N_("It is not your turn."),
    "not_offered": N_("That is not possible now."),
    "illegal_move": N_("That move is not allowed."),
    "seat_taken": N_("That seat is taken."),
    "unauthorized": N_("Take a seat at this table first."),
    "forbidden": N_("That is not yours to do."),
    "not_found": N_("That table is not here."),
    "conflict": N_("That cannot be done now."),
    "too_many_requests": N_("Too fast: wait a moment and try again."),
    "invalid": N_("That did not work: check what you entered."),
}


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


def page_message(refused: ApiError) -> str:
    """An API refusal as a page tells its reader."""
    if refused.code in REASONS:
        return sentence(refused.reason, refused.params)
    error, detail = refused.error, refused.detail
    rule = _RULE_PREFIX.fullmatch(detail)
    if rule is not None and error in ("illegal_move", "not_offered"):
        return rule_reason(rule[1], rule[2])
    for pattern, said in _DETAILS:
        if pattern.fullmatch(detail):
            return _(said)
    return _(_KINDS.get(error, _FAILED))
