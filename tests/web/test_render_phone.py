"""The small things of issue 32 that the markup holds: the name field says its limit, the
lobby says "Partners sit opposite" once, the result's Rematch comes before the last hand and
the score sheet, and the talk's drawer has a Close button beside its title."""

from __future__ import annotations

import re

from app.services.names import NAME_MAX
from app.web.render import render_room, render_table
from tests.web.dom import Element, parse
from tests.web.views import lobby_view, playthrough, server_view

OPPOSITE = "Partners sit opposite"


def _one(elements: list[Element], **attrs: str) -> Element:
    [found] = [e for e in elements if all(e.get(k) == v for k, v in attrs.items())]
    return found


def test_the_name_field_says_how_long_a_name_may_be() -> None:
    elements = parse(render_table(lobby_view(["Ann"], None)))
    field = _one(elements, id="name")
    assert field.get("maxlength") == str(NAME_MAX)
    said = _one(elements, id=field.get("aria-describedby") or "")
    assert said.all_text().strip() == f"A name has at most {NAME_MAX} characters."


def test_the_lobby_says_partners_sit_opposite_once() -> None:
    joining = render_table(lobby_view(["Ann"], None))  # the join form's hint says it
    seated = render_table(lobby_view(["Ann"], 0))  # the felt's centre says it
    for html in (joining, seated):
        # The line for a signed-in player stands in for the name field and its hint: one of the
        # two is shown (app.css), so it is not a second saying.
        shown = re.sub(r'<p class="sit-as" data-sit-as>.*?</p>', "", html)
        assert shown.count(OPPOSITE) == 1


def test_rematch_comes_before_the_last_hand_and_the_score_sheet() -> None:
    states = list(playthrough(3))
    elements = parse(render_table(server_view(states[-1], 0, version=len(states))))
    order = [
        next(i for i, e in enumerate(elements) if test(e))
        for test in (
            lambda e: e.get("data-action") == "rematch",
            lambda e: "how-it-ended" in e.classes,
            lambda e: e.get("id") == "result-sheet",
        )
    ]
    assert order == sorted(order)


def test_the_talk_drawer_has_its_title_and_a_close_button_on_its_paper() -> None:
    elements = parse(render_room(lobby_view(["Ann"], 0)))
    [close] = [e for e in elements if e.has("data-chat-close")]
    title = _one(elements, id="chat-h")
    assert close.tag == "button" and close.get("type") == "button"
    assert close.all_text().strip() == "Close"
    body = _one(elements, id="chat-body")
    assert body in close.ancestors and body in title.ancestors
