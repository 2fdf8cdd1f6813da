"""What one viewer's table looks like, computed from that viewer's view and nothing else.

``build(view)`` takes the RoomView of API.md "The view" (what ``GET /api/rooms/{code}`` serves
that viewer) and returns plain values for the templates: seats placed round the table from the
viewer's chair, the hand with what may be played and why not, the trick, kicks, the score,
the last hand's awards and the sentences the live region announces. Because the only input
is the viewer's own view, a page cannot show a card the viewer could not see at a real table.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from app.api.view_schemas import (
    ActionView,
    AwardView,
    CallView,
    LiftView,
    PlayedCardView,
    RefusedView,
)
from app.bots import DEFAULT_LEVEL, DESCRIPTIONS
from app.i18n import N_, _, ngettext, pgettext
from app.rules.cards import SUITS
from app.services.talk import PRESETS
from app.services.view import RoomView, SeatView
from app.web.awards import BULLSEYE_KINDS, award_title, penalty_detail
from app.web.cards import card_name, card_short, suit_word
from app.web.house_rules import InForce, in_force
from app.web.refusals import refused_sentence
from app.web.words import partners

View = RoomView

# Counterclockwise play (R4): from the viewer at the bottom, the next seat sits on the right.
POSITIONS = ("bottom", "right", "top", "left")
DASH = "\N{EN DASH}"
_LEVEL_SUFFIX = re.compile(r"\s*\([^)]*\)$")  # between two scores: 14-9 reads as a range
PLAYING_PHASES = ("beg", "give_or_run", "play")
BOT_LEVELS: tuple[tuple[str, str], ...] = tuple(DESCRIPTIONS.items())  # (level, what it is)


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    pos: str
    name: str  # "You" for the viewer
    display_name: str  # the name as chosen, for everyone
    empty: bool
    bot: bool
    level: str | None  # a computer player's level
    auto: bool  # a player away, whose turns a computer player takes meanwhile
    connected: bool
    you: bool
    team: int
    partner_of_viewer: bool
    dealer: bool
    beggar: bool
    turn: bool
    hand_size: int
    tricks_won: int | None
    # The clocks (app/services/clocks.py), in seconds at the view's timed_at: until the
    # computer plays for this absent player, and left on the turn timer.
    away_s: int | None = None
    turn_s: int | None = None
    claimed: bool = False  # a computer player's seat a latecomer takes from the next deal

    @property
    def away_text(self) -> str:
        return clock_text(self.away_s or 0)


def clock_text(seconds: int) -> str:
    """1:45, as a player reads a countdown."""
    return f"{seconds // 60}:{seconds % 60:02d}"


@dataclass(frozen=True, slots=True)
class HandCard:
    code: str
    name: str
    legal: bool
    reason: str | None  # why it may not be played now, when it is the viewer's turn
    # Renege mode (R20): this card would renege, which only its holder's view says; the
    # page asks before playing it.
    renege: bool = False

    @property
    def renege_question(self) -> str:
        return _("Renege with %(card)s?") % {"card": card_short(self.code)}


@dataclass(frozen=True, slots=True)
class PlayedCard:
    code: str
    name: str
    seat: int
    pos: str
    player: str
    lead: bool
    winner: bool


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
    """One lift of the hand, face up while the hand is reckoned (R23)."""

    n: int  # 1 = the hand's first
    cards: tuple[PlayedCard, ...]
    callable: bool  # the viewer's side may still call renege on it


@dataclass(frozen=True, slots=True)
class Kick:
    code: str
    name: str
    points: int

    @property
    def suit_word(self) -> str:
        return suit_word(self.code[1])


@dataclass(frozen=True, slots=True)
class Award:
    kind: str
    title: str  # "High", "Hang jack!"
    card: str | None
    card_text: str | None  # "A♠"
    detail: str  # "dealt to Ann"
    team: int
    team_name: str
    points: int
    ours: bool | None  # the viewer's team scored it (None for a spectator)

    @property
    def bullseye(self) -> bool:
        """A penalty that gave the game itself (R24-R25), whatever the points."""
        return self.kind in BULLSEYE_KINDS


@dataclass(frozen=True, slots=True)
class BegButton:
    action: str
    label: str
    enabled: bool
    reason: str | None


@dataclass(frozen=True, slots=True)
class Team:
    team: int
    name: str  # "You & Cy", "Bob & Dan"
    partner: str | None  # the viewer's partner, on the viewer's own team ("Cy")
    short: str  # "Us", "Them", "Team 1"
    score: int
    tally: tuple[int, ...]  # strokes per five-bar gate, e.g. (5, 5, 2)
    ours: bool | None
    winner: bool


@dataclass(frozen=True, slots=True)
class Match:
    """The match this game belongs to (app/services/match.py), as the viewer reads it."""

    bullseyes: tuple[int, int]  # team 0 first
    to: int
    winner: Team | None  # the partnership that has won the match
    text: str  # "Bullseyes 2-1" (an en dash), the viewer's team first

    @property
    def playing_to(self) -> bool:
        """A match of more than one game: the scoreboard shows its tally."""
        return self.to > 1


@dataclass(frozen=True, slots=True)
class News:
    """One thing the live region says; ``key`` names the event so it is said only once."""

    key: str
    text: str


@dataclass(frozen=True, slots=True)
class Table:
    code: str
    version: int
    phase: str
    you: int | None
    seated: bool
    seats: tuple[Seat, ...]  # by seat number
    around: tuple[Seat, ...]  # bottom, right, top, left
    teams: tuple[Team, Team]
    target: int
    hand_number: int
    dealer: Seat | None
    turn: Seat | None
    your_turn: bool
    trump: str | None
    trump_name: str | None
    kicks: tuple[Kick, ...]
    kick_team: str | None
    kick_ours: bool | None  # the dealer's team is the viewer's (None: a spectator's view)
    hand: tuple[HandCard, ...]
    hand_focus: str | None  # the card that takes the hand's tab stop
    trick: tuple[PlayedCard, ...]
    last_trick: tuple[PlayedCard, ...]
    last_trick_winner: Seat | None
    last_trick_key: str | None
    beg_buttons: tuple[BegButton, ...]
    status: str
    title: str
    awards: tuple[Award, ...]
    awards_key: str | None
    rules: tuple[InForce, ...]
    all_seated: bool
    can_start: bool
    winner: Team | None
    news: tuple[News, ...]
    invite_path: str
    chat_write: bool = False  # the viewer may write in the table talk
    can_nudge: bool = False  # another human is to act: the viewer may nudge them
    decision_hint: str | None = None  # what each choice does, for the player who decides
    chat_presets: tuple[tuple[str, str], ...] = tuple(PRESETS.items())

    @property
    def earlier_lifts(self) -> tuple[int, ...]:
        """The lifts before the last one that the viewer's side may still call (R22): called
        from memory, as at a table where the lifts taken lie face down."""
        shown = {self.lift_in_play, self.last_lift_n}
        return tuple(sorted(k for k in self.callable_lifts if k not in shown))

    @property
    def reckon_text(self) -> str:
        """The reckoning's time left, as a countdown reads (R23)."""
        return clock_text(self.reckon_s or 0)

    @property
    def teams_for_viewer(self) -> tuple[Team, Team]:
        """The viewer's own team first ("Us" above "Them"); team 0 first for a spectator."""
        first, second = self.teams
        return (second, first) if second.ours else (first, second)

    bot_levels: tuple[tuple[str, str], ...] = BOT_LEVELS
    default_bot_level: str = DEFAULT_LEVEL
    match: Match | None = None
    timed_at: float = 0.0  # when the seats' clocks were counted (Unix seconds)
    turn_timer_s: int = 0  # the room's turn timer, 0: none
    # What the computer did for the viewer while they were away or out of time, said once.
    played_for: str | None = None
    played_for_key: str | None = None
    # A spectator may take a computer player's seat (at once in the lobby, else from the next
    # deal): some bot's seat is not yet claimed.
    takeable: bool = False
    you_host: bool = False  # the viewer is the table's host (app/api/host.py)
    # Renege mode (R20-R27): the hand's calls and their verdicts; the lifts the viewer's side
    # may call now (R22: begun, not yet called by its side); what a wrong call costs here.
    renege_on: bool = False
    calls: tuple[CallShown, ...] = ()
    caught: frozenset[str] = frozenset()  # the cards upheld calls caught, marked in their lift
    callable_lifts: frozenset[int] = frozenset()
    lift_in_play: int | None = None  # the number of the lift on the table, once begun
    last_lift_n: int | None = None  # the number of this hand's last completed lift
    false_call_cost: str = ""
    # The reckoning (R23): the hand's lifts, the seconds left, who said "score it".
    lifts: tuple[LiftShown, ...] = ()
    reckon_s: int | None = None
    reckoned: tuple[str, ...] = ()
    you_reckoned: bool = False


