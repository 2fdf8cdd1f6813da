"""The page's own controls are drawn in SVG (app/web/icons.py), never with a glyph that needs
an emoji font (issue 23: the talk's switch showed an empty box without one)."""

from __future__ import annotations

import pytest

from app.web.icons import icon
from app.web.render import render_room
from tests.web.dom import parse
from tests.web.views import lobby_view


def test_the_top_bar_controls_are_svg_icons_hidden_from_screen_readers() -> None:
    page = parse(render_room(lobby_view(["Ann"], 0)))
    bar = [e for e in page if any(a.attrs.get("class") == "prefs" for a in e.ancestors)]
    texts = "".join(t for e in bar for t in e.text)
    # (the four-colour deck's suits are text: every font with the suits has them)
    assert not any(ord(ch) > 0xFFFF or ch in "\u266a\u266b" for ch in texts), texts
    icons = [e for e in bar if e.tag == "svg" and "icon" in (e.attrs.get("class") or "")]
    assert sorted(e.attrs["class"] or "" for e in icons) == [
        "icon icon-bell",
        "icon icon-sound",
        "icon icon-talk",
    ]
    for i in icons:
        assert i.attrs.get("aria-hidden") == "true"
        button = next(a for a in i.ancestors if a.tag == "button")
        # The control still says what it is: by its label, or by words in it (the talk's
        # switch, whose unread count must be part of its name).
        assert button.attrs.get("aria-label") or "".join(button.text).strip()


def test_an_icon_that_does_not_exist_is_a_mistake() -> None:
    with pytest.raises(KeyError):
        icon("nonesuch")
