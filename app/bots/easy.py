"""The rule-based player: the habits of a sound club player, no look-ahead.

Its card play (``play_card``) also drives every seat in the standard player's play-outs, so
it works on bare masks and knows only the seat's hand and the cards out of play.
"""

from __future__ import annotations

from app.bots.sim import VALUE, Trick, winner_of
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


def choose(obs: Observation) -> Action:
    assert obs.seat is not None
    if len(obs.legal) == 1:
        return obs.legal[0]
    if obs.phase is Phase.BEG:
        wanted = stand_wanted(obs.hand, obs.kicks[0], obs.scores, obs.beggar, obs.rules)
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

STAND_AT = 3.5  # trump strength the beggar stands on
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
    hand: Hand, kick: Card, scores: tuple[int, int], beggar: int, rules: Rules
) -> bool:
    """The beggar stands on a good trump holding, or when the dealer's team could win the
    game on the kicks of a run pack."""
    us, them = beggar & 1, 1 - (beggar & 1)
    strength = trump_strength(hand, suit_of(kick))
    if scores[them] >= rules.target - 3 and strength >= 2.0:
        return True
    if scores[us] + 1 >= rules.target and rules.give_one_can_win:
        return False  # a give would win; the dealer must weigh running the pack
    return strength >= STAND_AT


def give_wanted(hand: Hand, kick: Card, scores: tuple[int, int], beggar: int, rules: Rules) -> bool:
    """The dealer keeps the kick's suit (giving one) when it suits his hand, unless that point
    brings the beggar's team too close to the target."""
    if scores[beggar & 1] + 1 >= rules.target - 1:
        return False
    return trump_strength(hand, suit_of(kick)) >= GIVE_AT


# -- card play (R13-R15) ---------------------------------------------------------------------


def discard_cost(card: Card, trump: int) -> int:
    """How much it hurts to throw ``card`` away: low plain cards first, tens and trumps last."""
    rank = card % 13
    if card // 13 == trump:
        return 200 if rank == JACK else 100 + rank
    if rank == TEN:
        return 40
    return rank


def _beats(card: Card, best: Card, trump: int) -> bool:
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump


def _lowest_by(cards: Hand, trump: int) -> Card:
    return min(cards_in(cards), key=lambda c: discard_cost(c, trump))


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
        # Pull trumps with the top trump while the jack is out: it may fall and hang.
        if unknown >> jack & 1 and top > jack and top > top_theirs:
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
    if card // 13 == trump:
        return not unknown & SUIT_MASK[trump] & ~((1 << card) - 1)
    suit = card // 13
    return not unknown & SUIT_MASK[suit] & ~((1 << card) - 1)


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
            if plain:
                feed = max(cards_in(plain), key=lambda c: (VALUE[c], -(c % 13)))
                if VALUE[feed] and (feed % 13 == TEN or not _sure(feed, trump, unknown, False)):
                    return feed
        return _lowest_by(legal, trump)
    winners = [c for c in cards_in(legal) if _beats(c, best, trump)]
    if not winners:
        return _lowest_by(legal, trump)
    value = sum(VALUE[c] for _, c in trick)
    jack_in = any(c == jack for _, c in trick)
    if last and jack in winners:
        return jack
    sure = [c for c in winners if _sure(c, trump, unknown, last)]
    cheap = [c for c in winners if c // 13 != trump]
    if jack_in or value >= 10:
        pick = sure or winners
        return min(pick, key=lambda c: discard_cost(c, trump) if c != jack else 150)
    if value > 0 or last:
        pick = [c for c in (sure or []) if c != jack and (c // 13 != trump or c % 13 < QUEEN)]
        if pick:
            return min(pick, key=lambda c: discard_cost(c, trump))
    if cheap:
        sure_cheap = [c for c in cheap if _sure(c, trump, unknown, last)]
        if sure_cheap:
            return min(sure_cheap, key=lambda c: discard_cost(c, trump))
    return _lowest_by(legal, trump)
