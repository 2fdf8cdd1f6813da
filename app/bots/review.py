"""The review of a finished game (issue #38): what each decision of each seat cost.

A game is replayed from its seed and actions. At every decision of the seat on turn (stand or
beg, give one or run the pack, every card) each legal action is judged by the points of the
hand it brings the seat's team, net of the other team's (High, Low, Jack or hang jack, Game,
kick and give points; the play-outs never renege), averaged over deals imagined from that
seat's Observation alone (``observe`` is the only door: the hidden hands are never read).
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
from dataclasses import dataclass

from app.bots import bidding, easy
from app.bots.knowledge import knowledge_of
from app.bots.playout import play_out
from app.rules.cards import mask_of, rank_of, suit_of
from app.rules.config import Rules
from app.rules.engine import apply, new_game
from app.rules.imagined import Imagined, imagined
from app.rules.legal import give_one_refusal
from app.rules.shuffle import SHUFFLE
from app.rules.state import ACTION_TYPES, Action, Phase
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
    best: Action
    loss: float  # points of the hand given up against ``best``; 0 if none can be shown
    why: str | None = None  # a reason code from ``reasons``, when one applies


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
    """Every decision of every seat of the game, in the order played (forced ones included).

    The table's own actions (calls of renege, "score it") are not a seat's turn: they are
    replayed, not judged."""
    state = new_game(rules, seed, first_dealer, stacked=stacked, shuffle=shuffle)
    total = sum(1 for a in actions if a.type in ACTION_TYPES)
    judged: list[Judged] = []
    for index, action in enumerate(actions):
        if action.type in ACTION_TYPES:
            seat = state.turn
            assert seat is not None, "a seat's action with no seat on turn"
            obs = observe(state, seat)
            rng = random.Random(f"allfours-review:{seed}:{index}")
            judged.append(judge(obs, action, rng, worlds))
            if progress is not None:
                progress(len(judged), total)
        state = apply(state, action)
    return judged


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
    diffs = [b - c for b, c in zip(values[best], values[mine], strict=True)]
    loss = means[best] - means[mine]
    if loss <= SIGNIFICANCE * _standard_error(diffs):
        return Judged(hand, obs.seat, chosen, candidates[best], 0.0)
    better = candidates[best]
    return Judged(hand, obs.seat, chosen, better, round(loss, 3), why(obs, chosen, better))


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
)


def why(obs: Observation, chosen: Action, better: Action) -> str | None:
    """A short reason for a costly decision, where one of the known ones fits."""
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
    diffs = [b - c for b, c in zip(values[best], values[second], strict=True)]
    gap = means[best] - means[second]
    if gap <= SIGNIFICANCE * _standard_error(diffs):
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
    """The actions judged: the legal ones that do not renege (a play-out cannot price a
    renege's penalty, R24), and the one chosen whatever it was."""
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
    ended: a won game scores no more)."""
    now = deal.scores
    return float((now[team] - scores[team]) - (now[1 - team] - scores[1 - team]))


def _play_values(
    obs: Observation, candidates: Sequence[Action], rng: random.Random, worlds: int
) -> list[list[float]]:
    assert obs.seat is not None
    know = knowledge_of(obs)
    team = obs.seat & 1
    table = imagined(obs)
    values: list[list[float]] = [[] for _ in candidates]
    for _ in range(worlds):
        hands = know.sample(rng)
        world = table.deal(hands, know.dealt(hands))
        for i, action in enumerate(candidates):
            assert action.card is not None
            deal = world.clone()
            play_out(deal, know.out, easy.play_card, action.card)
            values[i].append(_net(deal, obs.scores, team))
    return values


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
    "review_game",
    "review_key",
    "summarize",
]
