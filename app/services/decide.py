"""What a command does to a room, decided on a snapshot alone: the room after it, None when
nothing changes (a seat rejoining), or the refusal, raised as the API answers it.

Pure: no database, no clock, no randomness (a fresh token's hash and a fresh seed come in
the command), so the same snapshot and command always decide the same, whether the snapshot
came from the cache or from the database inside a write transaction.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass, replace
from typing import Literal

from app.night.reasons import NIGHT_SEATS, SEATS_RESERVED
from app.reasons import N_, reason
from app.rules import Action, IllegalMove, NotOffered, Phase, State, apply, new_game
from app.rules.board import board_dealer
from app.rules.cards import BadCardCode, parse
from app.rules.cards import code as card_code
from app.rules.engine import NOT_OFFERED
from app.rules.renege import CALL_OUTSIDE_HAND
from app.rules.shuffle import first_dealer_for
from app.rules.state import ACTION_TYPES, SCORE, Call, call, reckoned
from app.services import errors
from app.services.identity import seat_of, seat_of_mark, token_hash
from app.services.names import bot_name
from app.services.snapshot import (
    Claim,
    GameInfo,
    GameResult,
    Lineup,
    RoomSnap,
    SeatInfo,
    SeatPlayer,
    handed_over,
    handed_over_now,
    lineup_of,
    result_of,
    with_played_for,
)
from app.store.repo import ActionLog

# Seeds an admin may give (for tests and reproducible deals); fresh seeds are larger
# (app/rules/shuffle.py, SEED_BITS) and never given.
SEED_LIMIT = 2**63 - 1

# What a player's command may be refused for (app/reasons.py).
UNKNOWN_ACTION = reason(
    "unknown_action", "unknown action {action!r}", N_("That move is not allowed.")
)
BAD_CARD_CODE = reason(
    "bad_card_code",
    "R3: {given!r} is not a card code (rank AKQJT98765432, suit CDHS)",
    N_("That is not a card."),
)
TOKEN_NEEDED = reason(
    "token_needed",
    "a seat token is needed (Authorization: Bearer <token>)",
    N_("Take a seat at this table first."),
)
TABLE_FULL = reason("table_full", "the table is full", N_("The table is full."))
SEAT_TAKEN = reason("seat_taken", "seat {seat} is taken", N_("That seat is taken."))
SEAT_CLAIMED = reason(
    "seat_claimed", "seat {seat} is already taken from the next deal", N_("That seat is taken.")
)
GAME_STARTED = reason(
    "game_started", "the game has already started", N_("The game has already started.")
)
SEATS_EMPTY = reason(
    "seats_empty",
    "every seat must be filled before the game starts",
    N_("Every seat must be filled before the game starts."),
)
GAME_NOT_FINISHED = reason(
    "game_not_finished", "a rematch needs a finished game", N_("The game is not over yet.")
)
BOARDS_DONE = reason(
    "boards_done", "every board of this table has been played", N_("Every board has been played.")
)
NOT_STARTED = reason("not_started", "the game has not started", N_("The game has not started yet."))
MOVE_ALREADY_MADE = reason(
    "move_already_made",
    "that move was already made",
    N_("The table moved on: here it is as it is now."),
)
NOT_YOUR_TURN = reason("not_your_turn", "it is seat {seat}'s turn", N_("It is not your turn."))
HOST_ONLY = reason(
    "host_only", "only the table's host may do that", N_("Only the table's host may do that.")
)
NO_PLAYER_TO_REPLACE = reason(
    "no_player_to_replace",
    "seat {seat} holds no player to replace",
    N_("That seat holds no player to replace."),
)
HOST_KEEPS_SEAT = reason(
    "host_keeps_seat", "the host keeps their own seat", N_("The host keeps their own seat.")
)
PLAYER_NOT_AWAY = reason(
    "player_not_away",
    "{name} is at the table: only an away player",
    N_("%(name)s is at the table: only an away player's seat goes to the computer."),
)
FREE_IN_LOBBY = reason(
    "free_in_lobby",
    "seats are freed in the lobby, before the start",
    N_("Seats are freed in the lobby, before the start."),
)
SEAT_ALREADY_FREE = reason(
    "seat_already_free", "seat {seat} is already free", N_("That seat is already free.")
)
MOVE_BETWEEN_GAMES = reason(
    "move_between_games",
    "players move before the start or between games",
    N_("Players move before the start or between games."),
)
MOVE_SAME_SEAT = reason(
    "move_same_seat", "a move needs two different seats", N_("Choose two different seats.")
)
BLOCKED = reason(
    "blocked",
    "one of you has blocked the other",
    N_("You cannot sit, talk or be friends with this player."),
)
# A table of boards is its event's (R33): its seats are taken by the service that deals it
# (today's boards, a duplicate night), never by a link, a claim or a host's hand.
BOARD_SEATS = reason(
    "board_seats",
    "a table of boards seats only the people its event gives it",
    N_("This table plays an event's boards: its seats are not taken here."),
)
BOARD_TABLE_PRIVATE = reason(
    "board_table_private",
    "a table of boards is read by its own seats only (R33)",
    N_("This table plays an event's boards: only its own players see it."),
)
# A banned player takes no seat at a public table, by any path (API.md § Fifth round).
BANNED = reason(
    "banned",
    "the server's admin has barred this player from public play and public tables",
    N_("You may not play at public tables on this server."),
)
SEAT_EMPTY = reason(
    "seat_empty", "seat {seat} is empty: nobody to move", N_("That seat is empty: nobody to move.")
)


@dataclass(frozen=True, slots=True)
class TakeSeat:
    """A human takes a seat (``seat`` None: the first free one), or gets their own back."""

    token: str | None
    name: str
    seat: int | None
    fresh_hash: str  # the hash of the token the new seat gets
    reserved: bool = False  # a club night's player link: it may take a reserved seat
    # The seat is the caller's own (a club night's player coming back): a person substituting
    # in it gives it back at the game's end, or at once between games.
    own_seat: bool = False
    player: SeatPlayer | None = None  # a player's profile: the seat is held under it
    # The profiles this player is never seated with (blocks, either way: issue #36).
    shuns: frozenset[int] = frozenset()
    banned: bool = False  # the admin's ban: no seat at a public table (issue #43)


@dataclass(frozen=True, slots=True)
class SeatComputer:
    token: str | None
    seat: int
    level: str
    admin: bool = False
    stands_in: str | None = None  # a club night's player whose seat it is


@dataclass(frozen=True, slots=True)
class Start:
    token: str | None
    fresh_seed: int  # for a room without an admin's seed
    admin: bool = False


@dataclass(frozen=True, slots=True)
class Rematch:
    token: str | None
    fresh_seed: int
    admin: bool = False  # a club night's table: the night deals its match's next game


@dataclass(frozen=True, slots=True)
class Act:
    """A seat's action; ``seat`` (with no token) is the server acting for a bot or a cover."""

    token: str | None
    action: Action
    expected: int | None = None
    seat: int | None = None
    auto: bool = False


