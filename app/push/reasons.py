"""Why a push subscription is refused (app/reasons.py: each reason once)."""

from __future__ import annotations

from app.reasons import N_, reason

PUSH_HOST = reason(
    "push_host",
    "push endpoints must be on a push service this server allows (ALLFOURS_PUSH_HOSTS)",
    N_("This browser's push service is not one this server sends to."),
)
PUSH_KEY = reason(
    "push_key",
    "the subscription's keys are not a P-256 public key (p256dh) and a 16-byte secret (auth)",
    N_("This browser's notification keys cannot be used."),
)
NOT_SEATED = reason(
    "sight_not_seated",
    "only the page of a seat at this table says whether it is in sight",
    N_("Only a player at this table can do that."),
)
