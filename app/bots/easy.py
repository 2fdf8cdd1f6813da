"""The rule-based player: the habits of a sound club player, no look-ahead.

Its card play (``play_card``) also drives every seat in the standard player's play-outs, so
it works on bare masks and knows only the seat's hand and the cards out of play.
"""

from __future__ import annotations

from app.bots.sim import ACES, JACKS, KINGS, QUEENS, TENS, VALUE, Trick, rank_mask, winner_of
from app.rules.cards import (
    ACE,
    FULL_DECK,
    JACK,
    KING,
    QUEEN,
    SUIT_MASK,
    TEN,
    Card,
    Hand,
    cards_in,
    suit_of,
)
from app.rules.config import Rules
from app.rules.state import BEG, GIVE_ONE, RUN_PACK, STAND, Action, Phase, play
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
    out = 0
    for t in obs.tricks:
        for _, c in t.cards:
            out |= 1 << c
    for _, c in obs.trick:
        out |= 1 << c
    for c in obs.kicks:
        out |= 1 << c
    legal = 0
    for a in obs.legal:
        assert a.card is not None
        legal |= 1 << a.card
    card = play_card(obs.seat, obs.hand, legal, list(obs.trick), obs.trump, out)
    return play(card)


# -- begging (R9-R11) ----------------------------------------------------------------------

STAND_AT = 2.0  # trump strength the beggar stands on
GIVE_AT = 3.0  # trump strength in the kick's suit the dealer gives one on


def trump_strength(hand: Hand, suit: int) -> float:
    """A rough worth of holding ``suit`` as trump: top cards win High and guard the jack."""
    mine = hand & SUIT_MASK[suit]
    worth = 0.0
    for c in cards_in(mine):
        rank = c % 13
        worth += {ACE: 3.0, KING: 2.0, QUEEN: 1.5, JACK: 2.0, TEN: 1.0}.get(rank, 0.5)
    return worth + 0.5 * max(0, mine.bit_count() - 2)


def stand_wanted(
    hand: Hand,
    kick: Card,
    scores: tuple[int, int],
    beggar: int,
    rules: Rules,
    stand_at: float = STAND_AT,
) -> bool:
    """The beggar stands on a good trump holding, or when the dealer's team could win the
    game on the kicks of a run pack."""
    us, them = beggar & 1, 1 - (beggar & 1)
    strength = trump_strength(hand, suit_of(kick))
    if scores[them] >= rules.target - 3 and strength >= 2.0:
        return True
    if scores[us] + 1 >= rules.target and rules.give_one_can_win:
        return False  # a give would win; the dealer must weigh running the pack
    return strength >= stand_at


def give_wanted(hand: Hand, kick: Card, scores: tuple[int, int], beggar: int, rules: Rules) -> bool:
    """The dealer keeps the kick's suit (giving one) when it suits his hand, unless that point
    brings the beggar's team too close to the target."""
    if scores[beggar & 1] + 1 >= rules.target - 1:
        return False
    return trump_strength(hand, suit_of(kick)) >= GIVE_AT


# -- card play (R13-R15) ---------------------------------------------------------------------

RANK_MASKS = tuple(rank_mask(r) for r in range(13))
HIGH_RANKS = rank_mask(QUEEN) | rank_mask(KING) | rank_mask(ACE)  # trumps too good to spend
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
        return _lowest(low & RANK_MASKS[_lowest(ranks)])
    if plain:
        return _lowest(plain)
    below_jack = cards & ~(1 << (trump * 13 + JACK))
    return _lowest(below_jack) if below_jack else trump * 13 + JACK


def play_card(seat: int, hand: Hand, legal: Hand, trick: Trick, trump: int, out: Hand) -> Card:
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    unknown = FULL_DECK & ~out & ~hand  # cards some other seat may hold
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
    # Cash a plain card no one can beat (it may still be trumped).
    best: Card | None = None
    for suit in range(4):
        if suit == trump:
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


def _sure(card: Card, trump: int, unknown: Hand, last: bool) -> bool:
    """No card still out can beat ``card`` (players yet to play may still trump a plain one)."""
    if last:
        return True
    return not unknown & SUIT_MASK[card // 13] & _above(card)


def _follow(seat: int, legal: Hand, trick: Trick, trump: int, unknown: Hand) -> Card:
    tm = SUIT_MASK[trump]
    jack = trump * 13 + JACK
    win_seat, best = winner_of(trick, trump)
    last = len(trick) == 3
    if win_seat == seat ^ 2:
        if _sure(best, trump, unknown, last):
            if legal >> jack & 1:
                return jack  # save the jack under partner's winning card
            plain = legal & ~tm
            for ranks in FEED_ORDER:
                if plain & ranks:
                    feed = _lowest(plain & ranks)
                    if ranks == TENS or not _sure(feed, trump, unknown, False):
                        return feed
                    break
        return _lowest_by(legal, trump)
    led = best // 13
    if led == trump:
        winners = legal & tm & _above(best)
    else:
        winners = (legal & SUIT_MASK[led] & _above(best)) | (legal & tm)
    if not winners:
        return _lowest_by(legal, trump)
    if last and winners >> jack & 1:
        return jack
    if last:
        sure = winners
    else:
        top_trump = (unknown & tm).bit_length() - 1
        top_led = (unknown & SUIT_MASK[led]).bit_length() - 1
        sure = winners & ((tm & _above(top_trump)) | (SUIT_MASK[led] & _above(top_led)))
    value = 0
    jack_in = False
    for _, c in trick:
        value += VALUE[c]
        jack_in = jack_in or c == jack
    if jack_in or value >= 10:
        return _lowest_by(sure or winners, trump)
    if value > 0 or last:
        pick = sure & ~(1 << jack) & ~(tm & HIGH_RANKS)
        if pick:
            return _lowest_by(pick, trump)
    sure_cheap = sure & ~tm
    if sure_cheap:
        return _lowest_by(sure_cheap, trump)
    return _lowest_by(legal, trump)
