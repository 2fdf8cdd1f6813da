"""A catalogue of partner faults: the blunders that make a player groan at a computer partner.

Each situation is a stacked deal (``tests.rules.stack``) played by the rules up to one
decision, with the right actions (``right``) or the faults (``fault``: any other action is
right), and a line on why a player would groan at the fault. Unless a situation says
otherwise the dealer is seat 0 (team 0, with seat 2), the kick is the 4 of spades (it scores
nothing) and the beggar, seat 1 (team 1, with seat 3), stands: spades are trump and seat 1
leads. ``test_catalogue.py`` asks each level for its decision in every situation.

Left out as a matter of taste (club players argue both ways, so neither card is a fault):
- feeding the king or the ace of trumps to partner's ace of trumps: three or four points
  banked for Game, against a trump that may lift a ten later;
- feeding a plain ace to partner's sure lift before the last lift: it may win one itself;
- last to play on a lift worth nothing, trumping just to take the lead;
- second to play, taking an opponent's low lead with a plain ace while trumps are out: it
  may be cut, but so may the next card led;
- putting a ten on partner's lift that is not sure but already holds points;
- as dealer, giving one with a fair holding in the kick's suit: the arena says running the
  pack pays on average, the table talk says a give keeps a good trump;
- as beggar with the give that wins the game allowed (``give_one_can_win``), begging rather
  than standing: the dealer runs the pack and the deal is played out either way;
- third to play on partner's king of trumps with the ace unseen, the jack under it: it hangs
  only if the last opponent holds the ace (about one time in seven), and kept it may still
  fall to the ace or the queen later; played out both ways the jack comes out ahead;
- second to play with a bare jack, trumping a low lead: it hangs only if the next opponent
  overtrumps, and kept bare it is in danger anyway;
- leading a court into a suit the next opponent has shown he lacks: any player may trump at
  any time (R14), so a void in the suit led tells little about who will trump it;
- a ten put on the opponents' sure-looking ace while partner is still to play: partner may
  trump at any time (R14), and does so more often than not.

How each level fares (``test_catalogue.py``): ``easy`` is right in every situation; the
searching levels miss now and then where the play-outs find two cards close (the jack on
partner's plain ace against the five: the jack hangs only when the last opponent holds a
higher trump, and three of them are unseen).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.rules import DEFAULT_RULES, Rules, observe
from app.rules.state import Action, State
from app.rules.view import Observation
from tests.rules.stack import act, do, game, reach, stack


@dataclass(frozen=True)
class Situation:
    name: str
    groan: str  # why a player would groan at the fault
    hands: dict[int, str]  # all six cards of every seat
    moves: str  # from the deal's start to the decision
    right: str = ""  # the right actions (card codes or bids), space separated
    fault: str = ""  # or the faults: every other action is right
    kick: str = "4S"
    dealer: int = 0
    scores: tuple[int, int] = (0, 0)
    rules: Rules = field(default=DEFAULT_RULES)

    def state(self) -> State:
        deck = stack(self.dealer, self.hands, self.kick)
        if self.scores == (0, 0):
            start = game(self.dealer, deck, rules=self.rules)
        else:
            start = reach(self.scores, self.dealer, deck, rules=self.rules)
        return do(start, self.moves)

    def observation(self) -> Observation:
        state = self.state()
        assert state.turn is not None
        obs = observe(state, state.turn)
        assert len(obs.legal) > 1, f"{self.name}: no choice to make"
        for a in self.named():
            assert a in obs.legal, f"{self.name}: {a} is not a legal action"
        return obs

    def named(self) -> list[Action]:
        return [act(w) for w in (self.right or self.fault).split()]

    def is_right(self, action: Action) -> bool:
        named = self.named()
        return action in named if self.right else action not in named


# A trick written in the order played; the hands are listed by seat, leader first.
CATALOGUE: tuple[Situation, ...] = (
    # -- the jack of trumps and its hang (R17) ------------------------------------------------
    Situation(
        "hang_jack_on_partners_plain_ace",
        "the jack is put on partner's ace with an opponent still to play who may trump it: "
        "three points for them, when the five of hearts followed suit",
        {
            1: "AH KD QD 9C 8C 7C",
            2: "3H 4H 5C 6C 7H 8H",
            3: "JS 5H 2C 3C 4D 5D",
            0: "KS QS 2D 3D 9D TC",
        },
        "stand AH 3H",
        right="5H",
    ),
    Situation(
        "hang_jack_on_partners_plain_king",
        "partner's king may hold the lift, but the last opponent may trump it or hold the ace: "
        "the jack hangs for nothing",
        {
            1: "KH AD QD 9C 8C 7C",
            2: "3H 4H 5C 6C 7H 8H",
            3: "JS 5H 2C 3C 4D 5D",
            0: "KS QS 2D 3D 9D TC",
        },
        "stand KH 3H",
        right="5H",
    ),
    Situation(
        "jack_saved_under_partners_ace_of_trumps",
        "nothing beats partner's ace of trumps: the jack is safe under it, kept it may be caught "
        "by the king or queen still out",
        {
            1: "AS 9C 8C 7D 6D 2H",
            2: "5S 3H 4H 5C 6C 7H",
            3: "JS 3S 2C 3C 4D 5D",
            0: "KS QS 2D 3D 9D TC",
        },
        "stand AS 5S",
        right="JS",
    ),
    Situation(
        "jack_saved_last_on_partners_lift",
        "last to play on partner's lift, the jack is safe for good: kept, the ace, king or queen "
        "out may catch it",
        {
            1: "2H 4C 5C 6D 7D 8H",
            2: "AH KD QD JC TC 9H",
            3: "3H 4H 5H 6C 4D 5D",
            0: "JS 6H 8D 9D 2C 3C",
        },
        "stand 2H AH 3H",
        right="JS",
    ),
    Situation(
        "jack_thrown_on_opponents_trump",
        "an opponent's queen of trumps has the lift: a jack played to it hangs",
        {
            1: "3H 4C 5C 6D 7D 8H",
            2: "4H KD QD JC TC 9H",
            3: "QS 2H 6H 6C 4D 5D",
            0: "JS 8D 9D 2C 3C 7C",
        },
        "stand 3H 4H QS",
        fault="JS",
    ),
    Situation(
        "bare_jack_led",
        "a bare jack led into three unseen higher trumps is a gift of three points",
        {
            1: "JS 2C 3D 4D 7H 8H",
            2: "AS 3C 6C 8D 9D 2D",
            3: "5S 6S 3H 4H 4C 5D",
            0: "KS 7C 8C 9C TD QD",
        },
        "stand",
        fault="JS",
    ),
    Situation(
        "guarded_jack_led_away_from",
        "leading the jack, or its only guard, early leaves the jack to fall to the ace, king or "
        "queen",
        {
            1: "JS 5S KC 9D 8D 7C",
            2: "AS 3C 6C 2D 3D 2H",
            3: "6S 7S 3H 4H 4C 5D",
            0: "KS 8C 9C TD QD 5H",
        },
        "stand",
        fault="JS 5S",
    ),
    Situation(
        "jack_hunted_with_the_ace",
        "partner showed no trump: the jack is with the opponents or the stock, and the ace and "
        "king of trumps should pull it while they can",
        {
            1: "AS KS 9S 2C 3D 7H",
            2: "6S 3C 6C 8D 9D JD",
            3: "2D 3H 4H 4C 5D 5C",
            0: "7S 8C 9C TD QD 5H",
        },
        "stand 9S 6S 2D 7S",
        right="AS KS",
    ),
    Situation(
        "opponents_jack_taken_last",
        "last to play, the queen takes the opponents' jack for three points: the seven lets "
        "them keep it",
        {
            1: "JS 4C 5C 6D 7D 8H",
            2: "5S KD QD JC TC 9H",
            3: "3S 4H 5H 6C 4D 5D",
            0: "QS 7S 8D 9D 2C 3C",
        },
        "stand JS 5S 3S",
        right="QS",
    ),
    Situation(
        "opponents_jack_taken_second_with_the_ace",
        "the ace of trumps cannot be beaten: it catches the jack the beggar led for a hang",
        {
            1: "JS 4C 5C 6D 7D 8H",
            2: "AS 3S KD QD JC TC",
            3: "5S 4H 5H 6C 4D 5D",
            0: "QS 7S 8D 9D 2C 3C",
        },
        "stand JS",
        right="AS",
    ),
    # -- partner's lift -------------------------------------------------------------------------
    Situation(
        "partners_sure_ace_trumped",
        "last to play, partner's ace has the lift for certain: trumping it wastes a trump",
        {
            1: "2H 4C 5C 6D 7D 8H",
            2: "AH KD QD JC TC 9H",
            3: "3H 4H 5H 6C 4D 5D",
            0: "5S 7C 8D 9D 2C 3C",
        },
        "stand 2H AH 3H",
        fault="5S",
    ),
    Situation(
        "partners_sure_trump_overtrumped",
        "last to play, partner's king of trumps has the lift: the queen on it is a trump thrown "
        "away",
        {
            1: "3H 4C 5C 6D 7D 8H",
            2: "KS KD QD JC TC 9D",
            3: "4H 5H 2H 6C 4D 5D",
            0: "QS 7C 8D 2D 2C 3C",
        },
        "stand 3H KS 4H",
        fault="QS",
    ),
    Situation(
        "ten_fed_last_to_partners_lift",
        "last to play on partner's certain lift, the ten of diamonds is ten points for Game "
        "banked: any other card throws them away",
        {
            1: "2H 4C 5C 6D 7D 8H",
            2: "AH KD QD JC TC 9H",
            3: "3H 4H 5H 6C 4D 5D",
            0: "5S TD 8D 9D 2C 3C",
        },
        "stand 2H AH 3H",
        right="TD",
    ),
    Situation(
        "ten_followed_last_to_partners_ace",
        "partner's ace holds the lift and the ten of hearts follows suit: playing the six keeps "
        "the ten to be caught later",
        {
            1: "2H 4C 5C 6D 7D 8H",
            2: "AH KD QD JC TC 9H",
            3: "3H 4H 5H 6C 4D 5D",
            0: "TH 6H 8D 9D 2C 3C",
        },
        "stand 2H AH 3H",
        right="TH",
    ),
    Situation(
        "ten_fed_third_to_partners_ace_of_trumps",
        "nothing beats partner's ace of trumps: third to play with no trump, the ten of diamonds "
        "is banked",
        {
            1: "AS 9C 8C 7D 6D 2H",
            2: "5S 3H 4H 5C 6C 7H",
            3: "TD 2C 3C 4D 5D 6H",
            0: "KS QS 2D 3D 9D TC",
        },
        "stand AS 5S",
        right="TD",
    ),
    Situation(
        "partners_ace_overtrumped_saved",
        "an opponent trumped partner's ace with the five: last to play, the seven overtrumps at "
        "no risk and wins the ace back",
        {
            1: "3H 4C 5C 6D 7D 8H",
            2: "AH KD QD JC TC 9H",
            3: "5S 2C 3C 6C 4D 5D",
            0: "7S 2D 8D 9D 6H 7C",
        },
        "stand 3H AH 5S",
        right="7S",
    ),
    # -- the opponents' lift --------------------------------------------------------------------
    Situation(
        "opponents_ten_let_through_last",
        "last to play, the king of hearts takes the opponents' ten at no risk: the four lets "
        "them have ten points for Game",
        {
            1: "TH 4C 5C 6D 7D 8H",
            2: "2H KD QD JC TC 8C",
            3: "3H 5H 6H 6C 4D 5D",
            0: "KH 4H 8D 9D 2C 3C",
        },
        "stand TH 2H 3H",
        right="KH",
    ),
    Situation(
        "opponents_ten_not_trumped_last",
        "last to play with no diamond, the five of trumps takes the opponents' ten at no risk",
        {
            1: "TD 4C 5C 6D 7D 8H",
            2: "2D KH QH JC TC 9H",
            3: "3D 5H 6H 6C 4H 5D",
            0: "5S 7C 7H 9C 2C 3C",
        },
        "stand TD 2D 3D",
        right="5S",
    ),
    Situation(
        "opponents_ten_taken_with_the_jack_last",
        "last to play with no diamond, the jack takes the ten and is safe for good",
        {
            1: "TD 4C 5C 6D 7D 8H",
            2: "2D KH QH JC TC 9H",
            3: "3D 5H 6H 6C 4H 5D",
            0: "JS 7C 7H 9C 2C 3C",
        },
        "stand TD 2D 3D",
        right="JS",
    ),
    Situation(
        "ten_under_opponents_ace_last",
        "last to play under the opponents' ace, the ten of hearts is ten points for them: "
        "the three follows suit",
        {
            1: "AH 4C 5C 6D 7D 8H",
            2: "2H 3D KD QD JC 9D",
            3: "5H 6H 7H 6C 4H 5D",
            0: "TH 3H KS 9C 2C 3C",
        },
        "stand AH 2H 5H",
        right="3H",
    ),
    Situation(
        "ten_discarded_on_opponents_lift_last",
        "last to play with no heart, the ten of clubs thrown on the opponents' ace is ten "
        "points for them",
        {
            1: "AH 4H 5H 6D 7D 8H",
            2: "2H 2D 3D 4C 5C 6C",
            3: "3H 6H 7H 7C 8C 5D",
            0: "TC KS 9C 8D 9D QC",
        },
        "stand AH 2H 3H",
        fault="TC",
    ),
    Situation(
        "court_fed_late_to_partners_ace_of_trumps",
        "fifth lift, partner's ace of trumps holds it for certain: the king of clubs is three "
        "points banked, kept it may fall to the ace in the last lift",
        {
            1: "AH KH QH JH AS 7C",
            2: "2H 3H 4H 5H 5S 8C",
            3: "6H 7H 8H 9H KC 2D",
            0: "3D 4D 5D 6D 9C TC",
        },
        "stand AH 2H 6H 3D KH 3H 7H 4D QH 4H 8H 5D JH 5H 9H 6D AS 5S",
        right="KC",
    ),
    Situation(
        "ten_fed_late_to_partners_ace_of_trumps",
        "fifth lift, partner's ace of trumps holds it for certain: the ten of clubs is ten "
        "points for Game banked",
        {
            1: "AH KH QH JH AS 7C",
            2: "2H 3H 4H 5H 5S 8C",
            3: "6H 7H 8H 9H TC 2D",
            0: "3D 4D 5D 6D 9C KC",
        },
        "stand AH 2H 6H 3D KH 3H 7H 4D QH 4H 8H 5D JH 5H 9H 6D AS 5S",
        right="TC",
    ),
    Situation(
        "ace_of_trumps_spent_on_an_empty_lift",
        "the ace of trumps takes a lift with nothing in it: it was the card to catch the jack "
        "or a ten later",
        {
            1: "2H 4H 5H 6D 7D 8H",
            2: "AS 5C 2D 8D 8C 9C",
            3: "3H 6H 7H 7C 2C 5D",
            0: "KS 3C 4C 9D JC QC",
        },
        "stand 2H",
        fault="AS",
    ),
    Situation(
        "trump_spent_where_the_ace_wins",
        "last to play, the ace of hearts takes the opponents' ten as surely as a trump, and "
        "keeps the trump",
        {
            1: "5H 4C 5C 6D 7D 8D",
            2: "6H KD QD JC TC 9D",
            3: "TH 2H 3H 6C 4H 5D",
            0: "AH 8S 9C 2C 3C 7C",
        },
        "stand 5H 6H TH",
        right="AH",
    ),
    Situation(
        "trump_spent_where_the_king_wins",
        "last to play, the king of hearts wins the lift as surely as the trump, and banks three "
        "points",
        {
            1: "5H 4C 5C 6D 7D 8D",
            2: "6H KD QD JC TC 9D",
            3: "9H 2H 3H 6C 4H 5D",
            0: "KH 8S 9C 2C 3C 7C",
        },
        "stand 5H 6H 9H",
        right="KH",
    ),
    # -- leads ----------------------------------------------------------------------------------
    Situation(
        "ten_led_into_higher_cards",
        "a ten led while the ace, king, queen and jack of its suit are out is ten points for "
        "whoever holds one",
        {
            1: "TH 9S 2C 3D 4D 7C",
            2: "AH 3C 6C 8D 9D 2D",
            3: "5S 6S 3H 4H 4C 5D",
            0: "KS 7H 8C 9C TD QD",
        },
        "stand",
        fault="TH",
    ),
    # -- bidding (R9-R11) -----------------------------------------------------------------------
    Situation(
        "beggar_begs_on_top_trumps",
        "the ace, king and jack of the kick's suit: begging throws away a deal that is ours",
        {
            1: "AS KS JS 2H 3D 5C",
            2: "6S 3C 6C 8D 9D 2D",
            3: "7S 3H 4H 4C 5D 5H",
            0: "8S 8C 9C TD QD 6H",
        },
        "",
        right="stand",
    ),
    Situation(
        "beggar_stands_on_nothing",
        "no card of the kick's suit: standing plays the deal with the other side's trumps",
        {
            1: "2H 3H 7D 8D 4C 5C",
            2: "AS KS QS 8C 9D 2D",
            3: "6S 4H 5H 6C 5D 6H",
            0: "JS 7S 9C TD QD 7H",
        },
        "",
        right="beg",
    ),
    Situation(
        "beggar_one_short_begs",
        "one point short of the target, where the dealer may not give it (R11), and the dealer's "
        "side two short: a beg makes him run the pack, and a kick may win the game for them",
        {
            1: "2H 3H 7D 8D 4C 7S",
            2: "AS KS QS 8C 9D 2D",
            3: "6S 4H 5H 6C 5D 6H",
            0: "JS 5S 9C TD QD 7H",
        },
        "",
        right="stand",
        scores=(12, 13),
    ),
    Situation(
        "dealer_gives_on_nothing",
        "the dealer has no card of the kick's suit: a give hands over a point and a deal "
        "played with the beggar's trumps",
        {
            1: "2H 3H 7D 8D 4C 7S",
            2: "AS KS QS 8C 9D 2D",
            3: "6S 4H 5H 6C 5D 6H",
            0: "AH KH 9C TD QD 7H",
        },
        "beg",
        right="run_pack",
    ),
    Situation(
        "dealer_runs_the_pack_on_top_trumps",
        "the dealer holds the four top cards of the kick's suit: a run of the pack throws them "
        "away for a new suit, where a give of one point keeps them trump",
        {
            1: "2H 3H 7D 8D 4C 7S",
            2: "6S 8S 9S 8C 9D 2D",
            3: "5S 4H 5H 6C 5D 6H",
            0: "AS KS QS JS TD QD",
        },
        "beg",
        right="give_one",
    ),
    Situation(
        "dealer_gives_the_winning_point",
        "the beggar's side is one short and a give may win (give_one_can_win): giving one ends "
        "the game for them, whatever the dealer holds",
        {
            1: "2H 3H 7D 8D 4C 7S",
            2: "6S 8S 9S 8C 9D 2D",
            3: "5S 4H 5H 6C 5D 6H",
            0: "AS KS QS JS TD QD",
        },
        "beg",
        right="run_pack",
        scores=(0, 13),
        rules=Rules(give_one_can_win=True),
    ),
)


# -- renege mode (R26): when a computer player calls -----------------------------------------
# A bot calls only what its seat has seen proven, at every level (the call is the same for
# all: app/bots/renege.py), before it acts. Hearts are trump here (kick 3H), seat 1 leads.
RENEGE_HANDS = {
    1: "KC AH 2D 3D 4D 5D",
    2: "2C 9H 2S 3S 4S 5S",
    3: "6D 7D 8D 9D TD JD",
    0: "3C 4C TH 6S 7S 8S",
}
UNDERTRUMP_HANDS = {**RENEGE_HANDS, 0: "3C 4C 2H 6S 7S 8S", 2: "2C 9H TH 3S 4S 5S"}


@dataclass(frozen=True)
class CallSituation:
    """A deal played to a moment in renege mode; ``due``: the lift ``seat`` must call before
    it acts (None: it must not call at all)."""

    name: str
    groan: str
    moves: str
    seat: int
    due: int | None
    hands: dict[int, str] = field(default_factory=lambda: RENEGE_HANDS)
    rules: Rules = field(default=Rules(renege="one"))

    def state(self) -> State:
        return do(game(0, stack(0, self.hands, "3H"), rules=self.rules), "stand", self.moves)


RENEGE_CATALOGUE: tuple[CallSituation, ...] = (
    CallSituation(
        "calls_a_plain_suit_renege_once_proven",
        "seat 2 threw a spade on the king of clubs, then played the two of clubs: he held a"
        " club all along, and the computer partner says nothing",
        "KC 2S 6D 3C AH 9H 7D TH 2D 2C 8D",
        seat=3,
        due=1,
    ),
    CallSituation(
        "no_call_on_a_discard_nobody_can_prove",
        "a spade on a club lead may be a void: a call now costs a point when it is",
        "KC 2S 6D 3C",
        seat=3,
        due=None,
    ),
    CallSituation(
        "no_call_on_its_own_sides_renege",
        "the partner's renege is the other side's to catch",
        "KC 2S 6D 3C AH 9H 7D TH 2D 2C 8D",
        seat=0,
        due=None,
    ),
    CallSituation(
        "calls_a_trump_renege_once_a_trump_shows",
        "seat 2 kept his nine of hearts off a trump lead and trumped the next lift with it",
        "AH 2S 6D 8S KC 9H 7D TH",
        seat=1,
        due=1,
    ),
    CallSituation(
        "no_call_on_a_trump_lead_not_yet_proven",
        "no trump from seat 2 since: he may have held none",
        "AH 2S 6D 8S",
        seat=1,
        due=None,
    ),
    CallSituation(
        "no_second_call_on_a_lift_already_called",
        "the side called that lift already: a second call is refused",
        "KC 2S 6D 3C AH 9H 7D TH 2D 2C 8D",
        seat=3,
        due=None,
    ),
    CallSituation(
        "no_call_on_a_trump_played_to_a_plain_lead",
        "trumping is always allowed (R14), the club played later proves nothing",
        "KC 9H 6D 3C 2C",
        seat=1,
        due=None,
    ),
    CallSituation(
        "calls_an_undertrump_once_a_plain_card_shows",
        "seat 0 put the two of hearts under the nine holding clubs, and showed a club after",
        "KC 9H 6D 2H 2C 7D 3C",
        seat=1,
        due=1,
        hands=UNDERTRUMP_HANDS,
        rules=Rules(renege="one", undertrump="forbidden"),
    ),
    CallSituation(
        "no_call_on_an_undertrump_where_it_is_allowed",
        "with undertrump allowed the two of hearts was a fair card",
        "KC 9H 6D 2H 2C 7D 3C",
        seat=1,
        due=None,
        hands=UNDERTRUMP_HANDS,
    ),
)
