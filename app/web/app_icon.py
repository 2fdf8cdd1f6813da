"""The installed app's icons (the web app manifest, app/web/install.py): two of our own cards
(app/web/cards.py's suit shapes) fanned on the table's felt.

The PNGs are drawn once and kept in git under app/static/icons: ``make icons`` (``python -m
app.web.app_icon``) draws them again after a change here, with cairosvg (a development
package: the server only serves the files).
"""

from __future__ import annotations

import sys
from pathlib import Path

from app.web.assets import STATIC
from app.web.cards import SUIT_PATHS

THEME = "#184d33"  # the felt, as base.html's theme-color and the manifest's colours
PAPER = "#fffdf7"
WOOD = "#6d4323"
RED = "#c8102e"
BLACK = "#1b1b1b"

ICONS = STATIC / "icons"
# file name -> (side in pixels, purpose): what the manifest declares.
SIZES = {
    "icon-192.png": (192, "any"),
    "icon-512.png": (512, "any"),
    "icon-maskable-512.png": (512, "maskable"),
    "apple-touch-icon.png": (180, "apple"),
}


def _card(suit: str, colour: str, turn: float, dx: float) -> str:
    """A card (100 x 140) with one large pip, turned by ``turn`` degrees about its foot."""
    return (
        f'<g transform="translate({dx} 0) rotate({turn} 50 140)">'
        f'<rect x="1" y="1" width="98" height="138" rx="9" fill="{PAPER}" stroke="{WOOD}" '
        'stroke-width="3"/>'
        f'<path transform="translate(20 40) scale(.6)" fill="{colour}" d="{SUIT_PATHS[suit]}"/>'
        "</g>"
    )


def icon_svg(purpose: str) -> str:
    """The icon on a 512 x 512 box. ``maskable``: the felt fills the square and the cards
    keep inside the safe zone (the middle circle of radius 40 %, which any mask leaves);
    ``any``: a rounded felt tile; ``apple``: the full square (iOS rounds it itself)."""
    full = purpose in ("maskable", "apple")
    # The two cards span about 190 x 185 units around (50, 70); scaled to fit.
    scale = 1.55 if purpose == "maskable" else 2.05
    ground = (
        f'<rect width="512" height="512" fill="{THEME}"/>'
        if full
        else f'<rect x="16" y="16" width="480" height="480" rx="96" fill="{THEME}"/>'
    )
    cards = _card("S", BLACK, -14, -22) + _card("H", RED, 12, 22)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">'
        f"{ground}"
        f'<g transform="translate(256 262) scale({scale}) translate(-50 -70)">{cards}</g>'
        "</svg>"
    )


def draw(folder: Path = ICONS) -> list[Path]:
    """Draws every icon of SIZES into ``folder`` as PNG."""
    import cairosvg

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (side, purpose) in SIZES.items():
        path = folder / name
        cairosvg.svg2png(
            bytestring=icon_svg(purpose).encode(),
            write_to=str(path),
            output_width=side,
            output_height=side,
        )
        written.append(path)
    return written


if __name__ == "__main__":  # pragma: no cover - make icons
    for path in draw(Path(sys.argv[1]) if len(sys.argv) > 1 else ICONS):
        print(path)
