"""Every game of a room as a record: the JSON a player exports and checks
(``python -m app.verify``), the scorer's notebook in plain text, and the room that plays a
finished game's deals again.

What a record shows is public: the moves (every one was said or played face up), the hands
each deal's play showed, and, once the game is over, its seed and so every card. While a
game runs its seed stays a secret (docs/fairness.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.reasons import N_, reason
from app.rules import Observation, Rules, observe
from app.rules.cards import SUITS, code, suit_of
from app.rules.shuffle import SHUFFLE, shuffled_deck
from app.rules.state import Award, Call, HandRecord
from app.services import errors
from app.services.career import rating_json
from app.services.identity import check_code, seat_of
from app.services.rooms import Rooms
from app.services.snapshot import GameInfo, ReplayOf, RoomSnap, handles_of, replay_game
from app.store import repo
from app.store.db import read
from app.views.records import HandRecordView, hand_records

Json = dict[str, Any]

FORMAT = "allfours-game-record/1"  # app/verify.py reads this format
SHUFFLE_NAMES = {SHUFFLE: "sha256-fisher-yates"}  # any other: "python-random"
RUN = 3  # cards to each seat at a time (R6, R10)

NO_GAME = reason("no_game", "room {code} has no game {number}", N_("That game is not here."))
PLAYERS_DEAL_AGAIN = reason(
    "players_deal_again",
    "only a player seated in that game may deal it again",
    N_("Only a player of that game may deal it again."),
)
DEALS_SECRET = reason(
    "deals_secret",
    "that game is not over: its deals are still a secret",
    N_("That game is not over: its deals are still a secret."),
)
BOARD_SECRET = reason(
    "board_secret",
    "a board's deals are its event's: not dealt again nor reviewed while its seed is secret",
    N_("A board is not dealt again or reviewed until all its boards are over."),
)
OLD_SHUFFLE = reason(
    "old_shuffle",
    "that game was dealt before the documented shuffle: it cannot be dealt again",
    N_("That game was dealt before the documented shuffle: it cannot be dealt again."),
)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game of a room, replayed, with its moves."""

    snap: RoomSnap  # the room now: seats, rules, replay mark
    game: GameInfo
    actions: tuple[repo.ActionLog, ...]

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def first_dealer_from(self) -> str:
        """Where the first dealer came from: the seed's draw (R5), the deal passed on from
        the game before (a rematch), or the replayed game's first dealer."""
        if self.game.number > 1:
            return "rotation"
        return "replay" if self.snap.replay_of is not None else "seed"


def load_record(rooms: Rooms, code: str, number: int) -> GameRecord:
    """Game ``number`` (1-based) of room ``code``, as far as it has been played."""
    check_code(code)
    snap = rooms.snapshot(code)
    if snap.game is None or not 1 <= number <= snap.game.number:
        raise errors.NotFound(NO_GAME, code=code, number=number)
    with read(rooms.engine) as conn:
        row = repo.game_by_number(conn, snap.id, number)
        if row is None:
            raise errors.NotFound(NO_GAME, code=code, number=number)
        logs = repo.actions_of(conn, row.id, snap.version)
        handles = handles_of(conn, row)
    return GameRecord(snap, replay_game(row, logs, handles), tuple(logs))


def record_json(record: GameRecord) -> Json:
    """The game record of API.md ("Second round"), as the verifier reads it."""
    game, snap, over = record.game, record.snap, record.over
    state = game.state
    seen = observe(state, None)  # what anyone may see of it: the one observer decides
    replay_of = snap.replay_of if game.number == 1 else None
    return {
        "format": FORMAT,
        "room": snap.code,
        "game": game.number,
        "rules": snap.rules.model_dump(mode="json"),
        "options": snap.options.model_dump(mode="json"),
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "bot": s.bot,
                "level": s.level,
                "player": s.player.handle if s.player else None,
            }
            if s
            else None
            for s in snap.seats
        ],
        "replay_of": {"room": replay_of.code, "game": replay_of.number} if replay_of else None,
        "shuffle": SHUFFLE_NAMES.get(state.shuffle, "python-random"),
        "first_dealer": game.first_dealer,
        "first_dealer_from": record.first_dealer_from,
        "actions": [
            {"seq": a.seq, "seat": a.seat, "type": a.type, "card": a.card, "auto": a.auto}
            | ({"lift": a.lift} if a.lift is not None else {})
            for a in record.actions
        ],
        "hands": [h.model_dump(mode="json") for h in hand_records(seen)],
        "hand_number": state.hand_number,
        "scores": list(state.scores),
        "over": over,
        "winner": state.winner,
        "seed_commitment": seen.seed_commitment,
        "seed": seen.seed,
        "rated": over and game.rated,
        "ratings": [
            {
                "seat": r.seat,
                "handle": r.handle,
                "before": rating_json(r.before),
                "after": rating_json(r.after),
            }
            | ({"left": True} if r.left else {})
            for r in game.ratings
        ]
        if over and game.rated
        else None,
    }


