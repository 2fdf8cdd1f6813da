"""The replay page of a finished game, built from its game record alone (the JSON of
``GET /api/rooms/{code}/games/{g}``, or a record file a player opened): all four hands face
up, the kicks and the decision, each lift, each award as it fell, the running score.

Every step of the game is in the page; replay.js shows one at a time (``?hand=3&lift=4``)
and moves with the buttons and the arrow keys. Without the script the page reads as the
whole game, deal after deal. Step ``lift=0`` of a deal is the deal itself, ``1..n`` its
lifts, and ``n + 1`` the count (a deal thrown in has only its deal).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.i18n import N_, _
from app.web.cards import card_name, suit_word
from app.web.render import environment
from app.web.words import partners

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


@dataclass(frozen=True, slots=True)
class Lift:
    number: int
    plays: tuple[Play, ...]
    winner_name: str
    winner_team: int


@dataclass(frozen=True, slots=True)
class AwardLine:
    team: int
    points: int
    text: str
    at_deal: bool  # fell with the kick or the give one, before any card was played


@dataclass(frozen=True, slots=True)
class Deal:
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
    deals: tuple[Deal, ...]
    winner: str | None
    scores: tuple[int, int]
    seed: int | None
    seed_commitment: str | None
    replay_of: Mapping[str, Any] | None
    stored: bool  # a game of this server (export links, "again"), not an opened file


def build(record: Mapping[str, Any], *, stored: bool = True) -> Replay:
    """The replay of a game record (checked by app.verify when it came from a file)."""
    names = _names(record["seats"])
    teams = (partners(names[0], names[2]), partners(names[1], names[3]))
    deals = []
    before = (0, 0)
    for hand in record["hands"]:
        deal = _deal(hand, names, before)
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
    )


def _names(seats: Sequence[Mapping[str, Any] | None]) -> list[str]:
    """Each seat's name, made unique ("Bot", "Bot 2") so a lift is never ambiguous; a bot's
    level is left off ("Bot (standard)" is "Bot"), as at the table."""
    out: list[str] = []
    for i, seat in enumerate(seats):
        name = " ".join(str(seat.get("name") or "").split()) if seat else ""
        if seat and seat.get("bot"):
            name = re.sub(r"\s*\([a-z]+\)$", "", name)
        name = name or _("Seat %(n)s") % {"n": i + 1}
        taken = [o for o in out if o == name or o.startswith(name + " ")]
        out.append(f"{name} {len(taken) + 1}" if taken else name)
    return out


def _deal(hand: Mapping[str, Any], names: list[str], before: tuple[int, int]) -> Deal:
    dealer = int(hand["dealer"])
    beggar = (dealer + 1) % 4
    trump = hand.get("trump")
    gone: dict[str, int] = {}
    lifts = []
    for number, trick in enumerate(hand.get("tricks") or [], 1):
        plays = []
        for i, play in enumerate(trick["cards"]):
            gone[play["card"]] = number
            plays.append(
                Play(
                    seat=int(play["seat"]),
                    name=names[int(play["seat"])],
                    code=str(play["card"]),
                    led=i == 0,
                    won=int(play["seat"]) == int(trick["winner"]),
                )
            )
        winner = int(trick["winner"])
        lifts.append(Lift(number, tuple(plays), names[winner], winner % 2))
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
    return Deal(
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
    )


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


_KINDS = {
    "kick": N_("Kick"),
    "give_one": N_("Gave one"),
    "high": N_("High"),
    "low": N_("Low"),
    "jack": N_("Jack"),
    "hang_jack": N_("Hang jack!"),
    "game": N_("Game"),
}


def _award(award: Mapping[str, Any], names: list[str], *, at_deal: bool) -> AwardLine:
    kind = str(award["kind"])
    words = [_(_KINDS[kind]) if kind in _KINDS else kind]
    if award.get("card"):
        words.append(card_name(str(award["card"])))
    if award.get("seat") is not None:
        words.append(f"({names[int(award['seat'])]})")
    return AwardLine(int(award["team"]), int(award["points"]), " ".join(words), at_deal)


def render_replay(record: Mapping[str, Any], *, seated: bool, stored: bool = True) -> str:
    """The replay page of a finished game's record."""
    page = environment().get_template("replay.html")
    return page.render(r=build(record, stored=stored), seated=seated)


def render_open(*, error: str | None = None, max_kib: int) -> str:
    """The page that opens a record file, with why the last one was refused."""
    return environment().get_template("records_open.html").render(error=error, max_kib=max_kib)


def render_unavailable(message: str, code: str | None) -> str:
    page = environment().get_template("replay_unavailable.html")
    return page.render(message=message, code=code)