@dataclass(frozen=True, slots=True)
class HostBot:
    """The host puts a computer player in an away player's seat (``away``: the caller's
    process sees no stream of theirs; it is the server's presence, not part of the room)."""

    token: str | None
    seat: int
    level: str
    away: bool


@dataclass(frozen=True, slots=True)
class HostFree:
    """The host frees a seat in the lobby."""

    token: str | None
    seat: int


@dataclass(frozen=True, slots=True)
class HostMove:
    """The host moves a player to another seat (swapping with its holder) before the start or
    between games."""

    token: str | None
    seat: int
    to: int


@dataclass(frozen=True, slots=True)
class OutOfTurn:
    """R22-R23, out of turn: a seated person calls renege on ``lift`` ("call") or says "score
    it" ("reckoned"); the server ends a reckoning whose time is up ("score", ``seat`` None)
    or acts for a computer player (``seat``)."""

    token: str | None
    type: Literal["call", "reckoned", "score"]
    lift: int | None = None
    seat: int | None = None
    auto: bool = False


@dataclass(frozen=True, slots=True)
class ClaimSeat:
    """A guest who makes a profile (or signs in) keeps their seat under it: the seat (or the
    claim on one), its new token (the player's), and the games already played in it."""

    token: str | None  # the guest's seat token (None: the seat is named by ``seat``, ``mark``)
    player: SeatPlayer
    name: str  # the profile's
    fresh_hash: str  # the hash of the player's seat token here
    # Claimed by the home page's mark of the seat (the browser's tables cookie): the seat, and
    # the mark it must still answer to when the claim is decided (a seat freed or taken over
    # meanwhile is no longer this browser's).
    seat: int | None = None
    mark: str = ""
    # The player's standing (app/services/warden.py): a claim is a way to a seat too.
    shuns: frozenset[int] = frozenset()
    banned: bool = False