def play_again(rooms: Rooms, code: str, number: int, token: str | None) -> RoomSnap:
    """A new room that deals game ``number`` of room ``code`` again: the same seed and first
    dealer, marked as a replay of that game. Only a player seated in it, once it is over."""
    record = load_record(rooms, code, number)
    if seat_of(record.snap, token) is None:
        raise errors.Forbidden(PLAYERS_DEAL_AGAIN)
    if not record.over:
        raise errors.Conflict(DEALS_SECRET)
    if record.game.state.board:  # its seed is its event's, secret while boards are played
        raise errors.Conflict(BOARD_SECRET)
    game = record.game
    if game.state.shuffle != SHUFFLE:
        raise errors.Conflict(OLD_SHUFFLE)
    return rooms.create_room(
        rules=game.state.rules,
        seed=game.seed,
        first_dealer=game.first_dealer,
        replay_of=ReplayOf(record.snap.code, game.number),
    )


# -- the scorer's notebook ---------------------------------------------------------------------


def notebook(record: GameRecord) -> str:
    """The game as a scorer's notebook: each deal's cards, kicks, decision, lifts, awards and
    the running score, in the words of the golden playthroughs (tests/rules/golden/). Once
    the game is over it replays on the engine line by line (every card, from the seed);
    while it runs, a deal's cards show only as far as its play showed them."""
    game, snap = record.game, record.snap
    state = game.state
    seen = observe(state, None)  # what anyone may see of it: the one observer decides
    lines = [f"# All Fours: room {snap.code}, game {game.number}"]
    if game.number == 1 and snap.replay_of is not None:
        lines.append(f"# the deals of game {snap.replay_of.number} of room {snap.replay_of.code}")
    names = ", ".join(
        f"{s.seat} {s.name}" + (f" (bot, {s.level})" if s.bot else "") for s in snap.seats if s
    )
    lines.append(f"# seats: {names}; team T0 = seats 0 and 2, T1 = seats 1 and 3")
    if seen.seed_commitment is not None:
        lines.append(f"# seed commitment: {seen.seed_commitment}")
    if seen.seed is not None:
        lines.append(f"# seed: {seen.seed}")
    elif seen.seed_commitment is not None:
        lines.append("# seed: a secret until the game is over")
    lines.append(f"rules: {rules_text(snap.rules)}")
    if record.first_dealer_from == "seed" and state.shuffle == SHUFFLE:
        lines.append(f"# first dealer: seat {game.first_dealer}, drawn from the seed")
    for hand, shown in zip(seen.history, hand_records(seen), strict=True):
        lines.append("")
        lines += _deal_lines(seen, state.shuffle, hand, shown)
    if seen.winner is None:
        lines += ["", f"# deal {state.hand_number} is being played: scores {_scores(state.scores)}"]
    return "\n".join(lines) + "\n"


def rules_text(rules: Rules) -> str:
    """``default``, or the options that differ from it: ``target=7 flip_last_card=true``."""
    default = Rules().model_dump(mode="json")
    changed = [
        f"{name}={str(value).lower() if isinstance(value, bool) else value}"
        for name, value in rules.model_dump(mode="json").items()
        if value != default[name]
    ]
    return " ".join(changed) or "default"


def _deal_lines(
    seen: Observation, shuffle: int, hand: HandRecord, shown: HandRecordView
) -> list[str]:
    """One deal, as ``seen`` shows it: while the game runs, what anyone may see of it; once
    the seed is public, every card, from the deck."""
    lines = [f"deal, dealer {hand.dealer}" + ("  # a redeal follows" if hand.redeal else "")]
    order = [(hand.dealer + 1 + i) % 4 for i in range(4)]
    if seen.seed is not None:
        lines += _dealt_from_the_deck(seen.seed, shuffle, hand, order)
    else:
        lines += _dealt_as_shown(hand, shown, order)
    if hand.decision == "stand":
        lines.append("stand")
    elif hand.decision is not None:
        lines += ["beg", "give one" if hand.decision == "give_one" else "run the pack"]
    if hand.trump is not None:
        lines.append(f"trump: {SUITS[hand.trump]}")
    lines += _play_lines(seen, hand)
    if hand.game_totals is not None:
        lines.append(f"# Game: T0 counted {hand.game_totals[0]}, T1 {hand.game_totals[1]}")
    if hand.awards:
        lines.append("awards: " + "; ".join(award_text(a) for a in hand.awards))
    lines.append(f"scores: {_scores(hand.scores_after)}")
    if hand is seen.history[-1] and seen.winner is not None:
        lines.append(f"winner: T{seen.winner}")
    return lines


