"""Bot against bot: duplicate deals and whole games, with think times.

    python -m app.bots.arena --a standard --b easy --deals 2000 --seed 1
    python -m app.bots.arena --a strong --b standard --deals 600 --seed 1 --jobs 2
    python -m app.bots.arena --a easy --b random --games 200 --seed 1

Duplicate: each deal (deck order and dealer) is played twice with the partnerships swapped,
so luck of the cards cancels; the edge is --a's points minus --b's per deal, averaged over
the two playings, with a 95% confidence interval over the deals. ``--games`` plays whole
games to the target the same way (each seed twice, teams swapped) and gives --a's win rate.
The arena is the referee: it holds the State and hands each bot only its Observation.

Each level searches its own budget counted in worlds (``BUDGETS``), with no wall-clock cap, so
a run gives the same figures whatever the machine's load; ``--budget-ms`` instead gives every
searching level that anytime budget on a clock (with the level's cap), and ``--clock served``
plays each level as the server does (its counts and its cap on the wall clock): the think
times then say whether a player waits past the cap, wall time (p99, max) beside CPU time.

    python -m app.bots.arena --a standard --b easy --deals 100 --clock served
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace

from app.bots import BUDGETS, choose
from app.bots.budget import Budget
from app.rules import Rules, apply, new_game, observe
from app.rules.state import Action, Phase, State
from app.rules.view import Observation

ARENA_LEVELS = ("random", "easy", "standard", "strong")

Player = Callable[[Observation, random.Random], Action]


def arena_budget(level: str, ms: float | None = None, clock: str = "wall") -> Budget | None:
    """The budget ``level`` plays with here: its own world count without the wall-clock cap
    (reproducible), or with ``ms`` an anytime budget on ``clock`` under the level's cap."""
    if level not in BUDGETS:
        return None
    own = BUDGETS[level]
    if clock == "served":
        return own
    if ms is None:
        return replace(own, cap_ms=None)
    return replace(own, ms=ms, max_worlds=None, clock="cpu" if clock == "cpu" else "wall")


def player(level: str, budget: Budget | None = None) -> Player:
    """``budget`` None: the level's arena budget."""
    if level == "random":
        return lambda obs, rng: rng.choice(obs.legal)
    if level == "easy":
        return lambda obs, rng: choose(obs, "easy", rng=rng)
    if level in ("standard", "strong"):
        own = budget or arena_budget(level)
        return lambda obs, rng: choose(obs, level, rng=rng, budget=own)  # type: ignore[arg-type]
    raise ValueError(f"unknown level {level!r}")


@dataclass
class Times:
    """Think time per decision (ms) of one level; ``choice`` = decisions with >1 legal action."""

    all: list[float] = field(default_factory=list)
    choice: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)  # the bot's own CPU time, every decision

    def add(self, ms: float, cpu_ms: float, choices: int) -> None:
        self.all.append(ms)
        self.cpu.append(cpu_ms)
        if choices > 1:
            self.choice.append(ms)

    def merge(self, other: Times) -> None:
        self.all += other.all
        self.choice += other.choice
        self.cpu += other.cpu


@dataclass
class Foursome:
    players: tuple[Player, Player, Player, Player]
    levels: tuple[str, str, str, str]
    times: dict[str, Times]
    rng: random.Random

    def act(self, state: State) -> State:
        seat = state.turn
        assert seat is not None
        obs = observe(state, seat)
        t0, c0 = time.perf_counter(), time.thread_time()
        action = self.players[seat](obs, self.rng)
        ms = (time.perf_counter() - t0) * 1000
        cpu_ms = (time.thread_time() - c0) * 1000
        self.times.setdefault(self.levels[seat], Times()).add(ms, cpu_ms, len(obs.legal))
        return apply(state, action)


def seating(a: str, b: str, a_team: int) -> tuple[str, str, str, str]:
    return (a, b, a, b) if a_team == 0 else (b, a, b, a)


def play_deal(table: Foursome, rules: Rules, deck: Sequence[int], dealer: int) -> tuple[int, int]:
    """One deal from a stacked deck; the points each team scored in it (kicks included)."""
    state = new_game(rules, 0, dealer, stacked=[deck])
    while state.hand_number == 1 and state.phase is not Phase.GAME_OVER:
        state = table.act(state)
    points = [0, 0]
    for award in state.history[0].awards:
        points[award.team] += award.points
    return points[0], points[1]


