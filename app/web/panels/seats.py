"""The seats round the table, placed from the viewer's chair (the viewer at the bottom)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.bots.names import told_apart
from app.i18n import _, pgettext
from app.services.view import RoomView, SeatView

# Counterclockwise play (R4): from the viewer at the bottom, the next seat sits on the right.
POSITIONS = ("bottom", "right", "top", "left")
PLAYING_PHASES = ("beg", "give_or_run", "play")


@dataclass(frozen=True, slots=True)
class SeatShown:
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
    claimed: bool = False  # a computer player's seat a latecomer takes from the next deal
    player: str | None = None  # the handle of the profile holding the seat (None: a guest)


@dataclass(frozen=True, slots=True)
class Seats:
    by_number: tuple[SeatShown, ...]
    around: tuple[SeatShown, ...]  # bottom, right, top, left
    you: int | None  # the viewer's seat, None for a spectator
    seated: bool
    all_seated: bool
    dealer: SeatShown | None
    turn: SeatShown | None  # the seat to act while a hand is played
    your_turn: bool
    # A spectator may take a computer player's seat (at once in the lobby, else from the next
    # deal): some bot's seat is not yet claimed.
    takeable: bool
    you_host: bool  # the viewer is the table's host (app/api/host.py)
    # The viewer's seat is held under a profile (its handle): "Signed in as", not "Keep my
    # games". None for a guest or a spectator.
    you_player: str | None = None


def seats(view: RoomView) -> Seats:
    you = view.you
    me = you if you is not None else 0
    phase = view.phase
    playing = phase in PLAYING_PHASES
    dealer = view.dealer if phase != "lobby" else None
    turn = view.turn if playing else None
    names = display_names(view.seats)
    placed = tuple(
        SeatShown(
            seat=n,
            pos=POSITIONS[(n - me) % 4],
            name=pgettext("seat label", "You") if n == you else names[n],
            display_name=names[n],
            empty=raw is None,
            bot=bool(raw and raw.bot),
            level=raw.level if raw and raw.bot and raw.level else None,
            auto=bool(raw and raw.auto),
            connected=bool(raw and (raw.connected or raw.bot)),
            you=n == you,
            team=n % 2,
            partner_of_viewer=you is not None and n == (you + 2) % 4,
            dealer=n == dealer,
            beggar=playing and n == view.beggar,
            turn=n == turn,
            hand_size=view.hand_sizes[n] if playing else 0,
            tricks_won=view.tricks_won[n % 2] if playing else None,
            claimed=bool(raw and raw.claimed),
            player=raw.player if raw and not raw.bot else None,
        )
        for n, raw in enumerate(view.seats)
    )
    return Seats(
        by_number=placed,
        around=tuple(placed[(me + i) % 4] for i in range(4)),
        you=you,
        seated=you is not None,
        all_seated=all(not s.empty for s in placed),
        dealer=placed[dealer] if dealer is not None else None,
        turn=placed[turn] if turn is not None else None,
        your_turn=you is not None and turn == you and playing,
        takeable=you is None and any(s.bot and not s.claimed for s in placed),
        you_host=you is not None and view.host == you,
        you_player=placed[you].player if you is not None else None,
    )


def display_names(raw_seats: Sequence[SeatView | None]) -> list[str]:
    """Each seat's name, told apart at the table (app/bots/names.py: "Computer 1
    (standard)", "Ann 2") so turns are never ambiguous."""
    held = [
        (
            raw.name if raw.name.strip() or raw.bot else _("Player %(n)s") % {"n": n + 1},
            raw.bot,
            raw.level,
        )
        for n, raw in enumerate(raw_seats)
        if raw is not None
    ]
    said = iter(told_apart(held))
    return [_("Empty seat") if raw is None else next(said) for raw in raw_seats]
