"""Check an exported game record against its seed: ``python -m app.verify GAME.json``.

A second implementation of docs/fairness.md, on purpose: standard library only, nothing
imported from the game (``app.rules`` or anywhere else in ``app``), so it checks the server
rather than repeating it. It checks that the seed is the one committed to, that the first
dealer is the one the seed draws (for a room's first game), and recomputes the deck of
every deal, redeals included, and what it gave each seat and every kick, running the pack
as the record says it was run; then that the moves recorded are those of the deals (each
card played was dealt to the seat that played it, in the record's order). A duplicate
event's boards (format ``allfours-boards/1``) are checked the same way from the stream
``b{n}``, and each board's traveller counted again in matchpoints (R30-R32).

Exit codes:
    0  the record checks out
    1  the record differs from what its seed deals: the message names the first difference
    2  it cannot be checked: not a game record, the game is not over (its seed is still a
       secret), a game dealt before the documented shuffle, or the file cannot be read
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator
from typing import Any

FORMAT = "allfours-game-record/1"
BOARDS_FORMAT = "allfours-boards/1"  # a duplicate event's boards and travellers
SHUFFLE = "sha256-fisher-yates"  # docs/fairness.md
RANKS = "23456789TJQKA"
SUITS = "CDHS"
DECK = [r + s for s in SUITS for r in RANKS]  # the unshuffled deck, index order
RUN = 3  # cards to each seat at a time
MAX_SEED_DIGITS = 80  # far above a 128-bit seed: a bound on the work one record asks for
MAX_HANDS = 1000


class Unchecked(Exception):
    """The record cannot be checked (exit code 2)."""


class Mismatch(Exception):
    """The record differs from what its seed deals (exit code 1)."""


def seed_commitment(seed: int) -> str:
    return hashlib.sha256(str(seed).encode("ascii")).hexdigest()


def stream(seed: int, label: str) -> Iterator[int]:
    i = 0
    while True:
        yield from hashlib.sha256(f"allfours:{seed}:{label}:{i}".encode("ascii")).digest()
        i += 1


def draw(source: Iterator[int], m: int) -> int:
    limit = 256 - 256 % m
    return next(b for b in source if b < limit) % m


def first_dealer(seed: int) -> int:
    return draw(stream(seed, "dealer"), 4)


def deck(seed: int, n: int | str) -> list[str]:
    """Deal n's deck, top first (``n`` a label: ``b3`` is board 3's, R30)."""
    cards = list(DECK)
    source = stream(seed, str(n))
    for i in range(len(cards) - 1, 0, -1):
        j = draw(source, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _field(obj: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise Unchecked(f"not a game record: {where} has no {key!r}")
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise Unchecked(f"not a game record: {where}.{key} has the wrong type")
    return value


def _seat(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 3:
        raise Unchecked(f"not a game record: {where} is not a seat 0-3")
    return value


def _suit(card: str) -> str:
    return card[1]


def _deal(seed: int, n: int | str, dealer: int, kicks: int, flip_last: bool) -> Any:
    """What deal n gave each seat and the kicks turned, for a hand that turned ``kicks``
    kicks: the first after six each, each later one after a run of three each (or, with
    ``flip_last_card``, alone once fewer than 13 cards are left). Also the cards left."""
    stock = deck(seed, n)
    hands: list[list[str]] = [[], [], [], []]
    turned: list[str] = []

    def one_round() -> None:
        for k in range(4):
            seat = (dealer + 1 + k) % 4
            hands[seat] += stock[:RUN]
            del stock[:RUN]

    one_round()
    one_round()
    for k in range(kicks):
        if k and len(stock) >= 4 * RUN + 1:
            one_round()
        elif k and not (flip_last and stock):
            return hands, turned, stock, False
        turned.append(stock.pop(0))
    return hands, turned, stock, True


def _expected_actions(hand: dict[str, Any], dealer: int) -> list[tuple[int, str, str | None]]:
    beggar = (dealer + 1) % 4
    decision = hand.get("decision")
    said: list[tuple[int, str, str | None]] = []
    if decision == "stand":
        said = [(beggar, "stand", None)]
    elif decision in ("give_one", "run_pack"):
        said = [(beggar, "beg", None), (dealer, decision, None)]
    for trick in hand.get("tricks") or []:
        for play in _field(trick, "cards", list, f"hand {hand.get('n')} lift"):
            said.append((_seat(play.get("seat"), "a play's seat"), "play", play.get("card")))
    return said


def check(record: Any) -> list[str]:
    """Check a parsed record: the lines of a report, or Unchecked / Mismatch saying why not."""
    try:
        return _check(record)
    except (AttributeError, TypeError, KeyError, IndexError, ValueError) as err:
        # A part of the record of the wrong shape (a list where a lift should be, ...).
        raise Unchecked(f"not a game record: a part of it has the wrong shape ({err})") from None


def _check(record: Any) -> list[str]:
    if isinstance(record, dict) and record.get("format") == BOARDS_FORMAT:
        return _check_boards(record)
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise Unchecked(f"not a game record (its 'format' must be {FORMAT!r})")
    if record.get("shuffle") != SHUFFLE:
        raise Unchecked(
            "this game was dealt before the documented shuffle (docs/fairness.md): "
            "it has no commitment to check"
        )
    commitment = _field(record, "seed_commitment", str, "the record")
    seed = record.get("seed")
    if seed is None:
        raise Unchecked("the game is not over: its seed stays a secret until then")
    if isinstance(seed, bool) or not isinstance(seed, int) or len(str(seed)) > MAX_SEED_DIGITS:
        raise Unchecked("not a game record: 'seed' must be a whole number")
    if seed_commitment(seed) != commitment.lower():
        raise Mismatch(
            f"the seed {seed} is not the one committed to: sha256({str(seed)!r}) is "
            f"{seed_commitment(seed)}, the record's seed_commitment is {commitment}"
        )
    report = [f"seed {seed} matches the commitment {commitment}"]

    rules = _field(record, "rules", dict, "the record")
    flip_last = rules.get("flip_last_card") is True
    dealer = _seat(record.get("first_dealer"), "first_dealer")
    origin = record.get("first_dealer_from")
    if origin == "seed":
        drawn = first_dealer(seed)
        if drawn != dealer:
            raise Mismatch(f"the first dealer is seat {dealer}, but the seed draws seat {drawn}")
        report.append(f"first dealer: seat {dealer}, drawn from the seed")
    else:
        report.append(f"first dealer: seat {dealer} ({origin}: not drawn from this seed)")

    hands = _field(record, "hands", list, "the record")
    if len(hands) > MAX_HANDS:
        raise Unchecked(f"not a game record: more than {MAX_HANDS} hands")
    expected: list[tuple[int, str, str | None]] = []
    for i, hand in enumerate(hands, 1):
        where = f"hand {i}"
        n = _field(hand, "n", int, where)
        if n != i:
            raise Mismatch(f"{where} is numbered {n}")
        if _seat(hand.get("dealer"), f"{where}'s dealer") != dealer:
            raise Mismatch(
                f"{where}: dealt by seat {hand['dealer']}, but it is seat {dealer}'s deal"
            )
        kicks = _field(hand, "kicks", list, where)
        dealt = _field(hand, "dealt", dict, where)
        if not 1 <= len(kicks) <= 52:
            raise Mismatch(f"{where}: {len(kicks)} kicks")
        held, turned, left, fits = _deal(seed, n, dealer, len(kicks), flip_last)
        if not fits:
            raise Mismatch(f"{where}: {len(kicks)} kicks, more than the pack can turn")
        for seat in range(4):
            cards = dealt.get(str(seat))
            if not isinstance(cards, list):
                raise Unchecked(f"{where}: seat {seat}'s cards are not in the record")
            if sorted(cards, key=_index) != sorted(held[seat], key=_index):
                raise Mismatch(
                    f"{where}: seat {seat} was dealt {' '.join(sorted(cards, key=_index))} in "
                    f"the record, but the seed deals {' '.join(sorted(held[seat], key=_index))}"
                )
        for k, (said, real) in enumerate(zip(kicks, turned, strict=True), 1):
            if said != real:
                raise Mismatch(
                    f"{where}: kick {k} is {said} in the record, but the seed turns {real}"
                )
        first = _suit(turned[0])
        if any(_suit(c) != first for c in turned[1:-1]):
            raise Mismatch(f"{where}: the pack was run on after a new suit showed")
        redeal = hand.get("redeal") is True
        if redeal:
            if len(turned) > 1 and _suit(turned[-1]) != first:
                raise Mismatch(f"{where}: a redeal, but a new suit showed ({turned[-1]})")
            if len(left) >= 4 * RUN + 1 or (flip_last and left):
                raise Mismatch(f"{where}: a redeal, but the pack had not run out")
        for t, trick in enumerate(hand.get("tricks") or [], 1):
            for play in _field(trick, "cards", list, f"{where}, lift {t}"):
                seat, card = play.get("seat"), play.get("card")
                if seat not in range(4) or card not in held[seat]:
                    raise Mismatch(f"{where}, lift {t}: seat {seat} played {card}, not dealt to it")
        expected += _expected_actions(hand, dealer)
        report.append(
            f"hand {n}: dealer seat {dealer}, kicks {' '.join(turned)}"
            + (", a redeal" if redeal else "")
        )
        if not redeal:
            dealer = (dealer + 1) % 4

    every = _field(record, "actions", list, "the record")
    # Renege mode's calls and "score it" (R22-R23) are the table's, between the moves.
    actions = [a for a in every if a.get("type") not in TABLE_ACTIONS]
    for k, action in enumerate(actions, 1):
        got = (action.get("seat"), action.get("type"), action.get("card"))
        if k > len(expected):
            raise Mismatch(f"action {k} ({_said(got)}) is in no hand of the record")
        if got != expected[k - 1]:
            want = _said(expected[k - 1])
            raise Mismatch(f"action {k} is {_said(got)} in the record, but the hands say {want}")
    if len(actions) < len(expected):
        raise Mismatch(f"the hands hold {len(expected)} actions, the record only {len(actions)}")
    report.append(
        f"{len(hands)} hands and {len(actions)} actions: every deal and kick matches the seed"
    )
    if rules.get("renege", "off") != "off":
        report.append(_check_calls(rules, hands, every))
    return report


# -- renege mode (R21-R25): every call judged again from the plays ---------------------------

TABLE_ACTIONS = ("call", "reckoned", "score")
HONOURS = "AKQJT"


def _rank(card: str) -> int:
    return RANKS.index(card[0])


def _allowed(held: set[str], trick: list[str], trump: str, forbid: bool) -> set[str]:
    """R14 (and `undertrump` forbidden): the cards of ``held`` that may be played."""
    if not trick:
        return set(held)
    led = _suit(trick[0])
    trumps = {c for c in held if _suit(c) == trump}
    if led == trump:
        return trumps or set(held)
    follow = {c for c in held if _suit(c) == led}
    legal = (follow | trumps) if follow else set(held)
    played_trumps = [c for c in trick if _suit(c) == trump]
    if forbid and trumps != held and played_trumps:
        top = max(_rank(c) for c in played_trumps)
        legal -= {c for c in trumps if _rank(c) < top}
    return legal


def _kind(card: str, held: set[str], trick: list[str], trump: str, forbid: bool) -> str | None:
    """R21: the kind of renege the play is, or None."""
    if card in _allowed(held, trick, trump, forbid):
        return None
    led = _suit(trick[0])
    if led == trump:
        return "b"
    if any(_suit(c) == led for c in held) and _suit(card) != trump:
        return "a"
    return "c"


def _check_calls(rules: dict[str, Any], hands: list[Any], actions: list[Any]) -> str:
    """Replays each hand's plays in the record's order, finds every renege (R21), judges each
    call where it was made (R22) and its penalty (R24, R25, once a team a hand)."""
    renege, false_call = rules.get("renege"), rules.get("false_call", "penalty")
    forbid = rules.get("undertrump") == "forbidden"
    moves_of = [len(_expected_actions(h, h["dealer"])) for h in hands]
    if not hands:
        return "no hand: no call to judge"
    i, done, checked, found = 0, 0, 0, 0
    state = _Hand(hands[0])
    for action in actions:
        kind = action.get("type")
        if kind not in TABLE_ACTIONS:
            if done == moves_of[i]:  # the next hand's first move
                state.finish()
                i, done = i + 1, 0
                state = _Hand(hands[i])
            done += 1
            if kind == "play":
                state.play(_seat(action.get("seat"), "a play's seat"), action.get("card"), forbid)
            continue
        if kind != "call":
            continue
        seat, lift = _seat(action.get("seat"), "a call's seat"), action.get("lift")
        want = state.next_call()
        upheld, catch = state.judge(seat, lift)
        penalty: str | None
        if catch is not None:
            penalty = "bullseye" if renege == "bullseye" else "one"
            if renege == "trinidad" and catch[3] == "b" and catch[4]:
                penalty = "bullseye"
            payer: int | None = catch[0] % 2
        else:
            penalty = "bullseye" if renege == "bullseye" else "one"
            if false_call == "free":
                penalty = None
            payer = seat % 2 if penalty is not None else None
        if payer is not None and payer in state.paid:
            penalty, payer = None, None
        if payer is not None:
            state.paid.add(payer)
        got = (
            want.get("seat"),
            want.get("lift"),
            want.get("upheld"),
            want.get("penalty"),
            want.get("paid_by"),
        )
        if got != (seat, lift, upheld, penalty, payer):
            raise Mismatch(
                f"hand {state.n}: the call of seat {seat} on lift {lift} is judged {got[2:]} in"
                f" the record, but the plays make it {(upheld, penalty, payer)}"
            )
        checked += 1
        found += upheld
    state.finish()
    return f"{checked} calls of renege judged as the plays say ({found} upheld)"


class _Hand:
    """One hand's plays so far, for judging calls (R21, R22)."""

    def __init__(self, hand: dict[str, Any]) -> None:
        self.n = hand.get("n")
        self.record = hand
        self.held = {int(s): set(cards or []) for s, cards in hand["dealt"].items()}
        self.trump = hand.get("trump")
        self.lifts: list[list[str]] = []
        self.reneges: list[list[Any]] = []  # [seat, lift, card, kind, honour, called]
        self.calls = list(hand.get("calls") or [])
        self.paid: set[int] = set()
        self.judged = 0

    def play(self, seat: int, card: Any, forbid: bool) -> None:
        if not self.lifts or len(self.lifts[-1]) == 4:
            self.lifts.append([])
        trick = self.lifts[-1]
        held = self.held[seat]
        if trick and self.trump is not None:
            kind = _kind(card, held, trick, self.trump, forbid)
            if kind is not None:
                honour = any(c[0] in HONOURS and _suit(c) == self.trump for c in held)
                self.reneges.append([seat, len(self.lifts), card, kind, honour, False])
        held.discard(card)
        trick.append(card)

    def next_call(self) -> dict[str, Any]:
        if self.judged >= len(self.calls):
            raise Mismatch(f"hand {self.n}: more calls in the actions than in the hand record")
        self.judged += 1
        return dict(self.calls[self.judged - 1])

    def judge(self, seat: int, lift: Any) -> tuple[bool, list[Any] | None]:
        for r in self.reneges:
            if r[1] == lift and r[0] % 2 != seat % 2 and not r[5]:
                r[5] = True
                return True, r
        return False, None

    def finish(self) -> None:
        if self.judged != len(self.calls):
            raise Mismatch(f"hand {self.n}: {len(self.calls)} calls recorded, {self.judged} made")
        shown = self.record.get("reneges")
        if shown is not None:
            want = [[r["seat"], r["lift"], r["card"], r["kind"], r["called"]] for r in shown]
            got = [[r[0], r[1], r[2], r[3], r[5]] for r in self.reneges]
            if want != got:
                raise Mismatch(f"hand {self.n}: the reneges recorded are not those played")


