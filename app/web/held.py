"""The home page's "Your table" (issue 32): the way back to each seat this browser holds,
after Back or a closed tab. Only this browser's own seats (its tables cookie, checked against
the room's seats), and only what the seat's own page shows anyway: the code and the names."""

from __future__ import annotations

from dataclasses import dataclass

from app.i18n import _
from app.rules.state import Phase
from app.services.snapshot import RoomSnap
from app.web.words import told_apart


@dataclass(frozen=True, slots=True)
class HeldTable:
    code: str
    name: str  # the seat's player: this browser's
    others: tuple[str, ...]  # the other players seated, computer players included
    stage: str  # "Playing", "Game over", "Not started yet"


def held_table(snap: RoomSnap, seat: int) -> HeldTable:
    seated = [s for s in snap.seats if s is not None]
    said = told_apart([(s.name, s.bot, s.level) for s in seated])
    names = list(zip(said, (s.seat for s in seated), strict=True))
    return HeldTable(
        code=snap.code,
        name=next(name for name, n in names if n == seat),
        others=tuple(name for name, n in names if n != seat),
        stage=_stage(snap),
    )


def _stage(snap: RoomSnap) -> str:
    if snap.game is None:
        return _("Not started yet")
    if snap.game.state.phase is Phase.GAME_OVER:
        return _("Game over")
    return _("Playing")
