"""The review of a finished game (issue #38): what each decision of each seat cost.

A game is replayed from its seed and actions. At every decision of the seat on turn (stand or
beg, give one or run the pack, every card) each legal action is judged by the points of the
hand it brings the seat's team, net of the other team's (High, Low, Jack or hang jack, Game,
kick and give points, renege penalties), averaged over deals imagined from that seat's
Observation alone (``observe`` is the only door: the hidden hands are never read).

In renege mode a seat's calls and its "score it" are decisions too (R22-R23), and a renege is
priced with its penalty (R24). The review assumes an attentive table, as the computer players
are: a renege is always found out by the hand's end (the card the offender kept must be
played before it ends, and that proves it, R26), so playing one costs its penalty; a call is
right when the seat had seen its renege proven, and otherwise judged as the wrong call it
would be at a table where no one reneges unseen (R25's penalty, none with `false_call`
free); saying "score it" while a renege the seat had seen proven stands uncalled gives that
penalty up. A game won by a penalty (a bullseye) counts as the points the winners still
needed.
Every action is judged on the same imagined deals, each played out by the standard player's
play-out policy (the easy player's habits), so two actions' difference is not noise of the
draw. ``loss`` = best's mean - chosen's mean, reported 0 when the paired differences cannot
tell it from 0 (within ``SIGNIFICANCE`` standard errors). A forced action costs 0.

Pure and free of I/O: the chances are drawn from the game's seed and the decision's place in
it, so the same game (seed, actions) always gets the same review.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from app.bots import bidding, easy
from app.bots.knowledge import knowledge_of
from app.bots.playout import play_out
from app.bots.renege import proven_lifts
from app.rules.cards import Card, Hand, mask_of, rank_of, suit_of
from app.rules.config import Rules
from app.rules.engine import apply, new_game
from app.rules.imagined import Imagined, imagined
from app.rules.legal import give_one_refusal
from app.rules.renege import holds_honour
from app.rules.shuffle import SHUFFLE
from app.rules.state import ACTION_TYPES, Action, Phase, Renege
from app.rules.tricks import renege_kind
from app.rules.view import Observation, observe

WORLDS = 384  # imagined deals a decision is judged on, as served (ALLFOURS_REVIEW_WORLDS)
SIGNIFICANCE = 2.0  # standard errors of the paired difference below which a loss is 0
COSTLY = 0.25  # points of a hand: a decision that gave up this much is costly

# progress(done, total) after each decision: the worker writes it where the page reads it.
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class Judged:
    """One decision as reviewed."""

    hand: int  # the deal's number in the game, 1-based
    seat: int
    action: Action
    best: Action | None  # None: not to call (the better choice to a call of renege)
    loss: float  # points of the hand given up against ``best``; 0 if none can be shown
    why: str | None = None  # a reason code from ``REASONS``, when one applies
    index: int = 0  # the action's place among the game's actions, 0-based


@dataclass(frozen=True, slots=True)
class SeatSummary:
    seat: int
    decisions: int
    costly: int
    average_loss: float


def review_key(
    rules: Rules, seed: int, first_dealer: int | None, shuffle: int, actions: Sequence[Action]
) -> str:
    """What a review depends on, hashed: the same game in two rooms shares one review."""
    text = json.dumps(
        [
            rules.model_dump(mode="json"),
            str(seed),
            first_dealer,
            shuffle,
            [[a.type, a.card, a.seat, a.lift] for a in actions],
        ],
        sort_keys=True,
    )
    return hashlib.sha256(text.encode()).hexdigest()


def review_game(
    rules: Rules,
    seed: int,
    first_dealer: int | None,
    actions: Sequence[Action],
    *,
    shuffle: int = SHUFFLE,
    stacked: Sequence[Sequence[int]] = (),
    worlds: int = WORLDS,
    progress: Progress | None = None,
) -> list[Judged]:
    """Every decision of every seat of the game, in the order played (forced ones included):
    in renege mode a seat's calls and its "score it" too (the reckoning's time running out
    is no one's decision)."""
    state = new_game(rules, seed, first_dealer, stacked=stacked, shuffle=shuffle)
    total = sum(1 for a in actions if _decides(a))
    judged: list[Judged] = []
    for index, action in enumerate(actions):
        if _decides(action):
            seat = state.turn if action.type in ACTION_TYPES else action.seat
            assert seat is not None, "a seat's action with no seat on turn"
            obs = observe(state, seat)
            rng = random.Random(f"allfours-review:{seed}:{index}")
            if action.type in ACTION_TYPES:
                decision = judge(obs, action, rng, worlds)
            else:
                decision = judge_table_action(obs, action, rng, worlds)
            judged.append(replace(decision, index=index))
            if progress is not None:
                progress(len(judged), total)
        state = apply(state, action)
    return judged


