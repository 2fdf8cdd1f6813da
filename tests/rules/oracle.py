"""RULES.md written again, plainly, over card codes: an independent check of the engine.

Nothing here shares code with ``app.rules`` beyond the card codes: cards are ``"TH"``
strings, hands are sets, and each rule is spelt out as the rule book says it.
"""

from __future__ import annotations

from dataclasses import dataclass

RANKS = "23456789TJQKA"  # R2: low to high
GAME_VALUE = {"A": 4, "K": 3, "Q": 2, "J": 1, "T": 10}  # R18


def rank(card: str) -> int:
    return RANKS.index(card[0])


def suit(card: str) -> str:
    return card[1]


def kick_points(card: str, kick_two: bool) -> int:
    """R7 (and the `kick_two` option)."""
    r = card[0]
    if r == "A":
        return 1
    if r == "J":
        return 3
    if r == ("2" if kick_two else "6"):
        return 2
    return 0


def legal_plays(
    hand: set[str], trick: list[str], trump: str, undertrump_forbidden: bool
) -> set[str]:
    """R14 and the `undertrump` option."""
    if not trick:
        return set(hand)
    led = suit(trick[0])
    trumps = {c for c in hand if suit(c) == trump}
    if led == trump:
        return trumps or set(hand)
    follow = {c for c in hand if suit(c) == led}
    legal = follow | trumps if follow else set(hand)
    played_trumps = [c for c in trick if suit(c) == trump]
    if undertrump_forbidden and played_trumps and trumps != hand:
        top = max(rank(c) for c in played_trumps)
        legal -= {c for c in trumps if rank(c) < top}
    return legal


def trick_winner(trick: list[str], trump: str) -> int:
    """R15: the index in ``trick`` of the winning card."""
    trumps = [i for i, c in enumerate(trick) if suit(c) == trump]
    if trumps:
        return max(trumps, key=lambda i: rank(trick[i]))
    led = suit(trick[0])
    return max((i for i, c in enumerate(trick) if suit(c) == led), key=lambda i: rank(trick[i]))


@dataclass(frozen=True)
class Point:
    kind: str
    team: int
    points: int
    card: str | None = None
    seat: int | None = None


def deal_points(
    dealt: dict[int, set[str]],
    lifted: dict[int, set[str]],
    trump: str,
    dealer: int,
    game_points: int,
    game_tie: str,
) -> list[Point]:
    """R16-R18 for a played-out deal, in order: High, Low, Jack or hang jack, Game.

    ``lifted[team]``: the cards that team won in tricks.
    """
    out: list[Point] = []
    trumps = [(c, s) for s, cards in dealt.items() for c in cards if suit(c) == trump]
    if trumps:
        high = max(trumps, key=lambda cs: rank(cs[0]))
        low = min(trumps, key=lambda cs: rank(cs[0]))
        out.append(Point("high", high[1] % 2, 1, high[0], high[1]))
        out.append(Point("low", low[1] % 2, 1, low[0], low[1]))
    jack = "J" + trump
    holder = next((s for s, cards in dealt.items() if jack in cards), None)
    if holder is not None:
        capturers = 0 if jack in lifted[0] else 1
        if capturers == holder % 2:
            out.append(Point("jack", capturers, 1, jack, holder))
        else:
            out.append(Point("hang_jack", capturers, 3, jack, holder))
    count = [sum(GAME_VALUE.get(c[0], 0) for c in lifted[t]) for t in (0, 1)]
    if count[0] != count[1]:
        out.append(Point("game", 0 if count[0] > count[1] else 1, game_points))
    elif game_tie == "non_dealer":
        out.append(Point("game", (dealer + 1) % 2, game_points))
    return out
