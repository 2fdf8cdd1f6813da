"""The replay page of a finished game, built from its game record alone (the JSON of
``GET /api/rooms/{code}/games/{g}``, or a record file a player opened): all four hands face
up, the kicks and the decision, each lift, each award as it fell, the running score; in
renege mode each call at the moment it was made with its verdict, and every renege marked
in its lift, called or not (the game is over: every renege is public, R27).

Every step of the game is in the page; replay.js shows one at a time (``?hand=3&lift=4``)
and moves with the buttons and the arrow keys. Without the script the page reads as the
whole game, deal after deal. Step ``lift=0`` of a deal is the deal itself, ``1..n`` its
lifts, and ``n + 1`` the count (a deal thrown in has only its deal).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.i18n import _
from app.players.handles import folded_handle
from app.web.awards import (
    BULLSEYE_KINDS,
    PENALTY_KINDS,
    award_title,
    call_text,
    penalty_detail,
    renege_text,
)
from app.web.cards import card_name, suit_word
from app.web.render import environment
from app.web.review import review_words
from app.web.words import partners, told_apart

RANKS = "23456789TJQKA"
_HELD = "SHCD"  # the order a player holds the suits: trump first, then alternating colours


@dataclass(frozen=True, slots=True)
class Card:
    code: str
    gone: int | None  # the lift it was played in (None: never played)


@dataclass(frozen=True, slots=True)
class SeatHand:
    seat: int
    name: str
    team: int
    cards: tuple[Card, ...]
    dealer: bool
    beggar: bool


@dataclass(frozen=True, slots=True)
class Play:
    seat: int
    name: str
    code: str
    led: bool
    won: bool
    renege: str | None = None  # "called" or "uncalled": this card was a renege (R21)
    renege_label: str | None = None  # "Renege, called"


@dataclass(frozen=True, slots=True)
class CallLine:
    lift: int  # the lift called
    upheld: bool
    text: str  # "Ann called renege on lift 2: upheld, 1 point to Ann & Cal"


@dataclass(frozen=True, slots=True)
class Lift:
    number: int
    plays: tuple[Play, ...]
    winner_name: str
    winner_team: int
    calls: tuple[CallLine, ...] = ()  # the calls made while this lift was on the table


@dataclass(frozen=True, slots=True)
class AwardLine:
    team: int
    points: int
    text: str
    at_deal: bool  # fell with the kick or the give one, before any card was played
    kind: str  # "high", "renege", ...
    bullseye: bool  # a penalty that was the game (R24), worth no points


@dataclass(frozen=True, slots=True)
class ReplayDeal:
    n: int
    dealer_name: str
    redeal: bool
    kicks: tuple[str, ...]
    trump: str | None
    decision: str
    seats: tuple[SeatHand, ...]
    lifts: tuple[Lift, ...]
    awards: tuple[AwardLine, ...]
    totals: tuple[int, int] | None
    scores_before: tuple[int, int]
    scores_after: tuple[int, int]
    count_calls: tuple[CallLine, ...] = ()  # made in the reckoning, after the last card (R23)
    reneges_uncalled: tuple[str, ...] = ()  # "Dan reneged in lift 2 with the 6 of diamonds"

    @property
    def played(self) -> bool:
        return bool(self.lifts)

    @property
    def last_step(self) -> int:
        return len(self.lifts) + 1 if self.lifts else 0


@dataclass(frozen=True, slots=True)
class Replay:
    room: str
    game: int
    teams: tuple[str, str]
    target: int
    deals: tuple[ReplayDeal, ...]
    winner: str | None
    scores: tuple[int, int]
    seed: int | None
    seed_commitment: str | None
    replay_of: Mapping[str, Any] | None
    stored: bool  # a game of this server (export links, "again"), not an opened file
    profiles: tuple[tuple[str, str], ...] = ()  # (name, handle) of the seats under a profile
    names: tuple[str, ...] = ()  # the seats' names, 0-3


def build(record: Mapping[str, Any], *, stored: bool = True) -> Replay:
    """The replay of a game record (checked by app.verify when it came from a file)."""
    names = _names(record["seats"])
    teams = (partners(names[0], names[2]), partners(names[1], names[3]))
    deals = []
    before = (0, 0)
    moments = _call_moments(record)
    for hand, called_at in zip(record["hands"], moments, strict=True):
        deal = _deal(hand, names, teams, before, called_at)
        deals.append(deal)
        before = deal.scores_after
    winner = record.get("winner")
    return Replay(
        room=str(record["room"]),
        game=int(record["game"]),
        teams=teams,
        target=int(record["rules"].get("target", 14)),
        deals=tuple(deals),
        winner=teams[winner] if winner in (0, 1) else None,
        scores=(int(record["scores"][0]), int(record["scores"][1])),
        seed=record.get("seed"),
        seed_commitment=record.get("seed_commitment"),
        replay_of=record.get("replay_of"),
        stored=stored,
        profiles=_profiles(record["seats"], names) if stored else (),
        names=tuple(names),
    )


def _profiles(
    seats: Sequence[Mapping[str, Any] | None], names: list[str]
) -> tuple[tuple[str, str], ...]:
    """(name, handle) of the seats held under a profile, linked to its page (a game of this
    server only: an opened file's seats are not taken for this server's players)."""
    out = []
    for seat, name in zip(seats, names, strict=True):
        handle = folded_handle(str(seat.get("player") or "")) if seat else None
        if handle:
            out.append((name, handle))
    return tuple(out)


def _names(seats: Sequence[Mapping[str, Any] | None]) -> list[str]:
    """Each seat's name, told apart as at the table (app/bots/names.py) so a lift is never
    ambiguous."""
    return told_apart(
        [
            (
                str(seat.get("name") or "") or _("Seat %(n)s") % {"n": i + 1},
                bool(seat.get("bot")),
                seat.get("level"),
            )
            if seat
            else (_("Seat %(n)s") % {"n": i + 1}, False, None)
            for i, seat in enumerate(seats)
        ]
    )


def _call_moments(record: Mapping[str, Any]) -> list[list[int | None]]:
    """For each hand, how many of its cards had been played when each of its calls was made
    (in the order of its ``calls``), from the record's actions: the calls there follow the
    hands' calls one for one, and a hand's cards are its lifts' (a lift cut short by a
    penalty that ended the game is the last hand's). None where the actions do not say."""
    hands = record["hands"]
    starts, played = [], 0
    for hand in hands:
        starts.append(played)
        played += sum(len(t["cards"]) for t in hand.get("tricks") or [])
    seen, at = 0, []
    for action in record.get("actions") or []:
        if action.get("type") == "play":
            seen += 1
        elif action.get("type") == "call":
            at.append(seen)
    out: list[list[int | None]] = []
    for n, hand in enumerate(hands):
        calls = len(hand.get("calls") or [])
        taken, at = at[:calls], at[calls:]
        moments: list[int | None] = [k - starts[n] for k in taken]
        out.append(moments + [None] * (calls - len(moments)))
    return out


