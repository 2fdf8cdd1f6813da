"""What the routes need, built once per app, and the Annotated dependencies that fetch it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy import Engine

from app.api.bearer import bearer_token
from app.api.limits import RoomQuota, StreamGate
from app.live.hub import Hub
from app.live.notifier import Notifier
from app.live.presence import Presence
from app.players import keys
from app.players.reasons import KEY_NEEDED
from app.services import errors
from app.services.clubs import Clubs
from app.services.daily import Daily
from app.services.housekeeping import Housekeeping
from app.services.keeper import RoomKeeper
from app.services.night_steward import NightSteward
from app.services.nights import Nights
from app.services.passkeys import Passkeys
from app.services.play_now import PlayNow
from app.services.players import Players, SignedIn
from app.services.push import Push
from app.services.quotas import Quotas, TokenBuckets
from app.services.review_worker import ReviewWorkers
from app.services.reviews import Reviews
from app.services.rooms import Rooms
from app.services.social import Social
from app.services.talk import RoomTalk
from app.services.view import RenderedViews
from app.settings import Settings

SEAT_COOKIE = "allfours_seat"
# The tables this browser holds a seat at, for the home page's "Your table" (issue 32): each
# room's code and its seat's mark (app/services/identity.py seat_mark), never the token.
TABLES_COOKIE = "allfours_tables"
# A signed-in browser's player key (API.md § Players): one HttpOnly cookie for the whole site.
PLAYER_COOKIE = "allfours_player"
# Sign-in codes and passkey sign-ins tried per client address: a burst of 10, then one a
# minute (a code has 128 random bits: no address guesses one at that pace).
SIGNIN_TRIES, SIGNIN_REFILL_S = 10, 60.0
# Passkey ceremonies begun per client address (each keeps a challenge row five minutes): a
# burst of 30, then one each 10 s, so that one address cannot fill the table.
CEREMONIES, CEREMONY_REFILL_S = 30, 10.0


@dataclass
class Context:
    settings: Settings
    engine: Engine
    hub: Hub
    notifier: Notifier
    presence: Presence
    rooms: Rooms
    keeper: RoomKeeper
    streams: StreamGate  # open event streams per client address and per room
    room_quota: RoomQuota  # new rooms per client address
    nights: Nights  # the club nights, on the same database
    steward: NightSteward  # settles the nights' tables, wakes their pages
    housekeeping: Housekeeping  # the admin's list of rooms, closing and sweeping them
    players: Players  # the profiles, their devices and the seats they hold
    push: Push  # Web Push: the players' subscriptions, and the sending
    reviews: Reviews  # the reviews of finished games: asked, read
    review_workers: ReviewWorkers  # the processes that do them
    # What one address or one player may make in a while (profiles, clubs, invitations...).
    quotas: Quotas = field(default_factory=Quotas)
    # Each room's newest views as rendered, shared by the streams that show the same one.
    views: RenderedViews = field(default_factory=RenderedViews)
    talk: RoomTalk = field(init=False)  # the rooms' chat and nudges, on the same database
    passkeys: Passkeys = field(init=False)  # the profiles' passkeys, the way back in
    clubs: Clubs = field(init=False)  # the clubs, their members, seasons and nights
    social: Social = field(init=False)  # friends and blocks (issue #36)
    play_now: PlayNow = field(init=False)  # "Play now": a seat at a public table at once
    daily: Daily = field(init=False)  # today's boards (duplicate, R30-R34)
    signin_tries: TokenBuckets = field(
        default_factory=lambda: TokenBuckets(SIGNIN_TRIES, 1 / SIGNIN_REFILL_S)
    )
    # The admin's sign-in (/admin/signin) has its own: players failing their codes behind
    # the admin's address never lock the admin out (security review round 5, finding 15).
    admin_tries: TokenBuckets = field(
        default_factory=lambda: TokenBuckets(SIGNIN_TRIES, 1 / SIGNIN_REFILL_S)
    )
    ceremonies: TokenBuckets = field(
        default_factory=lambda: TokenBuckets(CEREMONIES, 1 / CEREMONY_REFILL_S)
    )

    def __post_init__(self) -> None:
        self.talk = RoomTalk(self.rooms)
        self.passkeys = Passkeys(self.engine, self.players)
        self.clubs = Clubs(self.engine, self.nights, self.quotas)
        self.social = Social(self.engine, self.presence, self.quotas)
        self.play_now = PlayNow(self.rooms, self.social, self.keeper.someone_here)
        self.daily = Daily(
            self.engine,
            self.rooms,
            boards=self.settings.daily_boards,
            day_s=self.settings.daily_day_s,
        )


# Async (though they never await): FastAPI runs a plain ``def`` dependency in a worker
# thread, a hop per dependency per request.
async def get_context(request: Request) -> Context:
    ctx: Context = request.app.state.ctx
    return ctx


def player_key(request: Request) -> str | None:
    """A player's key: ``Authorization: Bearer pk.…``, else the site's player cookie."""
    given = bearer_token(request)
    if given is not None:
        return given if keys.is_key(given) else None
    return request.cookies.get(PLAYER_COOKIE) or None


async def signed_in(request: Request) -> SignedIn | None:
    """The player whose key the request carries (None: a guest, or a key that acts no more)."""
    key = player_key(request)
    if key is None:
        return None
    ctx: Context = request.app.state.ctx
    return await ctx.players.known(key)


async def get_token(request: Request) -> str | None:
    """The seat token: ``Authorization: Bearer <token>``, else the room's cookie. A player's
    key (the bearer, or the player cookie) stands for the seat token the player holds at the
    room of the path, whichever device it comes from."""
    given = bearer_token(request)
    if given is not None and not keys.is_key(given):
        return given
    code = request.path_params.get("code")
    if code is not None and (given is not None or PLAYER_COOKIE in request.cookies):
        # A move's key check, from memory while the key lives (sign-out clears it at once).
        ctx: Context = request.app.state.ctx
        held = await ctx.players.seat_token_of(player_key(request), code)
        if held is not None:
            return held
    return given or request.cookies.get(SEAT_COOKIE) or None


async def get_signed_in(request: Request) -> SignedIn:
    """The player asking, or the refusal of a request without a (living) player key."""
    me = await signed_in(request)
    if me is None:
        raise errors.Unauthorized(KEY_NEEDED)
    return me


ContextDep = Annotated[Context, Depends(get_context)]
TokenDep = Annotated[str | None, Depends(get_token)]
MaybeMeDep = Annotated[SignedIn | None, Depends(signed_in)]  # the player asking, if any
MeDep = Annotated[SignedIn, Depends(get_signed_in)]  # the player asking (401 without one)
