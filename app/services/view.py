"""The view of API.md for one caller: the room's facts and what ``observe`` shows that seat.

Nothing here reads the raw state except through ``observe``: the only door for private
information. ``RoomView`` is the one typed shape the JSON API serves (and OpenAPI describes)
and the page renders.
"""

from __future__ import annotations

import functools
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from pydantic import BaseModel, Field
from pydantic_core import to_json

from app.live.presence import Presence
from app.players.ratings import Rating
from app.rules.board import board_dealer
from app.rules.config import Rules, preset_of
from app.rules.view import Observation, observe
from app.services.clocks import NO_DEADLINES, Deadlines, deadlines, seconds_left
from app.services.match import MatchView, match_fields
from app.services.options import RoomOptions
from app.services.snapshot import RoomSnap
from app.views.game import LOBBY, GameView, game_fields, seat_fields
from app.views.records import HandRecordView
from app.views.records import hand_records as record_views
from app.views.shapes import ActionView, SeatNumber, Shown, absent_when_none, action_views

Renderer = Callable[["RoomView"], str]
# A seat's (connected, auto) flags, None for an empty seat: with the snapshot and the
# viewer's seat, all a view depends on.
Flags = tuple[tuple[bool, bool] | None, ...]
# A view's plain values, by RoomView's field names (JSON values only).
Fields = dict[str, Any]


class SeatView(Shown):
    seat: SeatNumber
    name: str
    bot: bool
    level: str | None = Field(description="a computer player's level, null for a human")
    connected: bool = Field(description="an event stream open (bots always)")
    auto: bool = Field(description="a computer player covers for this absent human")
    claimed: bool = Field(
        False, description="a computer player's seat a latecomer takes from the next deal"
    )
    player: str | None = Field(
        None, description="the handle of the player whose profile holds the seat (null: a guest)"
    )


class RatingView(Shown):
    mu: float
    sigma: float
    ordinal: float = Field(description="mu - 3 sigma: what the leaderboard sorts by")


class SeatRatingView(Shown):
    seat: SeatNumber
    handle: str | None = Field(description="the seat's player (null: a deleted profile)")
    before: RatingView
    after: RatingView
    left: bool = Field(
        False,
        exclude_if=lambda left: not left,  # shown only where it is so
        description="the player left the game in play (the computer played their seat from a"
        " turn they missed to the end): rated as their team's loss; their partner's rating"
        " does not move and is not listed",
    )


class ReplayOfView(Shown):
    room: str = Field(description="the room of the game these deals come from")
    game: int = Field(description="that game's number in its room")


class BoardView(Shown):
    number: int = Field(description="the board's number in its event (R30)")
    dealer: SeatNumber = Field(description="the board's dealer: seat (number - 1) mod 4")
    of: int = Field(description="how many boards this table deals")


def _no_clocks() -> list[int | None]:
    return [None, None, None, None]


class RoomView(GameView):
    """What the caller sees of the table (API.md "The view", with docs/server.md's keys)."""

    code: str
    version: int
    rules: Rules
    seats: list[SeatView | None] = Field(min_length=4, max_length=4)
    you: SeatNumber | None = Field(description="the caller's seat, null for a spectator")
    game_number: int
    host: SeatNumber | None = Field(
        None,
        description="the table's host (the player who opened it, or the first one seated):"
        " they may seat computer players for the away, free seats and move players",
    )
    preset: str = Field(description="the rules' preset (RULES.md § Presets), or custom")
    options: RoomOptions
    replay_of: ReplayOfView | None = Field(
        description="while this room plays the deals of a finished game again: that game"
    )
    match: MatchView = Field(
        description="bullseyes (games won) per team in the match this game belongs to"
    )
    away: list[int | None] = Field(
        default_factory=_no_clocks,
        min_length=4,
        max_length=4,
        description="per seat: null, or the seconds (at timed_at) until the computer plays for"
        " this absent player (0: it does now); only the seat to act counts down",
    )
    turn_deadline: int | None = Field(
        None,
        description="seconds (at timed_at) left on the turn timer (option turn_timer_s) before"
        " the computer makes the decision for the seat to act, who keeps the seat; null: no"
        " timer running",
    )
    timed_at: float | None = Field(
        None,
        description="Unix time (seconds) at which away and turn_deadline were counted: a view"
        " is rendered once and may be sent later, so count down from this moment; null when"
        " no clock runs",
    )
    reckon_deadline: int | None = Field(
        None,
        description="renege mode (R23): seconds (at timed_at) left before the hand being"
        " reckoned is scored (option reckon_s); null: no reckoning",
    )
    played_for_you: list[ActionView] = Field(
        default_factory=list,
        description="what the computer did for the caller's seat (away cover or turn timer)"
        " since the caller's own last move in this game, oldest first",
    )
    rated: bool | None = Field(
        None,
        exclude_if=absent_when_none,
        description="at game over: whether the game was rated (API.md § Ratings); absent before",
    )
    ratings: list[SeatRatingView] | None = Field(
        None,
        exclude_if=absent_when_none,
        description="at the end of a rated game: each seat's player's rating before and after"
        " it; absent otherwise",
    )
    board: BoardView | None = Field(
        None,
        exclude_if=absent_when_none,
        description="duplicate (R30, option boards): the board this game deals; seats 0 and 2"
        " are North-South, 1 and 3 East-West; absent at any other table",
    )


