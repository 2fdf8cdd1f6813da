"""R26: when a computer player calls renege. Only on proof its seat has seen: an opponent who
did not follow a plain suit X (kind a) later plays a card of X; who did not follow trump
(kind b) later plays a trump; who undertrumped (kind c, `undertrump` forbidden) later plays a
card that is not a trump. Each of those shows they held a card they were bound to play.

Public facts only (the lifts of the hand, in the observation): a bot never guesses.
"""

from __future__ import annotations

from app.rules.view import Observation


def _plays(obs: Observation, trump: int) -> list[tuple[int, int, int, int, int | None]]:
    """Every card of the hand so far: (lift, seat, card, led suit, highest trump before)."""
    out = []
    lifts = [t.cards for t in obs.tricks] + ([obs.trick] if obs.trick else [])
    for n, cards in enumerate(lifts, 1):
        led = cards[0][1] // 13
        top: int | None = None
        for seat, card in cards:
            out.append((n, seat, card, led, top))
            if card // 13 == trump and (top is None or card > top):
                top = card
    return out


def proven_lifts(obs: Observation) -> list[int]:
    """The lifts holding a renege by the other team that the hand's later play has proven."""
    if obs.seat is None or obs.trump is None or obs.rules.renege == "off":
        return []
    trump = obs.trump
    forbid = obs.rules.undertrump == "forbidden"
    plays = _plays(obs, trump)
    proven: list[int] = []
    for i, (lift, seat, card, led, top) in enumerate(plays):
        if seat % 2 == obs.seat % 2 or lift in proven:
            continue
        suit = card // 13
        later = {c // 13 for (_, s, c, _, _) in plays[i + 1 :] if s == seat}
        if led != trump and suit not in (led, trump):
            shown = led in later  # kind a: a card of the suit led, held all along
        elif led == trump and suit != trump:
            shown = trump in later  # kind b: a trump, held all along
        elif forbid and led != trump and suit == trump and top is not None and card < top:
            shown = bool(later - {trump})  # kind c: a card that is not a trump
        else:
            shown = False
        if shown:
            proven.append(lift)
    return sorted(proven)


def call_due(obs: Observation) -> int | None:
    """The lift this seat calls before it acts (R26), or None: the first proven lift its team
    has not called yet."""
    if obs.seat is None:
        return None
    called = {c.lift for c in obs.calls if c.seat % 2 == obs.seat % 2}
    return next((lift for lift in proven_lifts(obs) if lift not in called), None)
