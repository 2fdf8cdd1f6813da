"""A whole game in renege mode, told as the table saw it: three computer players and a person.

The server runs in this process (a temporary SQLite file, the computer players at once); the
person, Ann at seat 0, is a script playing through the JSON API as a page would. She plays
fair but for one renege a game (the first card that would renege, once she is offered one),
makes one wrong call of renege (there is never one to find: computer players never renege),
says "score it" in each reckoning but one, which the server's clock scores. The computer
players call what their seats have seen proven (R26). At the end: each deal with its calls and
awards, the reneges made public (R27), the score, and `python -m app.verify`'s report.

    python -m bench.renege_game --seed 2612 --renege trinidad
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from app.main import create_app
from app.serve import migrate
from app.settings import Settings
from app.verify import check
from app.web.cards import SUIT_SIGNS, card_short

Json = dict[str, Any]
ADMIN = "renege-game-admin"
TEAMS = ("Ann & Cal", "Ben & Dee")
NAMES = ("Ann", "Ben", "Cal", "Dee")


def card(code: str | None) -> str:
    return "-" if code is None else card_short(code)


class Ann:
    """The person: her seat's token and the script she follows."""

    def __init__(self, client: TestClient, code: str, token: str, rng: random.Random) -> None:
        self.client, self.code, self.rng = client, code, rng
        self.headers = {"Authorization": f"Bearer {token}"}
        self.reneged = self.called = False
        self.let_run: int | None = None  # the deal whose reckoning the clock scores
        self.said: list[str] = []

    def view(self) -> Json:
        out: Json = self.client.get(f"/api/rooms/{self.code}", headers=self.headers).json()
        return out

    def post(self, path: str, body: Json | None = None) -> Any:
        r = self.client.post(f"/api/rooms/{self.code}/{path}", json=body, headers=self.headers)
        return r

    def turn(self, v: Json) -> None:
        marked = set(v.get("renege_cards") or ())
        if marked and not self.reneged:
            self.reneged = True
            pick = sorted(marked)[0]
            self.said.append(f"deal {v['hand_number']}: Ann reneges with {card(pick)}")
            self.post("actions", {"type": "play", "card": pick, "version": v["version"]})
            return
        fair = [m for m in v["legal"] if m.get("card") not in marked]
        move = self.rng.choice(fair)
        self.post("actions", {**move, "version": v["version"]})

    def reckon(self, v: Json) -> None:
        if not self.called and v["hand_number"] >= 2:
            self.called = True
            r = self.post("renege", {"lift": 1})
            self.said.append(f"deal {v['hand_number']}: Ann calls renege on lift 1 -> {r.json()}")
        if self.let_run is None and v["hand_number"] >= 3:
            self.let_run = v["hand_number"]  # this once the reckoning's clock scores the deal
            self.said.append(f"deal {v['hand_number']}: Ann lets the reckoning's clock run")
        if v["hand_number"] == self.let_run:
            return
        if v["you"] not in v["reckoned"]:
            self.post("reckoned")


def tell_deal(hand: Json) -> list[str]:
    lines = [
        f"deal {hand['n']}: {NAMES[hand['dealer']]} deals, kicks "
        + " ".join(card(k) for k in hand["kicks"])
        + f", trump {SUIT_SIGNS.get(hand['trump'] or '', '-')}"
        + (f", {hand['decision'].replace('_', ' ')}" if hand["decision"] else "")
    ]
    for call in hand["calls"]:
        verdict = (
            f"upheld: {NAMES[call['offender']]} reneged with {card(call['card'])}"
            if call["upheld"]
            else "no renege"
        )
        paid = (
            f", {call['penalty']} from {TEAMS[call['paid_by']]}"
            if call["penalty"]
            else ", nothing more"
        )
        lines.append(
            f"  {NAMES[call['seat']]} calls renege on lift {call['lift']}: {verdict}{paid}"
        )
    for award in hand["awards"]:
        what = award["kind"].replace("_", " ")
        extra = f" ({card(award.get('card'))})" if award.get("card") else ""
        lines.append(f"  {what}{extra}: {award['points']} to {TEAMS[award['team']]}")
    for renege in hand.get("reneges") or []:
        lines.append(
            f"  renege (R21 kind {renege['kind']}): {NAMES[renege['seat']]} with "
            f"{card(renege['card'])} on lift {renege['lift']}, "
            + ("called" if renege["called"] else "never called")
        )
    lines.append(f"  score {hand['scores_after'][0]}-{hand['scores_after'][1]}")
    return lines


def play(seed: int, renege: str, false_call: str, level: str, reckon_s: int) -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'renege.db'}"
        migrate(url, "head")
        settings = Settings(
            database_url=url,
            admin_token=ADMIN,
            rate_limit=0,
            bot_delay_ms=0,
            away_s=3600,
        )
        with TestClient(create_app(settings)) as client:
            body = {
                "rules": {"renege": renege, "false_call": false_call},
                "options": {"reckon_s": reckon_s},
                "seed": seed,
            }
            admin = {"Authorization": f"Bearer {ADMIN}"}
            code = client.post("/api/rooms", json=body, headers=admin).json()["code"]
            token = client.post(f"/api/rooms/{code}/join", json={"name": "Ann", "seat": 0}).json()[
                "token"
            ]
            ann = Ann(client, code, token, random.Random(seed))
            for seat in (1, 2, 3):
                r = client.post(
                    f"/api/rooms/{code}/bots",
                    json={"seat": seat, "level": level},
                    headers=ann.headers,
                )
                assert r.status_code == 200, r.text
            r = ann.post("start")
            assert r.status_code == 200, r.text
            started = time.monotonic()
            while (v := ann.view())["phase"] != "game_over":
                if v["phase"] == "reckoning":
                    ann.reckon(v)
                elif v["turn"] == v["you"]:
                    ann.turn(v)
                time.sleep(0.01)
            played_s = time.monotonic() - started
            record = client.get(f"/api/rooms/{code}/games/1", headers=ann.headers).json()
    lines = [
        f"renege {renege}, false call {false_call}, computer players {level}, seed {seed}",
        *ann.said,
        "",
    ]
    for hand in record["hands"]:
        lines += tell_deal(hand)
    a, b = record["scores"]
    lines.append(f"game over {a}-{b}: {TEAMS[0 if a > b else 1]} win ({played_s:.1f} s)")
    lines += ["", "python -m app.verify:", *check(record)]
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.renege_game", description=__doc__)
    parser.add_argument("--seed", type=int, default=2612)
    parser.add_argument("--renege", choices=["trinidad", "one", "bullseye"], default="trinidad")
    parser.add_argument("--false-call", choices=["penalty", "free"], default="penalty")
    parser.add_argument("--level", choices=["easy", "standard", "strong"], default="standard")
    parser.add_argument("--reckon-s", type=int, default=5)
    args = parser.parse_args(argv)
    for line in play(args.seed, args.renege, args.false_call, args.level, args.reckon_s):
        print(line)


if __name__ == "__main__":
    main()
