"""The page's own controls drawn in SVG, like the cards (app/web/cards.py): a glyph such as an
emoji needs a font that has it, and a browser without one (Debian's Chromium on a desktop
without an emoji font) shows an empty box instead."""

from __future__ import annotations

from markupsafe import Markup

# 24x24 outlines, filled with the control's own colour (currentColor).
_PATHS = {
    # A speech bubble with its tail at the lower left: table talk.
    "talk": (
        "M4 3h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H10l-5 4.5V17H4a2 2 0 0 1-2-2V5a2 2 0 0 1 "
        "2-2zm0 2v10h3v2.2L9.3 15H20V5z M6 8h12v2H6z M6 11h8v2H6z"
    ),
    # A quaver: the sound on your turn.
    "sound": "M10 3h9v4h-7v10.5A3.5 3.5 0 1 1 10 14.3z",
    # A bell: tell me on this device when it is my turn (Web Push).
    "bell": (
        "M12 2a1.5 1.5 0 0 1 1.5 1.5v.7A6 6 0 0 1 18 10v5l2 2v1H4v-1l2-2v-5a6 6 0 0 1 "
        "4.5-5.8v-.7A1.5 1.5 0 0 1 12 2z M10 19.5h4a2 2 0 0 1-4 0z"
    ),
}


def icon(name: str, css_class: str = "icon") -> Markup:
    """The icon ``name``, for a control that says what it is itself (aria-label): hidden
    from screen readers."""
    path = _PATHS[name]  # a KeyError for an icon that does not exist: a template's mistake
    return Markup(
        f'<svg class="{css_class} icon-{name}" viewBox="0 0 24 24" aria-hidden="true" '
        f'focusable="false"><path d="{path}" fill="currentColor" fill-rule="evenodd"/></svg>'
    )
