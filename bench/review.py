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

`python -m bench.review --api [--games N] [--workers K]` does the same through the HTTP API
of a real server (`python -m app.serve` on a fresh SQLite file, as served: the reviews'
worlds are the server's): seat 0 is a person who plays random legal actions by
`POST /api/rooms/{code}/actions`, seats 1-3 the server's computer players (strong, standard,
strong); each game's review is asked by `POST .../games/1/review` as it ends and read by
`GET` once the server's K review workers (ALLFOURS_REVIEW_WORKERS) are done.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from typing import Any

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


def through_the_api(games: int, seed: int, target: int, workers: int) -> dict[str, list[float]]:
    """Each kind of player's losses over ``games`` games played and reviewed by a server."""
    import httpx

    from bench.live import server

    losses: dict[str, list[float]] = {k: [] for k in set(PLAYERS.values())}
    with tempfile.TemporaryDirectory(prefix="allfours-bench-review-") as folder:
        env = {"ALLFOURS_REVIEW_WORKERS": str(workers), "ALLFOURS_ROOMS_PER_HOUR": "0"}
        with server(f"sqlite:///{folder}/review.db", env=env) as (port, _):
            api = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60)
            codes = []
            for n in range(games):
                start = time.monotonic()
                code = _play_by_api(api, random.Random(f"bench-review:{seed + n}"), target)
                r = api.post(f"/api/rooms/{code}/games/1/review")
                assert r.status_code == 202, r.text
                codes.append(code)
                print(f"game {n + 1}: played in {time.monotonic() - start:.0f} s", flush=True)
            for code in codes:
                review = _done(api, code)
                for d in review["decisions"]:
                    losses[PLAYERS[d["seat"]]].append(d["loss"])
    return losses


def _play_by_api(api: Any, pick: random.Random, target: int) -> str:
    r = api.post("/api/rooms", json={"rules": {"target": target}})
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    token = api.post(f"/api/rooms/{code}/join", json={"name": "Random", "seat": 0}).json()["token"]
    me = {"Authorization": f"Bearer {token}"}
    for seat in (1, 2, 3):
        body = {"seat": seat, "level": PLAYERS[seat]}
        assert api.post(f"/api/rooms/{code}/bots", json=body, headers=me).status_code == 200
    assert api.post(f"/api/rooms/{code}/start", headers=me).status_code == 200
    while True:
        view = api.get(f"/api/rooms/{code}", headers=me).json()
        if view["phase"] == "game_over":
            return str(code)
        if view["turn"] != 0 or not view["legal"]:
            time.sleep(0.02)  # the computer players' turn
            continue
        move = dict(pick.choice(view["legal"])) | {"version": view["version"]}
        r = api.post(f"/api/rooms/{code}/actions", json=move, headers=me)
        assert r.status_code in (200, 409), r.text  # 409: a computer player moved first


def _done(api: Any, code: str) -> dict[str, Any]:
    while True:
        review: dict[str, Any] = api.get(f"/api/rooms/{code}/games/1/review").json()
        if review["state"] == "done":
            return review
        time.sleep(1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.review")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--worlds", type=int, default=WORLDS)
    parser.add_argument("--target", type=int, default=14)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--api", action="store_true", help="through a real server's HTTP API")
    parser.add_argument("--workers", type=int, default=2, help="the server's review workers")
    args = parser.parse_args(argv)
    rules = Rules(target=args.target)
    losses: dict[str, list[float]] = {k: [] for k in set(PLAYERS.values())}
    if args.api:
        losses = through_the_api(args.games, args.seed, args.target, args.workers)
    for n in range(0 if args.api else args.games):
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