def _check_boards(record: dict[str, Any]) -> list[str]:
    """A duplicate event's boards (today's boards, a night's): each board's first deal and
    kick from the stream ``b{n}`` of the event's seed, its dealer (n - 1) mod 4 (R30), and
    each traveller's scores and matchpoints (R31-R32), counted again here."""
    seed = record.get("seed")
    commitment = _field(record, "seed_commitment", str, "the record")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise Unchecked("the event's seed is not revealed yet: its boards cannot be checked")
    if len(str(seed)) > MAX_SEED_DIGITS:
        raise Unchecked("the seed is too long to be one of ours")
    if seed_commitment(seed) != commitment.lower():
        raise Mismatch(f"the seed's SHA-256 is {seed_commitment(seed)}, not {commitment}")
    boards = _field(record, "boards", list, "the record")
    report = [f"seed {seed}: its commitment {commitment} checks out"]
    results = 0
    for board in boards[:MAX_HANDS]:
        n = _field(board, "board", int, "a board")
        dealer = _field(board, "dealer", int, f"board {n}")
        if n < 1 or dealer != (n - 1) % 4:
            raise Mismatch(f"board {n} is dealt by seat {(n - 1) % 4}, not {dealer}")
        if "dealt" in board:
            dealt, kicks, _, _ = _deal(seed, f"b{n}", dealer, 1, False)
            shown = _field(board, "dealt", list, f"board {n}")
            for seat in range(4):
                if sorted(shown[seat]) != sorted(dealt[seat]):
                    raise Mismatch(f"board {n}: seat {seat} was dealt {' '.join(dealt[seat])}")
            if board.get("kick") != kicks[0]:
                raise Mismatch(f"board {n}: the kick is {kicks[0]}, not {board.get('kick')}")
        rows = _field(board, "results", list, f"board {n}")
        scores = []
        for row in rows:
            ns, ew = _field(row, "points", list, f"board {n}'s result")
            score = _field(row, "score", int, f"board {n}'s result")
            if score != ns - ew:
                raise Mismatch(f"board {n}: a score of {ns} to {ew} is {ns - ew}, not {score}")
            scores.append(score)
        top = 2 * (len(scores) - 1)
        for row, score in zip(rows, scores, strict=True):
            ns_mp = sum(2 if score > o else 1 if score == o else 0 for o in scores) - 1
            given = _field(row, "matchpoints", list, f"board {n}'s result")
            if given != [ns_mp, top - ns_mp]:
                raise Mismatch(
                    f"board {n}: the score {score} makes {ns_mp} and {top - ns_mp}"
                    f" matchpoints, not {given}"
                )
        results += len(rows)
        report.append(f"board {n}: dealt from b{n} by seat {dealer}, {len(rows)} results")
    report.append(f"{len(boards)} boards and {results} results as the seed deals and R32 counts")
    return report


