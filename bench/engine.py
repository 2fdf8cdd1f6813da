"""How fast the rules run: the engine's calls, and the fast path the bots simulate with.

`python -m bench.engine [--seconds S] [--seed N] [--batch B]` runs on one core, a few
seconds per figure, and prints last ``full hands/s: N`` — full random hands (deal, kick,
random beg / give one / run the pack, random legal plays, scoring) from fresh shuffles,
played by the fast path ``app.rules.fastsim`` (which the tests prove agrees with the engine).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable

import numpy as np

from app.rules import DEFAULT_RULES, Phase, apply, legal_actions, new_game
from app.rules.cards import SUIT_MASK
from app.rules.fastsim import POLICIES, Policy, deal_worlds, playout, simulate_deals


def _pin_to_one_core() -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned"
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    return f"pinned to core {core}"


def _for(seconds: float, step: Callable[[], int]) -> tuple[int, float]:
    """Call ``step`` (which returns how many things it did) until ``seconds`` have passed."""
    done, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        done += step()
    return done, elapsed


def bench_engine_calls(seconds: float, rng: np.random.Generator) -> None:
    """The cost of one ``legal_actions`` and one ``apply``, over random whole games."""
    counts = {"legal": 0, "apply": 0}
    spent = {"legal": 0.0, "apply": 0.0}
    clock = time.perf_counter

    def one_game() -> int:
        rnd = random.Random(int(rng.integers(2**63)))
        state = new_game(DEFAULT_RULES, int(rng.integers(2**63)))
        while state.phase is not Phase.GAME_OVER:
            t0 = clock()
            actions = legal_actions(state)
            t1 = clock()
            action = rnd.choice(actions)
            t2 = clock()
            state = apply(state, action)
            t3 = clock()
            spent["legal"] += t1 - t0
            spent["apply"] += t3 - t2
            counts["legal"] += 1
            counts["apply"] += 1
        return 1

    games, _ = _for(seconds, one_game)
    for name, label in (("legal", "legal_actions"), ("apply", "apply")):
        per_call = spent[name] / counts[name] * 1e6
        print(f"engine {label}: {per_call:.1f} µs per call ({counts[name]} calls, {games} games)")


def bench_engine_hands(seconds: float, rng: np.random.Generator) -> None:
    """Full random hands through the engine, from fresh seeds."""

    def one_game() -> int:
        rnd = random.Random(int(rng.integers(2**63)))
        state = new_game(DEFAULT_RULES, int(rng.integers(2**63)))
        while state.phase is not Phase.GAME_OVER:
            state = apply(state, rnd.choice(legal_actions(state)))
        return sum(1 for record in state.history if record.played_out)

    hands, elapsed = _for(seconds, one_game)
    print(f"engine hands/s: {hands / elapsed:.0f} (played-out hands, whole games)")


def bench_fast_hands(
    seconds: float, rng: np.random.Generator, batch: int, policy: Policy = "random"
) -> float:
    """Full random hands through the fast path; returns hands per second."""
    hands, elapsed = _for(
        seconds, lambda: simulate_deals(batch, DEFAULT_RULES, rng, policy=policy).points.shape[0]
    )
    rate = hands / elapsed
    print(f"fast path hands/s ({policy} play, batches of {batch}): {rate:.0f}")
    return rate


def bench_playout(seconds: float, rng: np.random.Generator, worlds: int, policy: Policy) -> None:
    """Worlds per second from the first lead of a 6-card deal: seat 0's hand is fixed, the
    other 18 cards are dealt afresh in every world (what a PIMC bot would ask for). The
    worlds are dealt once, outside the timing: ``bench_deal_worlds`` times that."""
    deck = rng.permutation(52)
    own = sum(1 << int(c) for c in deck[:6])
    unseen = sum(1 << int(c) for c in deck[7:25])  # deck[6] is the kick, out of play
    trump = int(deck[6] // 13)
    hands = deal_worlds(worlds, unseen=unseen, sizes=(0, 6, 6, 6), rng=rng, known=(own, 0, 0, 0))
    won = np.zeros((worlds, 2), dtype=np.uint64)

    def call() -> int:
        playout(
            dealt=hands,
            hands=hands,
            won=won,
            trick=[],
            turn=0,
            trump=trump,
            dealer=3,
            rules=DEFAULT_RULES,
            rng=rng,
            policy=policy,
        )
        return worlds

    done, elapsed = _for(seconds, call)
    calls = done // worlds
    print(
        f"playout ({policy}, {worlds} worlds per call): {done / elapsed:.0f} worlds/s, "
        f"{elapsed / calls * 1e3:.2f} ms per call"
    )


def bench_deal_worlds(seconds: float, rng: np.random.Generator, worlds: int) -> None:
    """Dealing the 18 unseen cards of a first lead, one seat void in a suit."""
    deck = rng.permutation(52)
    unseen = sum(1 << int(c) for c in deck[7:25])
    void = SUIT_MASK[int(deck[7] // 13)]
    done, elapsed = _for(
        seconds,
        lambda: deal_worlds(
            worlds, unseen=unseen, sizes=(0, 6, 6, 6), rng=rng, voids=(0, void, 0, 0)
        ).shape[0],
    )
    print(f"deal_worlds ({worlds} worlds per call, a void): {done / elapsed:.0f} worlds/s")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.engine", description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="per figure (default 3)")
    parser.add_argument("--seed", type=int, default=None, help="default: fresh entropy")
    parser.add_argument("--batch", type=int, default=20000, help="fast-path deals per call")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else int(np.random.default_rng().integers(2**63))
    rng = np.random.default_rng(seed)
    print(f"seed: {seed}; {_pin_to_one_core()}; load average {os.getloadavg()[0]:.2f}")
    seconds = args.seconds
    bench_engine_calls(seconds, rng)
    bench_engine_hands(seconds, rng)
    bench_fast_hands(seconds, rng, args.batch, "greedy")
    for worlds in (64, 512):
        for policy in POLICIES:
            bench_playout(seconds / 2, rng, worlds, policy)
        bench_deal_worlds(seconds / 2, rng, worlds)
    rate = bench_fast_hands(seconds, rng, args.batch, "random")
    print(f"full hands/s: {rate:.0f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
