"""The score sheet: every finished deal of the current game, as one viewer may see it.

``build_sheet(view, records)`` takes that viewer's RoomView (for the players' and teams'
names, the same as the table's) and the deals ``hand_records(observe(state, seat))`` gives
that viewer, and returns plain values for ``_sheet.html``: each deal's dealer, trump and
decision, each award with its card and the team that took it (a renege penalty among them,
R24-R25), the calls of renege, the Game count and the running score after the deal; once
the game is over, the reneges nobody called (R27). Nothing else is read, so the sheet shows
no more than the hand records do (API.md "The hand record": no renege before game over).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.i18n import _
from app.services.view import RoomView
from app.views.records import HandRecordView
from app.web.awards import award_title, award_worth, call_text, penalty_detail, renege_text
from app.web.cards import card_name, card_short, suit_word
from app.web.panels.score import Team, score
from app.web.panels.seats import SeatShown, seats


@dataclass(frozen=True, slots=True)
class SheetAward:
    kind: str
    title: str  # "High", "Hang jack!"
    card: str | None
    card_text: str | None  # "A♠"
    card_name: str | None  # "Ace of spades", for a screen reader
    team: int
    team_name: str  # "Ann & Cy", "You & Cy"
    points: int
    worth: str  # "+3", or "bullseye" for a penalty that was the game
    detail: str | None  # a penalty's: "Dan reneged", "called by Bob"
    ours: bool | None


@dataclass(frozen=True, slots=True)
class SheetScore:
    team: int
    name: str
    score: int


@dataclass(frozen=True, slots=True)
class SheetHand:
    n: int
    redeal: bool
    dealer: str  # "Bob", "You"
    dealer_you: bool
    trump: str | None  # "C"
    trump_name: str | None  # "clubs"
    kicks: tuple[str, ...]
    decision: str | None  # "Cy begged, Bob ran the pack"
    awards: tuple[SheetAward, ...]
    calls: tuple[str, ...]  # "Ann called renege on lift 3: upheld, 1 point to Ann & Cy"
    reneges_uncalled: tuple[str, ...]  # once the game is over (R27): "Dan reneged in lift 2 with …"
    game: str | None  # "Count for Game: Ann & Cy 23, Bob & Dan 17"
    scores: tuple[SheetScore, SheetScore]  # after this deal, the viewer's team first


@dataclass(frozen=True, slots=True)
class Sheet:
    code: str
    target: int
    over: bool
    teams: tuple[Team, Team]  # the viewer's team first
    hands: tuple[SheetHand, ...]
    profiles: tuple[tuple[str, str], ...] = ()  # (name, handle) of the seats under a profile


def build_sheet(view: RoomView, records: Sequence[HandRecordView]) -> Sheet:
    # The names of players and teams are the table page's (app/web/panels).
    placed = seats(view)
    scored = score(view, placed)
    order = scored.for_viewer
    you = view.you
    return Sheet(
        code=view.code,
        target=view.rules.target,
        over=view.phase == "game_over",
        teams=order,
        hands=tuple(_hand(r, placed.by_number, scored.teams, order, you) for r in records),
        profiles=tuple((s.display_name, s.player) for s in placed.by_number if s.player),
    )


def _hand(
    r: HandRecordView,
    seats: Sequence[SeatShown],
    teams: tuple[Team, Team],
    order: tuple[Team, Team],
    you: int | None,
) -> SheetHand:
    dealer = seats[r.dealer]
    beggar = seats[(r.dealer + 1) % 4]
    awards = tuple(
        SheetAward(
            kind=a.kind,
            title=award_title(a.kind),
            card=a.card,
            card_text=card_short(a.card) if a.card else None,
            card_name=card_name(a.card) if a.card else None,
            team=a.team,
            team_name=teams[a.team].name,
            points=a.points,
            worth=award_worth(a.kind, a.points),
            detail=penalty_detail(
                a.kind, seats[a.seat].display_name if a.seat is not None else None
            ),
            ours=None if you is None else you % 2 == a.team,
        )
        for a in r.awards
    )
    # The players are named as chosen (not "You"): each sentence takes any name the same way.
    calls = tuple(
        call_text(
            seats[c.seat].display_name,
            c.lift,
            c.upheld,
            c.penalty,
            teams[1 - c.paid_by].name if c.paid_by is not None else None,
        )
        for c in r.calls
    )
    uncalled = tuple(
        renege_text(seats[g.seat].display_name, g.lift, card_name(g.card))
        for g in r.reneges or ()  # None until the game is over (R27)
        if not g.called
    )
    return SheetHand(
        n=r.n,
        redeal=r.redeal,
        dealer=dealer.name,
        dealer_you=dealer.you,
        trump=r.trump,
        trump_name=suit_word(r.trump) if r.trump else None,
        kicks=tuple(r.kicks),
        decision=_decision(r, beggar, dealer),
        awards=awards,
        calls=calls,
        reneges_uncalled=uncalled,
        game=_game(r, order),
        scores=(
            SheetScore(order[0].team, order[0].name, r.scores_after[order[0].team]),
            SheetScore(order[1].team, order[1].name, r.scores_after[order[1].team]),
        ),
    )


def _decision(r: HandRecordView, beggar: SeatShown, dealer: SeatShown) -> str | None:
    names = {"beggar": beggar.name, "dealer": dealer.name}
    if r.decision == "stand":
        return _("%(beggar)s stood") % names
    if r.decision == "give_one":
        return _("%(beggar)s begged, %(dealer)s gave one") % names
    if r.decision == "run_pack":
        return _("%(beggar)s begged, %(dealer)s ran the pack") % names
    return None  # the kick ended the game before anyone spoke


def _game(r: HandRecordView, order: tuple[Team, Team]) -> str | None:
    """Each team's count for Game where the deal was played out; the awards say who scored
    it (a tie may score nothing, house rule ``game_tie``, and a game won earlier in the
    scoring never reaches Game)."""
    totals = r.game_totals
    if not totals:
        return None
    a, b = order
    counts = {"a": a.name, "a_count": totals[a.team], "b": b.name, "b_count": totals[b.team]}
    if totals[0] == totals[1]:
        return _("Count for Game: %(a)s %(a_count)s, %(b)s %(b_count)s (a tie)") % counts
    return _("Count for Game: %(a)s %(a_count)s, %(b)s %(b_count)s") % counts