def _decides(action: Action) -> bool:
    """A seat's decision: its turn's action, or in renege mode its call or its "score it"."""
    return action.type in ACTION_TYPES or action.type in ("call", "reckoned")


def judge(obs: Observation, chosen: Action, rng: random.Random, worlds: int = WORLDS) -> Judged:
    """The decision ``chosen`` of the seat to act in ``obs``, judged from ``obs`` alone."""
    assert obs.seat is not None
    hand = obs.hand_number
    if len(obs.legal) <= 1:
        return Judged(hand, obs.seat, chosen, chosen, 0.0)
    candidates = _candidates(obs, chosen)
    if len(candidates) == 1:
        return Judged(hand, obs.seat, chosen, chosen, 0.0)
    values = _values(obs, candidates, rng, worlds)
    means = [sum(v) / len(v) for v in values]
    best = max(range(len(candidates)), key=lambda i: (means[i], -i))
    mine = candidates.index(chosen)
    if best == mine:
        return Judged(hand, obs.seat, chosen, chosen, 0.0)
    loss = _shown_loss(values[best], values[mine])
    if not loss:
        return Judged(hand, obs.seat, chosen, candidates[best], 0.0)
    better = candidates[best]
    return Judged(hand, obs.seat, chosen, better, loss, why(obs, chosen, better))


def judge_table_action(
    obs: Observation, chosen: Action, rng: random.Random, worlds: int = WORLDS
) -> Judged:
    """A seat's call of renege or its "score it" (R22-R23), judged from ``obs`` alone."""
    assert obs.seat is not None
    hand, seat = obs.hand_number, obs.seat
    proven = proven_lifts(obs)
    if chosen.type == "call":
        if chosen.lift in proven:
            return Judged(hand, seat, chosen, chosen, 0.0)  # the seat had seen it proven
        calling, not_calling = _call_values(obs, chosen.lift or 0, None, rng, worlds)
        loss = _shown_loss(not_calling, calling)
        if not loss:
            return Judged(hand, seat, chosen, chosen, 0.0)
        return Judged(hand, seat, chosen, None, loss, "call_unproven")
    shown = [lift for lift in proven if not _called(obs, lift, seat)]
    if not shown:
        return Judged(hand, seat, chosen, chosen, 0.0)
    lift = shown[0]
    calling, not_calling = _call_values(obs, lift, _renege_in(obs, lift), rng, worlds)
    loss = _shown_loss(calling, not_calling)
    if not loss:
        return Judged(hand, seat, chosen, chosen, 0.0)
    better = Action("call", seat=seat, lift=lift)
    return Judged(hand, seat, chosen, better, loss, "renege_let_go")


def _shown_loss(best: Sequence[float], mine: Sequence[float]) -> float:
    """How much ``mine`` gave up against ``best`` on the same deals, 0 when the paired
    differences cannot tell it from 0 (one deal: no chance was involved, it is exact)."""
    diffs = [b - c for b, c in zip(best, mine, strict=True)]
    loss = sum(diffs) / len(diffs)
    noise = _standard_error(diffs) if len(diffs) > 1 else 0.0
    return round(loss, 3) if loss > SIGNIFICANCE * noise and loss > 0 else 0.0


JACK, TEN = 9, 8  # ranks (app.rules.cards: 2 is 0, the ace 12)

