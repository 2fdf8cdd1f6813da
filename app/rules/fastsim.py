"""A fast path for simulation: many deals at once, vectorised with numpy.

The engine (``app.rules.engine``) is the reference; this module plays the same rules on
arrays so that bots can search thousands of deals per decision and the benchmark can play
tens of thousands of hands per second. ``tests/rules/test_fastsim_agrees.py`` replays its
decks and choices through the engine and checks both agree card for card and point for point.

Cards are the ints of ``app.rules.cards`` (``suit * 13 + rank``); hands are 52-bit masks in
``uint64`` arrays. Three entry points:

``simulate_deals``
    Whole deals from fresh decks: the deal of 6 (3 at a time, R6), the kick and kick points
    for every turned card (R7, ``kick_two``), a random stand or beg (R9), a random give one
    where the dealer may give one (R10, R11 with the scores passed in, ``give_one_needs_trump``)
    or running the pack until a new suit (R10), a redeal by the same dealer when the pack is
    exhausted (R12, ``flip_last_card``), trick play (R13-R15, ``undertrump``) and the scoring
    of High, Low, Jack / hang jack and Game (R16-R18, ``game_points``, ``game_tie``).
    It returns each deal's points per team. It does not stop at the target (R19): the points
    are the deal's, uncapped, and the game is not carried from deal to deal.

``playout``
    The play phase only: N determinised worlds of one deal in progress, played out to the
    end; returns the points each team scores for High, Low, Jack / hang jack and Game. Cards
    are played by a policy, one for all seats or one per seat: ``"random"`` (uniform over
    the legal cards) or ``"greedy"`` (cheap rules of thumb). A forced first card per world
    lets a bot score all its candidate cards in one call.

``deal_worlds``
    Random deals of the cards a seat cannot see, keeping hand sizes and known voids: the
    worlds to pass to ``playout``.

Not modelled here: bot decisions to beg or give (random with set rates), the game carried
from deal to deal, dealer rotation and the end of the game at the target (R5, R19).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from app.rules.cards import ACE, JACK, KING, QUEEN, SIX, TEN, TWO, cards_in
from app.rules.config import Rules

Masks = npt.NDArray[np.uint64]
Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]
Policy = Literal["random", "greedy"]
POLICIES: tuple[Policy, ...] = ("random", "greedy")
SeatPolicies = Policy | tuple[Policy, Policy, Policy, Policy]  # one for all, or one per seat


def _per_seat(policy: SeatPolicies) -> tuple[Policy, Policy, Policy, Policy]:
    seats = (policy,) * 4 if isinstance(policy, str) else tuple(policy)
    if len(seats) != 4 or any(p not in POLICIES for p in seats):
        raise ValueError(f"policy: one of {POLICIES}, or a tuple of 4 of them (one per seat)")
    return (seats[0], seats[1], seats[2], seats[3])


_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_SUIT = np.array([0x1FFF << (13 * s) for s in range(4)], dtype=np.uint64)
_SHIFT = np.array([13 * s for s in range(4)], dtype=np.uint64)
_RANK = np.array([sum(1 << (13 * s + r) for s in range(4)) for r in range(13)], dtype=np.uint64)
# R18: the ranks that count for Game and what each card of them is worth.
_GAME_VALUE = ((TEN, 10), (JACK, 1), (QUEEN, 2), (KING, 3), (ACE, 4))

# Deck positions (top = 0) of the deal, R6 and R10: three at a time to each seat starting on
# the dealer's right, so position p goes to relative seat (p // 3) % 4, where relative seat 0
# is the beggar (dealer + 1) and relative seat 3 the dealer.
_KICK_AT = 24  # after 6 cards each
_RUN_AT = (25, 38)  # the two runs of the pack: 12 cards dealt from here ...
_RUN_TURN = (37, 50)  # ... then this card is turned
_LAST = 51  # the last card, turned only under `flip_last_card`


# -- mask helpers ---------------------------------------------------------------------------


def _bits(cards: Ints) -> Masks:
    return np.left_shift(_ONE, cards.astype(np.uint64))


def _index(single: Masks) -> Ints:
    """The card of a one-bit mask (-1 for an empty one). Exact: masks are below 2**53."""
    return np.frexp(single.astype(np.float64))[1].astype(np.int64) - 1


def _highest(mask: Masks) -> Ints:
    return _index(mask)


def _lowest(mask: Masks) -> Ints:
    return _index(mask & (~mask + _ONE))


def _count(mask: Masks) -> Ints:
    return np.bitwise_count(mask).astype(np.int64)


def _holder(card: Ints, dealt: Masks) -> Ints:
    """The seat whose mask (one of ``dealt``'s 4 columns) holds ``card``; 0 when none does."""
    shift = np.maximum(card, 0).astype(np.uint64)[:, None]
    seats: Ints = np.argmax((dealt >> shift) & _ONE, axis=1).astype(np.int64)
    return seats


# -- choosing a card ------------------------------------------------------------------------


def _pick_random(legal: Masks, rng: np.random.Generator) -> Ints:
    """A card drawn uniformly from each legal mask."""
    k = (rng.random(legal.shape[0]) * _count(legal)).astype(np.int64)
    m = legal
    for i in range(int(k.max(initial=0))):
        m = m & (m - (k > i))  # clears the lowest bit where k > i
    return _lowest(m)


def _lowest_rank(mask: Masks) -> Ints:
    """The card of lowest rank in each mask (the lower suit on equal rank); -1 if empty."""
    ranks = (mask | (mask >> _SHIFT[1]) | (mask >> _SHIFT[2]) | (mask >> _SHIFT[3])) & _SUIT[0]
    rank = _lowest(ranks)
    return np.where(rank >= 0, _lowest(mask & _RANK[np.maximum(rank, 0)]), -1)


def _pick_greedy(
    legal: Masks,
    tmask: Masks,
    pos: int,
    best: Ints,
    best_seat: Ints,
    seat: Ints,
) -> Ints:
    """Cheap play: see ``playout``'s docstring for the policy in words."""
    plain = legal & ~tmask
    if pos == 0:
        aces = plain & _RANK[ACE]
        lead = np.where(aces != 0, _lowest(aces), _lowest_rank(plain))
        return np.where(plain != 0, lead, _lowest(legal & tmask))
    best_bit = _bits(best)
    best_suit = _SUIT[best // 13]
    above = best_suit & ~(best_bit | (best_bit - _ONE))
    best_is_trump = (best_bit & tmask) != 0
    beaters = legal & (above | np.where(best_is_trump, _ZERO, tmask))
    want = (beaters != 0) & (best_seat != (seat + 2) % 4)
    plain_beaters = beaters & ~tmask
    win = np.where(plain_beaters != 0, _lowest(plain_beaters), _lowest(beaters & tmask))
    discard = _lowest_rank(np.where(plain != 0, plain, legal))
    return np.where(want, win, discard)


# -- trick play (R13-R15) -------------------------------------------------------------------


@dataclass(frozen=True)
class PlayTrace:
    """Every card played by a batch, for tests: step ``j`` of world ``i`` is
    ``seats[i, j]`` playing ``cards[i, j]`` out of the legal mask ``legal[i, j]``; the
    ``k``-th trick completed in the playout went to ``winners[i, k]``."""

    seats: Ints
    cards: Ints
    legal: Masks
    winners: Ints


def _play_out(
    hands: Masks,
    won: Masks,
    trump: Ints,
    *,
    turn: Ints,
    trick: Sequence[tuple[int, int]],
    undertrump_forbidden: bool,
    policy: SeatPolicies,
    rng: np.random.Generator,
    record: bool,
    first: Ints | None = None,
    offset: Ints | None = None,
) -> tuple[Masks, PlayTrace | None]:
    """Play every card left in ``hands`` (N, 4); returns the teams' lifted cards (N, 2).

    ``trick`` is the trick in progress, common to all worlds; every world holds the same
    number of cards per seat, so all worlds are at the same point of their trick at each step.
    ``first``: the card each world's seat to play must play first (checked legal).
    ``offset``: when the seats here are relative, seat ``s`` is ``policy``'s ``(s + offset) % 4``.
    """
    n = hands.shape[0]
    rows = np.arange(n)
    hands = hands.copy()
    won = won.copy()
    tmask = _SUIT[trump]
    steps = int(_count(hands[0]).sum()) if n else 0
    pos = len(trick)
    pile = np.zeros(n, dtype=np.uint64)
    led = np.zeros(n, dtype=np.int64)
    best = np.zeros(n, dtype=np.int64)
    best_seat = np.zeros(n, dtype=np.int64)
    for i, (s, c) in enumerate(trick):
        cards = np.full(n, c, dtype=np.int64)
        pile |= _bits(cards)
        if i == 0:
            led[:], best[:], best_seat[:] = c // 13, c, s
        else:
            beats = ((c // 13 == best // 13) & (c > best)) | (
                (c // 13 == trump) & (best // 13 != trump)
            )
            best = np.where(beats, c, best)
            best_seat = np.where(beats, s, best_seat)
    seat = turn.astype(np.int64)
    trace_seats = np.zeros((n, steps), dtype=np.int64) if record else None
    trace_cards = np.zeros((n, steps), dtype=np.int64) if record else None
    trace_legal = np.zeros((n, steps), dtype=np.uint64) if record else None
    winners: list[Ints] = []
    led_mask, plain_led = _SUIT[led], led != trump
    greedy_seat = np.array([p == "greedy" for p in _per_seat(policy)])
    any_greedy, all_greedy = bool(greedy_seat.any()), bool(greedy_seat.all())
    for step in range(steps):
        hand = hands[rows, seat]
        if pos == 0:
            legal = hand
        else:
            # R14: follow suit or trump (when trump is led, ``follow`` is the trumps); a hand
            # that cannot follow may play anything.
            trumps = hand & tmask
            follow = hand & led_mask
            legal = np.where(follow != 0, follow | trumps, hand)
            if undertrump_forbidden:
                best_bit = _bits(best)
                overtrumped = plain_led & ((best_bit & tmask) != 0) & (trumps != hand)
                legal = np.where(overtrumped, legal & ~(trumps & (best_bit - _ONE)), legal)
        if step == 0 and first is not None:
            if ((legal & _bits(first)) == 0).any():
                world = int(np.argmax((legal & _bits(first)) == 0))
                raise ValueError(f"first: card {first[world]} is not legal in world {world}")
            card = first
        elif not any_greedy:
            card = _pick_random(legal, rng)
        elif all_greedy:
            card = _pick_greedy(legal, tmask, pos, best, best_seat, seat)
        else:
            card = np.where(
                greedy_seat[seat if offset is None else (seat + offset) & 3],
                _pick_greedy(legal, tmask, pos, best, best_seat, seat),
                _pick_random(legal, rng),
            )
        if trace_seats is not None and trace_cards is not None and trace_legal is not None:
            trace_seats[:, step], trace_cards[:, step], trace_legal[:, step] = seat, card, legal
        bit = _bits(card)
        hands[rows, seat] = hand ^ bit
        pile |= bit
        if pos == 0:
            led, best, best_seat = card // 13, card, seat
            led_mask, plain_led = _SUIT[led], led != trump
        else:
            # R15: the highest trump, else the highest card of the suit led.
            suit = card // 13
            beats = ((suit == best // 13) & (card > best)) | (
                (suit == trump) & (best // 13 != trump)
            )
            best = np.where(beats, card, best)
            best_seat = np.where(beats, seat, best_seat)
        pos += 1
        if pos == 4:
            won[rows, best_seat & 1] |= pile
            pile = np.zeros(n, dtype=np.uint64)
            seat = best_seat
            winners.append(best_seat)
            pos = 0
        else:
            seat = (seat + 1) & 3
    trace = None
    if trace_seats is not None and trace_cards is not None and trace_legal is not None:
        w = np.stack(winners, axis=1) if winners else np.zeros((n, 0), dtype=np.int64)
        trace = PlayTrace(trace_seats, trace_cards, trace_legal, w)
    return won, trace


# -- scoring (R16-R18) ----------------------------------------------------------------------


@dataclass(frozen=True)
class Scoring:
    """The end-of-deal awards of a batch, by team index (-1: not awarded), in R16-R18 order."""

    high: Ints
    low: Ints
    jack: Ints  # the team scoring the jack of trumps (1 point, or 3 for a hang jack)
    jack_points: Ints  # 0 when the jack was not dealt
    game: Ints
    game_points: int

    def points(self) -> Ints:
        """Points per team, (N, 2), summed over the awards (not capped at any target)."""
        n = self.high.shape[0]
        pts = np.zeros((n, 2), dtype=np.int64)
        for team in (0, 1):
            pts[:, team] = (
                (self.high == team).astype(np.int64)
                + (self.low == team)
                + np.where(self.jack == team, self.jack_points, 0)
                + np.where(self.game == team, self.game_points, 0)
            )
        return pts


def _score(dealt: Masks, won: Masks, trump: Ints, tie_team: Ints, rules: Rules) -> Scoring:
    """R16-R18 for a batch; ``dealt`` (N, 4) and ``won`` (N, 2) index teams as seat % 2."""
    tmask = _SUIT[trump]
    in_play = (dealt[:, 0] | dealt[:, 1] | dealt[:, 2] | dealt[:, 3]) & tmask
    any_trump = in_play != 0
    high = np.where(any_trump, _holder(_highest(in_play), dealt) & 1, -1)
    low = np.where(any_trump, _holder(_lowest(in_play), dealt) & 1, -1)
    jack_card = trump * 13 + JACK
    jack_bit = _bits(jack_card)
    jack_dealt = (in_play & jack_bit) != 0
    capturers = np.where((won[:, 0] & jack_bit) != 0, 0, 1)
    own = capturers == (_holder(jack_card, dealt) & 1)
    jack = np.where(jack_dealt, capturers, -1)
    jack_points = np.where(jack_dealt, np.where(own, 1, 3), 0)
    totals = np.zeros((dealt.shape[0], 2), dtype=np.int64)
    for rank, value in _GAME_VALUE:
        totals += _count(won & _RANK[rank]) * value
    tie = tie_team if rules.game_tie == "non_dealer" else np.full_like(tie_team, -1)
    game = np.where(totals[:, 0] > totals[:, 1], 0, np.where(totals[:, 1] > totals[:, 0], 1, tie))
    return Scoring(
        high.astype(np.int64),
        low.astype(np.int64),
        jack.astype(np.int64),
        jack_points.astype(np.int64),
        game.astype(np.int64),
        rules.game_points,
    )


# -- the batch playout for the bots ---------------------------------------------------------


def playout(
    *,
    dealt: npt.ArrayLike,
    hands: npt.ArrayLike,
    won: npt.ArrayLike,
    trick: Sequence[tuple[int, int]],
    turn: int,
    trump: int,
    dealer: int,
    rules: Rules,
    rng: np.random.Generator,
    policy: SeatPolicies = "random",
    first: npt.ArrayLike | None = None,
) -> Ints:
    """Play N determinised worlds of one deal to the end; the points each team scores.

    The deal must be in the play phase (trump fixed). All worlds share the public facts —
    trump, dealer, the trick in progress, whose turn it is, how many cards each seat holds —
    and differ in who holds which unseen card.

    Arguments (cards are the ints 0..51 of ``app.rules.cards``, masks are ``uint64`` with
    bit ``card`` set; teams are ``seat % 2``):

    - ``dealt``: (N, 4) masks, everything each seat was dealt this deal (including cards
      dealt while running the pack and cards already played). Decides High, Low and whose
      jack it was (R16, R17).
    - ``hands``: (N, 4) masks of the cards each seat still holds; every world must give each
      seat the same number of cards, and together with the trick and ``won`` the cards must
      be what was dealt.
    - ``won``: (N, 2) masks of the cards each team has lifted in completed tricks so far.
    - ``trick``: the trick in progress, ``[(seat, card), ...]`` in play order (may be empty);
      those cards are no longer in ``hands``.
    - ``turn``: the seat to play now (the leader when ``trick`` is empty).
    - ``trump``: the trump suit 0..3 (C D H S); ``dealer``: the dealer's seat (for the
      ``game_tie="non_dealer"`` option).
    - ``rules``: the room's rules (``undertrump``, ``game_points``, ``game_tie`` matter).
    - ``rng``: the numpy Generator the random choices come from.
    - ``first``: optional, (N,) cards (or one card for all worlds): the card the seat to
      play plays now in each world, before the policy takes over. It must be legal in every
      world (else ``ValueError``). To score every candidate card in one call, tile the worlds
      once per candidate (``np.repeat``) and pass the matching candidates: one call over
      N * k worlds is far cheaper than k calls over N (the cost is mostly per step, not per
      world, below a few hundred worlds).
    - ``policy``: how the seats play from here on, legally (R14, ``undertrump``): one
      policy for all four seats, or a tuple of four (indexed by seat):

      * ``"random"``: a card drawn uniformly from the legal cards.
      * ``"greedy"``: when leading, a plain-suit ace if held, else the lowest-ranked plain
        card, else the lowest trump. When following, if some legal card beats the trick so
        far and the partner is not the one winning it, the cheapest such card (the lowest
        card of the suit led that beats it, else the lowest trump that does); otherwise the
        lowest-ranked legal card, a plain card rather than a trump.

    Returns an ``int64`` array (N, 2): the points each team scores at the end of the deal for
    High, Low, Jack or hang jack and Game (R16-R18) — not kick or give-one points, which are
    already on the board, and not capped at the target (R19 is the caller's business).
    Raises ``ValueError`` when the worlds do not fit the trick and turn, or ``first`` is
    illegal somewhere.

    Example, a PIMC step for the seat to play (``me``), every legal card in one call::

        worlds = deal_worlds(n, unseen=unseen, sizes=sizes, voids=voids,
                             known=[my_hand if s == me else 0 for s in range(4)], rng=rng)
        cards = list(cards_in(my_legal_mask))
        hands = np.repeat(worlds, len(cards), axis=0)   # world-major: (n * k, 4)
        dealt = hands | np.array(played_by_seat, dtype=np.uint64)
        pts = playout(dealt=dealt, hands=hands, won=np.tile(won, (n * len(cards), 1)),
                      trick=trick, turn=me, trump=trump, dealer=dealer, rules=rules,
                      rng=rng, policy="greedy", first=np.tile(cards, n))
        gain = (pts[:, me % 2] - pts[:, 1 - me % 2]).reshape(n, len(cards)).mean(axis=0)
    """
    return playout_traced(
        dealt=dealt,
        hands=hands,
        won=won,
        trick=trick,
        turn=turn,
        trump=trump,
        dealer=dealer,
        rules=rules,
        rng=rng,
        policy=policy,
        first=first,
        record=False,
    )[0]


def playout_traced(
    *,
    dealt: npt.ArrayLike,
    hands: npt.ArrayLike,
    won: npt.ArrayLike,
    trick: Sequence[tuple[int, int]],
    turn: int,
    trump: int,
    dealer: int,
    rules: Rules,
    rng: np.random.Generator,
    policy: SeatPolicies = "random",
    first: npt.ArrayLike | None = None,
    record: bool = True,
) -> tuple[Ints, Scoring, PlayTrace | None]:
    """``playout`` that also returns the awards and (with ``record``) every card played."""
    _per_seat(policy)
    dealt_m = np.asarray(dealt, dtype=np.uint64).reshape(-1, 4)
    hands_m = np.asarray(hands, dtype=np.uint64).reshape(-1, 4)
    won_m = np.asarray(won, dtype=np.uint64).reshape(-1, 2)
    n = hands_m.shape[0]
    if dealt_m.shape[0] != n or won_m.shape[0] != n:
        raise ValueError("dealt, hands and won must describe the same number of worlds")
    if len(trick) >= 4:
        raise ValueError("a trick in progress holds at most 3 cards")
    if trick and turn != (trick[-1][0] + 1) % 4:
        raise ValueError("turn must be the seat after the last card of the trick")
    counts = _count(hands_m)
    if n and (counts != counts[0]).any():
        raise ValueError("every world must give each seat the same number of cards")
    in_trick = {seat for seat, _ in trick}
    if n and len({int(counts[0, s]) + (s in in_trick) for s in range(4)}) != 1:
        raise ValueError("hand sizes do not fit the trick: each seat holds as many cards")
    first_cards = None
    if first is not None:
        first_cards = np.broadcast_to(np.asarray(first, dtype=np.int64), (n,))
        if not n or not hands_m[0].any():
            raise ValueError("first: the deal is already played out")
    trumps = np.full(n, trump, dtype=np.int64)
    final_won, trace = _play_out(
        hands_m,
        won_m,
        trumps,
        turn=np.full(n, turn, dtype=np.int64),
        trick=list(trick),
        undertrump_forbidden=rules.undertrump == "forbidden",
        policy=policy,
        rng=rng,
        record=record,
        first=first_cards,
    )
    scoring = _score(dealt_m, final_won, trumps, np.full(n, (dealer + 1) % 2), rules)
    return scoring.points(), scoring, trace


# -- determinised worlds for the playout -----------------------------------------------------


def deal_worlds(
    n: int,
    *,
    unseen: int,
    sizes: Sequence[int],
    rng: np.random.Generator,
    voids: Sequence[int] = (0, 0, 0, 0),
    known: Sequence[int] = (0, 0, 0, 0),
    attempts: int = 100,
) -> Masks:
    """``n`` random deals of the ``unseen`` cards (a mask) to the four seats: (n, 4) masks.

    Seat ``s`` receives ``sizes[s]`` of the unseen cards (0 for the viewer) and never a card
    of ``voids[s]`` (a mask, e.g. the suits it has shown it lacks); ``known[s]`` (e.g. the
    viewer's own hand) is added to its mask as it is. ``sizes`` must add up to the number of
    unseen cards. Without voids every deal is equally likely; with voids, cards that fewer
    seats may hold are dealt first, each to a seat drawn in proportion to the cards it still
    needs among the seats allowed it (close to uniform, not exactly), and the rare worlds that
    run into a dead end are dealt again, up to ``attempts`` times (then ``ValueError``).

    Use the result as ``hands``; ``hands | played_by_seat`` is ``dealt`` for ``playout``.
    """
    cards = np.array(list(cards_in(unseen)), dtype=np.int64)
    need0 = np.array(sizes, dtype=np.int64).reshape(4)
    if need0.min() < 0 or need0.sum() != cards.size:
        raise ValueError("sizes must be >= 0 and add up to the number of unseen cards")
    void = np.array(voids, dtype=np.uint64).reshape(4)
    allowed = ((void[None, :] >> cards.astype(np.uint64)[:, None]) & _ONE) == 0  # (u, 4)
    if (allowed.sum(axis=1) == 0).any():
        raise ValueError("an unseen card no seat may hold")
    # the most constrained cards first, in random order among equals
    level = allowed.sum(axis=1).astype(np.float64)
    extra = np.array(known, dtype=np.uint64).reshape(4)
    out = np.zeros((n, 4), dtype=np.uint64)
    todo = np.arange(n)
    for _ in range(attempts):
        m = todo.size
        if not m:
            return out
        rows = np.arange(m)
        order = np.argsort(level[None, :] + rng.random((m, cards.size)), axis=1)
        need = np.tile(need0, (m, 1))
        hands = np.zeros((m, 4), dtype=np.uint64)
        ok = np.ones(m, dtype=np.bool_)
        for j in range(cards.size):
            pick = order[:, j]
            weight = np.where(allowed[pick], need, 0)
            total = weight.sum(axis=1)
            ok &= total > 0
            r = rng.random(m) * total
            seat = np.minimum((np.cumsum(weight, axis=1) <= r[:, None]).sum(axis=1), 3)
            hands[rows, seat] |= _bits(cards[pick])
            need[rows, seat] -= 1
        out[todo[ok]] = hands[ok] | extra
        todo = todo[~ok]
    if todo.size:
        raise ValueError("no deal of the unseen cards fits the voids")
    return out


# -- whole deals ----------------------------------------------------------------------------


@dataclass
class DealTrace:
    """One deal of a batch as the engine would see it (seats and teams absolute), for tests."""

    dealer: int
    decks: list[list[int]]  # one deck per attempt (a redeal starts a new one), top first
    decisions: list[list[str]]  # per attempt: "stand" | "beg", then "give_one" | "run_pack"
    give_offered: list[bool]  # per attempt: whether the dealer could have given one
    dealt: list[int]  # the final attempt's dealt masks, per seat
    trump: int
    plays: list[tuple[int, int, int]]  # (seat, card, legal mask) in play order
    winners: list[int]  # each trick's winning seat
    awards: list[tuple[str, int, int]]  # (kind, team, points), in the order awarded


@dataclass(frozen=True)
class DealBatch:
    """The outcome of ``simulate_deals``: per deal, the dealer and each team's points."""

    dealer: Ints  # (N,)
    points: Ints  # (N, 2): every point the deal scored, kicks included, uncapped
    trump: Ints  # (N,)
    hand_size: Ints  # (N,): 6, 9 or 12
    traces: list[DealTrace] | None


def _kick_table(rules: Rules) -> Ints:
    table = np.zeros(13, dtype=np.int64)
    table[ACE], table[JACK] = 1, 3
    table[TWO if rules.kick_two else SIX] = 2
    return table


def simulate_deals(
    n: int,
    rules: Rules,
    rng: np.random.Generator,
    *,
    dealer: int | npt.ArrayLike | None = None,
    scores: npt.ArrayLike | None = None,
    beg_rate: float | npt.ArrayLike = 0.5,
    give_rate: float | npt.ArrayLike = 0.5,
    policy: SeatPolicies = "random",
    decks: npt.ArrayLike | None = None,
    record: bool = False,
) -> DealBatch:
    """Play ``n`` whole deals from fresh shuffles (see the module docstring for what is
    covered). ``dealer``: a seat or one per deal (random when None). ``scores``: (n, 2) the
    scores before the deal, used only for R11 (the dealer may not give the winning point).
    The beggar begs with probability ``beg_rate``; a dealer allowed to give one gives it
    with probability ``give_rate`` (each a number or one per deal: 0 and 1 force the
    choice). ``policy``: how the cards are played, as in ``playout`` (one for all, or one per
    seat). ``decks``: (n, 52) deck orders (top first) for the first attempt of each deal, e.g.
    a bot's own hand and kick fixed and the rest shuffled; a redeal shuffles afresh.
    ``record`` keeps a ``DealTrace`` per deal (slow; tests).
    """
    if dealer is None:
        dealers = rng.integers(0, 4, size=n).astype(np.int64)
    else:
        dealers = np.broadcast_to(np.asarray(dealer, dtype=np.int64), (n,)).copy()
    start = (
        np.zeros((n, 2), dtype=np.int64)
        if scores is None
        else np.asarray(scores, dtype=np.int64).reshape(n, 2)
    )
    beggar_team = (dealers + 1) % 2
    dealer_team = dealers % 2
    # Kept in relative seats (0 = the beggar, 3 = the dealer): team 0 is the beggar's.
    may_give_by_score = rules.give_one_can_win | (
        start[np.arange(n), beggar_team] + 1 < rules.target
    )
    kick_pts = _kick_table(rules)
    rel_points = np.zeros((n, 2), dtype=np.int64)
    dealt = np.zeros((n, 4), dtype=np.uint64)
    trump = np.zeros(n, dtype=np.int64)
    size = np.zeros(n, dtype=np.int64)
    traces = (
        [DealTrace(int(dealers[i]), [], [], [], [], -1, [], [], []) for i in range(n)]
        if record
        else None
    )

    beg_p = np.broadcast_to(np.asarray(beg_rate, dtype=np.float64), (n,))
    give_p = np.broadcast_to(np.asarray(give_rate, dtype=np.float64), (n,))
    given = None
    if decks is not None:
        given = np.asarray(decks, dtype=np.int64).reshape(n, 52)
        if (np.sort(given, axis=1) != np.arange(52)).any():
            raise ValueError("decks: each row must hold each of the 52 cards once")

    active = np.arange(n)
    while active.size:
        m = active.size
        if given is not None:
            deck = given
            given = None
        else:
            deck = rng.permuted(np.tile(np.arange(52, dtype=np.int64), (m, 1)), axis=1)
        bits = _bits(deck)
        first_six = np.bitwise_or.reduce(bits[:, :24].reshape(m, 2, 4, 3), axis=(1, 3))
        runs = [np.bitwise_or.reduce(bits[:, a : a + 12].reshape(m, 4, 3), axis=2) for a in _RUN_AT]
        kick = deck[:, _KICK_AT]
        kick_suit = kick // 13
        beg = rng.random(m) < beg_p[active]
        may_give = may_give_by_score[active]
        if rules.give_one_needs_trump:
            may_give = may_give & ((first_six[:, 3] & _SUIT[kick_suit]) != 0)
        give = beg & may_give & (rng.random(m) < give_p[active])
        run = beg & ~give
        turned = [kick, deck[:, _RUN_TURN[0]], deck[:, _RUN_TURN[1]], deck[:, _LAST]]
        new_suit = [t // 13 != kick_suit for t in turned]
        # which turned cards were turned, R10 and R12
        flips = [
            np.ones(m, dtype=np.bool_),
            run,
            run & ~new_suit[1],
            run & ~new_suit[1] & ~new_suit[2] & rules.flip_last_card,
        ]
        kicked = sum(np.where(f, kick_pts[t % 13], 0) for f, t in zip(flips, turned, strict=True))
        rel_points[active, 1] += kicked
        rel_points[active, 0] += give
        redeal = run & ~new_suit[1] & ~new_suit[2] & (~new_suit[3] | (not rules.flip_last_card))
        attempt_size = np.where(run & new_suit[1], 9, np.where(run, 12, 6))
        attempt_trump = np.where(
            ~run,
            kick_suit,
            np.where(
                new_suit[1],
                turned[1] // 13,
                np.where(new_suit[2], turned[2] // 13, turned[3] // 13),
            ),
        )
        attempt_dealt = (
            first_six
            | np.where((attempt_size >= 9)[:, None], runs[0], _ZERO)
            | np.where((attempt_size == 12)[:, None], runs[1], _ZERO)
        )
        done = ~redeal
        ids = active[done]
        dealt[ids] = attempt_dealt[done]
        trump[ids] = attempt_trump[done]
        size[ids] = attempt_size[done]
        if traces is not None:
            _trace_attempt(
                traces,
                active,
                deck,
                (beg, give, may_give),
                flips,
                turned,
                kick_pts,
                beggar_team,
                dealer_team,
            )
        active = active[redeal]

    won = np.zeros((n, 2), dtype=np.uint64)
    plays: list[tuple[Ints, PlayTrace | None]] = []
    for hand_size in (6, 9, 12):
        ids = np.flatnonzero(size == hand_size)
        if not ids.size:
            continue
        w, t = _play_out(
            dealt[ids],
            np.zeros((ids.size, 2), dtype=np.uint64),
            trump[ids],
            turn=np.zeros(ids.size, dtype=np.int64),
            trick=(),
            undertrump_forbidden=rules.undertrump == "forbidden",
            policy=policy,
            rng=rng,
            record=record,
            offset=dealers[ids] + 1,
        )
        won[ids] = w
        plays.append((ids, t))
    scoring = _score(dealt, won, trump, np.zeros(n, dtype=np.int64), rules)
    rel_points += scoring.points()
    # relative team 0 (the beggar's) is absolute team (dealer + 1) % 2
    points = np.zeros((n, 2), dtype=np.int64)
    rows = np.arange(n)
    points[rows, beggar_team] = rel_points[:, 0]
    points[rows, dealer_team] = rel_points[:, 1]
    if traces is not None:
        _trace_play(traces, dealers, dealt, trump, plays, scoring, beggar_team)
    return DealBatch(dealers, points, trump, size, traces)


def _trace_attempt(
    traces: list[DealTrace],
    active: Ints,
    decks: Ints,
    choices: tuple[Bools, Bools, Bools],
    flips: list[Bools],
    turned: list[Ints],
    kick_pts: Ints,
    beggar_team: Ints,
    dealer_team: Ints,
) -> None:
    beg, give, may_give = choices
    for j, i in enumerate(active.tolist()):
        tr = traces[i]
        tr.give_offered.append(bool(may_give[j]))
        tr.decks.append(decks[j].tolist())
        decisions = ["beg" if beg[j] else "stand"]
        if beg[j]:
            decisions.append("give_one" if give[j] else "run_pack")
        tr.decisions.append(decisions)
        for step, (f, t) in enumerate(zip(flips, turned, strict=True)):
            if f[j] and kick_pts[t[j] % 13]:
                tr.awards.append(("kick", int(dealer_team[i]), int(kick_pts[t[j] % 13])))
            if step == 0 and give[j]:
                tr.awards.append(("give_one", int(beggar_team[i]), 1))


def _trace_play(
    traces: list[DealTrace],
    dealers: Ints,
    dealt: Masks,
    trump: Ints,
    plays: list[tuple[Ints, PlayTrace | None]],
    scoring: Scoring,
    beggar_team: Ints,
) -> None:
    def absolute(i: int, rel_team: int) -> int:
        return int(beggar_team[i]) if rel_team == 0 else 1 - int(beggar_team[i])

    for ids, trace in plays:
        assert trace is not None
        for j, i in enumerate(ids.tolist()):
            tr = traces[i]
            shift = int(dealers[i]) + 1
            tr.plays = [
                (
                    (int(s) + shift) % 4,
                    int(c),
                    int(lg),
                )
                for s, c, lg in zip(trace.seats[j], trace.cards[j], trace.legal[j], strict=True)
            ]
            tr.winners = [(int(w) + shift) % 4 for w in trace.winners[j]]
    for i, tr in enumerate(traces):
        shift = int(dealers[i]) + 1
        tr.dealt = [int(dealt[i, (s - shift) % 4]) for s in range(4)]
        tr.trump = int(trump[i])
        for kind, team, pts in (
            ("high", scoring.high[i], 1),
            ("low", scoring.low[i], 1),
            (
                "jack" if scoring.jack_points[i] == 1 else "hang_jack",
                scoring.jack[i],
                scoring.jack_points[i],
            ),
            ("game", scoring.game[i], scoring.game_points),
        ):
            if team >= 0:
                tr.awards.append((kind, absolute(i, int(team)), int(pts)))
