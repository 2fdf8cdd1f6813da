"""Table talk: the room's chat and the nudge.

Messages are rows like the moves (kept through a reload, a restart, another process) but never
raise the room's version: they travel on the room's streams as their own events, so a move
never waits on a message and a message never disturbs the version sequence. Seated players
talk; spectators read. A seat may write 5 messages in 10 seconds, and nudge the player to act
once in 30 seconds; both limits are kept in the database, so they hold across processes.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from pydantic import BaseModel, Field
from sqlalchemy import Connection

from app.i18n import N_
from app.live.hub import Nudge, Said, nudge_mark
from app.reasons import reason
from app.services import errors
from app.services.identity import check_code, seat_of
from app.services.rooms import Rooms
from app.services.snapshot import RoomSnap
from app.store import repo
from app.store.db import read, write

# The presets, as said at a Trinidad table (API.md § Second round has the ids). Kept in
# English here (the stored text); each reader sees them in their language, where the
# catalog's comments say which are kept as said at the table.
PRESETS: dict[str, str] = {
    "stand": N_("Stand!"),
    "ah_beg": N_("Ah beg"),
    "give_one": N_("Give one"),
    "run_the_pack": N_("Run the pack!"),
    "hang_jack": N_("Hang jack!"),
    "good_lift": N_("Good lift, partner"),
    # Translators: Trinidad table talk ("play your card", to a slow player).
    "play_yuh_card": N_("Play yuh card"),
    "all_fours": N_("All fours!"),
    "bullseye": N_("Bullseye!"),
    "thumbs_up": "\N{THUMBS UP SIGN}",
    "laugh": "\N{FACE WITH TEARS OF JOY}",
    "wow": "\N{FACE WITH OPEN MOUTH}",
    "sleepy": "\N{SLEEPING FACE}",
}
TEXT_MAX = 200
SPECTATOR = N_("Spectator")  # the name a spectator writes under (shown translated)
RECENT = 100  # what a (re)connection and GET /chat give
FLOOD_MESSAGES, FLOOD_WINDOW = 5, timedelta(seconds=10)
NUDGE_EVERY = timedelta(seconds=30)
# Writing-direction overrides and isolates could turn the rest of the page around; joiners
# (category Cf too) stay, since emoji sequences are made with them.
TEXT_EMPTY = reason("text_empty", "text must not be empty", N_("Write something first."))
TEXT_TOO_LONG = reason(
    "text_too_long", "text must be at most {max} characters", N_("That message is too long.")
)
SPECTATORS_READ = reason(
    "spectators_read",
    "spectators read the chat; only seated players write",
    N_("Spectators read the talk; the players write."),
)
TEXT_OR_PRESET = reason(
    "text_or_preset",
    "give either text or preset",
    N_("That did not work: check what you entered."),
)
UNKNOWN_PRESET = reason(
    "unknown_preset",
    "preset must be one of {presets}",
    N_("That did not work: check what you entered."),
)
TOO_MANY_MESSAGES = reason(
    "too_many_messages",
    "at most {count} messages in {seconds} seconds",
    N_("Too many messages at once: wait a few seconds."),
)
NOBODY_TO_NUDGE = reason(
    "nobody_to_nudge", "no other player is to act now", N_("Nobody else is to play now.")
)
NUDGE_TOO_SOON = reason(
    "nudge_too_soon",
    "one nudge every {seconds} seconds",
    N_("You nudged a moment ago: wait a little."),
)

_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")


class ChatMessageOut(BaseModel):
    """API.md's ``<message>``."""

    id: int
    seat: int | None = Field(description="the writer's seat, null for a spectator")
    name: str
    text: str = Field(description="plain text, to be shown as text")
    preset: str | None = Field(description="the preset's id when the message is one")
    at: datetime
    handle: str | None = Field(
        None, description="the writer's profile's handle, when a player wrote it"
    )


def clean_text(raw: str, limit: int = TEXT_MAX) -> str:
    """The message as shown: line breaks and tabs become spaces, control characters go,
    trimmed; 1 to ``limit`` characters (a chat message's 200 unless said), else 422."""
    spaced = "".join(" " if ch in "\r\n\t" else ch for ch in raw)
    text = "".join(
        ch for ch in spaced if unicodedata.category(ch) != "Cc" and ch not in _BIDI_CONTROLS
    ).strip()
    if not text:
        raise errors.Invalid(TEXT_EMPTY)
    if len(text) > limit:
        raise errors.Invalid(TEXT_TOO_LONG, max=limit)
    return text


