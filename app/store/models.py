"""The tables. The action log is the truth: a game's state is the replay of its actions.

``rooms.version`` is the room's one concurrency token: every accepted change (a join, a bot
seated, the start, each action, a rematch) raises it by exactly 1 with a conditional UPDATE.
``seats.joined_version`` and ``actions.version`` let any past version be rebuilt.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    SmallInteger,
    String,
    UniqueConstraint,
    func,
    text,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class SeedText(TypeDecorator[int]):
    """A seed as its decimal text: fresh seeds have 128 bits, more than any SQL integer holds
    on SQLite and PostgreSQL alike; the code sees a Python int."""

    impl = String(64)
    cache_ok = True

    def process_bind_param(self, value: int | None, dialect: Dialect) -> str | None:
        return None if value is None else str(value)

    def process_result_value(self, value: str | None, dialect: Dialect) -> int | None:
        return None if value is None else int(value)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Room(Base):
    __tablename__ = "rooms"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(32), unique=True)
    rules: Mapped[dict[str, object]] = mapped_column(JSON)
    seed: Mapped[int | None] = mapped_column(SeedText)  # the admin's seed, or a replay's
    # A replay of a finished game ("play these deals again"): its first dealer, and the game
    # it replays (the code of its room and its number there).
    first_dealer: Mapped[int | None] = mapped_column(SmallInteger)
    replay_of_code: Mapped[str | None] = mapped_column(String(32))
    replay_of_game: Mapped[int | None] = mapped_column(Integer)
    # The table settings that are not rules (app/services/options.py); None: the defaults.
    options: Mapped[dict[str, object] | None] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    # When ``version`` was committed: the turn timer of the decision it gave counts from it,
    # in every app process and after a restart (app/services/clocks.py).
    changed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The table's host (the player who opened it, or the first one seated): their seat.
    host_seat: Mapped[int | None] = mapped_column(SmallInteger)
    # A public table (room option ``public``, issue #36): listed in the lobby, found by play
    # now. A column, not only the options' JSON, so the lobby is one indexed query.
    public: Mapped[bool] = mapped_column(Boolean, server_default=text("false"), index=True)


class Seat(Base):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("room_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(SmallInteger)
    name: Mapped[str] = mapped_column(String(64))
    bot: Mapped[bool] = mapped_column(Boolean, default=False)
    level: Mapped[str | None] = mapped_column(String(16))
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    # The version that wrote this row: a seat that changed hands (a latecomer in a bot's
    # seat, a bot in an away player's, a host's move) is written again, so a past version
    # rebuilt from the log shows it empty until then.
    joined_version: Mapped[int] = mapped_column(Integer)
    # A latecomer's claim on this computer player's seat, taken up at the next deal.
    claim_name: Mapped[str | None] = mapped_column(String(64))
    claim_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    # The last sign of life of a human seat, written by every app process for the streams
    # and requests it serves, so no process covers a player who is at another's table.
    seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # When this seat last nudged the player to act: at most one nudge a seat each 30 s,
    # whichever app process takes it.
    nudged_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # A player's seat (issue #34): its token is derived from the player's secret, so that
    # every device signed in to the profile acts for it (app/players/keys.py).
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), index=True)
    claim_player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    # Web Push (issue #35): since when no page of this seat has been visible (None: one is,
    # or none ever said otherwise), and the room version whose turn the player was told of,
    # so that one process, once, sends "your turn" (app/services/push.py).
    hidden_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    turn_told: Mapped[int | None] = mapped_column(Integer)


class Game(Base):
    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("room_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    rules: Mapped[dict[str, object]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(SeedText)
    # Which shuffle deals from the seed (app/rules/shuffle.py): games stored before the
    # documented shuffle (1, Python's random) keep theirs so their logs still replay.
    shuffle: Mapped[int] = mapped_column(SmallInteger, server_default=text("1"))
    first_dealer: Mapped[int] = mapped_column(SmallInteger)
    started_version: Mapped[int] = mapped_column(Integer)
    # Denormalised from the replay so a restart finds games waiting for a seat cheaply.
    turn: Mapped[int | None] = mapped_column(SmallInteger)
    over: Mapped[bool] = mapped_column(Boolean, default=False)
    # The team that won (written by the move that ends the game), so a room's match tally
    # is one small query, not a replay of every game.
    winner: Mapped[int | None] = mapped_column(SmallInteger)
    # Who sat where when the game started (app/services/match.py): a seat's name, bot and
    # level, and a human's token hash. The partnerships of a match are those of its games,
    # whatever later moves the seats.
    lineup: Mapped[list[dict[str, object]] | None] = mapped_column(JSON)
    # When the current hand's reckoning began (R23: its last card), written by that move: the
    # reckoning's deadline counts from it in every app process and after a restart.
    reckon_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # When the game ended (the order ratings are applied in), whether it was rated (four
    # different players from the first deal to the end, API.md § Ratings) and, if so, each
    # seat's rating before and after: [{"seat", "player", "before", "after"}].
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    rated: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))
    ratings: Mapped[list[dict[str, object]] | None] = mapped_column(JSON)
    # R30: the board of its event this game deals, played as one hand (the room's option
    # `boards`); null for a game to the target.
    board: Mapped[int | None] = mapped_column(SmallInteger)


class ActionRow(Base):
    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(SmallInteger)
    type: Mapped[str] = mapped_column(String(16))
    card: Mapped[str | None] = mapped_column(String(2))
    version: Mapped[int] = mapped_column(Integer)  # the room version this action made
    auto: Mapped[bool] = mapped_column(Boolean, default=False)  # played by a bot or away cover
    lift: Mapped[int | None] = mapped_column(SmallInteger)  # the lift a call of renege names
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class ChatMessage(Base):
    """Table talk: kept like the moves, so a reload, a restart or another process shows it."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int | None] = mapped_column(SmallInteger)  # None: a spectator
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(String(800))  # 200 characters, in any script
    preset: Mapped[str | None] = mapped_column(String(32))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # The writer's profile, when a player wrote it: a reader who blocked them never sees it.
    player_id: Mapped[int | None] = mapped_column(Integer)