def json_renderer(view: RoomView) -> str:
    """The view as the JSON API serves it. ``RenderedViews`` writes the same text from the
    view's plain values (``_json``), without building the model."""
    return view.model_dump_json()


def seat_flags(snap: RoomSnap, presence: Presence) -> Flags:
    in_play = snap.in_play
    code = snap.code
    return tuple(
        None
        if info is None
        else (
            info.bot or presence.connected(code, info.seat),
            not info.bot and in_play and presence.covered(code, info.seat),
        )
        for info in snap.seats
    )


def room_view(snap: RoomSnap, seat: int | None, presence: Presence) -> RoomView:
    shared = _shared_fields(snap, seat_flags(snap, presence), deadlines(snap, presence))
    return _model(_seat_fields(shared, snap, seat), snap)


def _shared_fields(snap: RoomSnap, flags: Flags, clocks: Deadlines = NO_DEADLINES) -> Fields:
    """What every viewer of this version sees alike, a spectator's view, as the plain values
    of ``RoomView`` in its fields' order (nested shapes included), ready for JSON."""
    now = time.time()
    seen = _observe(snap, None)
    shown = _LOBBY if seen is None else game_fields(seen)
    game = snap.game
    fields: Fields = {
        **shown,
        "code": snap.code,
        "version": snap.version,
        "rules": _dumped(snap.rules),
        "seats": [
            None
            if info is None or flag is None
            else {
                "seat": info.seat,
                "name": info.name,
                "bot": info.bot,
                "level": info.level,
                "connected": flag[0],
                "auto": flag[1],
                # A substitute's seat claimed back by its night player is no latecomer's
                # "next deal" (the night page says when the seat is theirs again).
                "claimed": info.claim is not None and info.bot,
                "player": info.player.handle if info.player else None,
            }
            for info, flag in zip(snap.seats, flags, strict=True)
        ],
        "you": None,
        "game_number": game.number if game else 0,
        "host": snap.host,
        "preset": preset_of(snap.rules),
        "options": _dumped(snap.options),
        "replay_of": _replay_of(snap),
        "match": match_fields(snap),
        "away": [seconds_left(d, now) for d in clocks.away],
        "turn_deadline": seconds_left(clocks.turn, now),
        "reckon_deadline": seconds_left(clocks.reckon, now),
        "timed_at": None if clocks == NO_DEADLINES else round(now, 3),
        "played_for_you": [],
    }
    if game is not None and game.state.board:
        board = game.state.board
        fields["board"] = {
            "number": board,
            "dealer": board_dealer(board),
            "of": len(snap.options.boards),
        }
    if game is not None and game.over:
        fields["rated"] = game.rated
        if game.rated:
            fields["ratings"] = [
                {
                    "seat": r.seat,
                    "handle": r.handle,
                    "before": _rating(r.before),
                    "after": _rating(r.after),
                }
                | ({"left": True} if r.left else {})
                for r in game.ratings
            ]
    return _in_order(fields)


def _rating(rating: Rating) -> dict[str, float]:
    return {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal}


def _seat_fields(shared: Fields, snap: RoomSnap, seat: int | None) -> Fields:
    """``shared`` as ``seat`` sees it: its hand, what it may and may not do, what the
    computer did for it, as ``observe`` shows that seat (a spectator sees ``shared``)."""
    if seat is None:
        return shared
    seen = _observe(snap, seat)
    if seen is None:
        return {**shared, "you": seat}
    own = seat_fields(seen)
    fields = {
        **shared,
        "you": seat,
        "hand": own["hand"],
        "legal": own["legal"],
        "refused": own["refused"],
        "played_for_you": action_views(seen.played_for_you),
    }
    if "renege_cards" in own:  # R20, the seat to play only: in its place among the fields
        fields["renege_cards"] = own["renege_cards"]
        return _in_order(fields)
    return fields


def _model(fields: Fields, snap: RoomSnap) -> RoomView:
    """The view as the typed shape (what the page renders), validated whole (strict)."""
    return RoomView.model_validate({**fields, "rules": snap.rules, "options": snap.options})


def _json(fields: Fields) -> str:
    """``json_renderer``'s text, from the plain values (pydantic's own serializer)."""
    return to_json(fields).decode()


