"""The viewer's hand: each card, whether it may be played now and, if not, why."""

from __future__ import annotations

from dataclasses import dataclass

from app.i18n import _
from app.services.view import RoomView
from app.web.cards import card_name, card_short
from app.web.refusals import refused_sentence


@dataclass(frozen=True, slots=True)
class HandCard:
    code: str
    name: str
    legal: bool
    reason: str | None  # why it may not be played now, when it is the viewer's turn
    # Renege mode (R20): this card would renege, which only its holder's view says; the
    # page asks before playing it.
    renege: bool = False

    @property
    def renege_question(self) -> str:
        return _("Renege with %(card)s?") % {"card": card_short(self.code)}


@dataclass(frozen=True, slots=True)
class Hand:
    cards: tuple[HandCard, ...]  # in the order a player holds them
    focus: str | None  # the card that takes the hand's tab stop


def hand(view: RoomView) -> Hand:
    playable = {a.card for a in view.legal if a.type == "play"}
    reasons = {
        a.card: refused_sentence(a.code, a.params)
        for a in view.refused
        if a.type == "play" and a.card
    }
    # observe puts renege_cards in the holder's own view only (R20): nothing else marks them.
    reneging = set(view.renege_cards or ())
    cards = tuple(
        HandCard(
            code=c,
            name=card_name(c),
            legal=c in playable,
            reason=reasons.get(c) if c not in playable else None,
            renege=c in reneging and c in playable,
        )
        for c in view.hand
    )
    # A card that may be played takes the tab stop, one that reneges only if no other may.
    focus = next(
        (c.code for c in cards if c.legal and not c.renege),
        next((c.code for c in cards if c.legal), cards[0].code if cards else None),
    )
    return Hand(cards=cards, focus=focus)