# The reasons a review names (the page says them in the reader's language).
REASONS = (
    "should_stand",
    "should_beg",
    "should_give",
    "should_run",
    "jack_risked",
    "jack_not_saved",
    "ten_given",
    "trump_wasted",
    "renege_found_out",
    "call_unproven",
    "renege_let_go",
)


def why(obs: Observation, chosen: Action, better: Action) -> str | None:
    """A short reason for a costly decision, where one of the known ones fits."""
    if chosen.card is not None and obs.renege_cards >> chosen.card & 1:
        return "renege_found_out"
    if chosen.card is None:
        return {
            "stand": "should_stand",
            "beg": "should_beg",
            "give_one": "should_give",
            "run_pack": "should_run",
        }.get(better.type)
    trump = obs.trump
    card = chosen.card
    if suit_of(card) == trump and rank_of(card) == JACK:
        return "jack_risked"
    if better.card is not None and suit_of(better.card) == trump and rank_of(better.card) == JACK:
        return "jack_not_saved"
    if rank_of(card) == TEN and (better.card is None or rank_of(better.card) != TEN):
        return "ten_given"
    if suit_of(card) == trump and better.card is not None and suit_of(better.card) != trump:
        return "trump_wasted"
    return None


HINT_WORLDS = 64  # a hint is asked at the table: the standard player's count, not a review's


def hint(obs: Observation, rng: random.Random, worlds: int = HINT_WORLDS) -> tuple[Action, str]:
    """The action to suggest to the seat to act, and why in a reason code: one of
    ``REASONS`` (what the next best action would risk), ``only_one`` (forced) or ``close``
    (the next best is about as good)."""
    candidates = _candidates(obs, obs.legal[0]) if obs.legal else []
    if len(candidates) <= 1:
        return obs.legal[0], "only_one"
    values = _values(obs, candidates, rng, worlds)
    means = [sum(v) / len(v) for v in values]
    order = sorted(range(len(candidates)), key=lambda i: (-means[i], i))
    best, second = order[0], order[1]
    if not _shown_loss(values[best], values[second]):
        return candidates[best], "close"
    return candidates[best], why(obs, candidates[second], candidates[best]) or "best_on_average"


def summarize(judged: Sequence[Judged]) -> list[SeatSummary]:
    """Per seat: its decisions, the costly ones, the average loss over all of them."""
    out = []
    for seat in range(4):
        mine = [j for j in judged if j.seat == seat]
        costly = sum(1 for j in mine if j.loss >= COSTLY)
        average = sum(j.loss for j in mine) / len(mine) if mine else 0.0
        out.append(SeatSummary(seat, len(mine), costly, round(average, 3)))
    return out


def _candidates(obs: Observation, chosen: Action) -> list[Action]:
    """The actions judged: the legal ones that do not renege (found out, each would cost its
    penalty: never the best), and the one chosen whatever it was."""
    marked = obs.renege_cards
    fair = [a for a in obs.legal if a.card is None or not marked >> a.card & 1]
    if chosen not in fair:
        fair.append(chosen)
    return fair


def _standard_error(diffs: Sequence[float]) -> float:
    n = len(diffs)
    if n < 2:
        return math.inf
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return math.sqrt(var / n)


def _values(
    obs: Observation, candidates: Sequence[Action], rng: random.Random, worlds: int
) -> list[list[float]]:
    """Per candidate, its net points in each imagined deal (the same deals for every one)."""
    if obs.phase is Phase.PLAY:
        return _play_values(obs, candidates, rng, worlds)
    return _bid_values(obs, candidates, rng, worlds)


def _net(deal: Imagined, scores: tuple[int, int], team: int) -> float:
    """The points the deal brought ``team``, less the other team's (ended where the game
    ended: a won game scores no more; a game won by a penalty, R24, counts as the points
    its winners still needed)."""
    now = list(deal.scores)
    if deal.winner is not None:
        now[deal.winner] = max(now[deal.winner], deal.rules.target)
    return float((now[team] - scores[team]) - (now[1 - team] - scores[1 - team]))


