"""The review of a game (issue #38): how long a whole game takes on one core, and how the
review ranks players.

`python -m bench.review [--games N] [--worlds W] [--target T] [--seed S]` plays N games in
which seat 0 picks random legal actions, seat 2 is the standard player and seats 1 and 3 the
strong one (each with a small counted budget, so the bench is about the review, not the
players), reviews each with W imagined deals a decision (the served default unless given),
and prints per game the decisions and the seconds of CPU the review took, then each kind of
player's average loss over all its decisions. The issue asks a whole game in at most two
minutes of one core, and a random player's average loss at least three times the standard
player's (measured over 50 games in the issue; pass --games 50 for that, it takes long).
"""

from __future__ import annotations

import argparse
import random
import time

from app.bots import choose, rng_for
from app.bots.budget import Budget
from app.bots.review import WORLDS, review_game
from app.rules import Phase, Rules, apply, new_game, observe
from app.rules.state import Action

PLAYERS = {0: "random", 1: "strong", 2: "standard", 3: "strong"}
QUICK = Budget(ms=None, cap_ms=None, max_worlds=24)


def played(seed: int, rules: Rules) -> list[Action]:
    state = new_game(rules, seed)
    actions: list[Action] = []
    pick = random.Random(f"bench-review:{seed}")
    while state.phase is not Phase.GAME_OVER:
        seat = state.turn
        assert seat is not None
        obs = observe(state, seat)
        kind = PLAYERS[seat]
        if kind == "random":
            action = pick.choice(obs.legal)
        else:
            budget = QUICK if kind == "standard" else Budget(ms=None, cap_ms=None, max_worlds=64)
            action = choose(obs, kind, rng=rng_for(seed, len(actions)), budget=budget)  # type: ignore[arg-type]
        actions.append(action)
        state = apply(state, action)
    return actions


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.review")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--worlds", type=int, default=WORLDS)
    parser.add_argument("--target", type=int, default=14)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rules = Rules(target=args.target)
    losses: dict[str, list[float]] = {k: [] for k in set(PLAYERS.values())}
    for n in range(args.games):
        seed = args.seed + n
        actions = played(seed, rules)
        start = time.process_time()
        judged = review_game(rules, seed, None, actions, worlds=args.worlds)
        spent = time.process_time() - start
        print(
            f"game {seed}: {len(judged)} decisions, reviewed in {spent:.1f} s of CPU "
            f"({args.worlds} worlds a decision)",
            flush=True,
        )
        for j in judged:
            losses[PLAYERS[j.seat]].append(j.loss)
    for kind, values in sorted(losses.items()):
        average = sum(values) / len(values) if values else 0.0
        costly = sum(1 for v in values if v >= 0.25)
        print(f"{kind:9s} average loss {average:.3f} over {len(values)} decisions, {costly} costly")


if __name__ == "__main__":
    main()
