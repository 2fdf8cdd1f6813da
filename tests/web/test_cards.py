"""Our SVG cards: every face draws, names read well, colours come from CSS."""

from __future__ import annotations

import pytest

from app import i18n
from app.rules.cards import RANKS, SUITS
from app.web.cards import (
    back_svg,
    card_name,
    card_short,
    face_drawing,
    face_svg,
    sprite_svg,
    suit_symbol,
)
from tests.web.dom import parse

ALL = [r + s for s in SUITS for r in RANKS]


@pytest.mark.parametrize("code", ALL)
def test_every_face_is_named_for_screen_readers_and_drawn_once_in_the_sprite(code: str) -> None:
    elements = parse(face_svg(code))
    svg = elements[0]
    assert svg.tag == "svg" and svg.get("aria-label") == card_name(code)
    assert f"suit-{code[1]}" in svg.classes  # the colour comes from CSS: four-colour deck
    assert [e.get("href") for e in elements if e.tag == "use"] == [f"#card-{code}"]
    drawing = parse(face_drawing(code))
    uses = [e for e in drawing if e.tag == "use"]
    assert uses and all(e.get("href") == f"#suit-{code[1]}" for e in uses)


def test_pip_cards_show_as_many_pips_as_their_rank() -> None:
    for rank, pips in zip("23456789T", range(2, 11), strict=True):
        uses = [e for e in parse(face_drawing(rank + "S")) if e.tag == "use"]
        assert len(uses) == pips + 2  # plus the suit under each corner index


def test_names() -> None:
    assert card_name("JH") == "Jack of hearts"
    assert card_name("TD") == "10 of diamonds"
    assert card_short("TH") == "10♥"
    assert card_short("AS") == "A♠"


@pytest.mark.parametrize(
    ("lang", "letters"),
    [("en", "JQKA"), ("fr", "VDRA"), ("de", "BDKA"), ("lb", "BDKA"), ("ms", "JQKA")],
)
def test_a_short_card_is_written_in_the_readers_letters(lang: str, letters: str) -> None:
    """What broke: "Renege with Q♠?" and the score sheet's "J♥" wrote the English letters
    in every language (a French player writes D♠, V♥; a German one D♠, B♥)."""
    with i18n.reading(lang):
        assert [card_short(rank + "S")[0] for rank in "JQKA"] == list(letters)
        assert card_short("TS") == "10♠"
        assert card_short("9H") == "9♥"


def test_sprite_defines_each_suit_and_face_once_and_the_back_pattern() -> None:
    ids = [id_ for e in parse(sprite_svg()) if (id_ := e.get("id"))]
    expected = [f"suit-{s}" for s in SUITS] + [f"card-{c}" for c in ALL]
    assert sorted(ids) == sorted([*expected, "card-back", "back-lattice"])
    assert "url(#back-lattice)" in sprite_svg() and "#card-back" in back_svg()


def test_bad_codes_are_refused() -> None:
    for bad in ("1S", "AX", "", "ASS"):
        with pytest.raises((ValueError, IndexError)):
            face_svg(bad)
    with pytest.raises(ValueError):
        suit_symbol("X")