@dataclass(frozen=True, slots=True)
class ForgetPlayer:
    """A deleted profile's seat becomes a guest's that nobody holds (its away cover plays
    on); the games already played keep the seat's name, no longer linked."""

    player: int
    fresh_hash: str  # a token nobody was given


@dataclass(frozen=True, slots=True)
class Banished:
    """A banned player's seats here go to computer players (the admin's ban at a public
    table, API.md § Play now, friends, blocks, reports): the table plays on without them."""

    player: int
    level: str


Command = (
    TakeSeat
    | SeatComputer
    | Start
    | Rematch
    | Act
    | OutOfTurn
    | HostBot
    | HostFree
    | HostMove
    | ClaimSeat
    | ForgetPlayer
    | Banished
)

# R23: after a hand's last card nobody is to play until it is scored.
BEING_RECKONED = reason(
    "being_reckoned",
    "the hand's last card is played: it is being reckoned (call renege or say 'score it')",
    N_("The hand is being counted: call renege or say 'score it'."),
)
# R22: a call of renege is a seated person's; a spectator or another room's token holds none.
CALL_NEEDS_SEAT = reason(
    "call_needs_seat",
    "only a player seated at this table may call renege or say 'score it'",
    N_("Only a player seated at this table can call renege or say 'score it'."),
)


def decide(snap: RoomSnap, command: Command) -> RoomSnap | None:
    match command:
        case TakeSeat():
            return _join(snap, command)
        case SeatComputer():
            return _seat_bot(snap, command)
        case Start():
            return _start(snap, command)
        case Rematch():
            return _rematch(snap, command)
        case Act():
            return _act(snap, command)
        case OutOfTurn():
            return _table_act(snap, command)
        case ClaimSeat():
            return _claim_seat(snap, command)
        case ForgetPlayer():
            return _forget_player(snap, command)
        case Banished():
            return _banished(snap, command)
        case HostBot() | HostFree() | HostMove():
            if snap.options.reserved:
                raise errors.Forbidden(NIGHT_SEATS)  # a night's seats are its director's
            if snap.options.boards:
                raise errors.Forbidden(BOARD_SEATS)
            return host_decides(snap, command)


def action_from(type: str, card: str | None) -> Action:
    """A move as a form or a JSON body names it, or the refusal of a name or code we don't
    know (R3 for cards)."""
    if type not in ACTION_TYPES:
        raise errors.Invalid(UNKNOWN_ACTION, action=type)
    try:
        return Action(type, parse(card) if card else None)
    except BadCardCode:
        raise errors.Invalid(BAD_CARD_CODE, given=str(card)) from None


def seated(snap: RoomSnap, token: str | None) -> int:
    """The caller's seat, or the refusal of a caller who holds none."""
    mine = seat_of(snap, token)
    if mine is None:
        if token:
            raise errors.Unauthorized(errors.NO_SEAT_HERE)
        raise errors.Unauthorized(TOKEN_NEEDED)
    return mine


def _join(snap: RoomSnap, command: TakeSeat) -> RoomSnap | None:
    if seat_of(snap, command.token) is not None or claim_of(snap, command.token) is not None:
        return None  # rejoining (or claiming again): nothing changes
    if snap.options.reserved and not command.reserved:
        raise errors.Forbidden(SEATS_RESERVED)
    if snap.options.boards and snap.game is not None:
        raise errors.Forbidden(BOARD_SEATS)  # its service seated its people before dealing
    kept_out(snap, command.banned, command.shuns)
    if command.seat is None:
        free = [i for i, s in enumerate(snap.seats) if s is None]
        if not free:
            raise errors.SeatTaken(TABLE_FULL)
        chosen = free[0]
    elif (held := snap.seats[command.seat]) is not None:
        if held.bot:
            return _take_bot_seat(snap, held, command)
        if command.own_seat:
            return _take_own_seat(snap, held, command)
        raise errors.SeatTaken(SEAT_TAKEN, seat=command.seat)
    else:
        chosen = command.seat
    return _with_seat(snap, _human(chosen, command))