def _in_order(fields: Fields) -> Fields:
    """``fields`` in RoomView's order (GameView's first), as pydantic writes them; the fields
    it leaves out when null (``lifts``, ``renege_cards``: ``exclude_if``) stay out."""
    return {name: fields[name] for name in _ORDER if name in fields}


_ORDER = tuple(RoomView.model_fields)


@functools.lru_cache(maxsize=1024)
def _dumped(settings: BaseModel) -> dict[str, Any]:
    """A room's rules or options (frozen, shared by its snapshots) as JSON values; the same
    dict every time: never changed by its users."""
    dumped: dict[str, Any] = settings.model_dump(mode="json")
    return dumped


_LOBBY = LOBBY.model_dump()


def hand_records(snap: RoomSnap, seat: int | None) -> tuple[HandRecordView, ...]:
    """The current game's finished deals as this seat (None: a spectator) may see them:
    what the score sheet shows. None before the first game starts."""
    seen = _observe(snap, seat)
    return () if seen is None else record_views(seen)


def _observe(snap: RoomSnap, seat: int | None) -> Observation | None:
    """``observe`` of the room's game for this seat (None before the first game). A seat a
    computer player holds now is told nothing of what was played for it before."""
    game = snap.game
    if game is None:
        return None
    info = snap.seats[seat] if seat is not None else None
    played_for = game.played_for if info is not None and not info.bot else ()
    return observe(game.state, seat, played_for)


def _replay_of(snap: RoomSnap) -> dict[str, Any] | None:
    """The replayed game, while the room plays its deals (its first game)."""
    replayed = snap.replay_of
    if replayed is None or (snap.game is not None and snap.game.number != 1):
        return None
    return {"room": replayed.code, "game": replayed.number}


class ViewKey(NamedTuple):
    """Everything one rendered view depends on, and nothing else."""

    code: str  # the room
    version: int  # its snapshot
    seat: int | None  # the viewer's seat (None: a spectator)
    flags: Flags  # each seat's connected and auto flags
    clocks: Deadlines  # the away cover's and the turn timer's deadlines
    render: Renderer  # JSON, or the table's HTML in one language


@dataclass(slots=True)
class _Newest:
    """One room's newest snapshot rendered so far: its texts, and the part of its views that
    every viewer shares, per presence and clocks."""

    snap: RoomSnap
    texts: dict[ViewKey, str] = field(default_factory=dict)
    shared: dict[tuple[Flags, Deadlines], Fields] = field(default_factory=dict)


class RenderedViews:
    """Rendered views of each room's newest snapshot rendered so far, shared by every stream
    (and the move's own response) that shows the same seat's view with the same presence:
    several tabs or spectators of one room cost one render per version, and the four seats'
    views of a version are built on one shared part. Only the newest snapshot of a room is
    kept, and at most ``rooms`` rooms. Event-loop thread only."""

    def __init__(self, rooms: int = 4096) -> None:
        self._rooms: OrderedDict[str, _Newest] = OrderedDict()
        self._max_rooms = rooms

    def text(self, snap: RoomSnap, seat: int | None, presence: Presence, render: Renderer) -> str:
        flags = seat_flags(snap, presence)
        clocks = deadlines(snap, presence)
        key = ViewKey(snap.code, snap.version, seat, flags, clocks, render)
        newest = self._rooms.get(snap.code)
        if newest is not None and newest.snap is snap:
            found = newest.texts.get(key)
            if found is not None:
                return found
        elif newest is None or newest.snap.version < snap.version:
            newest = self._rooms[snap.code] = _Newest(snap)
            self._rooms.move_to_end(snap.code)
            while len(self._rooms) > self._max_rooms:
                self._rooms.popitem(last=False)
        else:
            # A catching-up stream's older version is rendered but not kept.
            return _rendered(
                _seat_fields(_shared_fields(snap, flags, clocks), snap, seat), snap, render
            )
        shared = newest.shared.get((flags, clocks))
        if shared is None:
            shared = newest.shared[flags, clocks] = _shared_fields(snap, flags, clocks)
        text = newest.texts[key] = _rendered(_seat_fields(shared, snap, seat), snap, render)
        return text


def _rendered(fields: Fields, snap: RoomSnap, render: Renderer) -> str:
    """``render`` of the view: JSON straight from its plain values, any other renderer (the
    table's HTML) from the validated model."""
    if render is json_renderer:
        return _json(fields)
    return render(_model(fields, snap))


def view_text(
    views: RenderedViews,
    snap: RoomSnap,
    seat: int | None,
    presence: Presence,
    render: Renderer = json_renderer,
) -> str:
    """``render(room_view(snap, seat, presence))``, rendered once per version and viewer
    (``views``: the app's cache of them, in its Context)."""
    return views.text(snap, seat, presence, render)
