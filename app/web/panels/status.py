"""The status sentence (whose turn, what is awaited), the page's title, and the two things the
status line offers: starting the game and nudging the player to act."""

from __future__ import annotations

from dataclasses import dataclass

from app.i18n import _, ngettext
from app.services.view import RoomView
from app.web.panels.score import DASH, Score
from app.web.panels.seats import Seats


@dataclass(frozen=True, slots=True)
class Status:
    text: str  # "Waiting for Bob to stand or beg"
    title: str  # the browser tab's: "● Your turn · All Fours k3x9q2"
    can_start: bool
    can_nudge: bool  # another human is to act: the viewer may nudge them


def status(view: RoomView, seats: Seats, score: Score) -> Status:
    text = _sentence(view, seats, score)
    turn = seats.turn
    return Status(
        text=text,
        title=(
            _("● Your turn · All Fours %(code)s") % {"code": view.code}
            if seats.your_turn
            else f"All Fours · {text} · {view.code}"
        ),
        can_start=view.phase == "lobby" and seats.all_seated and seats.seated,
        can_nudge=(
            seats.seated and turn is not None and not turn.you and not turn.bot and not turn.empty
        ),
    )


def _sentence(view: RoomView, seats: Seats, score: Score) -> str:
    phase = view.phase
    if phase == "lobby":
        if seats.all_seated:
            if seats.seated:
                return _("Everyone is seated: press Start")
            return _("Waiting for the start")
        free = sum(1 for s in seats.by_number if s.empty)
        waiting = ngettext(
            "Waiting for players: %(num)s seat free",
            "Waiting for players: %(num)s seats free",
            free,
        )
        return waiting % {"num": free}
    if phase == "game_over":
        won = score.winner
        if won is None:
            return _("Game over")
        lost = score.teams[1 - won.team]
        said = f"{won.score}{DASH}{lost.score}"
        if won.partner is not None:
            return _("You and %(partner)s win, %(score)s") % {
                "partner": won.partner,
                "score": said,
            }
        return _("%(team)s win, %(score)s") % {"team": won.name, "score": said}
    if phase == "reckoning":
        return _("The hand is being counted: call renege or say 'score it'.")
    who = seats.turn
    if who is None:
        return ""
    if phase == "beg":
        if who.you:
            return _("Your call: stand or beg?")
        return _("Waiting for %(player)s to stand or beg") % {"player": who.name}
    if phase == "give_or_run":
        beggar = view.beggar
        beg_name = seats.by_number[beggar].name if beggar is not None else _("The beggar")
        if who.you:
            return _("%(beggar)s begged: give one or run the pack?") % {"beggar": beg_name}
        return _("%(beggar)s begged. Waiting for %(player)s to give one or run the pack") % {
            "beggar": beg_name,
            "player": who.name,
        }
    if who.you:
        return _("Your turn: play a card")
    return _("Waiting for %(player)s") % {"player": who.name}