def kept_out(snap: RoomSnap, banned: bool, shuns: frozenset[int]) -> None:
    """The place's rules at a seat, judged on the room as read: a banned player takes none at
    a public table (403 banned), nor anyone at a table where a player they are kept apart
    from sits (409 blocked, whichever of the two comes second)."""
    if banned and snap.options.public:
        raise errors.Forbidden(BANNED)
    if shuns and shuns_any(snap, shuns):
        raise errors.Conflict(BLOCKED)


def shuns_any(snap: RoomSnap, shuns: frozenset[int]) -> bool:
    """Whether a seat here is held (or claimed) by one of the profiles ``shuns`` names."""
    for info in snap.seats:
        if info is None:
            continue
        if info.player is not None and info.player.id in shuns:
            return True
        claimant = info.claim.player if info.claim is not None else None
        if claimant is not None and claimant.id in shuns:
            return True
    return False


def _take_bot_seat(snap: RoomSnap, held: SeatInfo, command: TakeSeat) -> RoomSnap:
    """A latecomer takes a computer player's seat: at once when no hand is in play (the
    lobby, a finished game), else at the next deal's start (a claim, taken up by ``_act``)."""
    if not snap.in_play:
        return _with_seat(snap, _human(held.seat, command))
    if held.claim is not None:
        raise errors.SeatTaken(SEAT_CLAIMED, seat=held.seat)
    return _with_seat(
        snap, replace(held, claim=Claim(command.name, command.fresh_hash, command.player))
    )


def _take_own_seat(snap: RoomSnap, held: SeatInfo, command: TakeSeat) -> RoomSnap:
    """A club night's player comes back to the seat a person substitutes in: the substitute
    finishes the game in play, as a club would have it (a claim, taken up at the game's end
    by ``_logged``); between games the seat is the player's at once."""
    if not snap.in_play:
        return _with_seat(snap, _human(held.seat, command))
    if held.claim is not None:
        raise errors.SeatTaken(SEAT_CLAIMED, seat=held.seat)
    return _with_seat(
        snap, replace(held, claim=Claim(command.name, command.fresh_hash, command.player))
    )


def _human(seat: int, command: TakeSeat) -> SeatInfo:
    return SeatInfo(seat, command.name, False, None, command.fresh_hash, player=command.player)


def claim_of(snap: RoomSnap, token: str | None) -> int | None:
    """The seat the caller has claimed for the next deal, or None."""
    if not token:
        return None
    digest = token_hash(token)
    for info in snap.seats:
        claim = info.claim if info is not None else None
        if info is not None and claim is not None and hmac.compare_digest(claim.token_hash, digest):
            return info.seat
    return None


def _claim_seat(snap: RoomSnap, command: ClaimSeat) -> RoomSnap | None:
    if _held_by(snap, command.player.id):
        return None  # the player holds a seat here already: one seat a table
    old = _claimed_hash(snap, command)
    if old is None:
        return None
    kept_out(snap, command.banned, command.shuns)
    seats = list(snap.seats)
    for n, info in enumerate(seats):
        if info is None:
            continue
        if info.token_hash is not None and hmac.compare_digest(info.token_hash, old):
            seats[n] = replace(
                info, name=command.name, token_hash=command.fresh_hash, player=command.player
            )
        elif info.claim is not None and hmac.compare_digest(info.claim.token_hash, old):
            seats[n] = replace(info, claim=Claim(command.name, command.fresh_hash, command.player))
    if seats == list(snap.seats):
        return None

    def relinked(lineup: Lineup | None) -> Lineup | None:
        if lineup is None:
            return None
        a, b, c, d = (
            replace(o, who=command.fresh_hash, player=command.player.id) if o.who == old else o
            for o in lineup
        )
        return (a, b, c, d)

    # A new version: the seat's name and mark change in every viewer's table (their streams,
    # the rendered views and the tables' ETags all go by the version).
    return replace(
        _seated(snap, seats),
        version=snap.version + 1,
        game=replace(snap.game, lineup=relinked(snap.game.lineup)) if snap.game else None,
        results=tuple(replace(r, lineup=relinked(r.lineup)) for r in snap.results),
    )


def _claimed_hash(snap: RoomSnap, command: ClaimSeat) -> str | None:
    """The hash of the guest token whose seat is claimed: the token's, or (claimed by mark)
    the one the named seat holds while its mark still matches."""
    if command.token is not None:
        return token_hash(command.token)
    if command.seat is None or seat_of_mark(snap, command.mark) != command.seat:
        return None
    info = snap.seats[command.seat]
    return info.token_hash if info is not None else None


