"""Our own card faces and back, drawn as inline SVG (no external assets).

The suit shapes, the 52 faces and the back are defined once per page (``sprite()``) and every
card shown ``<use>``s its drawing, so a live update of a table with twelve cards stays small.
Colours come from CSS (``currentColor``), which is how the four-colour deck option works
without a second set of drawings.

A card is laid out on a 100 x 140 box: a large corner index (rank over suit) top-left and,
turned round, bottom-right, so the rank reads at phone size even when cards overlap; the
middle holds the pips, a single large pip for an ace, or a framed letter for a court card.
"""

from __future__ import annotations

from markupsafe import Markup

from app.i18n import N_, _, pgettext
from app.rules.cards import RANKS, SUITS

# The words are English and marked for the catalogs: ``rank_word``, ``suit_word`` and
# ``card_name`` give them in the reader's language.
SUIT_WORDS = {"C": N_("clubs"), "D": N_("diamonds"), "H": N_("hearts"), "S": N_("spades")}
SUIT_SIGNS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

# Suit shapes on a 100 x 100 box, tuned to sit on the same baseline.
SUIT_PATHS = {
    "H": "M50 92C34 78 6 58 6 32C6 16 18 6 31 6C40 6 47 12 50 20C53 12 60 6 69 6"
    "C82 6 94 16 94 32C94 58 66 78 50 92Z",
    "D": "M50 4C60 20 74 38 88 50C74 62 60 80 50 96C40 80 26 62 12 50C26 38 40 20 50 4Z",
    "S": "M50 4C64 22 94 40 94 62C94 76 84 84 72 84C63 84 56 80 53 73C54 83 58 90 67 96"
    "H33C42 90 46 83 47 73C44 80 37 84 28 84C16 84 6 76 6 62C6 40 36 22 50 4Z",
    "C": "M50 6A20 20 0 0 1 68.5 33.8A20 20 0 1 1 53 70C54 81 58 89 67 96H33C42 89 46 81 47 70"
    "A20 20 0 1 1 31.5 33.8A20 20 0 0 1 50 6Z",
}

# Pip centres (x, y) on the card for 2..10, clear of the corner indices.
_L, _C, _R = 37, 50, 63
_PIPS: dict[str, tuple[tuple[float, float], ...]] = {
    "2": ((_C, 34), (_C, 106)),
    "3": ((_C, 34), (_C, 70), (_C, 106)),
    "4": ((_L, 34), (_R, 34), (_L, 106), (_R, 106)),
    "5": ((_L, 34), (_R, 34), (_C, 70), (_L, 106), (_R, 106)),
    "6": ((_L, 34), (_R, 34), (_L, 70), (_R, 70), (_L, 106), (_R, 106)),
    "7": ((_L, 34), (_R, 34), (_C, 52), (_L, 70), (_R, 70), (_L, 106), (_R, 106)),
    "8": ((_L, 34), (_R, 34), (_C, 52), (_L, 70), (_R, 70), (_C, 88), (_L, 106), (_R, 106)),
    "9": (
        (_L, 34), (_R, 34), (_L, 58), (_R, 58), (_C, 70),
        (_L, 82), (_R, 82), (_L, 106), (_R, 106),
    ),
    "T": (
        (_L, 34), (_R, 34), (_C, 46), (_L, 58), (_R, 58),
        (_L, 82), (_R, 82), (_C, 94), (_L, 106), (_R, 106),
    ),
}  # fmt: skip
_PIP = 16


def rank_word(rank: str) -> str:
    """A rank as the reader's language names it (``"Q"``: Queen, Dame, Ratu). The court
    cards have the context "card rank": the jack is "Valet", "Bube", "Bauer", "Pekak", while
    Jack the hand's point keeps its name."""
    match rank:
        case "A":
            return pgettext("card rank", "Ace")
        case "K":
            return pgettext("card rank", "King")
        case "Q":
            return pgettext("card rank", "Queen")
        case "J":
            return pgettext("card rank", "Jack")
        case "T":
            return "10"
    return rank


def suit_word(suit: str) -> str:
    """A suit as running text names it (``"H"``: hearts, cœur, Herz, lekuk, Häerz)."""
    return _(SUIT_WORDS[suit])


def card_name(code: str) -> str:
    """``"JH"`` -> ``"Jack of hearts"`` (for screen readers and announcements)."""
    # Translators: a card's name; "Herz Bube" in German, "Valet de cœur" in French.
    return _("%(rank)s of %(suit)s") % {"rank": rank_word(code[0]), "suit": suit_word(code[1])}


def rank_letter(rank: str) -> str:
    """A rank as a card is written short, in the reader's language's letters: the queen is
    Q, D (Dame) in French, German and Luxembourgish; the jack J, V (Valet), B (Bube, Bauer)."""
    match rank:
        # Translators: the ace's letter in a short card ("A♠"), as the players write it
        case "A":
            return pgettext("card letter", "A")
        # Translators: the king's letter in a short card ("K♠"): R (Roi) in French
        case "K":
            return pgettext("card letter", "K")
        # Translators: the queen's letter in a short card ("Q♠"): D (Dame) in French, German
        case "Q":
            return pgettext("card letter", "Q")
        # Translators: the jack's letter in a short card ("J♠"): V (Valet), B (Bube, Bauer)
        case "J":
            return pgettext("card letter", "J")
        case "T":
            return "10"
    return rank


