"""Renege mode (R20-R27): the hand's calls and their verdicts, the lifts the viewer's side may
call now, what a wrong call costs here, and the reckoning's lifts and who said "score it". All
from the view: ``observe`` shows every call to everyone (R27) and the cards that would renege
to their holder only (R20)."""

from __future__ import annotations

from dataclasses import dataclass

from app.i18n import N_, _
from app.services.view import RoomView
from app.views.shapes import CallView
from app.web.cards import card_short
from app.web.panels.lifts import PlayedCard, played
from app.web.panels.score import Score
from app.web.panels.seats import Seats


@dataclass(frozen=True, slots=True)
class CallShown:
    """R22, R27: a call of renege of this hand and its verdict, shown to everyone at once."""

    key: str  # names the call, so the page says it once (news, the talk's line)
    lift: int
    seat: int
    upheld: bool
    card: str | None  # the renege caught, marked in its lift
    text: str  # "Ann called renege on lift 3 — upheld: 1 point to Us"


@dataclass(frozen=True, slots=True)
class LiftShown:
    """One completed lift of the hand, as all four saw it played: in a call of renege while
    the hand is played (R22), face up while it is reckoned (R23)."""

    n: int  # 1 = the hand's first
    cards: tuple[PlayedCard, ...]
    callable: bool  # the viewer's side may still call renege on it


@dataclass(frozen=True, slots=True)
class RenegeCalls:
    on: bool = False  # the table plays renege mode
    calls: tuple[CallShown, ...] = ()
    caught: frozenset[str] = frozenset()  # the cards upheld calls caught, marked in their lift
    # R22: the lifts the viewer's side may call now (begun, not yet called by its side).
    callable_lifts: frozenset[int] = frozenset()
    lift_in_play: int | None = None  # the number of the lift on the table, once begun
    last_lift_n: int | None = None  # the number of this hand's last completed lift
    false_call_cost: str = ""
    # The reckoning (R23): the hand's lifts, who said "score it".
    lifts: tuple[LiftShown, ...] = ()
    reckoned: tuple[str, ...] = ()
    you_reckoned: bool = False

    @property
    def earlier_lifts(self) -> tuple[int, ...]:
        """The lifts before the last one that the viewer's side may still call (R22); the
        call shows each with its cards (``earlier_lifts_shown``)."""
        shown = {self.lift_in_play, self.last_lift_n}
        return tuple(sorted(k for k in self.callable_lifts if k not in shown))

    @property
    def earlier_lifts_shown(self) -> tuple[LiftShown, ...]:
        """Those lifts with their cards, as all four saw them played: a player remembers a
        lift by its cards, not by its number (issue 32)."""
        earlier = set(self.earlier_lifts)
        return tuple(lift for lift in self.lifts if lift.n in earlier)


OFF = RenegeCalls()


def renege(view: RoomView, seats: Seats, score: Score) -> RenegeCalls:
    rules = view.rules
    if rules.renege == "off":
        return OFF
    you = seats.you
    phase = view.phase
    in_hand = phase in ("play", "reckoning")
    done = sum(view.tricks_won) if in_hand else 0
    in_play = done + 1 if in_hand and view.trick else None
    begun = in_play or done
    called = {c.lift for c in view.calls if you is not None and c.seat % 2 == you % 2}
    callable_lifts = (
        frozenset(k for k in range(1, begun + 1) if k not in called)
        if seats.seated and in_hand
        else frozenset()
    )
    calls = tuple(_call(view, seats, score, i, c) for i, c in enumerate(view.calls))
    lifts = tuple(
        LiftShown(
            n=n,
            cards=tuple(
                played(p, seats, lead=i == 0, winner=p.seat == lift.winner)
                for i, p in enumerate(lift.cards)
            ),
            callable=n in callable_lifts,
        )
        for n, lift in enumerate(view.lifts or (), start=1)
    )
    reckoning = phase == "reckoning"
    return RenegeCalls(
        on=True,
        calls=calls,
        caught=frozenset(c.card for c in calls if c.upheld and c.card),
        callable_lifts=callable_lifts,
        lift_in_play=in_play,
        last_lift_n=done if in_hand and done else None,
        false_call_cost=_false_call_cost(rules.renege, rules.false_call),
        lifts=lifts,
        reckoned=tuple(seats.by_number[s].name for s in view.reckoned) if reckoning else (),
        you_reckoned=reckoning and you is not None and you in view.reckoned,
    )


def _false_call_cost(renege: str, false_call: str) -> str:
    """R25: what a wrong call costs the callers at this table, said before they call."""
    if false_call == "free":
        return _("A wrong call costs nothing at this table.")
    if renege == "bullseye":
        return _("A wrong call costs your side the game, as a renege would.")
    return _("A wrong call costs your side 1 point and your Game this hand, as a renege would.")


def _call(view: RoomView, seats: Seats, score: Score, i: int, c: CallView) -> CallShown:
    """ "Ann called renege on lift 3 — upheld: 1 point to Us", in the reader's words."""
    you = seats.you
    caller = seats.by_number[c.seat]
    said = {"player": caller.name, "lift": c.lift}
    opened = (
        _("You called renege on lift %(lift)s") % said
        if caller.you
        else _("%(player)s called renege on lift %(lift)s") % said
    )
    if c.penalty is not None and c.paid_by is not None:
        to = 1 - c.paid_by
        us, them, named = _VERDICTS[c.upheld, c.penalty]
        ours = None if you is None else you % 2 == to
        said_to = {"team": score.teams[to].name}
        verdict = _(us if ours else them if ours is False else named) % said_to
    elif c.upheld:
        verdict = _("upheld, nothing more to pay this hand")
    else:
        verdict = _("no renege, nothing lost")
    text = _("%(call)s — %(verdict)s") % {"call": opened, "verdict": verdict}
    if c.upheld and c.card and c.offender is not None:
        offender = seats.by_number[c.offender]
        caught = {"player": offender.name, "card": card_short(c.card)}
        text += " " + (
            _("(your %(card)s)") % caught
            if offender.you
            else _("(%(card)s played by %(player)s)") % caught
        )
    key = f"call:{view.game_number}:{view.hand_number}:{i}:{c.seat}:{c.lift}"
    return CallShown(key=key, lift=c.lift, seat=c.seat, upheld=c.upheld, card=c.card, text=text)


# R24-R25: a verdict's penalty, for us, for them, for a team by name (a spectator's), each a
# whole sentence (never "for Us"): (upheld, penalty) -> the three.
_VERDICTS = {
    (True, "bullseye"): (
        N_("upheld: bullseye for us"),
        N_("upheld: bullseye for them"),
        N_("upheld: bullseye for %(team)s"),
    ),
    (True, "one"): (
        N_("upheld: 1 point for us"),
        N_("upheld: 1 point for them"),
        N_("upheld: 1 point for %(team)s"),
    ),
    (False, "bullseye"): (
        N_("no renege: bullseye for us"),
        N_("no renege: bullseye for them"),
        N_("no renege: bullseye for %(team)s"),
    ),
    (False, "one"): (
        N_("no renege: 1 point for us"),
        N_("no renege: 1 point for them"),
        N_("no renege: 1 point for %(team)s"),
    ),
}