def _play_values(
    obs: Observation, candidates: Sequence[Action], rng: random.Random, worlds: int
) -> list[list[float]]:
    assert obs.seat is not None
    know = knowledge_of(obs)
    team = obs.seat & 1
    table = _as_known(obs)
    if table.winner is not None:  # the seat's own renege, found out, has lost the game
        return [[_net(table, obs.scores, team)] * worlds for _ in candidates]
    reneges = [_renege_now(obs, a.card) for a in candidates]
    values: list[list[float]] = [[] for _ in candidates]
    for _ in range(worlds):
        hands = know.sample(rng)
        world = table.deal(hands, know.dealt(hands))
        for i, action in enumerate(candidates):
            assert action.card is not None
            deal = world.clone()
            renege = reneges[i]
            if renege is not None:
                _found_out(deal, renege)
            if deal.turn is not None:
                play_out(deal, know.out, easy.play_card, action.card)
            values[i].append(_net(deal, obs.scores, team))
    return values


def _call_values(
    obs: Observation, lift: int, shown: Renege | None, rng: random.Random, worlds: int
) -> tuple[list[float], list[float]]:
    """The seat's team's net points of the hand if the seat calls ``lift`` now, and if it
    does not, on the same imagined deals. ``shown``: the renege the seat had seen proven
    there (None: the table holds no renege it had not seen proven, so the call is wrong).
    In the reckoning every card is on the table: one deal, no chance."""
    assert obs.seat is not None
    seat, team = obs.seat, obs.seat & 1
    table = _as_known(obs)
    if shown is not None:
        table.reneges += (shown,)
    if table.winner is not None:
        same = [_net(table, obs.scores, team)]
        return same, same
    if obs.phase is Phase.RECKONING:
        dealt = [0, 0, 0, 0]
        for lift_ in obs.tricks:
            for s, card in lift_.cards:
                dealt[s] |= 1 << card
        worlds_: list[Imagined] = [table.deal((0, 0, 0, 0), dealt)]
        out = 0
    else:
        know = knowledge_of(obs)
        out = know.out
        worlds_ = []
        for _ in range(worlds):
            hands = know.sample(rng)
            worlds_.append(table.deal(hands, know.dealt(hands)))
    calling: list[float] = []
    not_calling: list[float] = []
    for world in worlds_:
        for call, values in ((True, calling), (False, not_calling)):
            deal = world.clone()
            if call:
                deal.call(seat, lift)
            _finish(deal, out)
            values.append(_net(deal, obs.scores, team))
    return calling, not_calling


def _finish(deal: Imagined, out: Hand) -> None:
    """The hand played out and scored (in the reckoning: scored)."""
    if deal.phase is Phase.RECKONING:
        deal.score_deal()
    elif deal.turn is not None:
        play_out(deal, out, easy.play_card)


# -- renege mode: what a seat knows of the hand's reneges (R21, R26) ----------------------


def _lifts(obs: Observation) -> list[tuple[tuple[int, Card], ...]]:
    """The hand's lifts so far, the one in play included (1 = the first)."""
    return [t.cards for t in obs.tricks] + ([obs.trick] if obs.trick else [])


def _reneges_of(obs: Observation, seat: int, held: Hand) -> list[Renege]:
    """``seat``'s reneges this hand, where ``held`` is what it holds now (its own hand, or
    nothing in the reckoning): what it held at each of its cards is that and the cards it
    played from then on."""
    assert obs.trump is not None
    trump, forbid = obs.trump, obs.rules.undertrump == "forbidden"
    lifts = _lifts(obs)
    played = [(n, i, c) for n, cards in enumerate(lifts, 1) for i, (s, c) in enumerate(cards)
              if s == seat]  # fmt: skip
    out = []
    for k, (n, i, card) in enumerate(played):
        hand = held | mask_of(c for _, _, c in played[k:])
        kind = renege_kind(card, hand, lifts[n - 1][:i], trump, forbid)
        if kind is not None:
            out.append(Renege(seat, n, card, kind, holds_honour(hand, trump)))
    return out


