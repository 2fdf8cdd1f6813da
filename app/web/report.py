"""The page that reports a player (issue #36): its form, a refusal in the reader's words, and
the thanks once sent."""

from __future__ import annotations

from app.i18n import N_, _
from app.services.moderation import ReportReason
from app.web.render import environment

REASONS: tuple[tuple[ReportReason, str], ...] = (
    ("cheating", N_("Cheating")),
    ("abuse", N_("Abuse")),
    ("other", N_("Something else")),
)


def render_report(
    handle: str,
    *,
    signed_in: bool,
    room: str = "",
    reason: str = "",
    text: str = "",
    error: str | None = None,
    done: bool = False,
) -> str:
    return (
        environment()
        .get_template("report.html")
        .render(
            handle=handle,
            signed_in=signed_in,
            room=room,
            reason=reason,
            text=text,
            error=error,
            done=done,
            reasons=[(value, _(label)) for value, label in REASONS],
        )
    )
