"""Why a club or a season refuses something (app/reasons.py: each reason defined once)."""

from __future__ import annotations

from app.reasons import N_, reason

NO_CLUB = reason("no_club", "no club {code!r}", N_("That club is not here."))
NOT_ADMIN = reason(
    "club_admin_only",
    "only the club's admins may do this",
    N_("Only the club's admins may do this."),
)
INVITE_GONE = reason(
    "club_invite_gone",
    "this invite link was revoked",
    N_("This invite link was revoked: ask an admin for a new one."),
)
NO_INVITE = reason("club_no_invite", "no such invite", N_("That invite link is not right."))
NOT_A_MEMBER = reason(
    "club_not_a_member",
    "{handle!r} is not a member of the club",
    N_("That player is not a member of the club."),
)
LAST_ADMIN = reason(
    "club_last_admin",
    "the club's last admin cannot be removed",
    N_("The club's last admin cannot be removed."),
)
NO_SEASON = reason(
    "club_no_season",
    "the club has no season running: start one first",
    N_("The club has no season running: start one first."),
)
NO_SUCH_SEASON = reason("club_no_such_season", "no season {season}", N_("That season is not here."))
SEASON_CHANGED = reason(
    "club_season_changed",
    "another season was started meanwhile",
    N_("Another season was just started."),
)
NIGHT_IN_A_CLUB = reason(
    "night_in_a_club",
    "the night {night!r} belongs to a club already: a night never moves",
    N_("That night belongs to a club already."),
)
BUSY = reason("club_busy", "the club is busy: try again", N_("The club is busy: try again."))