def _index(card: Any) -> int:
    return DECK.index(card) if card in DECK else -1


def _said(action: tuple[Any, Any, Any]) -> str:
    seat, kind, card = action
    return f"seat {seat} {kind}" + (f" {card}" if card else "")


def check_text(text: str | bytes) -> list[str]:
    try:
        record = json.loads(text)
    except (ValueError, UnicodeDecodeError) as err:
        raise Unchecked(f"not JSON: {err}") from None
    return check(record)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m app.verify",
        description="Check a game record (GET /api/rooms/{code}/games/{g}), or a duplicate"
        " event's boards (GET /api/daily/{date} once the day is over), against its seed.",
        epilog="exit codes: 0 checks out, 1 differs from its seed, 2 cannot be checked",
    )
    parser.add_argument("record", help="the record's JSON file ('-' for standard input)")
    args = parser.parse_args(argv)
    try:
        if args.record == "-":
            text = sys.stdin.buffer.read()
        else:
            with open(args.record, "rb") as f:
                text = f.read()
        report = check_text(text)
    except OSError as err:
        print(f"cannot read {args.record}: {err.strerror}", file=sys.stderr)
        return 2
    except Unchecked as err:
        print(f"cannot check: {err}", file=sys.stderr)
        return 2
    except Mismatch as err:
        print(f"FAILED: {err}", file=sys.stderr)
        return 1
    print("\n".join(report))
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
