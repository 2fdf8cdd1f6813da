"""Bot strength and think time, short enough for `make bench` (a few minutes).

The full measurements of issue 5 are longer runs of the same arena, e.g.
``python -m app.bots.arena --a standard --b easy --deals 2000 --seed 1`` and
``python -m app.bots.arena --a strong --b standard --deals 600 --seed 1 --jobs 2``.
"""

from __future__ import annotations

import argparse
import os

from app.bots import arena


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.arena", description=__doc__)
    parser.add_argument("--deals", type=int, default=100, help="standard vs easy duplicate deals")
    parser.add_argument(
        "--strong-deals", type=int, default=30, help="strong vs standard duplicate deals"
    )
    # Easy is fast, and fewer games cannot tell its ~85% from 84% or 86% (CI +-0.5% here).
    parser.add_argument("--games", type=int, default=10000, help="easy vs random duplicate games")
    parser.add_argument("--seed", type=int, default=1)
    args, _ = parser.parse_known_args(argv)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores", flush=True)
    seed = str(args.seed)
    arena.main(["--a", "standard", "--b", "easy", "--deals", str(args.deals), "--seed", seed])
    strong = ["--a", "strong", "--b", "standard", "--deals", str(args.strong_deals)]
    arena.main([*strong, "--seed", seed])
    jobs = str(os.cpu_count() or 1)
    arena.main(
        ["--a", "easy", "--b", "random", "--games", str(args.games), "--seed", seed, "--jobs", jobs]
    )


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
