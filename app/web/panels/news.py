"""What the live region says: the events this view shows, each with a key so the page says it
only once. It reads the other panels, so it takes each as an argument and words nothing they
have not already worded (a call's verdict, the status, the match won)."""

from __future__ import annotations

from dataclasses import dataclass

from app.i18n import _
from app.services.view import RoomView
from app.web.panels.awards import Awards
from app.web.panels.away import Away
from app.web.panels.kicks import Kicks
from app.web.panels.lifts import Lifts
from app.web.panels.match import Match
from app.web.panels.renege import RenegeCalls
from app.web.panels.seats import PLAYING_PHASES, Seats
from app.web.panels.status import Status


@dataclass(frozen=True, slots=True)
class NewsItem:
    """One thing the live region says; ``key`` names the event so it is said only once."""

    key: str
    text: str


@dataclass(frozen=True, slots=True)
class News:
    items: tuple[NewsItem, ...]  # in the order a player at the table would have seen them


def news(
    view: RoomView,
    seats: Seats,
    kicks: Kicks,
    lifts: Lifts,
    awards: Awards,
    renege: RenegeCalls,
    away: Away,
    status: Status,
    match: Match | None,
) -> News:
    hn = view.hand_number
    said = [
        *_kicks(hn, kicks),
        *_trump(view, kicks),
        *_last_lift(seats, lifts),
        *_trick(hn, seats, lifts),
        *_hand_over(awards),
        *(NewsItem(c.key, c.text) for c in renege.calls),
    ]
    if away.played_for and away.key:
        said.append(NewsItem(f"auto:{away.key}", away.played_for))
    if view.phase == "game_over":
        said.append(NewsItem(f"over:{view.version}", status.text + "."))
        if match is not None and (won := match.over_text) is not None:
            said.append(NewsItem(f"match:{view.version}", won + "."))
    elif seats.your_turn:
        said.append(NewsItem(f"turn:{view.version}", status.text + "."))
    return News(items=tuple(said))


def _kicks(hn: int, kicks: Kicks) -> list[NewsItem]:
    out = []
    for i, k in enumerate(kicks.cards):
        if k.points and kicks.team:
            said = {"card": k.name, "points": k.points, "team": kicks.team}
            if kicks.ours:
                text = _("Kick: %(card)s. %(points)s for us.") % said
            elif kicks.ours is False:
                text = _("Kick: %(card)s. %(points)s for them.") % said
            else:
                text = _("Kick: %(card)s. %(points)s for %(team)s.") % said
        else:
            text = _("Kick: %(card)s.") % {"card": k.name}
        out.append(NewsItem(f"kick:{hn}:{i}:{k.code}", text))
    return out


def _trump(view: RoomView, kicks: Kicks) -> list[NewsItem]:
    if not kicks.trump_name or view.phase not in PLAYING_PHASES:
        return []
    said = _("Trump is %(suit)s.") % {"suit": kicks.trump_name}
    return [NewsItem(f"trump:{view.hand_number}:{kicks.trump}", said)]


def _last_lift(seats: Seats, lifts: Lifts) -> list[NewsItem]:
    won = lifts.last_winner
    if not lifts.last or won is None:
        return []
    final = lifts.last[-1]
    said = {"player": final.player, "card": final.name, "winner": won.name}
    if seats.by_number[final.seat].you:
        line = (
            _("You played %(card)s. You win the lift.")
            if won.you
            else _("You played %(card)s. %(winner)s wins the lift.")
        )
    else:
        line = (
            _("%(player)s played %(card)s. You win the lift.")
            if won.you
            else _("%(player)s played %(card)s. %(winner)s wins the lift.")
        )
    return [NewsItem(f"lift:{lifts.last_key}", line % said)]


def _trick(hn: int, seats: Seats, lifts: Lifts) -> list[NewsItem]:
    out = []
    for p in lifts.trick:
        mine = seats.by_number[p.seat].you
        line = _("You played %(card)s.") if mine else _("%(player)s played %(card)s.")
        out.append(NewsItem(f"play:{hn}:{p.code}", line % {"player": p.player, "card": p.name}))
    return out


def _hand_over(awards: Awards) -> list[NewsItem]:
    if not awards.items or not awards.key:
        return []
    parts = []
    for a in awards.items:
        what = f"{a.title} {a.card_text}" if a.card_text else a.title
        said = {"award": what, "points": a.points, "team": a.team_name}
        if a.ours:
            parts.append(_("%(award)s, %(points)s for us") % said)
        elif a.ours is False:
            parts.append(_("%(award)s, %(points)s for them") % said)
        else:
            parts.append(_("%(award)s, %(points)s for %(team)s") % said)
    over = _("Hand over. %(awards)s.") % {"awards": "; ".join(parts)}
    return [NewsItem(f"hand:{awards.key}", over)]