def play_game(table: Foursome, rules: Rules, seed: int) -> int:
    state = new_game(rules, seed)
    while state.phase is not Phase.GAME_OVER:
        state = table.act(state)
    assert state.winner is not None
    return state.winner


@dataclass
class Job:
    a: str
    b: str
    seed: int
    start: int
    stop: int
    games: bool
    budget: Budget | None  # None: each level's own (``arena_budget``)
    rules: Rules
    ms: float | None = None  # ``arena_budget``'s clock budget
    clock: str = "wall"


def run_job(job: Job) -> tuple[list[float], dict[str, Times]]:
    """Boards ``start..stop``: per board --a's edge (deals) or wins out of 2 (games)."""
    times: dict[str, Times] = {}
    players = {
        lv: player(lv, job.budget or arena_budget(lv, job.ms, job.clock)) for lv in (job.a, job.b)
    }
    out: list[float] = []
    for i in range(job.start, job.stop):
        results = []
        for a_team in (0, 1):
            levels = seating(job.a, job.b, a_team)
            table = Foursome(
                tuple(players[lv] for lv in levels),  # type: ignore[arg-type]
                levels,
                times,
                random.Random(f"arena-bots:{job.seed}:{i}:{a_team}"),
            )
            if job.games:
                seed = random.Random(f"arena-game:{job.seed}:{i}").randrange(2**31)
                results.append(1.0 if play_game(table, job.rules, seed) == a_team else 0.0)
            else:
                deck = list(range(52))
                random.Random(f"arena-deck:{job.seed}:{i}").shuffle(deck)
                p = play_deal(table, job.rules, deck, i % 4)
                results.append(float(p[a_team] - p[1 - a_team]))
        out.append(sum(results) / 2 if not job.games else sum(results))
    return out, times


