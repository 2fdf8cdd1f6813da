"""The rule-based player: the habits of a sound club player, no look-ahead.

Its card play (``play_card``) also drives every seat in the standard player's play-outs, so
it works on bare masks: the seat's hand, and the cards no opponent can hold (out of play,
or of a suit both opponents have shown they lack).
"""

from __future__ import annotations

from app.bots.knowledge import knowledge_of
from app.rules.cards import (
    ACE,
    FULL_DECK,
    JACK,
    KING,
    QUEEN,
    RANK_MASK,
    SUIT_MASK,
    TEN,
    Card,
    Hand,
    cards_in,
    suit_of,
)
from app.rules.config import Rules
from app.rules.scoring import CARD_VALUE as VALUE
from app.rules.state import BEG, GIVE_ONE, RUN_PACK, STAND, Action, Phase, play
from app.rules.tricks import Plays, winning_play
from app.rules.view import Observation


def choose(obs: Observation, stand_at: float | None = None) -> Action:
    """The easy player's action; ``stand_at`` overrides the strength the beggar stands on."""
    assert obs.seat is not None
    if len(obs.legal) == 1:
        return obs.legal[0]
    if obs.phase is Phase.BEG:
        bar = STAND_AT if stand_at is None else stand_at
        wanted = stand_wanted(obs.hand, obs.kicks[0], obs.scores, obs.beggar, obs.rules, bar)
        return STAND if wanted else BEG
    if obs.phase is Phase.GIVE_OR_RUN:
        wanted = give_wanted(obs.hand, obs.kicks[0], obs.scores, obs.beggar, obs.rules)
        return GIVE_ONE if wanted else RUN_PACK
    assert obs.trump is not None
    # A card neither opponent can hold is no threat, whoever else may have it.
    out = knowledge_of(obs).not_with_opponents
    legal = 0
    for a in obs.legal:
        assert a.card is not None
        legal |= 1 << a.card
    card = play_card(obs.seat, obs.hand, legal, obs.trick, obs.trump, out)
    return play(card)


# -- begging (R9-R11) ----------------------------------------------------------------------

# What a holding in the kick's suit is worth as trump, by card: the ace all but wins High,
# the top cards guard the jack and take tens, low ones win Low. Weighed in the arena by
# playing each deal out both ways (stand and beg, give one and run the pack) many times
# from the bidder's seat: the beggar's and the dealer's choices came out with the same
# weights, in proportion, and different bars.
WORTH = {ACE: 1.0, KING: 0.7, QUEEN: 0.6, JACK: 0.65, TEN: 0.4}
LOW_WORTH = 0.28  # each trump below the ten
TWO_OR_THREE = 0.3  # more for the lowest trumps: Low is won by the card dealt
STAND_AT = 1.05  # the beggar stands on this much
# The dealer gives one on this much. Against a beggar who may hold anything, running the pack
# came out about two points a deal better than a give: its kicks score for the dealer, and a
# longer deal rewards the better player.
GIVE_AT = 1.6


def trump_worth(hand: Hand, suit: int) -> float:
    worth = 0.0
    lowest = False
    for c in cards_in(hand & SUIT_MASK[suit]):
        rank = c % 13
        worth += WORTH.get(rank, LOW_WORTH)
        lowest = lowest or rank <= 1
    return worth + (TWO_OR_THREE if lowest else 0.0)


def stand_wanted(
    hand: Hand,
    kick: Card,
    scores: tuple[int, int],
    beggar: int,
    rules: Rules,
    stand_at: float = STAND_AT,
) -> bool:
    """The beggar stands on a good trump holding and begs on a weak one (for the point of a
    give, or a longer deal). One point short of the target he stands whatever he holds when
    the dealer may not give that point (R11): a beg would only make the dealer run the pack,
    with its kicks for the other side, and a deal played out almost always brings a point.
    When a give would win the game (``give_one_can_win``) he begs, unless the dealer's team
    could win it on the kicks of a run."""
    us, them = beggar & 1, 1 - (beggar & 1)
    if scores[us] + 1 >= rules.target:
        if not rules.give_one_can_win:
            return True
        if scores[them] < rules.target - 3:
            return False  # a give would win; the dealer must weigh running the pack
    return trump_worth(hand, suit_of(kick)) >= stand_at


