"""Away cover: what the computer did for the viewer while they were away or out of time,
said once when they are back."""

from __future__ import annotations

from dataclasses import dataclass

from app.i18n import N_, _
from app.services.view import RoomView
from app.web.cards import card_short


@dataclass(frozen=True, slots=True)
class Away:
    played_for: str | None  # "While you were away, the computer played 9♠ for you."
    key: str | None  # names what was played, so the page shows it once


_DECISION_WORDS = {
    "stand": N_("stood"),
    "beg": N_("begged"),
    "give_one": N_("gave one"),
    "run_pack": N_("ran the pack"),
}


def away(view: RoomView) -> Away:
    done = view.played_for_you
    if not done:
        return Away(played_for=None, key=None)
    parts = [
        _("played %(card)s") % {"card": card_short(a.card)}
        if a.card
        else _(_DECISION_WORDS[a.type])
        if a.type in _DECISION_WORDS
        else a.type
        for a in done
    ]
    if len(parts) > 1:
        parts = [_("%(moves)s and %(last)s") % {"moves": ", ".join(parts[:-1]), "last": parts[-1]}]
    what = "".join(f"{a.type}{a.card or ''}" for a in done)
    return Away(
        played_for=_("While you were away, the computer %(moves)s for you.") % {"moves": parts[0]},
        key=f"{view.game_number}:{view.hand_number}:{len(done)}:{what}",
    )
