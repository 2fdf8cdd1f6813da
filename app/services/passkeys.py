"""Passkeys (API.md § Fourth round, *Players*): the way back into a profile for someone who
lost every device. A signed-in player adds a passkey (a WebAuthn registration); anyone signs
in with one on any device (a WebAuthn authentication with a discoverable credential: no
handle typed), which gives that device a new player key (``Players.new_key``).

Each ceremony's challenge is kept in the database (``passkey_challenges``): any app process
finishes what another began, and a challenge is taken once, within CHALLENGE_S. The
``webauthn`` package (py_webauthn) checks the browser's answers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import (
    base64url_to_bytes,
    bytes_to_base64url,
    parse_authentication_credential_json,
    parse_client_data_json,
    parse_registration_credential_json,
)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from app.players.passkeys import (
    RP_NAME,
    PasskeyRow,
    RelyingParty,
    passkey_name,
    player_of_handle,
    user_handle,
)
from app.players.reasons import NO_PASSKEY, PASSKEY_REFUSED
from app.services import errors
from app.services.players import NewKey, Players, SignedIn
from app.store import passkey_repo as repo
from app.store import player_repo
from app.store.db import read, write

P = ParamSpec("P")
T = TypeVar("T")

CHALLENGE_S = 5 * 60  # a ceremony's challenge lives five minutes, and is taken once
# What the browser is told to wait at most: a little less than the challenge lives, so that a
# slow hand gets the browser's own "timed out" rather than the server's refusal.
TIMEOUT_MS = (CHALLENGE_S - 30) * 1000
MOST_PASSKEYS = 20  # per profile: enough for every device a player could own
ADD, SIGNIN = "add", "signin"  # a challenge's purpose
CREDENTIAL_ID_MAX, PUBLIC_KEY_MAX = 400, 2000  # base64url, the columns' widths
# An authenticator's count is 32 bits unsigned; the column is a signed 32-bit integer. No
# real authenticator counts two billion sign-ins: a count above is refused, not stored.
SIGN_COUNT_MAX = 2**31 - 1

# What a browser's answer that does not hold together raises while it is read and checked
# (py_webauthn's own refusals, and the base64 and CBOR decoders' under them).
_UNREADABLE = (WebAuthnException, ValueError, TypeError, KeyError, IndexError, OverflowError)


def _refused(why: str) -> errors.Invalid:
    return errors.Invalid(PASSKEY_REFUSED, why=why)


class Passkeys:
    """The passkeys of this server's profiles, on the rooms' database."""

    def __init__(self, engine: Engine, players: Players) -> None:
        self.engine = engine
        self.players = players

    async def run(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """A use case from the event loop, in a worker thread."""
        return await asyncio.to_thread(fn, *args, **kwargs)

    # -- the list ------------------------------------------------------------------------

    def of(self, me: SignedIn) -> list[PasskeyRow]:
        with read(self.engine) as conn:
            return repo.passkeys_of(conn, me.player.id)

    def remove(self, me: SignedIn, passkey: int) -> None:
        with write(self.engine) as conn:
            gone = repo.delete_passkey(conn, me.player.id, passkey)
        if not gone:
            raise errors.NotFound(NO_PASSKEY, id=passkey)

    # -- adding one ----------------------------------------------------------------------

    def add_options(self, me: SignedIn, rp: RelyingParty) -> str:
        """The options ``navigator.credentials.create`` takes, as JSON: a discoverable
        credential (sign-in needs no handle typed), none the player already has."""
        with read(self.engine) as conn:
            known = repo.credential_ids_of(conn, me.player.id)
        options = generate_registration_options(
            rp_id=rp.id,
            rp_name=RP_NAME,
            user_id=user_handle(me.player.id),
            user_name=me.player.handle,
            user_display_name=me.player.name or me.player.handle,
            timeout=TIMEOUT_MS,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
            exclude_credentials=[
                PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in known
            ],
        )
        self._keep(options.challenge, ADD, me.player.id)
        return options_to_json(options)

    def add(
        self,
        me: SignedIn,
        credential: dict[str, Any],
        rp: RelyingParty,
        *,
        name: str | None = None,
        device: str = "",
    ) -> PasskeyRow:
        """Keep the passkey the browser made for the options ``add_options`` gave: its
        challenge taken once, the origin and host the site's, the key one of ours."""
        try:
            answer = parse_registration_credential_json(credential)
            challenge = parse_client_data_json(answer.response.client_data_json).challenge
        except _UNREADABLE:
            raise _refused("the answer is not a WebAuthn registration") from None
        self._take(challenge, ADD, me.player.id)
        try:
            made = verify_registration_response(
                credential=answer,
                expected_challenge=challenge,
                expected_rp_id=rp.id,
                expected_origin=rp.origin,
            )
        except _UNREADABLE as err:
            raise _refused(_why(err)) from None
        credential_id = bytes_to_base64url(made.credential_id)
        public_key = bytes_to_base64url(made.credential_public_key)
        if len(credential_id) > CREDENTIAL_ID_MAX or len(public_key) > PUBLIC_KEY_MAX:
            raise _refused("the credential is larger than this server keeps")
        if made.sign_count > SIGN_COUNT_MAX:
            raise _refused("the signature count is beyond what this server keeps")
        now = datetime.now(UTC)
        try:
            with write(self.engine) as conn:
                if repo.count_passkeys(conn, me.player.id) >= MOST_PASSKEYS:
                    raise _refused(f"a profile keeps at most {MOST_PASSKEYS} passkeys")
                passkey = repo.insert_passkey(
                    conn,
                    player_id=me.player.id,
                    credential_id=credential_id,
                    public_key=public_key,
                    sign_count=made.sign_count,
                    name=passkey_name(name, device),
                    at=now,
                )
                rows = repo.passkeys_of(conn, me.player.id)
        except IntegrityError:
            raise _refused("this passkey is already added") from None
        return next(row for row in rows if row.id == passkey)

    # -- signing in with one -------------------------------------------------------------

    def signin_options(self, rp: RelyingParty) -> str:
        """The options ``navigator.credentials.get`` takes, as JSON: no credentials named,
        the browser offers the passkeys it holds for this site."""
        options = generate_authentication_options(
            rp_id=rp.id,
            timeout=TIMEOUT_MS,
            user_verification=UserVerificationRequirement.PREFERRED,
        )
        self._keep(options.challenge, SIGNIN, None)
        return options_to_json(options)

    def signin(
        self,
        credential: dict[str, Any],
        rp: RelyingParty,
        *,
        device: str = "",
    ) -> NewKey:
        """A new key for this device, for the profile whose passkey signed the challenge
        ``signin_options`` gave. A replayed answer finds its challenge taken. Like every
        sign-in it moves none of the device's guest seats (API.md § Fifth round): a shared
        device's seats may be anyone's."""
        try:
            answer = parse_authentication_credential_json(credential)
            challenge = parse_client_data_json(answer.response.client_data_json).challenge
            credential_id = bytes_to_base64url(answer.raw_id)
        except _UNREADABLE:
            raise _refused("the answer is not a WebAuthn assertion") from None
        if len(credential_id) > CREDENTIAL_ID_MAX:
            raise _refused("no profile here has this passkey")
        self._take(challenge, SIGNIN, None)
        with read(self.engine) as conn:
            stored = repo.passkey_by_credential(conn, credential_id)
            player = player_repo.player_by_id(conn, stored.player_id) if stored else None
        if stored is None or player is None or player.deleted:
            raise _refused("no profile here has this passkey")
        named = answer.response.user_handle
        if named is not None and player_of_handle(named) != player.id:
            raise _refused("the passkey names another profile")
        try:
            checked = verify_authentication_response(
                credential=answer,
                expected_challenge=challenge,
                expected_rp_id=rp.id,
                expected_origin=rp.origin,
                credential_public_key=base64url_to_bytes(stored.public_key),
                credential_current_sign_count=stored.sign_count,
            )
        except _UNREADABLE as err:
            raise _refused(_why(err)) from None
        if checked.new_sign_count > SIGN_COUNT_MAX:
            raise _refused("the signature count is beyond what this server keeps")
        with write(self.engine) as conn:
            counted = repo.passkey_used(
                conn,
                stored.id,
                was=stored.sign_count,
                sign_count=checked.new_sign_count,
                at=datetime.now(UTC),
            )
        if not counted:  # another sign-in with this passkey's count went first: a clone
            raise _refused("the passkey's signature count went backwards")
        return self.players.new_key(player, device=device)

    # -- challenges ----------------------------------------------------------------------

    def _keep(self, challenge: bytes, purpose: str, player_id: int | None) -> None:
        now = datetime.now(UTC)
        with write(self.engine) as conn:
            repo.forget_old_challenges(conn, now)
            repo.insert_challenge(
                conn,
                challenge=bytes_to_base64url(challenge),
                purpose=purpose,
                player_id=player_id,
                expires_at=now + timedelta(seconds=CHALLENGE_S),
            )

    def _take(self, challenge: bytes, purpose: str, player_id: int | None) -> None:
        with write(self.engine) as conn:
            taken = repo.use_challenge(
                conn,
                challenge=bytes_to_base64url(challenge),
                purpose=purpose,
                player_id=player_id,
                at=datetime.now(UTC),
            )
        if not taken:
            raise _refused("this ceremony's challenge is used, expired or unknown")


def _why(err: Exception) -> str:
    """py_webauthn's sentence (English, for the detail): never a key, only what failed."""
    lines = str(err).splitlines()
    return (lines[0] if lines else type(err).__name__)[:200]