def give_wanted(hand: Hand, kick: Card, scores: tuple[int, int], beggar: int, rules: Rules) -> bool:
    """The dealer keeps the kick's suit (giving one) when it suits his hand, unless that point
    brings the beggar's team too close to the target."""
    if scores[beggar & 1] + 1 >= rules.target - 1:
        return False
    return trump_worth(hand, suit_of(kick)) >= GIVE_AT


# -- card play (R13-R15) ---------------------------------------------------------------------

TENS, ACES, KINGS, QUEENS, JACKS = (RANK_MASK[r] for r in (TEN, ACE, KING, QUEEN, JACK))
HIGH_RANKS = QUEENS | KINGS | ACES  # trumps too good to spend
FEED_ORDER = (TENS, ACES, KINGS, QUEENS, JACKS)  # what to give a partner's sure trick


def discard_cost(card: Card, trump: int) -> int:
    """How much it hurts to throw ``card`` away: low plain cards first, tens and trumps last."""
    rank = card % 13
    if card // 13 == trump:
        return 200 if rank == JACK else 100 + rank
    if rank == TEN:
        return 40
    return rank


def _lowest(mask: Hand) -> Card:
    return (mask & -mask).bit_length() - 1


def _above(card: Card) -> Hand:
    """Every card index above ``card`` (all of them for -1)."""
    return FULL_DECK & ~((1 << (card + 1)) - 1)


def _lowest_by(cards: Hand, trump: int) -> Card:
    """The card of ``cards`` cheapest to throw away, by ``discard_cost`` (lower suit first on
    a tie), worked out on masks: this runs for every card of every play-out."""
    tm = SUIT_MASK[trump]
    plain = cards & ~tm
    low = plain & ~TENS
    if low:
        ranks = (low | low >> 13 | low >> 26 | low >> 39) & 0x1FFF
        return _lowest(low & RANK_MASK[_lowest(ranks)])
    if plain:
        return _lowest(plain)
    below_jack = cards & ~(1 << (trump * 13 + JACK))
    return _lowest(below_jack) if below_jack else trump * 13 + JACK


def play_card(seat: int, hand: Hand, legal: Hand, trick: Plays, trump: int, out: Hand) -> Card:
    """The card to play from ``legal``; ``out`` = cards no opponent can hold."""
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    unknown = FULL_DECK & ~out & ~hand  # cards an opponent may hold
    if not trick:
        return _lead(hand, legal, trump, unknown)
    return _follow(seat, legal, trick, trump, unknown)


def _lead(hand: Hand, legal: Hand, trump: int, unknown: Hand) -> Card:
    tm = SUIT_MASK[trump]
    jack = trump * 13 + JACK
    mine = hand & tm
    theirs = unknown & tm
    top_theirs = theirs.bit_length() - 1  # -1 when no trump is out against us
    if mine:
        top = mine.bit_length() - 1
        # Pull trumps with a trump above the jack while the jack is out: it may fall and
        # hang, and drawing trumps early pays even when a higher one may still be out.
        if unknown >> jack & 1 and top > jack:
            return top
        # A jack no one can beat is a safe point.
        if hand >> jack & 1 and jack > top_theirs:
            return jack
    plain = legal & ~tm
    # Cash a plain card no one can beat, once no trump is out against us: before that it
    # is a gift to whoever trumps it.
    best: Card | None = None
    for suit in range(4):
        if suit == trump or theirs:
            continue
        held = plain & SUIT_MASK[suit]
        if not held:
            continue
        top = held.bit_length() - 1
        if (
            top > (unknown & SUIT_MASK[suit]).bit_length() - 1
            and top % 13 != TEN
            and (best is None or VALUE[top] > VALUE[best])
        ):
            best = top
    if best is not None:
        return best
    if plain:
        return _lowest_by(plain, trump)
    # Only trumps: lead low, keeping the jack back while a higher trump is out.
    safe = legal & ~(1 << jack) if top_theirs > jack else legal
    return (safe & -safe).bit_length() - 1 if safe else _lowest_by(legal, trump)


