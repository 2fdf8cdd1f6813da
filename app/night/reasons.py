"""Why a club night refuses something (app/reasons.py: each reason defined once)."""

from __future__ import annotations

from app.reasons import N_, reason

TOO_FEW_PAIRS = reason(
    "night_too_few_pairs",
    "a night needs at least two pairs to start (it has {pairs})",
    N_("A night needs at least two pairs to start (it has %(pairs)s)"),
)
ROUND_UNFINISHED = reason(
    "night_round_unfinished",
    "round {round} is still being played: every table must finish first",
    N_("Round %(round)s is still being played: every table must finish first"),
)
NIGHT_OVER = reason(
    "night_over",
    "the night is over: every round has been played",
    N_("The night is over: every round has been played"),
)
TEAMS_UNEVEN = reason(
    "night_teams_uneven",
    "a team match needs two clubs with the same number of pairs",
    N_("A team match needs two clubs with the same number of pairs"),
)
TEAM_NEEDED = reason(
    "night_team_needed",
    "in a team match each pair names its club",
    N_("In a team match each pair names its club"),
)
REGISTRATION_CLOSED = reason(
    "night_registration_closed",
    "registration is closed: ask the director to add your pair",
    N_("Registration is closed: ask the director to add your pair"),
)
STARTED = reason(
    "night_started",
    "the night has started: its pairs are fixed",
    N_("The night has started: its pairs are fixed"),
)
NOT_DIRECTOR = reason(
    "night_not_director",
    "only this night's director may do that",
    N_("Only this night's director may do that"),
)
NOT_THIS_NIGHT = reason(
    "night_link_elsewhere",
    "this player link belongs to another night",
    N_("This player link belongs to another night"),
)
# A token no player holds: a link mangled in a message, cut short, typed by hand.
UNKNOWN_LINK = reason(
    "night_link_unknown",
    "no player of this night holds this link",
    N_("This player link is not valid: ask the director for your own"),
)
NO_SUCH_NIGHT = reason("night_not_found", "no night {code}", N_("There is no such night"))
NO_SUCH_TABLE = reason(
    "night_no_table", "round {round} has no table {table}", N_("There is no such table")
)
NOT_AT_TABLE = reason(
    "night_pair_not_at_table",
    "pair {pair} does not play at table {table}",
    N_("That pair does not play at this table"),
)
TABLE_OVER = reason(
    "night_table_over",
    "table {table}'s match is over",
    N_("This table's match is over"),
)
IN_GRACE = reason(
    "night_in_grace",
    "the grace time runs for {seconds} more seconds",
    N_("The grace time runs for %(seconds)s more seconds"),
)
SEAT_HELD = reason(
    "night_seat_held",
    "seat {seat} is held by its player",
    N_("That seat is held by its player"),
)
BAD_CORRECTION = reason(
    "night_bad_correction",
    "a match's result needs one pair at {to} bullseyes and the other below",
    N_("A match's result needs one pair at %(to)s bullseyes and the other below"),
)
SEATS_RESERVED = reason(
    "night_seats_reserved",
    "this table's seats are a club night's: each player takes theirs through their night link",
    N_("This table's seats are a club night's: each player takes theirs through their night link"),
)
NIGHT_SEATS = reason(
    "night_director_seats",
    "at a club night's table only the night's director seats substitutes",
    N_("At a club night's table only the night's director seats substitutes"),
)
NO_DIRECTOR_TOKEN = reason(
    "night_director_token_needed",
    "the director's token is needed (Authorization: Bearer <token>)",
    N_("Only this night's director may do that"),
)
NO_PLAYER_TOKEN = reason(
    "night_player_link_needed",
    "a player's night link is needed",
    N_("Open your own night link first"),
)
PLAYER_IN_A_PAIR = reason(
    "night_player_in_a_pair",
    "{handle} is in a pair of this night already",
    N_("That player is in a pair of this night already"),
)
# API.md § Fifth round, "Consent": a profile is registered by handle only by itself, a friend
# of theirs, or (at that club's nights) an admin of a club they belong to.
NO_CONSENT = reason(
    "no_consent",
    "{handle} is registered by handle only by themself, a friend, or an admin of their club",
    N_("Only that player, a friend of theirs or an admin of their club may register them."),
)
PAIR_REGISTERED = reason(
    "night_pair_registered",
    "that pair is registered already (pair {pair})",
    N_("That pair is registered already"),
)
NO_TABLE_NOW = reason(
    "night_no_table_now",
    "pair {pair} has no table now (no round is being played, or it sits this one out)",
    N_("Your pair has no table now"),
)
ROUND_DRAWN = reason(
    "night_round_drawn",
    "round {round} has just been drawn",
    N_("That round has just been drawn"),
)
BUSY = reason("night_busy", "the night is busy: try again", N_("The night is busy: try again"))
NO_ROUND_NOW = reason(
    "night_no_round_now",
    "no round is being played",
    N_("No round is being played"),
)
NO_SUCH_PAIR = reason("night_no_pair", "there is no pair {pair}", N_("There is no such pair"))
SUBSTITUTE_WHO = reason(
    "night_substitute_who",
    "a substitute is a person's name or a computer player's level, one of them",
    N_("A substitute is a person's name or a computer player, one of them"),
)