def card_short(code: str) -> str:
    """``"TH"`` -> ``"10♥"``, ``"QS"`` -> ``"D♠"`` in French: how a card is written in
    running text, in the reader's language's letters."""
    return f"{rank_letter(code[0])}{SUIT_SIGNS[code[1]]}"


def _use(suit: str, cx: float, cy: float, size: float, *, flip: bool = False) -> str:
    x, y = cx - size / 2, cy - size / 2
    turn = f' transform="rotate(180 {cx:g} {cy:g})"' if flip else ""
    return (
        f'<use href="#suit-{suit}" x="{x:g}" y="{y:g}" width="{size:g}" height="{size:g}"{turn}/>'
    )


def _index(rank: str, suit: str) -> str:
    label = "10" if rank == "T" else rank
    # "10" is squeezed to the width of one letter so every index is the same size.
    squeeze = ' textLength="25" lengthAdjust="spacingAndGlyphs"' if rank == "T" else ""
    return f'<text x="15" y="33" class="idx"{squeeze}>{label}</text>' + _use(suit, 15, 47, 20)


def _middle(rank: str, suit: str) -> str:
    if rank == "A":
        return _use(suit, 50, 70, 52)
    if rank in "KQJ":
        return (
            '<rect x="27" y="24" width="46" height="92" rx="4" class="court"/>'
            f'<text x="50" y="86" class="court-letter">{rank}</text>'
            + _use(suit, 50, 103, 16)
            + _use(suit, 50, 37, 16, flip=True)
        )
    return "".join(_use(suit, x, y, _PIP, flip=y > 70) for x, y in _PIPS[rank])


def _check(code: str) -> tuple[str, str]:
    if len(code) != 2 or code[0] not in RANKS or code[1] not in SUITS:
        raise ValueError(f"not a card code: {code!r}")
    return code[0], code[1]


def face_drawing(code: str) -> str:
    """The drawing of one face on the 100 x 140 box: defined once per page in the sprite."""
    rank, suit = _check(code)
    return (
        '<rect x="1" y="1" width="98" height="138" rx="9" class="paper"/>'
        f"{_index(rank, suit)}"
        f'<g transform="rotate(180 50 70)">{_index(rank, suit)}</g>'
        f"{_middle(rank, suit)}"
    )


def face_svg(code: str) -> str:
    """One card face where it is shown: a reference to its drawing in the page's sprite, so
    each live update of the table carries a few bytes per card, not the whole drawing."""
    _, suit = _check(code)
    return (
        f'<svg class="face suit-{suit}" viewBox="0 0 100 140" role="img" '
        f'aria-label="{card_name(code)}" focusable="false"><use href="#card-{code}"/></svg>'
    )


_BACK = (
    '<rect x="1" y="1" width="98" height="138" rx="9" class="paper"/>'
    '<rect x="8" y="8" width="84" height="124" rx="5" fill="url(#back-lattice)"/>'
    '<rect x="8" y="8" width="84" height="124" rx="5" class="back-frame"/>'
)


def back_svg() -> str:
    """The back of a card: what the other seats' hands look like."""
    return (
        '<svg class="back" viewBox="0 0 100 140" aria-hidden="true" focusable="false">'
        '<use href="#card-back"/></svg>'
    )


def sprite_svg() -> str:
    """The shared definitions: one ``<symbol>`` per suit, one per card face, and the back's
    lattice pattern.

    Kept out of the layout with zero size instead of ``display:none``, which would stop
    Chromium from painting the pattern where it is used.
    """
    symbols = "".join(
        f'<symbol id="suit-{s}" viewBox="0 0 100 100"><path d="{d}" fill="currentColor"/></symbol>'
        for s, d in SUIT_PATHS.items()
    )
    faces = "".join(
        f'<symbol id="card-{r}{s}" viewBox="0 0 100 140">{face_drawing(r + s)}</symbol>'
        for s in SUITS
        for r in RANKS
    )
    pattern = (
        '<pattern id="back-lattice" width="12" height="12" patternUnits="userSpaceOnUse">'
        '<rect width="12" height="12" class="back-ground"/>'
        '<path d="M0 6L6 0L12 6L6 12Z" class="back-diamond"/>'
        '<circle cx="6" cy="6" r="1.6" class="back-dot"/>'
        "</pattern>"
    )
    return (
        '<svg class="sprite" width="0" height="0" aria-hidden="true" focusable="false">'
        f'<defs>{symbols}{faces}<symbol id="card-back" viewBox="0 0 100 140">{_BACK}</symbol>'
        f"{pattern}</defs></svg>"
    )


def face(code: str) -> Markup:
    return Markup(face_svg(code))


def back() -> Markup:
    return Markup(back_svg())


def sprite() -> Markup:
    return Markup(sprite_svg())


def suit_symbol(suit: str, css_class: str = "pip") -> Markup:
    """A suit sign as SVG, for the trump indicator and running text."""
    if suit not in SUITS:
        raise ValueError(f"not a suit: {suit!r}")
    return Markup(
        f'<svg class="{css_class} suit-{suit}" viewBox="0 0 100 100" role="img" '
        f'aria-label="{suit_word(suit)}" focusable="false"><use href="#suit-{suit}"/></svg>'
    )