def _top(card: Card, unknown: Hand) -> bool:
    """No card still out is higher in ``card``'s suit: it may win a lift of its own later."""
    return not unknown & SUIT_MASK[card // 13] & _above(card)


def _sure(card: Card, trump: int, unknown: Hand, last: bool) -> bool:
    """No card still to come can beat ``card`` in this lift: none higher in its suit, and for
    a plain card no trump an opponent yet to play may cut it with (R14: a trump may be played
    at any time, suit or no suit)."""
    if last:
        return True
    if card // 13 != trump and unknown & SUIT_MASK[trump]:
        return False
    return _top(card, unknown)


def _points(trick: Plays, jack: Card) -> tuple[int, bool]:
    """The Game points in the trick so far, and whether the jack of trumps is in it."""
    value = 0
    jack_in = False
    for _, c in trick:
        value += VALUE[c]
        jack_in = jack_in or c == jack
    return value, jack_in


def _follow(seat: int, legal: Hand, trick: Plays, trump: int, unknown: Hand) -> Card:
    tm = SUIT_MASK[trump]
    jack = trump * 13 + JACK
    win_seat, best = winning_play(trick, trump)
    last = len(trick) == 3
    if win_seat == seat ^ 2:
        plain = legal & ~tm
        if _sure(best, trump, unknown, last):
            if legal >> jack & 1:
                return jack  # save the jack under partner's winning card
            for ranks in FEED_ORDER:
                if plain & ranks:
                    feed = _lowest(plain & ranks)
                    # A card that could win a trick of its own later is kept, unless this
                    # is the trick's last card (the lift is partner's for certain).
                    if ranks == TENS or last or not _top(feed, unknown):
                        return feed
                    break
        elif plain & TENS and _points(trick, jack)[0] > 0:
            return _lowest(plain & TENS)  # partner's lift is worth fighting for: add to it
        return _lowest_by(legal, trump)
    led = best // 13
    if led == trump:
        winners = legal & tm & _above(best)
    else:
        winners = (legal & SUIT_MASK[led] & _above(best)) | (legal & tm)
    if not winners:
        return _lowest_by(legal, trump)
    if last:
        if winners >> jack & 1:
            return jack
        if winners & TENS:
            return _lowest(winners & TENS)  # the lift is certain: bank the ten
        sure = winners
    else:
        top_trump = (unknown & tm).bit_length() - 1
        top_led = (unknown & SUIT_MASK[led]).bit_length() - 1
        sure = winners & ((tm & _above(top_trump)) | (SUIT_MASK[led] & _above(top_led)))
        # A ten that takes the lead is played: kept back, it would likely fall to the other
        # side later.
        ten = winners & SUIT_MASK[led] & TENS & ~tm
        if ten:
            return _lowest(ten)
    value, jack_in = _points(trick, jack)
    if jack_in or value >= 10:
        return _lowest_by(sure or winners, trump)
    if value > 0 or last:
        cheap = ~(1 << jack) & ~(tm & HIGH_RANKS)
        if value == 0:
            cheap &= ~tm  # last to play, a trump is kept for a lift worth something
        # Third to play, a lift with points in it is taken with a low trump even though the
        # last player might still beat it: more often than not he cannot.
        pick = (sure & cheap) or (winners & cheap if len(trick) == 2 else 0)
        if pick:
            return _lowest_by(pick, trump)
    sure_cheap = sure & ~tm
    if sure_cheap:
        return _lowest_by(sure_cheap, trump)
    # Take the lead in the suit when it costs no trump: later hands may throw points on it.
    plain_winners = winners & ~tm
    if plain_winners:
        return _lowest(plain_winners)
    return _lowest_by(legal, trump)