# -- club night (issue #27): pairs meet in rounds, a room per table ---------------------------


class Night(Base):
    """A club night. ``version`` is its concurrency token, raised by a conditional UPDATE
    with every change (a pair, a round drawn, a table's result), like a room's."""

    __tablename__ = "nights"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(32), unique=True)
    name: Mapped[str] = mapped_column(String(80))
    format: Mapped[str] = mapped_column(String(16))
    preset: Mapped[str | None] = mapped_column(String(32))
    rules: Mapped[dict[str, object]] = mapped_column(JSON)  # the tables' rules, in full
    options: Mapped[dict[str, object]] = mapped_column(JSON)
    director_hash: Mapped[str] = mapped_column(String(64), unique=True)
    registration_open: Mapped[bool] = mapped_column(Boolean, default=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class NightPair(Base):
    __tablename__ = "night_pairs"
    __table_args__ = (UniqueConstraint("night_id", "number"), UniqueConstraint("night_id", "key"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("nights.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(SmallInteger)
    names: Mapped[list[str]] = mapped_column(JSON)
    team: Mapped[str | None] = mapped_column(String(40))
    # The pair as typed, folded (names and club): a second registration of it is the same.
    key: Mapped[str] = mapped_column(String(200))


class NightPlayer(Base):
    """A player's own link: it seats them at their table every round. Only its hash is kept."""

    __tablename__ = "night_players"
    __table_args__ = (UniqueConstraint("night_id", "player_id"),)  # one pair a profile

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("nights.id", ondelete="CASCADE"), index=True)
    pair: Mapped[int] = mapped_column(SmallInteger)
    slot: Mapped[int] = mapped_column(SmallInteger)  # 0: seats 0/1, 1: seats 2/3 (opposite)
    name: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    # A player registered by their handle (issue #34): seated by their profile, no link.
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))


class NightRound(Base):
    __tablename__ = "night_rounds"
    __table_args__ = (UniqueConstraint("night_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("nights.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(SmallInteger)
    bye: Mapped[int | None] = mapped_column(SmallInteger)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class NightTable(Base):
    """One table of a round: its room, its two pairs, and its match as last counted from the
    room's games (``games``: each finished game's winner, scores and hands' awards)."""

    __tablename__ = "night_tables"
    __table_args__ = (UniqueConstraint("night_id", "round", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("nights.id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(SmallInteger)
    number: Mapped[int] = mapped_column(SmallInteger)
    room_code: Mapped[str] = mapped_column(String(32), index=True)
    pair_a: Mapped[int] = mapped_column(SmallInteger)  # seats 0 and 2
    pair_b: Mapped[int] = mapped_column(SmallInteger)  # seats 1 and 3
    games: Mapped[list[dict[str, object]]] = mapped_column(JSON)
    winner: Mapped[int | None] = mapped_column(SmallInteger)  # a pair, once the match is over
    # Set by the director: a forfeit (the pair that gave it up) or a result set by hand.
    forfeit: Mapped[int | None] = mapped_column(SmallInteger)
    corrected: Mapped[list[int] | None] = mapped_column(JSON)  # the bullseyes set by hand


# -- players (issue #34): a profile without a password, its devices and passkeys --------------


class Player(Base):
    """A profile. Its handle is never given to anyone else: a deleted profile keeps its row
    (the handle, and the id its rated games name) with everything personal wiped."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    handle: Mapped[str] = mapped_column(String(20), unique=True)  # lower case
    name: Mapped[str] = mapped_column(String(64))
    language: Mapped[str | None] = mapped_column(String(8))
    listed: Mapped[bool] = mapped_column(Boolean, default=True)
    # What the player's seat token at a room is derived from (app/players/keys.py): every
    # device of theirs acts for the seat, none holds it. None once deleted.
    secret: Mapped[str | None] = mapped_column(String(64))
    # The rating (API.md § Ratings), as the rated games applied so far left it.
    mu: Mapped[float | None] = mapped_column(Float)
    sigma: Mapped[float | None] = mapped_column(Float)
    rated_games: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class PlayerKey(Base):
    """A device signed in: its player key's hash, the browser's name for it, when it was
    first and last seen."""

    __tablename__ = "player_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    device: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SigninCode(Base):
    """A one-time link that signs another device in: single use, ten minutes."""

    __tablename__ = "signin_codes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Passkey(Base):
    """A WebAuthn credential: the way back in for a player who lost every device."""

    __tablename__ = "passkeys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    credential_id: Mapped[str] = mapped_column(String(400), unique=True)  # base64url
    public_key: Mapped[str] = mapped_column(String(2000))  # base64url, COSE
    sign_count: Mapped[int] = mapped_column(Integer, default=0)
    name: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class PasskeyChallenge(Base):
    """A WebAuthn ceremony's challenge, kept in the database so that any app process may
    finish what another began; single use, a few minutes."""

    __tablename__ = "passkey_challenges"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    challenge: Mapped[str] = mapped_column(String(200), unique=True)  # base64url
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    purpose: Mapped[str] = mapped_column(String(16))  # "add" or "signin"
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PlayerGame(Base):
    """A finished game in a player's career, counted from its record when it ended (or when a
    guest's seat was claimed): the seat's figures and, for a rated game, the rating before
    and after. Derived, and rebuilt from the records by
    ``python -m app.services.rebuild_careers``."""

    __tablename__ = "player_games"
    __table_args__ = (UniqueConstraint("player_id", "game_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(SmallInteger)
    ended_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    won: Mapped[bool] = mapped_column(Boolean)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    figures: Mapped[dict[str, object]] = mapped_column(JSON)
    before: Mapped[dict[str, float] | None] = mapped_column(JSON)  # {"mu", "sigma"}
    after: Mapped[dict[str, float] | None] = mapped_column(JSON)
    # The player left the game in play (app/services/career.py ``leavers``): the computer
    # played their seat from a turn they missed to the game's end.
    left: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))


class ServerKey(Base):
    """A key the server made for itself at its first start and keeps (the VAPID key of Web
    Push): every process and every restart signs with the same one."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(400))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PushSubscription(Base):
    """A browser's push subscription (RFC 8030), given by a player, with the events they
    chose. The endpoint is a URL the server will call: only on ALLFOURS_PUSH_HOSTS. A row is
    the player's own: another player giving the same endpoint makes a row of theirs, never
    takes this one (so knowing an endpoint silences no one)."""

    __tablename__ = "push_subscriptions"
    __table_args__ = (UniqueConstraint("player_id", "endpoint"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    endpoint: Mapped[str] = mapped_column(String(1000))
    p256dh: Mapped[str] = mapped_column(String(120))  # base64url, the browser's P-256 key
    auth: Mapped[str] = mapped_column(String(40))  # base64url, 16 bytes
    events: Mapped[list[str]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PushOutbox(Base):
    """A notification waiting to be sent: written beside the event, sent by whichever process
    claims it first (``claimed_until``), retried with backoff, gone once delivered or given
    up. Its subscription's deletion takes it along."""

    __tablename__ = "push_outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    subscription_id: Mapped[int] = mapped_column(
        ForeignKey("push_subscriptions.id", ondelete="CASCADE"), index=True
    )
    payload: Mapped[dict[str, object]] = mapped_column(JSON)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


# -- the host's tools (issue #36): reports and bans ------------------------------------------


class Report(Base):
    """A player's report of another, with the room's chat and game records as they were when
    it was made: kept here, not linked, so that the room's removal (the sweep, a host
    closing it) loses nothing the admin needs to judge it."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    reported_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    room: Mapped[str] = mapped_column(String(32))  # the room's code: the room may be gone
    reason: Mapped[str] = mapped_column(String(16))  # cheating, abuse, other
    text: Mapped[str] = mapped_column(String(2000))  # 500 characters, in any script
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    # The room's chat (its messages as API.md's <message>) and each game's record, as then.
    chat: Mapped[list[dict[str, object]]] = mapped_column(JSON)
    records: Mapped[list[dict[str, object]]] = mapped_column(JSON)


class Ban(Base):
    """A player the admin banned: no public play, no new public tables. One row a player;
    unbanning removes it."""

    __tablename__ = "bans"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    reason: Mapped[str] = mapped_column(String(2000))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Who banned: the admin token is one shared token, so what is known of the door it came
    # through ("admin": the token; "admin page": the admin's signed-in page). None: before 0016.
    by: Mapped[str | None] = mapped_column(String(80))


# -- clubs and seasons (issue #37) --------------------------------------------------------


class Club(Base):
    __tablename__ = "clubs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(32), unique=True)
    name: Mapped[str] = mapped_column(String(80))
    standings: Mapped[str] = mapped_column(String(16), default="wins_first")  # the club's order
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class ClubMember(Base):
    __tablename__ = "club_members"
    __table_args__ = (UniqueConstraint("club_id", "player_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(8))  # admin, member
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class ClubInvite(Base):
    """An invite link: only its token's hash is kept; a revoked one answers 410."""

    __tablename__ = "club_invites"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Season(Base):
    """A club's season: numbered 1.. in the club; the unique number makes two admins starting
    one at once start one (the second insert of the same number fails)."""

    __tablename__ = "seasons"
    __table_args__ = (UniqueConstraint("club_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(80))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class ClubNight(Base):
    """A night of a club's season. One row a night (unique): a night never moves."""

    __tablename__ = "club_nights"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("nights.id", ondelete="CASCADE"), unique=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id", ondelete="CASCADE"), index=True)


# -- play now, friends, blocks (issue #36) ----------------------------------------------------


class Friend(Base):
    """A friend request of ``player_id`` to ``friend_id``; the two are friends once each has
    asked the other (the other's same request accepts it)."""

    __tablename__ = "friends"
    __table_args__ = (UniqueConstraint("player_id", "friend_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    friend_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Block(Base):
    """``player_id`` blocked ``blocked_id``: never seated together, no requests nor
    invitations between them, and the blocker never sees the blocked one's chat."""

    __tablename__ = "blocks"
    __table_args__ = (UniqueConstraint("player_id", "blocked_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    blocked_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Invitation(Base):
    """A friend's invitation to their table, shown on the invited player's home page."""

    __tablename__ = "invitations"
    __table_args__ = (UniqueConstraint("player_id", "from_id", "room_code"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    from_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    room_code: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GameReview(Base):
    """The review of a finished game (issue #38): asked once, computed once by whichever
    worker process claims it (``claimed_by`` / ``claimed_until``, a lease renewed with each
    progress, so a worker that died is taken over), then kept. Keyed by what it depends on:
    the game's rules, seed, first dealer, shuffle and actions (``key``, a SHA-256), so the
    same game dealt again in another room shares it. ``game`` holds those inputs (the seed
    is public: a game is reviewed only once it is over); ``room`` and ``number`` name the
    game it was first asked for."""

    __tablename__ = "game_reviews"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True)
    room: Mapped[str] = mapped_column(String(32))
    number: Mapped[int] = mapped_column(Integer)
    game: Mapped[dict[str, object]] = mapped_column(JSON)
    state: Mapped[str] = mapped_column(String(8), index=True)  # queued | running | done
    progress: Mapped[float] = mapped_column(Float, default=0.0)
    result: Mapped[dict[str, object] | None] = mapped_column(JSON)
    claimed_by: Mapped[str | None] = mapped_column(String(64))
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DailyDay(Base):
    """Today's boards (API.md § Fifth round): one row a day, its seed drawn at random when
    the day's first visitor asks (committed to from then on, revealed once the day ends)."""

    __tablename__ = "daily_days"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    day: Mapped[str] = mapped_column(String(32), unique=True)  # "2026-12-07", or a timestamp
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ends_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seed: Mapped[int] = mapped_column(SeedText)
    boards: Mapped[int] = mapped_column(SmallInteger)


class DailyEntry(Base):
    """A person's table on a day: a player's, or a guest's (known by their seat token's
    hash), once a day each."""

    __tablename__ = "daily_entries"
    __table_args__ = (
        UniqueConstraint("day_id", "player_id"),
        UniqueConstraint("day_id", "guest"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    day_id: Mapped[int] = mapped_column(ForeignKey("daily_days.id", ondelete="CASCADE"))
    room_code: Mapped[str] = mapped_column(String(32))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    guest: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DailyResult(Base):
    """One board's result at one table of a day (R31): what each side made on it."""

    __tablename__ = "daily_results"
    __table_args__ = (UniqueConstraint("entry_id", "board"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    day_id: Mapped[int] = mapped_column(ForeignKey("daily_days.id", ondelete="CASCADE"), index=True)
    entry_id: Mapped[int] = mapped_column(ForeignKey("daily_entries.id", ondelete="CASCADE"))
    board: Mapped[int] = mapped_column(SmallInteger)
    ns: Mapped[int] = mapped_column(SmallInteger)
    ew: Mapped[int] = mapped_column(SmallInteger)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
