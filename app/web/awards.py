"""The words of a hand's awards and of renege mode's calls (R22-R25), for every page that
tells them: the table's hand summary (table.py), the score sheet (sheet.py) and the replay
(replay.py). One place, so that a penalty reads the same wherever it is told.

Names come in already chosen by the page (a player's name, a team's name): these functions
only put them in a sentence of the reader's language.
"""

from __future__ import annotations

from app.i18n import N_, _

# Each award's title; a penalty (R24-R25) goes to the team that did not pay it.
AWARD_TITLES = {
    "kick": N_("Kick"),
    "give_one": N_("Give one"),
    "high": N_("High"),
    "low": N_("Low"),
    "jack": N_("Jack"),
    "hang_jack": N_("Hang jack!"),
    "game": N_("Game"),
    "renege": N_("Renege caught"),
    "renege_bullseye": N_("Renege caught"),
    "false_call": N_("Wrong call"),
    "false_call_bullseye": N_("Wrong call"),
}
# A penalty that is the game (R24 `bullseye`): the award holds 0 points, the game is won.
BULLSEYE_KINDS = frozenset({"renege_bullseye", "false_call_bullseye"})
RENEGE_KINDS = frozenset({"renege", "renege_bullseye"})
WRONG_CALL_KINDS = frozenset({"false_call", "false_call_bullseye"})
PENALTY_KINDS = RENEGE_KINDS | WRONG_CALL_KINDS


def award_title(kind: str) -> str:
    """ "High", "Hang jack!", "Renege caught" (a kind this page does not know: as it is)."""
    return _(AWARD_TITLES[kind]) if kind in AWARD_TITLES else kind


def award_worth(kind: str, points: int) -> str:
    """What an award is worth, as a score sheet writes it: "+3", or "bullseye" for a
    penalty that won the game outright."""
    return _("bullseye") if kind in BULLSEYE_KINDS else f"+{points}"


def penalty_detail(kind: str, player: str | None, yours: bool = False) -> str | None:
    """Whose fault a penalty was: the player who reneged (the award's seat, the offender),
    or the one whose call found no renege (the award's seat, the caller). ``yours``: that
    seat is the reader's, said to them ("you reneged": a name pasted in would read "Du hat")."""
    if player is None:
        return None
    if kind in RENEGE_KINDS:
        return _("you reneged") if yours else _("%(player)s reneged") % {"player": player}
    if kind in WRONG_CALL_KINDS:
        return _("called by you") if yours else _("called by %(player)s") % {"player": player}
    return None


def call_text(caller: str, lift: int, upheld: bool, penalty: str | None, to: str | None) -> str:
    """A call of renege and its verdict (R22, R24-R25), as one sentence: ``caller`` called
    on ``lift``; ``penalty`` ("one", "bullseye" or None: nothing paid, R24's once a hand or
    R25 `free`) went to the team named ``to``."""
    said = {"caller": caller, "lift": lift, "team": to}
    if upheld:
        if penalty == "bullseye":
            text = _("%(caller)s called renege on lift %(lift)s: upheld, bullseye to %(team)s")
        elif penalty == "one":
            text = _("%(caller)s called renege on lift %(lift)s: upheld, 1 point to %(team)s")
        else:
            text = _(
                "%(caller)s called renege on lift %(lift)s: upheld, nothing more to pay this hand"
            )
    elif penalty == "bullseye":
        text = _("%(caller)s called renege on lift %(lift)s: no renege, bullseye to %(team)s")
    elif penalty == "one":
        text = _("%(caller)s called renege on lift %(lift)s: no renege, 1 point to %(team)s")
    else:
        text = _("%(caller)s called renege on lift %(lift)s: no renege, nothing lost")
    return text % said


def renege_text(player: str, lift: int, card: str) -> str:
    """A renege as the game's end shows it (R27): who, which lift, which card (its name)."""
    return _("%(player)s reneged in lift %(lift)s with %(card)s") % {
        "player": player,
        "lift": lift,
        "card": card,
    }
