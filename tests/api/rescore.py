"""An independent scorer of hand records (RULES.md R7, R10, R16-R19), written from the rule
book without the engine's scoring code, to check what the server reports."""

from __future__ import annotations

from typing import Any

Json = dict[str, Any]
RANKS = "23456789TJQKA"
GAME_VALUE = {"A": 4, "K": 3, "Q": 2, "J": 1, "T": 10}


def _rank(card: str) -> int:
    return RANKS.index(card[0])


def expected_awards(record: Json, rules: Json, before: list[int]) -> tuple[list[Json], list[int]]:
    """The awards of one hand, in order, stopping at the target; and the scores after."""
    scores = list(before)
    target: int = rules["target"]
    out: list[Json] = []
    dealer = record["dealer"]

    def award(a: Json) -> bool:
        out.append(a)
        scores[a["team"]] += a["points"]
        return scores[a["team"]] >= target

    six = "2" if rules["kick_two"] else "6"
    for kick in record["kicks"]:
        points = {"A": 1, "J": 3, six: 2}.get(kick[0], 0)
        if points and award({"kind": "kick", "team": dealer % 2, "points": points, "card": kick}):
            return out, scores
    if record["decision"] == "give_one" and award(
        {"kind": "give_one", "team": (dealer + 1) % 2, "points": 1}
    ):
        return out, scores
    if not record["tricks"]:
        return out, scores
    trump = record["trump"]
    holder = {c: int(seat) for seat, cards in record["dealt"].items() for c in cards}
    trumps = sorted((c for c in holder if c[1] == trump), key=_rank)
    won: list[list[str]] = [[], []]
    for trick in record["tricks"]:
        won[trick["winner"] % 2] += [p["card"] for p in trick["cards"]]
    if trumps:
        high, low = trumps[-1], trumps[0]
        for kind, card in (("high", high), ("low", low)):
            seat = holder[card]
            if award({"kind": kind, "team": seat % 2, "points": 1, "card": card, "seat": seat}):
                return out, scores
    jack = "J" + trump
    if jack in holder:
        seat = holder[jack]
        capturers = 0 if jack in won[0] else 1
        kind, points = ("jack", 1) if capturers == seat % 2 else ("hang_jack", 3)
        if award({"kind": kind, "team": capturers, "points": points, "card": jack, "seat": seat}):
            return out, scores
    totals = [sum(GAME_VALUE.get(c[0], 0) for c in cards) for cards in won]
    assert record["game_totals"] == totals
    points = 2 if rules["game_points"] == 2 else 1
    if totals[0] != totals[1]:
        award({"kind": "game", "team": 0 if totals[0] > totals[1] else 1, "points": points})
    elif rules["game_tie"] == "non_dealer":
        award({"kind": "game", "team": (dealer + 1) % 2, "points": points})
    return out, scores


def check_trick_winners(record: Json) -> None:
    """R15: the highest trump, else the highest card of the suit led."""
    trump = record["trump"]
    for trick in record["tricks"]:
        cards = trick["cards"]
        led = cards[0]["card"][1]
        trumps = [p for p in cards if p["card"][1] == trump]
        pool = trumps or [p for p in cards if p["card"][1] == led]
        best = max(pool, key=lambda p: _rank(p["card"]))
        assert trick["winner"] == best["seat"], trick