def _out(row: repo.ChatRow) -> ChatMessageOut:
    return ChatMessageOut(
        id=row.id,
        seat=row.seat,
        name=row.name,
        text=row.text,
        preset=row.preset,
        at=row.at,
        handle=row.handle,
    )


def messages_of(conn: Connection, room_id: int, *, limit: int) -> list[ChatMessageOut]:
    """A room's last ``limit`` messages, oldest first, as the API shows them."""
    return [_out(r) for r in repo.chat_of(conn, room_id, limit=limit)]


def _utc_now() -> datetime:
    return datetime.now(UTC)


class RoomTalk:
    """The chat and the nudge of this server's rooms, on the tables' database."""

    def __init__(self, rooms: Rooms, now: Callable[[], datetime] = _utc_now) -> None:
        self._snapshot = rooms.snapshot
        self._engine = rooms.engine
        self._notifier = rooms.notifier
        self._herald = rooms.herald
        self._now = now

    def _speaker(
        self, snap: RoomSnap, token: str | None, *, spectators: bool = False
    ) -> int | None:
        """The writer's seat; None for a spectator, where the room lets spectators talk."""
        seat = seat_of(snap, token)
        if seat is None:
            if token:
                raise errors.Forbidden(errors.NO_SEAT_HERE)
            if not spectators:
                raise errors.Forbidden(SPECTATORS_READ)
        return seat

    def post(
        self, code: str, token: str | None, *, text: str | None, preset: str | None
    ) -> ChatMessageOut:
        if (text is None) == (preset is None):
            raise errors.Invalid(TEXT_OR_PRESET)
        if preset is not None and preset not in PRESETS:
            raise errors.Invalid(UNKNOWN_PRESET, presets=", ".join(PRESETS))
        said = PRESETS[preset] if preset is not None else clean_text(text or "")
        snap = self._snapshot(code)
        seat = self._speaker(snap, token, spectators=snap.options.spectator_chat)
        info = snap.seats[seat] if seat is not None else None
        now = self._now()
        with write(self._engine) as conn:
            if repo.chat_count_since(conn, snap.id, seat, now - FLOOD_WINDOW) >= FLOOD_MESSAGES:
                raise errors.TooMany(
                    TOO_MANY_MESSAGES, count=FLOOD_MESSAGES, seconds=FLOOD_WINDOW.seconds
                )
            row = repo.insert_chat(
                conn,
                room_id=snap.id,
                seat=seat,
                name=info.name if info is not None else SPECTATOR,
                text=said,
                preset=preset,
                at=now,
                player=(info.player.id, info.player.handle)
                if info is not None and info.player is not None
                else None,
            )
            message = _out(row)
            event = Said(row.id, message.model_dump_json())
            self._notifier.event_in_transaction(conn, code, event)
        self._notifier.event_after_commit(code, event)
        return message

    def recent(self, code: str, hidden: frozenset[str] = frozenset()) -> list[ChatMessageOut]:
        """The last messages, but those of the players whose handles are ``hidden`` (the
        reader blocked them)."""
        check_code(code)
        with read(self._engine) as conn:
            room = repo.room_by_code(conn, code)
            if room is None:
                raise errors.NotFound(errors.NO_ROOM, code=code)
            rows = repo.chat_of(conn, room.id, limit=RECENT)
        return [_out(r) for r in rows if r.handle is None or r.handle not in hidden]

    def nudge(self, code: str, token: str | None) -> int:
        """Nudge the player to act; the seat nudged."""
        snap = self._snapshot(code)
        seat = self._speaker(snap, token)
        assert seat is not None  # spectators never nudge
        game = snap.game
        turn = game.state.turn if game is not None else None
        to_act = snap.seats[turn] if turn is not None else None
        if turn is None or to_act is None or to_act.bot or turn == seat:
            raise errors.Conflict(NOBODY_TO_NUDGE)
        now = self._now()
        with write(self._engine) as conn:
            if not repo.take_nudge(conn, snap.id, seat, now, now - NUDGE_EVERY):
                raise errors.TooMany(NUDGE_TOO_SOON, seconds=NUDGE_EVERY.seconds)
            nudge = Nudge(nudge_mark(int(now.timestamp() * 1000), turn))
            self._notifier.event_in_transaction(conn, code, nudge)
        self._notifier.event_after_commit(code, nudge)
        by = snap.seats[seat]
        self._herald.nudged(snap, turn, by.name if by is not None else "")
        return turn