def _strip_rule(refused: RefusedView) -> str:
    """Why a card is not allowed ('You must follow hearts or play a trump'), in the
    reader's language (app/web/refusals.py)."""
    return refused_sentence(refused.code, refused.params)


def tally(score: int) -> tuple[int, ...]:
    """Chalk marks in gates of five: 12 -> (5, 5, 2)."""
    score = max(score, 0)
    return (5,) * (score // 5) + ((score % 5,) if score % 5 else ())


def build(view: View) -> Table:
    you = view.you
    me = you if you is not None else 0
    phase = view.phase
    dealer = view.dealer if phase != "lobby" else None
    turn = view.turn if phase in PLAYING_PHASES else None
    beggar = view.beggar
    rules = view.rules
    playing = phase in PLAYING_PHASES

    names = _display_names(view.seats)
    seats = []
    for n, raw in enumerate(view.seats):
        display = names[n]
        seats.append(
            Seat(
                seat=n,
                pos=POSITIONS[(n - me) % 4],
                name=pgettext("seat label", "You") if n == you else display,
                display_name=display,
                empty=raw is None,
                bot=bool(raw and raw.bot),
                level=raw.level if raw and raw.bot and raw.level else None,
                auto=bool(raw and raw.auto),
                connected=bool(raw and (raw.connected or raw.bot)),
                you=n == you,
                team=n % 2,
                partner_of_viewer=you is not None and n == (you + 2) % 4,
                dealer=n == dealer,
                beggar=playing and n == beggar,
                turn=n == turn,
                hand_size=view.hand_sizes[n] if playing else 0,
                tricks_won=view.tricks_won[n % 2] if playing else None,
                away_s=view.away[n] if playing else None,
                turn_s=view.turn_deadline if playing and n == turn else None,
                claimed=bool(raw and raw.claimed),
            )
        )
    around = tuple(seats[(me + i) % 4] for i in range(4))

    winner_team = view.winner if phase == "game_over" else None
    team_pair = (
        _team(0, seats, you, view.scores[0], winner_team),
        _team(1, seats, you, view.scores[1], winner_team),
    )

    trump = view.trump
    playable = {a.card for a in view.legal if a.type == "play"}
    reasons = {a.card: _strip_rule(a) for a in view.refused if a.type == "play" and a.card}
    your_turn = you is not None and turn == you and playing
    # observe puts renege_cards in the holder's own view only (R20): nothing else marks them.
    reneging = set(view.renege_cards or ())
    hand = tuple(
        HandCard(
            code=c,
            name=card_name(c),
            legal=c in playable,
            reason=reasons.get(c) if c not in playable else None,
            renege=c in reneging and c in playable,
        )
        for c in view.hand  # in the order a player holds them
    )
    focus = next(
        (c.code for c in hand if c.legal and not c.renege),
        next((c.code for c in hand if c.legal), hand[0].code if hand else None),
    )

    trick = tuple(_played(p, seats, lead=i == 0, winner=False) for i, p in enumerate(view.trick))
    raw_last = view.last_trick
    last_winner = raw_last.winner if raw_last else None
    last_trick = tuple(
        _played(p, seats, lead=i == 0, winner=p.seat == last_winner)
        for i, p in enumerate(raw_last.cards if raw_last else ())
    )
    hand_number = view.hand_number
    # The lift itself is the key: the previous deal's last lift, still shown while the next
    # deal is begged, is announced once.
    last_key = "".join(p.code for p in last_trick) if last_trick else None

    kicks = tuple(
        Kick(code=c, name=card_name(c), points=points)
        for c, points in zip(view.kicks, view.kick_points, strict=True)
    )

    beg_buttons = _beg_buttons(phase, view.legal, view.refused) if your_turn else ()
    raw_awards = view.last_hand
    totals = view.last_hand_totals
    awards = tuple(_award(a, seats, team_pair, you, totals) for a in raw_awards or [])
    awards_key = (
        hashlib.sha256(
            f"{hand_number}:{phase == 'game_over'}:"
            f"{[a.model_dump_json() for a in raw_awards]}".encode()
        ).hexdigest()[:12]
        if raw_awards
        else None
    )

    all_seated = all(not s.empty for s in seats)
    seated = you is not None
    status = _status(phase, seats, turn, you, beggar, dealer, team_pair, all_seated, seated)
    code = view.code
    title = (
        _("● Your turn · All Fours %(code)s") % {"code": code}
        if your_turn
        else f"All Fours · {status} · {code}"
    )
    table = Table(
        code=code,
        version=view.version,
        phase=phase,
        you=you,
        seated=seated,
        seats=tuple(seats),
        around=around,
        teams=team_pair,
        target=rules.target,
        hand_number=hand_number,
        dealer=seats[dealer] if dealer is not None else None,
        turn=seats[turn] if turn is not None else None,
        your_turn=your_turn,
        trump=trump,
        trump_name=suit_word(trump) if trump is not None and trump in SUITS else None,
        kicks=kicks,
        kick_team=team_pair[dealer % 2].short if dealer is not None else None,
        kick_ours=team_pair[dealer % 2].ours if dealer is not None else None,
        hand=hand,
        hand_focus=focus,
        trick=trick,
        last_trick=last_trick,
        last_trick_winner=seats[last_winner] if last_winner is not None else None,
        last_trick_key=last_key,
        beg_buttons=beg_buttons,
        status=status,
        title=title,
        awards=awards,
        awards_key=awards_key,
        rules=in_force(rules.model_dump()),
        all_seated=all_seated,
        can_start=phase == "lobby" and all_seated and seated,
        winner=team_pair[winner_team] if winner_team is not None else None,
        news=(),
        invite_path=f"/r/{code}",
        chat_write=seated or view.options.spectator_chat,
        decision_hint=_(DECISION_HINTS[phase]) if beg_buttons and phase in DECISION_HINTS else None,
        can_nudge=(
            seated
            and turn is not None
            and turn != you
            and not seats[turn].bot
            and not seats[turn].empty
        ),
        timed_at=view.timed_at or 0.0,
        turn_timer_s=view.options.turn_timer_s,
        played_for=_played_for(view),
        played_for_key=_played_for_key(view),
        takeable=you is None and any(s.bot and not s.claimed for s in seats),
        you_host=you is not None and view.host == you,
    )
    table = _with_renege(table, view)
    return _with_match_news(_with_news(replace(table, match=_match(view, team_pair))))


_DECISION_WORDS = {
    "stand": N_("stood"),
    "beg": N_("begged"),
    "give_one": N_("gave one"),
    "run_pack": N_("ran the pack"),
}


def _played_for(view: View) -> str | None:
    """ "The computer played 9♠ for you", from the view's played_for_you."""
    done = view.played_for_you
    if not done:
        return None
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
    return _("While you were away, the computer %(moves)s for you.") % {"moves": parts[0]}


def _played_for_key(view: View) -> str | None:
    """Names what was played for the viewer, so the page shows it once."""
    done = view.played_for_you
    if not done:
        return None
    what = "".join(f"{a.type}{a.card or ''}" for a in done)
    return f"{view.game_number}:{view.hand_number}:{len(done)}:{what}"


def _display_names(raw_seats: Sequence[SeatView | None]) -> list[str]:
    """Each seat's name, made unique at the table ("Bot", "Bot 2") so turns are never ambiguous."""
    out: list[str] = []
    for n, raw in enumerate(raw_seats):
        if raw is None:
            out.append(_("Empty seat"))
            continue
        name = " ".join(raw.name.split())
        if raw.bot:
            name = _LEVEL_SUFFIX.sub("", name)  # "Bot (standard)": the chip says it is a bot
        name = name or _("Player %(n)s") % {"n": n + 1}
        taken = [o for o in out if o == name or o.startswith(name + " ")]
        out.append(f"{name} {len(taken) + 1}" if taken else name)
    return out


def _team(
    team: int, seats: Sequence[Seat], you: int | None, score: int, winner: int | None
) -> Team:
    a, b = seats[team], seats[team + 2]
    ours = None if you is None else you % 2 == team
    partner = None
    if you is not None and ours:
        partner = (b if a.you else a).display_name
        name = _("You & %(partner)s") % {"partner": partner}
        short = pgettext("team label", "Us")
    else:
        name = partners(a.display_name, b.display_name)
        short = (
            pgettext("team label", "Them") if ours is False else _("Team %(n)s") % {"n": team + 1}
        )
    return Team(
        team=team,
        name=name,
        partner=partner,
        short=short,
        score=score,
        tally=tally(score),
        ours=ours,
        winner=winner == team,
    )


def _played(p: PlayedCardView, seats: Sequence[Seat], *, lead: bool, winner: bool) -> PlayedCard:
    seat = seats[p.seat]
    return PlayedCard(
        code=p.card,
        name=card_name(p.card),
        seat=seat.seat,
        pos=seat.pos,
        player=seat.name,
        lead=lead,
        winner=winner,
    )


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


def _beg_buttons(
    phase: str, legal: Sequence[ActionView], refused: Sequence[RefusedView]
) -> tuple[BegButton, ...]:
    offered = {a.type for a in legal}
    why = {a.type: _strip_rule(a) for a in refused}
    out = []
    for action, label in _BEG_LABELS.get(phase, ()):
        if action in offered:
            out.append(BegButton(action, _(label), True, None))
        elif action in why:
            out.append(BegButton(action, _(label), False, why[action]))
    return tuple(out)


def _award(
    a: AwardView,
    seats: Sequence[Seat],
    teams: tuple[Team, Team],
    you: int | None,
    totals: Sequence[int] | None,
) -> Award:
    kind, team, card, seat_n = a.kind, a.team, a.card, a.seat
    holder = seats[seat_n].name if seat_n is not None else None
    if kind in ("high", "low", "jack") and holder:
        detail = _("dealt to %(player)s") % {"player": holder}
    elif kind == "hang_jack" and holder:
        detail = _("%(player)s's jack hanged") % {"player": holder}
    elif kind == "kick":
        detail = _("turned up by the dealer")
    elif kind == "give_one":
        detail = _("the dealer gave one")
    elif kind == "game" and totals:
        detail = _("counted %(score)s") % {"score": f"{totals[team]}{DASH}{totals[1 - team]}"}
    elif kind == "game":
        detail = _("most points in lifts")
    elif (penalty := penalty_detail(kind, holder)) is not None:
        detail = penalty  # R24-R25: whose renege, or whose call, in the sheet's words too
    else:
        detail = ""
    return Award(
        kind=kind,
        title=award_title(kind),
        card=card,
        card_text=card_short(card) if card else None,
        detail=detail,
        team=team,
        team_name=teams[team].short if you is not None else teams[team].name,
        points=a.points,
        ours=None if you is None else you % 2 == team,
    )


def _status(
    phase: str,
    seats: Sequence[Seat],
    turn: int | None,
    you: int | None,
    beggar: int | None,
    dealer: int | None,
    teams: tuple[Team, Team],
    all_seated: bool,
    seated: bool,
) -> str:
    if phase == "lobby":
        if all_seated:
            return _("Everyone is seated: press Start") if seated else _("Waiting for the start")
        free = sum(1 for s in seats if s.empty)
        waiting = ngettext(
            "Waiting for players: %(num)s seat free",
            "Waiting for players: %(num)s seats free",
            free,
        )
        return waiting % {"num": free}
    if phase == "game_over":
        won = next((t for t in teams if t.winner), None)
        if won is None:
            return _("Game over")
        lost = teams[1 - won.team]
        score = f"{won.score}{DASH}{lost.score}"
        if won.partner is not None:
            return _("You and %(partner)s win, %(score)s") % {
                "partner": won.partner,
                "score": score,
            }
        return _("%(team)s win, %(score)s") % {"team": won.name, "score": score}
    if phase == "reckoning":
        return _("The hand is being counted: call renege or say 'score it'.")
    if turn is None:
        return ""
    who = seats[turn]
    mine = turn == you
    if phase == "beg":
        if mine:
            return _("Your call: stand or beg?")
        return _("Waiting for %(player)s to stand or beg") % {"player": who.name}
    if phase == "give_or_run":
        beg_name = seats[beggar].name if beggar is not None else _("The beggar")
        if mine:
            return _("%(beggar)s begged: give one or run the pack?") % {"beggar": beg_name}
        return _("%(beggar)s begged. Waiting for %(player)s to give one or run the pack") % {
            "beggar": beg_name,
            "player": who.name,
        }
    if mine:
        return _("Your turn: play a card")
    return _("Waiting for %(player)s") % {"player": who.name}


def _with_news(t: Table) -> Table:
    """The events this view shows, each with a key so the page says it only once."""
    news: list[News] = []
    hn = t.hand_number
    for i, k in enumerate(t.kicks):
        if k.points and t.kick_team:
            said = {"card": k.name, "points": k.points, "team": t.kick_team}
            if t.kick_ours:
                text = _("Kick: %(card)s. %(points)s for us.") % said
            elif t.kick_ours is False:
                text = _("Kick: %(card)s. %(points)s for them.") % said
            else:
                text = _("Kick: %(card)s. %(points)s for %(team)s.") % said
        else:
            text = _("Kick: %(card)s.") % {"card": k.name}
        news.append(News(f"kick:{hn}:{i}:{k.code}", text))
    if t.trump_name and t.phase in PLAYING_PHASES:
        news.append(News(f"trump:{hn}:{t.trump}", _("Trump is %(suit)s.") % {"suit": t.trump_name}))
    if t.last_trick and t.last_trick_winner is not None:
        final = t.last_trick[-1]
        won = t.last_trick_winner
        played_by = next(s for s in t.seats if s.seat == final.seat)
        said = {"player": final.player, "card": final.name, "winner": won.name}
        if played_by.you:
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
        news.append(News(f"lift:{t.last_trick_key}", line % said))
    for p in t.trick:
        mine = next(s for s in t.seats if s.seat == p.seat).you
        line = _("You played %(card)s.") if mine else _("%(player)s played %(card)s.")
        news.append(News(f"play:{hn}:{p.code}", line % {"player": p.player, "card": p.name}))
    if t.awards and t.awards_key:
        parts = []
        for a in t.awards:
            what = f"{a.title} {a.card_text}" if a.card_text else a.title
            said = {"award": what, "points": a.points, "team": a.team_name}
            if a.ours:
                parts.append(_("%(award)s, %(points)s for us") % said)
            elif a.ours is False:
                parts.append(_("%(award)s, %(points)s for them") % said)
            else:
                parts.append(_("%(award)s, %(points)s for %(team)s") % said)
        over = _("Hand over. %(awards)s.") % {"awards": "; ".join(parts)}
        news.append(News(f"hand:{t.awards_key}", over))
    for c in t.calls:
        news.append(News(c.key, c.text))
    if t.played_for and t.played_for_key:
        news.append(News(f"auto:{t.played_for_key}", t.played_for))
    if t.phase == "game_over":
        news.append(News(f"over:{t.version}", t.status + "."))
    elif t.your_turn:
        news.append(News(f"turn:{t.version}", t.status + "."))
    return replace(t, news=tuple(news))


def _match(view: View, teams: tuple[Team, Team]) -> Match:
    raw = view.match
    a, b = raw.bullseyes[0], raw.bullseyes[1]
    first = 1 if view.you is not None and view.you % 2 == 1 else 0
    shown = (a, b) if first == 0 else (b, a)
    return Match(
        bullseyes=(a, b),
        to=raw.to,
        winner=teams[raw.winner] if raw.winner is not None else None,
        text=_("Bullseyes %(score)s") % {"score": f"{shown[0]}{DASH}{shown[1]}"},
    )


def match_over_text(t: Table) -> str | None:
    """The match won ("You & Cy win the match, 2-1", with an en dash), once the game that
    won a match of more than one game is over."""
    m = t.match
    if m is None or m.winner is None or not m.playing_to:
        return None
    score = f"{m.bullseyes[m.winner.team]}{DASH}{m.bullseyes[1 - m.winner.team]}"
    if m.winner.partner is not None:
        said = {"partner": m.winner.partner, "score": score}
        return _("You and %(partner)s win the match, %(score)s") % said
    return _("%(team)s win the match, %(score)s") % {"team": m.winner.name, "score": score}


def _with_match_news(t: Table) -> Table:
    """The live region also says the end of a match, once."""
    said = match_over_text(t)
    if said is None or t.phase != "game_over":
        return t
    return replace(t, news=(*t.news, News(f"match:{t.version}", said + ".")))


# -- renege mode (R20-R27) ---------------------------------------------------------------


def _with_renege(t: Table, view: View) -> Table:
    """The calls of the hand and their verdicts, the lifts the viewer may call, and the
    reckoning, all from the view: ``observe`` showed every call to everyone (R27) and the
    cards that would renege to their holder only (R20)."""
    rules = view.rules
    if rules.renege == "off":
        return t
    phase = t.phase
    in_hand = phase in ("play", "reckoning")
    done = sum(view.tricks_won) if in_hand else 0
    in_play = done + 1 if in_hand and view.trick else None
    begun = in_play or done
    called = {c.lift for c in view.calls if t.you is not None and c.seat % 2 == t.you % 2}
    callable_lifts = (
        frozenset(k for k in range(1, begun + 1) if k not in called)
        if t.seated and in_hand
        else frozenset()
    )
    calls = tuple(_call(view, t, i, c) for i, c in enumerate(view.calls))
    lifts = tuple(
        LiftShown(
            n=n,
            cards=tuple(
                _played(p, t.seats, lead=i == 0, winner=p.seat == lift.winner)
                for i, p in enumerate(lift.cards)
            ),
            callable=n in callable_lifts,
        )
        for n, lift in enumerate(_lifts(view), start=1)
    )
    reckoning = phase == "reckoning"
    return replace(
        t,
        renege_on=True,
        calls=calls,
        caught=frozenset(c.card for c in calls if c.upheld and c.card),
        callable_lifts=callable_lifts,
        lift_in_play=in_play,
        last_lift_n=done if in_hand and done else None,
        false_call_cost=_false_call_cost(rules.renege, rules.false_call),
        lifts=lifts,
        reckon_s=view.reckon_deadline if reckoning else None,
        reckoned=tuple(t.seats[s].name for s in view.reckoned) if reckoning else (),
        you_reckoned=reckoning and t.you is not None and t.you in view.reckoned,
    )


def _lifts(view: View) -> Sequence[LiftView]:
    return view.lifts or ()


def _false_call_cost(renege: str, false_call: str) -> str:
    """R25: what a wrong call costs the callers at this table, said before they call."""
    if false_call == "free":
        return _("A wrong call costs nothing at this table.")
    if renege == "bullseye":
        return _("A wrong call costs your side the game, as a renege would.")
    return _("A wrong call costs your side 1 point and your Game this hand, as a renege would.")


def _call(view: View, t: Table, i: int, c: CallView) -> CallShown:
    """ "Ann called renege on lift 3 — upheld: 1 point to Us", in the reader's words."""
    caller = t.seats[c.seat]
    said = {"player": caller.name, "lift": c.lift}
    opened = (
        _("You called renege on lift %(lift)s") % said
        if caller.you
        else _("%(player)s called renege on lift %(lift)s") % said
    )
    if c.penalty is not None and c.paid_by is not None:
        to = 1 - c.paid_by
        us, them, named = _VERDICTS[c.upheld, c.penalty]
        ours = None if t.you is None else t.you % 2 == to
        said_to = {"team": t.teams[to].name}
        verdict = _(us if ours else them if ours is False else named) % said_to
    elif c.upheld:
        verdict = _("upheld, nothing more to pay this hand")
    else:
        verdict = _("no renege, nothing lost")
    text = _("%(call)s — %(verdict)s") % {"call": opened, "verdict": verdict}
    if c.upheld and c.card and c.offender is not None:
        offender = t.seats[c.offender]
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
