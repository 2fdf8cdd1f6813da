"""The CPU a version's views cost: the four seats' JSON views of every version of a few games
played at random, through the app's rendered-view cache, in-process (no sockets, no
database), as each open stream asks for its own.

    python -m bench.views          # microseconds of CPU per version (median of runs)
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime

from app.live.presence import Presence
from app.rules import Rules, legal_actions
from app.services.decide import Act, Start, TakeSeat, decide
from app.services.identity import token_hash
from app.services.snapshot import RoomSnap
from app.services.view import RenderedViews, json_renderer


def game(seed: int) -> list[RoomSnap]:
    """Every version of one game of room ``room<seed>``, played at random from its start."""
    snap: RoomSnap | None = RoomSnap(1, f"room{seed}", 0, Rules(), 7, (None,) * 4, None)  # type: ignore[arg-type]
    for seat in range(4):
        assert snap is not None
        snap = decide(snap, TakeSeat(None, f"P{seat}", seat, token_hash(f"t{seat}")))
    assert snap is not None
    started = decide(snap, Start("t0", fresh_seed=seed))
    assert started is not None and started.game is not None
    snaps, rng = [started], random.Random(seed)
    while (game := snaps[-1].game) is not None and (turn := game.state.turn) is not None:
        after = decide(snaps[-1], Act(None, rng.choice(legal_actions(game.state)), seat=turn))
        assert after is not None
        snaps.append(after)
    now = datetime.now(UTC)  # committed now: the clocks count from it
    return [replace(s, at=now) for s in snaps]


def main(argv: Sequence[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.views", description=__doc__)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(list(argv))
    snaps = [s for seed in range(1, args.games + 1) for s in game(seed)]
    presence = Presence()
    for seed in range(1, args.games + 1):
        for seat in range(4):
            presence.touch(f"room{seed}", seat)  # seen once: the away clocks stay put
    runs = []
    for _ in range(args.runs):
        views = RenderedViews()
        began = time.process_time()
        for snap in snaps:
            for seat in range(4):
                views.text(snap, seat, presence, json_renderer)
        runs.append((time.process_time() - began) / len(snaps) * 1e6)
    print(
        f"{statistics.median(runs):.0f} us of CPU per version for the four seats' JSON views"
        f" (median of {args.runs} runs over {len(snaps)} versions)",
        flush=True,
    )


if __name__ == "__main__":
    main(sys.argv[1:])
