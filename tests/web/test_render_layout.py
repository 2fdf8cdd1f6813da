"""The table's markup for its layout and its live behaviour (issue 14): the hand's toolbar
inside its form, a level-one heading, the lead tagged, partners named on the scoreboard, and
the previous deal's last lift shown as "Last lift" while the next deal's first decision is
taken (the view's ``last_trick`` during that phase, API.md "The view")."""

from __future__ import annotations

from app.rules.state import Phase, State
from app.web.render import render_table
from tests.web.dom import Element, parse
from tests.web.views import beg_with_last_lift, playthrough, server_view


def _states() -> list[State]:
    return list(playthrough(3))


def _first(states: list[State], phase: Phase, *, trick: int | None = None) -> State:
    return next(s for s in states if s.phase is phase and (trick is None or len(s.trick) == trick))


def _with_class(elements: list[Element], name: str) -> list[Element]:
    return [e for e in elements if name in e.classes]


def _text(elements: list[Element], start: Element) -> str:
    """The text of ``start`` and everything inside it."""
    inside = [e for e in elements if e is start or start in e.ancestors]
    return " ".join(" ".join(e.text) for e in inside)


def test_the_hand_is_a_toolbar_inside_its_form_and_the_table_has_a_heading() -> None:
    state = _first(_states(), Phase.PLAY)
    elements = parse(render_table(server_view(state, state.turn, version=5)))
    [hand] = [e for e in elements if e.has("data-hand")]
    assert hand.tag == "div" and hand.get("role") == "toolbar"
    assert hand.get("aria-label") == "Your hand"
    assert any(a.tag == "form" and a.get("hx-post") for a in hand.ancestors)
    assert not [e for e in elements if e.tag == "form" and e.get("role")]
    assert [e for e in elements if e.tag == "h1"]


def test_the_card_that_led_the_trick_is_tagged() -> None:
    state = _first(_states(), Phase.PLAY, trick=2)
    elements = parse(render_table(server_view(state, None, version=5)))
    [lead] = _with_class(elements, "lead")
    assert "slot" in lead.classes
    [mark] = _with_class(elements, "lead-mark")
    assert lead in mark.ancestors and _text(elements, mark).strip() == "Led"


def test_the_scoreboard_names_the_partners_for_everyone() -> None:
    state = _first(_states(), Phase.PLAY)
    for viewer, first in ((None, "Ann & Cy"), (1, "You & Dan")):
        elements = parse(render_table(server_view(state, viewer, version=5)))
        names = [_text(elements, e).strip() for e in _with_class(elements, "team-name")]
        assert first in names and len(names) == 2
        assert not [e for e in _with_class(elements, "team-name") if e.get("title")]


def test_the_last_lift_of_the_hand_before_shows_during_the_next_beg_decision() -> None:
    view = beg_with_last_lift()
    elements = parse(render_table(view))
    [collected] = _with_class(elements, "collected")
    assert collected.has("data-final") and collected.within("data-past")
    [shown] = _with_class(elements, "lift-shown")
    assert shown.within("data-past")
    assert _text(elements, shown).strip().startswith("Last lift")
    assert len([e for e in elements if e.has("data-card") and shown in e.ancestors]) == 4
    # Not the on-demand panel of a lift of this deal: there is none yet.
    assert not [e for e in elements if e.get("id") == "last-trick"]


def test_a_lift_of_the_current_deal_is_not_marked_final() -> None:
    for n, state in enumerate(_states()):
        view = server_view(state, None, version=n)
        if view.phase == "play" and view.last_trick and not view.trick:
            break
    elements = parse(render_table(view))
    [collected] = _with_class(elements, "collected")
    assert not collected.has("data-final")
    assert not _with_class(elements, "lift-shown")
    assert [e for e in elements if e.get("id") == "last-trick"]


def test_the_result_shows_the_last_lift_of_the_game() -> None:
    states = _states()
    view = server_view(states[-1], 0, version=len(states))
    assert view.phase == "game_over" and view.last_trick
    elements = parse(render_table(view))
    [last] = _with_class(elements, "summary-last")
    assert last.within("data-past")
    assert _text(elements, last).strip().startswith("Last lift")
    played = {c.card for c in view.last_trick.cards}
    assert {
        e.get("data-card") for e in elements if e.has("data-card") and last in e.ancestors
    } == played