def _play_lines(seen: Observation, hand: HandRecord) -> list[str]:
    """The lifts, and in renege mode (R22-R23, R27) the calls where they were made (a lift
    split at a call on it in play), the reneges once public, and the reckoning's end."""
    plays = [(s, c, t) for t in hand.tricks for s, c in t.cards]
    calls = sorted(hand.calls, key=lambda c: c.played)
    lines: list[str] = []
    cards: list[str] = []
    for n, (_, card, trick) in enumerate(plays, 1):
        cards.append(code(card))
        while calls and calls[0].played == n and n % 4:
            lines.append("lift: " + " ".join(cards))
            cards = []
            lines.append(_call_line(calls.pop(0)))
        if n % 4 == 0:
            lines.append(f"lift: {' '.join(cards)} -> {trick.winner}")
            cards = []
            while calls and calls[0].played == n:
                lines.append(_call_line(calls.pop(0)))
    if cards:  # a hand cut short in a lift (a penalty ended the game)
        lines.append("lift: " + " ".join(cards))
    lines += [_call_line(c) for c in calls]
    for r in hand.reneges if seen.winner is not None else ():
        called = "called" if r.called else "not called"
        lines.append(
            f"# renege: seat {r.seat}, lift {r.lift}, {code(r.card)} (kind {r.kind}), {called}"
        )
    if seen.rules.renege != "off" and _reckoned(seen, hand):
        lines.append("time up  # the reckoning ended (R23): 'score it' said, or its time up")
    return lines


_PENALTIES = ("renege", "renege_bullseye", "false_call", "false_call_bullseye")


def _reckoned(seen: Observation, hand: HandRecord) -> bool:
    """The hand's every card was played and the reckoning scored it (no penalty ended the
    game first)."""
    every_card = bool(hand.tricks) and 4 * len(hand.tricks) == 4 * hand.dealt[0].bit_count()
    ended = hand is seen.history[-1] and seen.winner is not None
    return every_card and not (ended and hand.awards and hand.awards[-1].kind in _PENALTIES)


def _call_line(call: Call) -> str:
    verdict = "upheld" if call.upheld else "wrong"
    paid = f" T{call.paid_by}" if call.paid_by is not None else ""
    return f"call: seat {call.seat} lift {call.lift} -> {verdict} {call.penalty or 'nothing'}{paid}"


def _dealt_from_the_deck(seed: int, shuffle: int, hand: HandRecord, order: list[int]) -> list[str]:
    """Every card as dealt: six each, the kick, each run and its kick, the cards turned
    last (``flip_last_card``); the deck is the seed's (docs/fairness.md)."""
    deck = shuffled_deck(seed, hand.n, shuffle)
    first = {seat: list(deck[3 * i : 3 * i + 3] + deck[12 + 3 * i : 15 + 3 * i])
             for i, seat in enumerate(order)}  # fmt: skip
    lines = [f"seat {seat}: {' '.join(code(c) for c in first[seat])}" for seat in order]
    lines.append(f"kick: {code(hand.kicks[0])}")
    at, last = 25, []
    for kick in hand.kicks[1:]:
        if len(deck) - at >= 4 * RUN + 1:
            run = " | ".join(
                f"{seat} {' '.join(code(c) for c in deck[at + 3 * i : at + 3 * i + 3])}"
                for i, seat in enumerate(order)
            )
            lines += [f"run: {run}", f"kick: {code(kick)}"]
            at += 4 * RUN + 1
        else:
            last.append(code(kick))  # turned without dealing (flip_last_card)
            at += 1
    if last:
        lines.append(f"last: {' '.join(last)}")
    return lines


def _dealt_as_shown(hand: HandRecord, shown: HandRecordView, order: list[int]) -> list[str]:
    """A deal's cards before the seed is public: what its lifts showed of each seat's
    hand (runs included: which came in a run is not shown), the kicks turned face up."""
    lines = []
    for seat in order:
        cards = shown.dealt[str(seat)]
        lines.append(f"# seat {seat}: " + (" ".join(cards) if cards is not None else "not shown"))
    kick_suit = suit_of(hand.kicks[0])
    for i, kick in enumerate(hand.kicks):
        note = "" if i == 0 or suit_of(kick) == kick_suit else "  # a new suit"
        lines.append(f"kick: {code(kick)}{note}")
    return lines


def award_text(award: Award) -> str:
    """An award in the notebook's words: ``hang_jack T1 +3 JH s2``."""
    words = [award.kind, f"T{award.team}", f"+{award.points}"]
    if award.card is not None:
        words.append(code(award.card))
    if award.seat is not None:
        words.append(f"s{award.seat}")
    return " ".join(words)


def _scores(scores: tuple[int, int]) -> str:
    return f"{scores[0]} {scores[1]}"