def _called(obs: Observation, lift: int, by: int) -> bool:
    """``by``'s team has called ``lift`` this hand (R22: once a lift)."""
    return any(c.lift == lift and c.seat % 2 == by % 2 for c in obs.calls)


def _as_known(obs: Observation) -> Imagined:
    """The deal ``obs`` shows, the seat's own reneges not yet caught found out: an attentive
    table finds each by the hand's end, so whatever the seat does they are as good as paid."""
    table = imagined(obs)
    if obs.seat is None or obs.trump is None or obs.rules.renege == "off":
        return table
    for renege in _reneges_of(obs, obs.seat, obs.hand):
        caught = any(c.upheld and c.lift == renege.lift and c.offender == obs.seat
                     for c in obs.calls)  # fmt: skip
        if not caught and not _called(obs, renege.lift, obs.seat + 1) and table.winner is None:
            _found_out(table, renege)
    return table


def _renege_now(obs: Observation, card: Card | None) -> Renege | None:
    """The renege playing ``card`` now would be, if the other team may still call this lift."""
    if card is None or not obs.renege_cards >> card & 1:
        return None
    assert obs.seat is not None and obs.trump is not None
    lift = len(obs.tricks) + 1
    if _called(obs, lift, obs.seat + 1):
        return None  # they called this lift before the card: it cannot be called again
    forbid = obs.rules.undertrump == "forbidden"
    kind = renege_kind(card, obs.hand, obs.trick, obs.trump, forbid)
    assert kind is not None
    return Renege(obs.seat, lift, card, kind, holds_honour(obs.hand, obs.trump))


def _renege_in(obs: Observation, lift: int) -> Renege | None:
    """The renege of the other team the seat had seen proven in ``lift`` (in the reckoning
    every card is on the table, so what each offender held is known)."""
    assert obs.seat is not None
    for seat in (obs.seat + 1) % 4, (obs.seat + 3) % 4:
        for renege in _reneges_of(obs, seat, 0):
            if renege.lift == lift:
                return renege
    return None


def _found_out(deal: Imagined, renege: Renege) -> None:
    """The other team calls ``renege`` (R22): its penalty is paid (R24, once a hand)."""
    deal.reneges += (renege,)
    deal.call((renege.seat + 1) % 4, renege.lift)


def _bid_values(
    obs: Observation, candidates: Sequence[Action], rng: random.Random, worlds: int
) -> list[list[float]]:
    """Stand or beg, give one or run the pack: each deal imagined with the stock too, so the
    pack can be run; the beggar's beg is followed by the dealer's choice as the easy player
    would make it (the dealer's hand is imagined, so is his choice)."""
    assert obs.seat is not None
    team = obs.seat & 1
    table = imagined(obs)
    values: list[list[float]] = [[] for _ in candidates]
    for _ in range(worlds):
        deal = bidding.sample_deal(obs, rng)
        world = table.deal(deal.hands, deal.hands, deal.stock)
        for i, action in enumerate(candidates):
            values[i].append(_bid_outcome(obs, world, action.type, team))
    return values


def _bid_outcome(obs: Observation, world: Imagined, decision: str, team: int) -> float:
    deal = world.clone()
    scores = deal.scores
    if decision == "stand":
        deal.stand()
    else:
        if deal.phase is Phase.BEG:
            deal.beg()
            decision = "give_one" if _dealer_gives(obs, deal) else "run_pack"
        if decision == "give_one":
            deal.give_one()
        else:
            deal.run_pack()
    if deal.turn is not None:
        play_out(deal, mask_of(deal.kicks), easy.play_card)
    return _net(deal, scores, team)


def _dealer_gives(obs: Observation, deal: Imagined) -> bool:
    if give_one_refusal(deal) is not None:
        return False
    hand = deal.hands[obs.dealer]
    return easy.give_wanted(hand, obs.kicks[0], obs.scores, obs.beggar, obs.rules)


__all__ = [
    "COSTLY",
    "REASONS",
    "WORLDS",
    "Judged",
    "SeatSummary",
    "hint",
    "judge",
    "judge_table_action",
    "review_game",
    "review_key",
    "summarize",
]