def _forget_player(snap: RoomSnap, command: ForgetPlayer) -> RoomSnap | None:
    seats = list(snap.seats)
    forgotten = None
    for n, info in enumerate(seats):
        if info is None:
            continue
        if info.player is not None and info.player.id == command.player:
            seats[n] = replace(info, token_hash=command.fresh_hash, player=None)
            forgotten = n
        elif _claimed_by(info, command.player):
            seats[n] = replace(info, claim=None)
    if seats == list(snap.seats):
        return None
    done = replace(_seated(snap, seats), version=snap.version + 1)
    if forgotten is not None and done.host == forgotten:
        # The host's seat is nobody's now: the table's host is the next person seated.
        others = [None if n == forgotten else info for n, info in enumerate(seats)]
        next_host = host_of(others, None)
        if next_host is not None:
            done = replace(done, host=next_host)
    return done


def _banished(snap: RoomSnap, command: Banished) -> RoomSnap | None:
    seats = list(snap.seats)
    for n, info in enumerate(seats):
        if info is None:
            continue
        if info.player is not None and info.player.id == command.player:
            seats[n] = SeatInfo(n, bot_name(command.level), True, command.level, None)
        elif _claimed_by(info, command.player):
            seats[n] = replace(info, claim=None)
    if seats == list(snap.seats):
        return None
    return replace(_seated(snap, seats), version=snap.version + 1)


def _claimed_by(info: SeatInfo, player: int) -> bool:
    claim = info.claim
    return claim is not None and claim.player is not None and claim.player.id == player


def _held_by(snap: RoomSnap, player: int) -> bool:
    """Whether the player holds a seat here, or a claim on one."""
    return any(
        info is not None
        and ((info.player is not None and info.player.id == player) or _claimed_by(info, player))
        for info in snap.seats
    )


def _take_up_claims(snap: RoomSnap, game_over: bool) -> RoomSnap:
    """A new deal (or the game's end): latecomers take the computer players' seats they
    claimed; at the game's end, club night players also take back their own seats from the
    persons substituting in them."""
    seats = list(snap.seats)
    game = snap.game
    assert game is not None
    lineup, played_for = game.lineup, game.played_for
    for n, info in enumerate(seats):
        if info is not None and info.claim is not None and (info.bot or game_over):
            claim = info.claim
            seats[n] = taker = SeatInfo(
                n, claim.name, False, None, claim.token_hash, player=claim.player
            )
            if info.bot and not game_over:
                # The latecomer finishes this game: it is credited to them from this deal.
                lineup = handed_over(lineup, n, taker, game.state.hand_number)
    if lineup is not game.lineup:
        played_for = handed_over_now(played_for, lineup, game.state.hand_number)
        snap = replace(snap, game=replace(game, lineup=lineup, played_for=played_for))
    return _seated(snap, seats)


def _seat_bot(snap: RoomSnap, command: SeatComputer) -> RoomSnap:
    if not command.admin:
        seated(snap, command.token)
        if snap.options.reserved:
            raise errors.Forbidden(NIGHT_SEATS)
        if snap.options.boards:
            raise errors.Forbidden(BOARD_SEATS)
    if snap.seats[command.seat] is not None:
        raise errors.SeatTaken(SEAT_TAKEN, seat=command.seat)
    name = bot_name(command.level, command.stands_in)
    return _with_seat(snap, SeatInfo(command.seat, name, True, command.level, None))


def _start(snap: RoomSnap, command: Start) -> RoomSnap:
    if not command.admin:
        seated(snap, command.token)
    if snap.game is not None:
        raise errors.Conflict(GAME_STARTED)
    if not snap.full:
        raise errors.Conflict(SEATS_EMPTY)
    seed = snap.seed if snap.seed is not None else command.fresh_seed
    if snap.options.boards:  # R30: the first board of the set, dealt by its own dealer
        board = snap.options.boards[0]
        return _with_game(snap, number=1, seed=seed, first_dealer=board_dealer(board), board=board)
    # A replay deals the replayed game again, from its first dealer (drawn or passed on).
    dealer = snap.first_dealer if snap.first_dealer is not None else first_dealer_for(seed)
    return _with_game(snap, number=1, seed=seed, first_dealer=dealer)


