"""The words of a game's review on the replay page (issue #38), in the reader's language:
replay.js asks the review (``/api/rooms/{code}/games/{g}/review``), shows its progress, and
writes each seat's summary and each costly decision from these templates (``{name}``...)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markupsafe import escape

from app.i18n import _, decimal_sign, ngettext, plural_forms
from app.web.cards import card_name

RANKS = "23456789TJQKA"
SUITS = "CDHS"


def review_words(names: Sequence[str]) -> dict[str, Any]:
    """What replay.js needs to write the review: the seats' names, every card's and every
    bid's name, the reasons and the sentences."""
    the_hand = _("The hand called for the other choice.")
    seat_values = {
        "name": "{name}",
        "costly": "{costly}",
        "decisions": "{decisions}",
        "average": "{average}",
    }
    return {
        "names": list(names),
        "cards": {r + s: card_name(r + s) for s in SUITS for r in RANKS},
        "bids": {
            "stand": _("Stand"),
            "beg": _("Beg"),
            "give_one": _("Give one"),
            "run_pack": _("Run the pack"),
            "reckoned": _("Score it"),
            "no_call": _("No call"),
        },
        "call": _("Call renege on lift %(n)s") % {"n": "{lift}"},
        "why": {
            "should_stand": the_hand,
            "should_beg": the_hand,
            "should_give": the_hand,
            "should_run": the_hand,
            "jack_risked": _("The Jack of trumps put at risk."),
            "jack_not_saved": _("The Jack of trumps could have been saved."),
            "ten_given": _("A ten given away."),
            "trump_wasted": _("A trump wasted."),
            "renege_found_out": _(
                "A renege is found out by the hand's end: the penalty was as good as paid."
            ),
            "call_unproven": _("Nothing had shown a renege in that lift: the call was a guess."),
            "renege_let_go": _("A renege had been shown and nobody had called it yet."),
        },
        # one form per plural category of the reader's language: review.js picks it for
        # the count with Intl.PluralRules ("1 costly decision", "5 décisions coûteuses")
        "seat": {
            category: form % seat_values
            for category, form in plural_forms(
                lambda n: ngettext(
                    "%(name)s: %(costly)s costly decision of %(decisions)s, "
                    "%(average)s points lost a decision on average",
                    "%(name)s: %(costly)s costly decisions of %(decisions)s, "
                    "%(average)s points lost a decision on average",
                    n,
                )
            ).items()
        },
        "decimal": decimal_sign(),
        "costly": _("%(name)s played %(action)s; %(best)s was better (%(loss)s points)")
        % {"name": "{name}", "action": "{action}", "best": "{best}", "loss": "{loss}"},
        "hand": _("Hand %(n)s") % {"n": "{hand}"},
        "none": _("No costly decision in this game."),
        # the button on a costly card in the replay, and the progress bar's words
        "why_costly": _("Why costly?"),
        "queued": _("Waiting for the server: it reviews one game at a time."),
        "running": _(
            "Judging each decision against deals imagined from what its player "
            "could see: %(done)s done."
        )
        % {"done": "{done}"},
        "failed": _("The review could not be asked for."),
    }


def hint_line(action: str, why: str) -> str:
    """A hint as the table shows it (HTML, escaped): the action and why, in a line."""
    bids = {
        "stand": _("Stand"),
        "beg": _("Beg"),
        "give_one": _("Give one"),
        "run_pack": _("Run the pack"),
    }
    name = bids.get(action) or card_name(action)
    best = _("It scores best over the deals imagined.")
    reasons = {
        "only_one": _("It is the only choice."),
        "close": _("Others are about as good."),
        "jack_risked": _("It keeps the Jack of trumps out of danger."),
        "jack_not_saved": _("It saves the Jack of trumps."),
        "ten_given": _("It does not give a ten away."),
        "trump_wasted": _("It spends no trump in vain."),
    }
    text = _("Hint: %(action)s.") % {"action": name} + " " + reasons.get(why, best)
    return str(escape(text))