def run(
    a: str,
    b: str,
    n: int,
    seed: int,
    *,
    games: bool,
    budget: Budget | None,
    rules: Rules,
    jobs: int,
    ms: float | None = None,
    clock: str = "wall",
    progress: Callable[[list[float]], None] | None = None,
) -> tuple[list[float], dict[str, Times]]:
    """``progress`` is called with the boards so far after each chunk (in board order)."""
    chunks = max(1, min(n, jobs * 8))
    bounds = [n * k // chunks for k in range(chunks + 1)]
    work = [
        Job(a, b, seed, bounds[k], bounds[k + 1], games, budget, rules, ms, clock)
        for k in range(chunks)
    ]
    values: list[float] = []
    times: dict[str, Times] = {}
    if jobs <= 1:
        for vals, ts in map(run_job, work):
            values += vals
            for lv, t in ts.items():
                times.setdefault(lv, Times()).merge(t)
            if progress:
                progress(values)
    else:
        with ProcessPoolExecutor(jobs) as pool:
            for vals, ts in pool.map(run_job, work):
                values += vals
                for lv, t in ts.items():
                    times.setdefault(lv, Times()).merge(t)
                if progress:
                    progress(values)
    return values, times


def boards(values: Sequence[float]) -> str:
    """How many duplicate boards (a deal played both ways) --a won, tied and lost on points."""
    won = sum(1 for v in values if v > 0)
    lost = sum(1 for v in values if v < 0)
    return f"won {won}, tied {len(values) - won - lost}, lost {lost} (by --a's points)"


def so_far(values: list[float]) -> None:
    mean, lo, hi = mean_ci(values)
    print(
        f"  {len(values)} boards: {mean:+.3f} [{lo:+.3f}, {hi:+.3f}], {boards(values)}",
        file=sys.stderr,
        flush=True,
    )


def games_so_far(values: list[float]) -> None:
    mean, lo, hi = mean_ci([v / 2 for v in values])
    print(
        f"  {2 * len(values)} games: won {int(sum(values))} = {100 * mean:.1f}% "
        f"[{100 * lo:.1f}%, {100 * hi:.1f}%]",
        file=sys.stderr,
        flush=True,
    )


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def time_lines(
    times: dict[str, Times], budgets: dict[str, Budget | None] | None = None
) -> list[str]:
    """Wall time (all decisions, those with a choice) and CPU time per level; where the level
    plays under a cap, how many decisions went past it on the wall clock."""
    lines = []
    for level in sorted(times):
        cap = (budgets or {}).get(level)
        if cap is not None and cap.cap_ms is not None:
            over = sum(ms > cap.cap_ms for ms in times[level].all)
            lines.append(
                f"think time {level:8} past its {cap.cap_ms:g} ms cap: {over} of "
                f"{len(times[level].all)} decisions"
            )
        for name, vals in (
            ("all decisions", times[level].all),
            ("with a choice", times[level].choice),
            ("CPU time, all", times[level].cpu),
        ):
            if not vals:
                continue
            lines.append(
                f"think time {level:8} {name}: mean {statistics.fmean(vals):6.2f} ms"
                f"  p99 {percentile(vals, 0.99):6.2f} ms  max {max(vals):6.2f} ms  (n={len(vals)})"
            )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.bots.arena", description=__doc__)
    parser.add_argument("--a", choices=ARENA_LEVELS, default="standard")
    parser.add_argument("--b", choices=ARENA_LEVELS, default="easy")
    parser.add_argument("--deals", type=int, default=None, help="duplicate deals to play")
    parser.add_argument("--games", type=int, default=None, help="duplicate games to play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--budget-ms",
        type=float,
        default=None,
        help="an anytime budget on the clock for the searching levels "
        "(default: each level's own count of worlds, reproducible)",
    )
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu", "served"),
        default="wall",
        help="what --budget-ms counts: wall time (as served) or the bot's own CPU time "
        "(the same search whatever else loads the machine); served: each level's own "
        "budget with its wall-clock cap, as the server plays it",
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--target", type=int, choices=(7, 10, 14, 21), default=14)
    parser.add_argument(
        "--progress", action="store_true", help="print the figures so far as the boards finish"
    )
    args = parser.parse_args(argv)
    if args.deals is None and args.games is None:
        args.deals = 200
    rules = Rules(target=args.target)
    started = time.perf_counter()
    budgets = {lv: arena_budget(lv, args.budget_ms, args.clock) for lv in (args.a, args.b)}
    said = ", ".join(
        f"{lv} {b.max_worlds} worlds"
        + (f" or {b.max_cards} cards" if b.max_cards else "")
        + (f", cap {b.cap_ms:g} ms wall" if b.cap_ms is not None else "")
        if b.max_worlds
        else f"{lv} {b.ms:g} ms ({b.clock} clock)"
        for lv, b in budgets.items()
        if b is not None
    )
    print(
        f"budget: {said or 'none'}; load average {os.getloadavg()[0]:.2f} "
        f"on {os.cpu_count()} cores",
        flush=True,
    )

    def play(n: int, games: bool) -> tuple[list[float], dict[str, Times]]:
        return run(
            args.a,
            args.b,
            n,
            args.seed,
            games=games,
            budget=None,
            rules=rules,
            jobs=args.jobs,
            ms=args.budget_ms,
            clock=args.clock,
            progress=(games_so_far if games else so_far) if args.progress else None,
        )

    if args.deals:
        values, times = play(args.deals, games=False)
        mean, lo, hi = mean_ci(values)
        print(
            f"{args.a} vs {args.b}: {args.deals} duplicate deals (seed {args.seed}): "
            f"edge {mean:+.3f} points per deal for {args.a}, 95% CI [{lo:+.3f}, {hi:+.3f}]"
        )
        print(f"boards {boards(values)}")
        for line in time_lines(times, budgets):
            print(line)
    if args.games:
        values, times = play(args.games, games=True)
        mean, lo, hi = mean_ci([v / 2 for v in values])
        print(
            f"{args.a} vs {args.b}: {2 * args.games} games to {args.target} "
            f"(each seed twice, teams swapped; seed {args.seed}): {args.a} won "
            f"{int(sum(values))} = {100 * mean:.1f}%, 95% CI [{100 * lo:.1f}%, {100 * hi:.1f}%]"
        )
        for line in time_lines(times, budgets):
            print(line)
    print(f"wall time {time.perf_counter() - started:.1f} s, jobs {args.jobs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
