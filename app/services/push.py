"""Web Push for the players (API.md § Fourth round, *The phone*): their subscriptions, who is
told of what, and the sending, never on a move's path.

An event (a game dealt, a nudge, a club night's round, an invitation) is noted by the herald
and written to the outbox by a task of its own; "your turn" is found by a watch that looks,
every moment, for players whose turn it is and no page of whose has been in sight for
``push_turn_after_s``. Every process sends from the one outbox in the database: a letter is
sent by the process whose conditional UPDATE claims it, so two processes never send one
twice; one that dies holding a claim leaves it to another once the claim runs out. 2xx: the
letter is gone; 404/410: the subscription too; 429/5xx/no answer: again later, backing off,
until ``MAX_ATTEMPTS``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

import requests
from py_vapid import Vapid02
from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError

from app import metrics
from app.bots.names import told_apart
from app.push import postman, vapid, words
from app.push.endpoints import NotPushable, allowed_origins, checked_endpoint, checked_keys
from app.push.postman import Outcome
from app.services import errors
from app.services.herald import NightTableOpen
from app.services.identity import grouped_code
from app.services.post_office import IDLE_S, SENDERS, PostOffice
from app.services.quotas import TOO_MANY
from app.services.snapshot import RoomSnap
from app.settings import Settings, SettingsError
from app.store import push_repo as repo
from app.store.db import read, write

log = logging.getLogger("allfours.push")

VAPID_KEY = "vapid"
BATCH = 50  # letters claimed at a time
CLAIM_S = 60.0  # a claimed letter is this process's for so long (then anyone's again)
MAX_ATTEMPTS = 5
MAX_BACKOFF_S = 300.0
COUNT_EVERY_S = 0.5  # how often the post office's counts are added to this process's
TURNS_AT_ONCE = 200
REFRESH_BEFORE_S = 3600.0  # a kept VAPID header is signed again an hour before it expires
# A player's subscriptions (API.md § Fifth round, Quotas): a phone, a tablet, a computer or
# two, each browser one; more is a script's, each one a POST at every event.
SUBSCRIPTIONS_PER_PLAYER = 10
FULL_RETRY_AFTER_S = 3600  # a cap, not a rate: Retry-After says "later", once one is dropped


def _now() -> datetime:
    return datetime.now(UTC)


def backoff_s(attempts: int, retry_after_s: float | None) -> float:
    """After the ``attempts``-th failed try: 2, 4, 8, 16 s, or what the service asked."""
    return min(MAX_BACKOFF_S, max(retry_after_s or 0.0, 2.0**attempts))


class Push:
    """The server's Web Push: one per process, started and stopped with the app."""

    def __init__(self, engine: Engine, settings: Settings) -> None:
        self.engine = engine
        self.allowed = allowed_origins(settings.push_hosts)
        self._given_key = settings.vapid_private_key
        self._subject = (
            settings.public_url
            if settings.public_url and settings.public_url.startswith("https://")
            else "mailto:allfours@localhost"
        )
        self.turn_after_s = settings.push_turn_after_s
        self.timeout_s = settings.push_timeout_s
        self._vapid: Vapid02 | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._running: set[asyncio.Task[Any]] = set()
        self._loops: list[asyncio.Task[None]] = []
        self._local = threading.local()
        self._signed: dict[str, tuple[dict[str, str], float]] = {}
        self.sent = 0  # delivered by this process (or its post office)
        self.failed = 0  # given up by this process (or its post office)
        # The sending in a process of its own (ALLFOURS_PUSH_PROCESS, issue #47), else here.
        self._office = (
            PostOffice(type(self), settings.model_dump()) if settings.push_process else None
        )
        self._counted = (0, 0)  # of the post office's counts, those added to ours

    # -- the key ---------------------------------------------------------------------------

    def signer(self) -> Vapid02:
        if self._vapid is None:
            self._vapid = self._load_key()
        return self._vapid

    def _load_key(self) -> Vapid02:
        if self._given_key is not None:
            try:
                return vapid.signer(self._given_key)
            except Exception:
                raise SettingsError(
                    "Invalid settings in the environment:\n  ALLFOURS_VAPID_PRIVATE_KEY: not a "
                    "P-256 private key (base64url of its 32 bytes, or PEM)"
                ) from None
        with read(self.engine) as conn:
            kept = repo.kept_key(conn, VAPID_KEY)
        if kept is None:
            try:
                with write(self.engine) as conn:
                    kept = vapid.new_private_key()
                    repo.keep_key(conn, VAPID_KEY, kept, _now())
            except IntegrityError:  # another process made the server's key first
                with read(self.engine) as conn:
                    kept = repo.kept_key(conn, VAPID_KEY)
        assert kept is not None
        return vapid.signer(kept)

    def public_key(self) -> str:
        return vapid.public_key(self.signer())

    # -- subscriptions -----------------------------------------------------------------------

    def subscribe(
        self, player: int, *, endpoint: str, p256dh: str, auth: str, events: Sequence[str]
    ) -> dict[str, object]:
        try:
            endpoint = checked_endpoint(endpoint, self.allowed)
            p256dh, auth = checked_keys(p256dh, auth)
        except NotPushable as refused:
            raise errors.Invalid(refused.why) from None
        chosen = [event for event in words.EVENTS if event in set(events)]
        with write(self.engine) as conn:
            # The player's row held: two subscribes at once are counted one after the other.
            kept = repo.count_subscriptions(conn, player, hold=True)
            if kept >= SUBSCRIPTIONS_PER_PLAYER and not repo.has_subscription(
                conn, player, endpoint
            ):
                full = errors.TooMany(
                    TOO_MANY,
                    count=SUBSCRIPTIONS_PER_PLAYER,
                    thing="push subscriptions",
                    period="kept at once",
                    who=f"player {player}",
                )
                full.retry_after = FULL_RETRY_AFTER_S
                raise full
            repo.save_subscription(
                conn,
                player_id=player,
                endpoint=endpoint,
                p256dh=p256dh,
                auth=auth,
                events=chosen,
                at=_now(),
            )
        return {"endpoint": endpoint, "events": chosen}

    def unsubscribe(self, player: int, endpoint: str) -> None:
        with write(self.engine) as conn:
            repo.drop_subscription(conn, player, endpoint)

    def subscriptions(self, player: int) -> list[dict[str, object]]:
        with read(self.engine) as conn:
            found = repo.subscriptions_of(conn, player)
        return [
            {"endpoint": s.endpoint, "events": list(s.events), "created_at": s.created_at}
            for s in found
        ]

    # -- what pages say ----------------------------------------------------------------------

    def seen(self, code: str, seat: int, *, visible: bool) -> None:
        """A page of the seat came into sight, or went out of it (or closed)."""
        with write(self.engine) as conn:
            repo.set_hidden(conn, code, seat, None if visible else _now())

    def stream_closed(self, code: str, seat: int) -> None:
        """The seat's last stream in this process ended: its page is gone from sight (if it
        was in sight on another process's stream, that page says so again when it comes
        back). Noted after the stream, off its path."""
        self._soon(self.seen, code, seat, visible=False)

    # -- the herald (app/services/herald.py) -------------------------------------------------

    def game_started(self, snap: RoomSnap, *, rematch: bool) -> None:
        self._soon(self._tell_game, snap, rematch)

    def nudged(self, snap: RoomSnap, seat: int, by: str) -> None:
        self._soon(self._tell_nudge, snap, seat, by)

    def night_round(
        self, night: str, name: str, round_: int, tables: Sequence[NightTableOpen]
    ) -> None:
        self._soon(self._tell_night, night, name, round_, tuple(tables))

    def invited(self, code: str, player: int, by: str) -> None:
        self._soon(self._tell_invite, code, player, by)

    def _tell_game(self, snap: RoomSnap, rematch: bool) -> None:
        with read(self.engine) as conn:
            away = repo.out_of_sight(conn, snap.code)
        players = {
            s.player.id: s.seat
            for s in snap.seats
            if s is not None and s.player is not None and not s.bot and s.seat in away
        }
        held = [s for s in snap.seats if s is not None]
        seats = [(s.name, s.bot, s.level) for s in held]

        def letter(language: str | None, player: int) -> dict[str, object]:
            you = next(n for n, s in enumerate(held) if s.seat == players[player])

            def others() -> list[str]:  # said as the table says them (app/bots/names.py)
                return [name for n, name in enumerate(told_apart(seats)) if n != you]

            return words.table(
                language,
                code=snap.code,
                table=grouped_code(snap.code),
                others=others,
                rematch=rematch,
            )

        self._post(players, "table", letter)

    def _tell_nudge(self, snap: RoomSnap, seat: int, by: str) -> None:
        held = snap.seats[seat]
        if held is None or held.player is None or held.bot:
            return
        with read(self.engine) as conn:
            if seat not in repo.out_of_sight(conn, snap.code):
                return  # the nudge itself reaches a page in sight
        table = grouped_code(snap.code)
        self._post(
            [held.player.id],
            "nudge",
            lambda lang, _p: words.nudge(lang, code=snap.code, table=table, by=by),
        )

    def _tell_night(
        self, night: str, name: str, round_: int, tables: tuple[NightTableOpen, ...]
    ) -> None:
        for table in tables:
            self._post(
                table.players,
                "night",
                lambda lang, _p, t=table: words.night(  # type: ignore[misc]
                    lang,
                    code=t.room,
                    table=str(t.number),
                    night_name=name,
                    round_=round_,
                    url=f"/n/{night}",
                ),
            )

    def _tell_invite(self, code: str, player: int, by: str) -> None:
        self._post(
            [player],
            "invite",
            lambda lang, _p: words.invite(lang, code=code, table=grouped_code(code), by=by),
        )

    def _post(
        self,
        players: Any,
        event: str,
        letter: Callable[[str | None, int], dict[str, object]],
    ) -> None:
        with write(self.engine) as conn:
            found = repo.subscribers(conn, players, event)
            repo.post(
                conn, [(s.subscription, letter(s.language, s.player_id)) for s in found], _now()
            )
        if found:
            self._nudge_sender()

    def tell_turns(self) -> int:
        """One look for players to tell it is their turn; how many subscriptions were told.
        One write for all of them (on SQLite, the moves' writer lock is taken once)."""
        cut = _now() - timedelta(seconds=self.turn_after_s)
        with read(self.engine) as conn:
            turns = repo.turns_to_tell(conn, cut, TURNS_AT_ONCE)
        if not turns:
            return 0
        told = 0
        with write(self.engine) as conn:
            for turn in turns:
                if not repo.tell_turn(conn, turn.seat_row, turn.version):
                    continue  # another process told first
                found = repo.subscribers(conn, [turn.player_id], "turn")
                table = grouped_code(turn.code)
                letters = [
                    (s.subscription, words.turn(s.language, code=turn.code, table=table))
                    for s in found
                ]
                repo.post(conn, letters, _now())
                told += len(found)
        if told:
            self._nudge_sender()
        return told

    # -- sending -------------------------------------------------------------------------------

    def claim(self) -> list[repo.Letter]:
        """The letters due that this process claims now (one write for the batch)."""
        now = _now()
        until = now + timedelta(seconds=CLAIM_S)
        with read(self.engine) as conn:
            ids = repo.due(conn, now, BATCH)
        if not ids:
            return []
        with write(self.engine) as conn:
            claimed = [repo.claim(conn, letter, now, until) for letter in ids]
        return [letter for letter in claimed if letter is not None]

    def send(self, letter: repo.Letter) -> postman.Answer:
        """One claimed letter to its push service (blocking: a worker thread's). The allowlist
        is asked again: a subscription kept before ALLFOURS_PUSH_HOSTS was narrowed is never
        called, and goes (as one the push service says is gone)."""
        try:
            checked_endpoint(letter.endpoint, self.allowed)
        except NotPushable:
            return postman.Answer(postman.Outcome.GONE)
        return postman.deliver(
            endpoint=letter.endpoint,
            p256dh=letter.p256dh,
            auth=letter.auth,
            payload=letter.payload,
            authorization=self._authorization(postman.audience_of(letter.endpoint)),
            timeout_s=self.timeout_s,
            via=self._session(),
        )

    def settle(self, sent: Sequence[tuple[repo.Letter, postman.Answer]]) -> None:
        """What the push services answered, written at once: delivered letters go, a
        subscription gone goes with its letters, a retry waits its backoff, a letter given up
        goes. Counted once the write is done."""
        now = _now()
        delivered = 0
        failed: list[tuple[postman.Answer, int]] = []
        with write(self.engine) as conn:
            for letter, answer in sent:
                attempts = letter.attempts + 1
                if answer.outcome is Outcome.DELIVERED:
                    repo.sent(conn, letter.id)
                    delivered += 1
                elif answer.outcome is Outcome.RETRY and attempts < MAX_ATTEMPTS:
                    later = now + timedelta(seconds=backoff_s(attempts, answer.retry_after_s))
                    repo.again(conn, letter.id, attempts, later)
                elif answer.outcome is Outcome.GONE:
                    repo.drop_subscription_by_id(conn, letter.subscription)
                    failed.append((answer, attempts))
                else:
                    repo.sent(conn, letter.id)  # given up: never sent again
                    failed.append((answer, attempts))
        self.sent += delivered
        metrics.PUSH_SENT.inc(delivered)
        self.failed += len(failed)
        metrics.PUSH_FAILED.inc(len(failed))
        for answer, attempts in failed:
            log.info(
                "a push was not delivered",
                extra={"event": "push_failed", "status": answer.status, "attempts": attempts},
            )

    def _authorization(self, audience: str) -> dict[str, str]:
        """The VAPID header for ``audience``, signed once and used until an hour before it
        expires (a signature per push would cost each one an ECDSA signing)."""
        now = time.time()
        kept = self._signed.get(audience)
        if kept is None or kept[1] - now < REFRESH_BEFORE_S:
            headers = postman.signed(
                self.signer(), audience=audience, subject=self._subject, now=now
            )
            kept = (headers, now + postman.VAPID_EXPIRY_S)
            self._signed[audience] = kept
        return kept[0]

    def _session(self) -> requests.Session:
        made: requests.Session | None = getattr(self._local, "session", None)
        if made is None:
            made = self._local.session = postman.session()
        return made

    # -- the process's tasks -------------------------------------------------------------------

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        await asyncio.to_thread(self.signer)  # made and kept at the first start
        self._loops = [
            self._loop.create_task(self._sending() if self._office is None else self._counting()),
            self._loop.create_task(self._watching()),
        ]
        if self._office is not None:
            self._soon(self._letters_left)  # posted before a restart: their post office starts

    async def stop(self) -> None:
        for task in (*self._loops, *self._running):
            task.cancel()
        await asyncio.gather(*self._loops, *self._running, return_exceptions=True)
        self._loops = []
        self._running.clear()
        if self._office is not None:
            await asyncio.to_thread(self._office.stop)
            self._count()

    def _letters_left(self) -> None:
        with read(self.engine) as conn:
            waiting = repo.waiting(conn)
        if waiting:
            self._nudge_sender()

    async def _counting(self) -> None:
        """The post office's counts, added to this process's (``sent``, ``/metrics``)."""
        while True:
            await asyncio.sleep(COUNT_EVERY_S)
            self._count()

    def _count(self) -> None:
        if self._office is None:
            return
        sent, failed = self._office.counts()
        new_sent, new_failed = sent - self._counted[0], failed - self._counted[1]
        self._counted = (sent, failed)
        self.sent += new_sent
        metrics.PUSH_SENT.inc(new_sent)
        self.failed += new_failed
        metrics.PUSH_FAILED.inc(new_failed)

    def _soon(self, work: Callable[..., None], *args: Any, **kwargs: Any) -> None:
        """Do ``work`` in a worker thread, after the caller's commit and without waiting."""
        loop = self._loop
        if loop is None or loop.is_closed():
            work(*args, **kwargs)  # no app running (a script, a test of the service alone)
            return

        def spawn() -> None:
            task = loop.create_task(self._guarded(partial(work, *args, **kwargs)))
            self._running.add(task)
            task.add_done_callback(self._running.discard)

        loop.call_soon_threadsafe(spawn)

    async def _guarded(self, work: Callable[[], None]) -> None:
        try:
            await asyncio.to_thread(work)
        except Exception:
            log.exception("a push could not be queued", extra={"event": "push_queue_failed"})

    def _nudge_sender(self) -> None:
        """A letter posted (in a worker thread): the sender looks at the outbox now."""
        if self._office is not None:
            self._office.wake()  # the post office starts with the first
            return
        loop, wake = self._loop, self._wake
        if loop is not None and wake is not None and not loop.is_closed():
            loop.call_soon_threadsafe(wake.set)

    async def _sending(self) -> None:
        assert self._wake is not None
        gate = asyncio.Semaphore(SENDERS)

        async def one(letter: repo.Letter) -> tuple[repo.Letter, postman.Answer] | None:
            async with gate:
                try:
                    return letter, await asyncio.to_thread(self.send, letter)
                except Exception:
                    log.exception("a push failed", extra={"event": "push_error"})
                    return None

        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), IDLE_S)
            self._wake.clear()
            try:
                letters = await asyncio.to_thread(self.claim)
            except Exception:
                log.exception("the outbox could not be read", extra={"event": "push_error"})
                continue
            if letters:
                answers = await asyncio.gather(*(one(letter) for letter in letters))
                try:
                    await asyncio.to_thread(self.settle, [a for a in answers if a is not None])
                except Exception:
                    log.exception("the outbox could not be written", extra={"event": "push_error"})
                self._wake.set()  # there may be more

    async def _watching(self) -> None:
        every = min(2.0, max(0.5, self.turn_after_s / 3))
        while True:
            await asyncio.sleep(every)
            try:
                await asyncio.to_thread(self.tell_turns)
            except Exception:
                log.exception("whose turn it is could not be read", extra={"event": "push_error"})
