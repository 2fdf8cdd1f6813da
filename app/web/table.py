"""What one viewer's table looks like, computed from that viewer's view and nothing else.

``build(view)`` takes the RoomView of API.md "The view" (what ``GET /api/rooms/{code}`` serves
that viewer) and composes the table page from its panels (app/web/panels): the seats placed
round the table from the viewer's chair, the score, the hand with what may be played and why
not, the lifts, the kicks, the status, the last hand's awards, the match, renege mode's calls,
the clocks, away cover and the sentences the live region announces. Because the only input is
the viewer's own view, a page cannot show a card the viewer could not see at a real table.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.bots import DEFAULT_LEVEL, DESCRIPTIONS
from app.services.talk import PRESETS
from app.services.view import RoomView
from app.web.house_rules import InForce, in_force
from app.web.panels.awards import Awards, awards
from app.web.panels.away import Away, away
from app.web.panels.clocks import Clocks, clocks
from app.web.panels.decision import Decision, decision
from app.web.panels.hand import Hand, hand
from app.web.panels.kicks import Kicks, kicks
from app.web.panels.lifts import Lifts, lifts
from app.web.panels.match import Match, match
from app.web.panels.news import News, news
from app.web.panels.ratings import RatingChange, rating_changes
from app.web.panels.renege import RenegeCalls, renege
from app.web.panels.score import Score, score
from app.web.panels.seats import Seats, seats
from app.web.panels.status import Status, status

BOT_LEVELS: tuple[tuple[str, str], ...] = tuple(DESCRIPTIONS.items())  # (level, what it is)


@dataclass(frozen=True, slots=True)
class TablePage:
    code: str
    version: int
    phase: str
    hand_number: int
    rules: tuple[InForce, ...]
    invite_path: str
    chat_write: bool  # the viewer may write in the table talk
    seats: Seats
    score: Score
    clocks: Clocks
    hand: Hand
    decision: Decision
    lifts: Lifts
    kicks: Kicks
    status: Status
    awards: Awards
    match: Match | None  # a match of more than one game only
    renege: RenegeCalls
    away: Away
    news: News
    ratings: tuple[RatingChange, ...] = ()  # a rated game's changes, at its end
    hints: bool = False  # a practice table (option hints) and the viewer's turn: "Hint"
    chat_presets: tuple[tuple[str, str], ...] = tuple(PRESETS.items())
    bot_levels: tuple[tuple[str, str], ...] = BOT_LEVELS
    default_bot_level: str = DEFAULT_LEVEL
    # Duplicate (R30): the board this game deals, its place in the table's set (1 = first)
    # and the set's size; None at any other table.
    board: tuple[int, int, int] | None = None


def build(view: RoomView) -> TablePage:
    """The page's panels, each made from the view and the panels its signature names."""
    placed = seats(view)
    scored = score(view, placed)
    kicked = kicks(view, placed, scored)
    played = lifts(view, placed)
    awarded = awards(view, placed, scored)
    called = renege(view, placed, scored)
    covered = away(view)
    said = status(view, placed, scored)
    matched = match(view, scored)
    return TablePage(
        code=view.code,
        version=view.version,
        phase=view.phase,
        hand_number=view.hand_number,
        rules=in_force(view.rules.model_dump()),
        invite_path=f"/r/{view.code}",
        chat_write=placed.seated or view.options.spectator_chat,
        seats=placed,
        score=scored,
        clocks=clocks(view),
        hand=hand(view),
        decision=decision(view, placed),
        lifts=played,
        kicks=kicked,
        status=said,
        awards=awarded,
        match=matched,
        renege=called,
        away=covered,
        news=news(view, placed, kicked, played, awarded, called, covered, said, matched),
        ratings=rating_changes(view, placed),
        hints=view.options.hints and placed.your_turn,
        board=(view.board.number, view.game_number, view.board.of) if view.board else None,
    )