def _rematch(snap: RoomSnap, command: Rematch) -> RoomSnap:
    if not command.admin:
        seated(snap, command.token)
    game = snap.game
    if game is None or game.state.winner is None:
        raise errors.Conflict(GAME_NOT_FINISHED)
    number = game.number + 1
    boards = snap.options.boards
    if boards:  # R30-R31: the set's next board, from the same event seed
        if number > len(boards):
            raise errors.Conflict(BOARDS_DONE)
        board = boards[number - 1]
        return _with_game(
            snap, number=number, seed=game.seed, first_dealer=board_dealer(board), board=board
        )
    if snap.seed is not None and snap.replay_of is None:
        seed = (snap.seed + number - 1) % (SEED_LIMIT + 1)  # an admin's: reproducible rematches
    else:
        # A replay's seed is public (its game is over): the next game needs a secret one.
        seed = command.fresh_seed
    return _with_game(snap, number=number, seed=seed, first_dealer=(game.state.dealer + 1) % 4)


def _act(snap: RoomSnap, command: Act) -> RoomSnap:
    actor = command.seat if command.seat is not None else seated(snap, command.token)
    game = snap.game
    if game is None:
        raise errors.NotOfferedNow(NOT_STARTED)
    state = game.state
    if state.phase is Phase.RECKONING:
        raise errors.NotOfferedNow(BEING_RECKONED)
    if state.turn is None:
        raise errors.NotOfferedNow(NOT_OFFERED[Phase.GAME_OVER], action=command.action.type)
    action = command.action
    if state.turn != actor:
        last = game.last
        if (
            command.expected is None
            and last is not None
            and last.seat == actor
            and last.version == snap.version
            and (last.type, last.card) == _log_key(action)
        ):
            # The very move just accepted, sent again: a race lost, not a wrong turn.
            raise errors.StaleVersion(MOVE_ALREADY_MADE)
        raise errors.NotYourTurn(NOT_YOUR_TURN, seat=state.turn)
    after = _applied(state, action)
    log = ActionLog(
        seq=game.seq + 1,
        seat=actor,
        type=action.type,
        card=_log_key(action)[1],
        version=snap.version + 1,
        auto=command.auto,
    )
    return _logged(snap, after, log)


def _applied(state: State, action: Action) -> State:
    try:
        return apply(state, action)
    except NotOffered as err:
        raise errors.NotOfferedNow.of_rule(err) from None
    except IllegalMove as err:
        raise errors.IllegalMoveError.of_rule(err) from None


def _table_act(snap: RoomSnap, command: OutOfTurn) -> RoomSnap | None:
    """R22-R23: a call of renege, a "score it", the reckoning's time up, judged by the rules."""
    if command.type == "score":
        actor = None
    elif command.seat is not None:
        actor = command.seat
    else:
        actor = seat_of(snap, command.token)
        if actor is None:
            raise errors.Forbidden(CALL_NEEDS_SEAT)
    game = snap.game
    if game is None:
        raise errors.NotOfferedNow(CALL_OUTSIDE_HAND)
    state = game.state
    if command.type == "call":
        action = call(actor if actor is not None else -1, command.lift or 0)
    elif command.type == "reckoned":
        assert actor is not None
        if state.phase is Phase.RECKONING and state.reckoned >> actor & 1:
            return None  # said already: nothing changes
        action = reckoned(actor)
    else:
        action = SCORE
    after = _applied(state, action)
    log = ActionLog(
        seq=game.seq + 1,
        # the reckoning's time running out is no seat's: its row names the dealer, who counts
        seat=actor if actor is not None else state.dealer,
        type=action.type,
        card=None,
        version=snap.version + 1,
        auto=command.auto or actor is None,
        lift=action.lift,
    )
    return _logged(snap, after, log)


def judged_call(snap: RoomSnap) -> Call:
    """The call the last change judged (R22): in this hand, or the one that ended the game."""
    assert snap.game is not None
    state = snap.game.state
    return state.calls[-1] if state.calls else state.history[-1].calls[-1]


