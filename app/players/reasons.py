"""Why a profile, a sign-in or a passkey is refused (app/reasons.py: each reason once)."""

from __future__ import annotations

from app.reasons import N_, reason

HANDLE_SHAPE = reason(
    "handle_shape",
    "a handle is 3 to 20 of a-z, 0-9, _ and -",
    N_("A handle is 3 to 20 letters a-z, digits, _ or -."),
)
HANDLE_TAKEN = reason(
    "handle_taken", "the handle {handle!r} is taken", N_("That handle is taken: choose another.")
)
NO_PLAYER = reason("no_player", "no player {handle!r}", N_("There is no such player."))
KEY_NEEDED = reason(
    "player_key_needed",
    "sign in first: this needs a player key",
    N_("Make a profile or sign in first."),
)
CODE_GONE = reason(
    "signin_code_gone",
    "this sign-in link is used or expired",
    N_("This sign-in link has been used or has expired: make a new one."),
)
NO_DEVICE = reason("no_device", "no device {id} of yours", N_("That device is not signed in."))
LANGUAGE_UNKNOWN = reason(
    "language_unknown", "no language {language!r} here", N_("That language is not offered here.")
)
NO_PASSKEY = reason("no_passkey", "no passkey {id} of yours", N_("That passkey is not here."))
PASSKEY_REFUSED = reason(
    "passkey_refused",
    "the passkey could not be checked: {why}",
    N_("The passkey could not be checked: try again."),
)
