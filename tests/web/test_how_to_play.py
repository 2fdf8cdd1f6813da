"""The how-to-play page: the whole game in plain words, each house rule explained, pictures
of our own cards, no rule ids; and every page links to it."""

from __future__ import annotations

import re

from app.rules import PRESETS, Rules
from app.web.house_rules import GUIDE, options, presets
from app.web.render import render_home, render_how_to_play, render_room
from tests.web.dom import having, parse
from tests.web.views import lobby_view

RULE_ID = re.compile(r"\(R\d|\bR\d+\b")


def _text(html: str) -> str:
    """What a reader of the page reads (the text of every element, not the markup)."""
    return " ".join(" ".join(e.text) for e in parse(html) if e.tag not in ("style", "script"))


def test_the_page_explains_each_step_of_a_hand() -> None:
    html = render_how_to_play()
    text = _text(html)
    for words in (
        "kick", "Ace 1 point, a Six 2 points, a Jack 3 points", "Stand", "Beg",
        "Give one", "Run the pack", "trumping is always allowed", "lift", "High", "Low",
        "Jack", "Hang jack", "Ace 4, King 3, Queen 2, Jack 1 and Ten 10", "14 points",
        "at the very moment",
    ):  # fmt: skip
        assert words in text, words


def test_the_page_shows_our_own_cards() -> None:
    elements = parse(render_how_to_play())
    shown = [e for e in having(elements, "data-card") if e.within("class")]
    assert len(shown) >= 20
    faces = [e for e in elements if e.tag == "use" and (e.get("href") or "").startswith("#card-")]
    assert len(faces) == len(shown)  # each picture is one of the sprite's faces
    assert any(e.get("class") == "sprite" for e in elements)
    labels = {e.get("aria-label") for e in elements if e.tag == "svg" and e.get("role") == "img"}
    assert {"Jack of diamonds", "Ace of diamonds", "6 of diamonds"} <= labels


def test_every_house_rule_is_explained_for_a_newcomer() -> None:
    # From the Rules model: a new option without words here fails this test.
    assert set(GUIDE) == set(Rules.model_fields)
    elements = parse(render_how_to_play())
    explained = {e.get("data-guide-option"): e for e in having(elements, "data-guide-option")}
    assert set(explained) == set(Rules.model_fields)
    for option in options():
        text = explained[option.name].all_text()
        assert option.label in text and GUIDE[option.name] in text
        for choice in option.choices:
            assert choice.label in text
    shown = {e.get("data-guide-preset") for e in having(elements, "data-guide-preset")}
    assert shown == set(PRESETS)


def test_no_rule_ids_where_a_player_reads() -> None:
    for page in (render_how_to_play(), render_home(), render_room(lobby_view(["Ann"], 0))):
        assert not RULE_ID.search(_text(page))
    for option in options():
        assert not RULE_ID.search(option.explanation + GUIDE[option.name])
    for preset in presets():
        assert not RULE_ID.search(preset.who + " ".join(preset.changes))


def _links(html: str) -> list[str]:
    return [str(e.get("href")) for e in parse(html) if e.tag == "a"]


def test_every_page_links_to_how_to_play() -> None:
    for page in (render_home(), render_how_to_play(), render_room(lobby_view(["Ann"], None))):
        assert "/how-to-play" in _links(page)
    # From a table the rules open beside the game, which stays where it is.
    [room_link] = [
        e for e in parse(render_room(lobby_view(["Ann"], 0))) if e.get("href") == "/how-to-play"
    ]
    assert room_link.get("target") == "_blank" and room_link.get("rel") == "noopener"


def test_the_page_has_one_heading_one_and_its_sections_are_reachable() -> None:
    elements = parse(render_how_to_play())
    assert [e.tag for e in elements].count("h1") == 1
    ids = {e.get("id") for e in elements}
    for href in _links(render_how_to_play()):
        if href.startswith("#"):
            assert href[1:] in ids, href