def _logged(snap: RoomSnap, after: State, log: ActionLog) -> RoomSnap:
    """The room after the game took the logged action ``log``."""
    game = snap.game
    assert game is not None
    state = game.state
    played_for = with_played_for(game.played_for, log)
    done = replace(
        snap,
        version=snap.version + 1,
        game=replace(game, seq=log.seq, last=log, state=after, played_for=played_for),
    )
    if (after.hand_number != state.hand_number or after.winner is not None) and any(
        info is not None and info.claim is not None for info in snap.seats
    ):
        done = _take_up_claims(done, after.winner is not None)
    return done


def _log_key(action: Action) -> tuple[str, str | None]:
    return action.type, card_code(action.card) if action.card is not None else None


def _with_seat(snap: RoomSnap, info: SeatInfo) -> RoomSnap:
    seats = list(snap.seats)
    seats[info.seat] = info
    return replace(_seated(snap, seats), version=snap.version + 1)


def _seated(snap: RoomSnap, seats: list[SeatInfo | None]) -> RoomSnap:
    """``snap`` with these seats, and its host: the host's seat while a human holds it, else
    the first seat a human holds (the first one seated, when the opener sits down first)."""
    return replace(
        snap, seats=(seats[0], seats[1], seats[2], seats[3]), host=host_of(seats, snap.host)
    )


def host_of(seats: list[SeatInfo | None], host: int | None) -> int | None:
    if host is not None and (held := seats[host]) is not None and not held.bot:
        return host
    return next((s.seat for s in seats if s is not None and not s.bot), None)


def _with_game(
    snap: RoomSnap, *, number: int, seed: int, first_dealer: int, board: int = 0
) -> RoomSnap:
    version = snap.version + 1
    game = GameInfo(
        id=0,  # assigned by the insert
        number=number,
        seed=seed,
        first_dealer=first_dealer,
        started_version=version,
        seq=0,
        last=None,
        state=new_game(snap.rules, seed, first_dealer, board=board),
        lineup=lineup_of(snap.seats),  # the partnerships of this game, whatever moves later
    )
    return replace(snap, version=version, game=game, results=_results_after(snap))


def _results_after(snap: RoomSnap) -> tuple[GameResult, ...]:
    """The room's finished games once its current one (if over) is behind it."""
    done = result_of(snap.game) if snap.game is not None else None
    return (*snap.results, done) if done is not None else snap.results


# -- the host's powers (the table's opener, or the first one seated) --------------------------


def _hosting(snap: RoomSnap, token: str | None) -> int:
    """The host's seat, or the refusal of anyone else (403: only the host may)."""
    mine = seat_of(snap, token)
    if mine is None or mine != snap.host:
        raise errors.Forbidden(HOST_ONLY)
    return mine


def host_decides(snap: RoomSnap, command: HostBot | HostFree | HostMove) -> RoomSnap:
    host = _hosting(snap, command.token)
    match command:
        case HostBot():
            held = snap.seats[command.seat]
            if held is None or held.bot:
                raise errors.Conflict(NO_PLAYER_TO_REPLACE, seat=command.seat)
            if command.seat == host:
                raise errors.Conflict(HOST_KEEPS_SEAT)
            if not command.away:
                raise errors.Conflict(PLAYER_NOT_AWAY, name=held.name)
            name = bot_name(command.level)
            return _with_seat(snap, SeatInfo(command.seat, name, True, command.level, None))
        case HostFree():
            if snap.game is not None:
                raise errors.Conflict(FREE_IN_LOBBY)
            if snap.seats[command.seat] is None:
                raise errors.Conflict(SEAT_ALREADY_FREE, seat=command.seat)
            if command.seat == host:
                raise errors.Conflict(HOST_KEEPS_SEAT)
            seats = list(snap.seats)
            seats[command.seat] = None
            return replace(_seated(snap, seats), version=snap.version + 1)
        case HostMove():
            if snap.in_play:
                raise errors.Conflict(MOVE_BETWEEN_GAMES)
            if command.seat == command.to:
                raise errors.Invalid(MOVE_SAME_SEAT)
            moving = snap.seats[command.seat]
            if moving is None:
                raise errors.Conflict(SEAT_EMPTY, seat=command.seat)
            other = snap.seats[command.to]
            seats = list(snap.seats)
            seats[command.to] = replace(moving, seat=command.to)
            seats[command.seat] = replace(other, seat=command.seat) if other else None
            # The host moves with their seat.
            moved = replace(
                snap,
                host=command.to
                if host == command.seat
                else command.seat
                if host == command.to
                else host,
            )
            return replace(_seated(moved, seats), version=snap.version + 1)
