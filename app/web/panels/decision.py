"""The beg step's buttons (R9, R10) for the player who decides, and what each choice does."""

from __future__ import annotations

from dataclasses import dataclass

from app.i18n import N_, _
from app.services.view import RoomView
from app.web.panels.seats import Seats
from app.web.refusals import refused_sentence


@dataclass(frozen=True, slots=True)
class BegButton:
    action: str
    label: str
    enabled: bool
    reason: str | None


@dataclass(frozen=True, slots=True)
class Decision:
    buttons: tuple[BegButton, ...]  # none unless it is the viewer's decision
    hint: str | None  # what each choice does, for the player who decides


_BEG_LABELS = {
    "beg": (("stand", N_("Stand")), ("beg", N_("Beg"))),
    "give_or_run": (("give_one", N_("Give one")), ("run_pack", N_("Run the pack"))),
}


# What each choice does, in a newcomer's words (R9, R10): one whole sentence per choice.
DECISION_HINTS = {
    "beg": N_("Stand: play with this trump. Beg: ask the dealer for a point, or for a new trump."),
    "give_or_run": N_(
        "Give one: the beggar's team scores a point. "
        "Run the pack: deal three more each and turn up a new trump."
    ),
}


def decision(view: RoomView, seats: Seats) -> Decision:
    if not seats.your_turn:
        return Decision(buttons=(), hint=None)
    phase = view.phase
    offered = {a.type for a in view.legal}
    why = {a.type: refused_sentence(a.code, a.params) for a in view.refused}
    buttons = []
    for action, label in _BEG_LABELS.get(phase, ()):
        if action in offered:
            buttons.append(BegButton(action, _(label), True, None))
        elif action in why:
            buttons.append(BegButton(action, _(label), False, why[action]))
    hint = _(DECISION_HINTS[phase]) if buttons and phase in DECISION_HINTS else None
    return Decision(buttons=tuple(buttons), hint=hint)
