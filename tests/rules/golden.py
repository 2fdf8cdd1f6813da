"""Golden playthroughs: a scorer's notebook of whole deals, read and replayed on the engine.

A notebook (``tests/rules/golden/*.txt``) holds::

    # what it shows                          comments start with '#', anywhere on a line
    rules: default                           or options: target=7 game_tie=non_dealer ...
    start: 13 13                             optional: reach these scores by earlier deals

    deal, dealer 1                           one block per deal, in order
    seat 2: AH 2C 3C 4C 5C 6C                the six cards each seat is dealt
    kick: 3H                                 the first kick; then for each run of the pack:
    run: 2 AS KS QS | 3 2D 3D 4D | ...       the three cards each seat is dealt, and
    kick: 9C                                 the card turned after it
    last: AD                                 optional: the cards after the last kick
    stand | beg | give one | run the pack    the decisions
    refused: give one R11                    an action that must be refused, by that rule
    lift: AH 2H 2D KH -> 2                   a trick from its leader on; '-> seat' = winner
    play out                                 every seat plays its lowest legal card
    trump: H                                 checks
    awards: high T0 +1 AH s2; game T1 +1     the deal's awards in order
    scores: 14 13                            the scores after the deal
    winner: T0                               the game is over, won by that team
    call: seat 1 lift 2 -> upheld one T0     renege mode (R22): a call and its judgement
                                             (upheld | wrong, one | bullseye | nothing, payer)
    phase: reckoning                         a check of the phase (R23)
    score it: 0 1 2                          these seats say "score it" (R23)
    time up                                  the reckoning's time runs out (R23)

Seats or cards a block leaves out are filled from the rest of the deck (see ``stack``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.rules import (
    Action,
    Award,
    HandRecord,
    Phase,
    RuleError,
    Rules,
    State,
    apply,
    legal_actions,
    new_game,
)
from app.rules.cards import SUITS, code, parse
from app.rules.state import SCORE, call, reckoned
from tests.rules.stack import play_out, reach, stack

DECISIONS = {
    "stand": "stand",
    "beg": "beg",
    "give one": "give_one",
    "run the pack": "run_pack",
}


STEPS = ("lift", "refused", "trump", "awards", "scores", "winner", "call", "phase", "score it")


class NotebookError(ValueError):
    """A line of a notebook this reader does not understand."""


@dataclass
class Deal:
    dealer: int
    hands: dict[int, str] = field(default_factory=dict)
    kicks: list[str] = field(default_factory=list)
    runs: list[dict[int, str]] = field(default_factory=list)
    last: str = ""
    steps: list[tuple[int, str, str]] = field(default_factory=list)  # (line no, verb, rest)

    def deck(self) -> list[int]:
        return stack(self.dealer, self.hands, " ".join(self.kicks), self.runs, self.last)


@dataclass
class Notebook:
    rules: Rules
    start: tuple[int, int] | None
    deals: list[Deal]


def read(path: Path) -> Notebook:
    rules = Rules()
    start: tuple[int, int] | None = None
    deals: list[Deal] = []
    for n, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, _, rest = line.partition(":")
        key, rest = key.strip(), rest.strip()

        def fail(why: str, n: int = n, raw: str = raw) -> NotebookError:
            return NotebookError(f"{path.name}:{n}: {why}: {raw!r}")

        if m := re.fullmatch(r"deal, dealer ([0-3])", line):
            deals.append(Deal(int(m[1])))
        elif key == "rules":
            rules = _rules(rest)
        elif key == "start":
            a, b = rest.split()
            start = (int(a), int(b))
        elif not deals:
            raise fail("expected 'deal, dealer N' first")
        elif m := re.fullmatch(r"seat ([0-3])", key):
            deals[-1].hands[int(m[1])] = rest
        elif key == "kick":
            deal = deals[-1]
            if len(deal.runs) > len(deal.kicks):
                raise fail("a run needs a kick before it")
            while deal.kicks and len(deal.runs) < len(deal.kicks):
                deal.runs.append({})  # a run whose cards the notebook leaves open
            deal.kicks.append(rest)
        elif key == "run":
            run = {}
            for part in rest.split("|"):
                seat, _, cards = part.strip().partition(" ")
                run[int(seat)] = cards
            deals[-1].runs.append(run)
        elif key == "last":
            deals[-1].last = rest
        elif line in DECISIONS or line in ("play out", "time up"):
            deals[-1].steps.append((n, line, ""))
        elif key in STEPS:
            deals[-1].steps.append((n, key, rest))
        else:
            raise fail("unknown line")
    if not deals:
        raise NotebookError(f"{path.name}: no deal")
    return Notebook(rules, start, deals)


def _rules(text: str) -> Rules:
    if text == "default":
        return Rules()
    options: dict[str, Any] = {}
    for item in text.split():
        name, _, value = item.partition("=")
        options[name] = (
            int(value) if value.isdigit() else {"true": True, "false": False}.get(value, value)
        )
    return Rules(**options)


def award_text(award: Award) -> str:
    """An award as the notebook writes it: ``hang_jack T1 +3 JH s2``."""
    words = [award.kind, f"T{award.team}", f"+{award.points}"]
    if award.card is not None:
        words.append(code(award.card))
    if award.seat is not None:
        words.append(f"s{award.seat}")
    return " ".join(words)


def run(book: Notebook) -> State:
    """Replay the notebook, checking every line; returns the final state."""
    decks = [d.deck() for d in book.deals]
    first = book.deals[0].dealer
    if book.start is not None:
        state = reach(book.start, first, *decks, rules=book.rules)
    else:
        state = new_game(book.rules, 0, first, stacked=decks)
    for deal in book.deals:
        assert state.dealer == deal.dealer, f"deal {state.hand_number} dealt by {state.dealer}"
        number = state.hand_number
        for line, verb, rest in deal.steps:
            where = f"line {line}: {verb} {rest}"
            state = _step(state, number, verb, rest, where)
    return state


def _step(state: State, number: int, verb: str, rest: str, where: str) -> State:
    if verb in DECISIONS:
        return apply(state, Action(DECISIONS[verb]))  # type: ignore[arg-type]
    if verb == "play out":
        return play_out(state)
    if verb == "lift":
        cards, _, winner = rest.partition("->")
        for c in cards.split():
            state = apply(state, Action("play", parse(c)))
        if winner.strip():
            lifted = state.tricks[-1] if state.tricks else _record(state, number).tricks[-1]
            assert lifted.winner == int(winner), f"{where}: won by {lifted.winner}"
        return state
    if verb == "refused":
        *words, rule = rest.split()
        text = " ".join(words)
        if text in DECISIONS:
            action = Action(DECISIONS[text])  # type: ignore[arg-type]
        else:
            action = Action("play", parse(text.removeprefix("play ")))
        assert action not in legal_actions(state), where
        try:
            apply(state, action)
        except RuleError as err:
            assert err.rule == rule, f"{where}: refused by {err.rule}"
        else:
            raise AssertionError(f"{where}: was not refused")
        return state
    if verb == "trump":
        record = _record_or_none(state, number)
        trump = record.trump if record is not None else state.trump
        assert trump is not None and SUITS[trump] == rest, f"{where}: trump {trump}"
        return state
    if verb == "awards":
        record = _record_or_none(state, number)
        awards = record.awards if record is not None else state.awards
        got = "; ".join(award_text(a) for a in awards)
        want = "; ".join(w.strip() for w in rest.split(";") if w.strip())
        assert got == want, f"{where}\n  got:  {got}"
        return state
    if verb == "scores":
        record = _record_or_none(state, number)
        scores = record.scores_after if record is not None else state.scores
        assert scores == tuple(int(x) for x in rest.split()), f"{where}: scores {scores}"
        return state
    if verb == "call":
        m = re.fullmatch(r"seat ([0-3]) lift (\d+) -> (.+)", rest)
        assert m, f"{where}: a call is 'seat S lift K -> judgement'"
        state = apply(state, call(int(m[1]), int(m[2])))
        record = _record_or_none(state, number)
        judged = (record.calls if record is not None else state.calls)[-1]
        got = " ".join(
            ["upheld" if judged.upheld else "wrong", judged.penalty or "nothing"]
            + ([f"T{judged.paid_by}"] if judged.paid_by is not None else [])
        )
        assert got == m[3].strip(), f"{where}: judged {got}"
        return state
    if verb == "phase":
        assert state.phase.value == rest, f"{where}: phase {state.phase.value}"
        return state
    if verb == "score it":
        for seat in rest.split():
            state = apply(state, reckoned(int(seat)))
        return state
    if verb == "time up":
        return apply(state, SCORE)
    if verb == "winner":
        assert state.phase is Phase.GAME_OVER, f"{where}: the game is not over"
        assert f"T{state.winner}" == rest, f"{where}: won by T{state.winner}"
        return state
    raise AssertionError(f"{where}: unknown step")


def _record_or_none(state: State, number: int) -> HandRecord | None:
    for record in state.history:
        if record.n == number:
            return record
    return None


def _record(state: State, number: int) -> HandRecord:
    record = _record_or_none(state, number)
    assert record is not None, f"deal {number} is not over"
    return record