def _deal(
    hand: Mapping[str, Any],
    names: list[str],
    teams: tuple[str, str],
    before: tuple[int, int],
    called_at: list[int | None],
) -> ReplayDeal:
    dealer = int(hand["dealer"])
    beggar = (dealer + 1) % 4
    trump = hand.get("trump")
    tricks = hand.get("tricks") or []
    reneges = {
        (int(r["lift"]), str(r["card"])): bool(r["called"]) for r in hand.get("reneges") or []
    }
    # Each call at its moment: on the lift on the table then, or with the count (R23).
    calls_at: dict[int, list[CallLine]] = {}
    for c, moment in zip(hand.get("calls") or [], called_at, strict=True):
        if moment is not None and moment < 4 * len(tricks):
            step = -(-moment // 4)  # the lift begun: a call after its last card is on it
        else:
            step = len(tricks) + 1
        calls_at.setdefault(step, []).append(_call(c, names, teams))
    gone: dict[str, int] = {}
    lifts = []
    for number, trick in enumerate(tricks, 1):
        plays = []
        for i, play in enumerate(trick["cards"]):
            gone[play["card"]] = number
            renege = reneges.get((number, str(play["card"])))
            plays.append(
                Play(
                    seat=int(play["seat"]),
                    name=names[int(play["seat"])],
                    code=str(play["card"]),
                    led=i == 0,
                    won=int(play["seat"]) == int(trick["winner"]),
                    renege=None if renege is None else "called" if renege else "uncalled",
                    renege_label=None
                    if renege is None
                    else _("Renege, called")
                    if renege
                    else _("Renege, not called"),
                )
            )
        winner = int(trick["winner"])
        calls = tuple(calls_at.get(number, ()))
        lifts.append(Lift(number, tuple(plays), names[winner], winner % 2, calls))
    seats = []
    for seat in range(4):
        dealt = hand["dealt"].get(str(seat)) or []
        held = sorted(dealt, key=lambda c: _held_key(c, trump or _suit(hand["kicks"][0])))
        seats.append(
            SeatHand(
                seat=seat,
                name=names[seat],
                team=seat % 2,
                cards=tuple(Card(c, gone.get(c)) for c in held),
                dealer=seat == dealer,
                beggar=seat == beggar,
            )
        )
    played = bool(lifts)
    awards = tuple(_award(a, names, at_deal=not played or a["kind"] in ("kick", "give_one"))
                   for a in hand["awards"])  # fmt: skip
    totals = hand.get("game_totals")
    return ReplayDeal(
        n=int(hand["n"]),
        dealer_name=names[dealer],
        redeal=bool(hand.get("redeal")),
        kicks=tuple(hand["kicks"]),
        trump=suit_word(trump) if trump else None,
        decision=_decision(hand.get("decision"), names[beggar], names[dealer]),
        seats=tuple(seats),
        lifts=tuple(lifts),
        awards=awards,
        totals=(int(totals[0]), int(totals[1])) if totals else None,
        scores_before=before,
        scores_after=(int(hand["scores_after"][0]), int(hand["scores_after"][1])),
        count_calls=tuple(calls_at.get(len(tricks) + 1, ())),
        reneges_uncalled=tuple(
            renege_text(names[int(r["seat"])], int(r["lift"]), card_name(str(r["card"])))
            for r in hand.get("reneges") or []
            if not r["called"]
        ),
    )


def _call(call: Mapping[str, Any], names: list[str], teams: tuple[str, str]) -> CallLine:
    paid_by = call.get("paid_by")
    to = teams[1 - int(paid_by)] if paid_by is not None else None
    lift, upheld = int(call["lift"]), bool(call["upheld"])
    text = call_text(names[int(call["seat"])], lift, upheld, call.get("penalty"), to)
    return CallLine(lift, upheld, text)


def _suit(code: str) -> str:
    return code[1]


def _held_key(code: str, trump: str) -> tuple[int, int]:
    start = _HELD.index(trump)
    order = _HELD[start:] + _HELD[:start]
    return (order.index(code[1]), -RANKS.index(code[0]))


def _decision(decision: str | None, beggar: str, dealer: str) -> str:
    names = {"beggar": beggar, "dealer": dealer}
    if decision == "stand":
        return _("%(beggar)s stands") % names
    if decision == "give_one":
        return _("%(beggar)s begs; %(dealer)s gives one") % names
    if decision == "run_pack":
        return _("%(beggar)s begs; %(dealer)s runs the pack") % names
    return _("No one bids: the kick ended the game")


def _award(award: Mapping[str, Any], names: list[str], *, at_deal: bool) -> AwardLine:
    kind = str(award["kind"])
    words = [award_title(kind)]
    if award.get("card"):
        words.append(card_name(str(award["card"])))
    seat = award.get("seat")
    if seat is not None and kind in PENALTY_KINDS:
        words.append(f"({penalty_detail(kind, names[int(seat)])})")
    elif seat is not None:
        words.append(f"({names[int(seat)]})")
    points = int(award["points"])
    return AwardLine(
        int(award["team"]), points, " ".join(words), at_deal, kind, kind in BULLSEYE_KINDS
    )


def render_replay(record: Mapping[str, Any], *, seated: bool, stored: bool = True) -> str:
    """The replay page of a finished game's record."""
    page = environment().get_template("replay.html")
    replay = build(record, stored=stored)
    review = review_words(replay.names) if stored else None
    return page.render(r=replay, seated=seated, review=review)


def render_open(*, error: str | None = None, max_kib: int) -> str:
    """The page that opens a record file, with why the last one was refused."""
    return environment().get_template("records_open.html").render(error=error, max_kib=max_kib)


def render_unavailable(message: str, code: str | None) -> str:
    page = environment().get_template("replay_unavailable.html")
    return page.render(message=message, code=code)
