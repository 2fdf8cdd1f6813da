"""How fast the rules engine runs, through its public API, on one core.

`python -m bench.engine [--seconds S] [--seed N]` prints, a few seconds per figure:

- the cost of one ``legal_actions`` and one ``apply`` (the immutable API the server uses);
- full random hands a second through ``apply``;
- the standard bot's play-outs a second (an imagined deal cloned and played to its end by
  the easy player's habits, as ``app.bots.standard`` does for each card in each world);
- last, ``full hands/s: N``: full random hands a second through the in-place step the bots
  use (``WorkingState``: deal, kick, random beg / give one / run the pack, random legal plays,
  scoring), whole games from fresh seeds, counting the hands played out.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable

from app.bots import easy
from app.bots.knowledge import knowledge_of
from app.bots.playout import play_out
from app.rules import DEFAULT_RULES, Phase, apply, legal_actions, new_game, observe
from app.rules.imagined import imagined
from app.rules.legal import give_one_refusal
from app.rules.state import STAND
from app.rules.working import WorkingState


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


def bench_engine_calls(seconds: float, rng: random.Random) -> None:
    """The cost of one ``legal_actions`` and one ``apply``, over random whole games."""
    counts = {"legal": 0, "apply": 0}
    spent = {"legal": 0.0, "apply": 0.0}
    clock = time.perf_counter

    def one_game() -> int:
        state = new_game(DEFAULT_RULES, rng.getrandbits(63))
        while state.phase is not Phase.GAME_OVER:
            t0 = clock()
            actions = legal_actions(state)
            t1 = clock()
            action = rng.choice(actions)
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
        print(f"engine {label}: {per_call:.2f} µs per call ({counts[name]} calls, {games} games)")


def bench_apply_hands(seconds: float, rng: random.Random) -> None:
    """Full random hands through ``apply``, whole games from fresh seeds."""

    def one_game() -> int:
        state = new_game(DEFAULT_RULES, rng.getrandbits(63))
        while state.phase is not Phase.GAME_OVER:
            state = apply(state, rng.choice(legal_actions(state)))
        return sum(1 for record in state.history if record.played_out)

    hands, elapsed = _for(seconds, one_game)
    print(f"apply() hands/s: {hands / elapsed:.0f} (played-out hands, whole games)")


def bench_playouts(seconds: float, rng: random.Random) -> None:
    """Play-outs a second from the first lead of a 6-card deal, as the standard bot runs them:
    a world sampled from the leader's knowledge, cloned, played to the end by easy's habits."""
    state = apply(new_game(DEFAULT_RULES, rng.getrandbits(63)), STAND)
    assert state.turn is not None
    obs = observe(state, state.turn)
    know = knowledge_of(obs)
    table = imagined(obs)
    cards = [a.card for a in obs.legal if a.card is not None]

    def one_world() -> int:
        hands = know.sample(rng)
        world = table.deal(hands, know.dealt(hands))
        for card in cards:
            play_out(world.clone(), know.out, easy.play_card, card)
        return len(cards)

    done, elapsed = _for(seconds, one_world)
    print(f"bot play-outs/s (first lead, easy's habits): {done / elapsed:.0f}")


def bench_table_hands(seconds: float, rng: random.Random) -> float:
    """Full random hands through the in-place step, whole games from fresh seeds."""
    coin, uniform = rng.getrandbits, rng.random

    def one_game() -> int:
        seed = coin(63)
        table = WorkingState.new(DEFAULT_RULES, seed, seed % 4)
        legal_cards, play = table.legal_cards, table.play
        while (phase := table.phase) is not Phase.GAME_OVER:
            if phase is Phase.PLAY:
                legal = legal_cards()
                for _ in range(int(uniform() * legal.bit_count())):
                    legal &= legal - 1  # drop the lowest card: a random legal card is left lowest
                play((legal & -legal).bit_length() - 1)
            elif phase is Phase.BEG:
                table.stand() if coin(1) else table.beg()
            elif give_one_refusal(table) is None and coin(1):
                table.give_one()
            else:
                table.run_pack()
        return sum(1 for record in table.history if record.played_out)

    hands, elapsed = _for(seconds, one_game)
    return hands / elapsed


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.engine", description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="per figure (default 3)")
    parser.add_argument("--seed", type=int, default=None, help="default: fresh entropy")
    args, _ = parser.parse_known_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(63)
    rng = random.Random(seed)
    print(f"seed: {seed}; {_pin_to_one_core()}; load average {os.getloadavg()[0]:.2f}")
    bench_engine_calls(args.seconds, rng)
    bench_apply_hands(args.seconds, rng)
    bench_playouts(args.seconds, rng)
    rate = bench_table_hands(args.seconds, rng)
    print("full hands through the in-place step (WorkingState, random play), one core:")
    print(f"full hands/s: {rate:.0f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
