"""The site as an installable app (API.md § Fourth round, "The phone"): the web app manifest
in the reader's language, and the service worker's script.

The worker (app/templates/sw.js, filled in here) keeps the offline page and the static
files by their versioned URLs (app/web/assets.py), nothing else: no page, no /api/ answer,
no stream, which hold a player's cards, tokens or keys. Its cache is named after what it
keeps, so a release that changes a static file is a new cache, and the old one is deleted
when the new worker takes over.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from app import i18n
from app.i18n import _
from app.web.app_icon import THEME
from app.web.assets import page_files, static_url

OFFLINE = "/offline"
TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
WORKER_SOURCE = TEMPLATES / "sw.js"  # with the templates: package data, not a static file
_OFFLINE_TEMPLATE = TEMPLATES / "offline.html"
CACHE_PREFIX = "allfours-"


def manifest() -> dict[str, Any]:
    """The web app manifest, in the language being read now."""
    return {
        "id": "/",
        "name": _("All Fours: the Trinidad card game"),
        "short_name": _("All Fours"),
        "description": _("Play All Fours with friends or computer players, in the browser."),
        "lang": i18n.current(),
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": THEME,
        "theme_color": THEME,
        "categories": ["games"],
        "icons": [
            _icon("icons/icon-192.png", 192, "any"),
            _icon("icons/icon-512.png", 512, "any"),
            _icon("icons/icon-maskable-512.png", 512, "maskable"),
        ],
    }


def _icon(name: str, side: int, purpose: str) -> dict[str, str]:
    return {
        "src": static_url(name),
        "sizes": f"{side}x{side}",
        "type": "image/png",
        "purpose": purpose,
    }


def precached() -> list[str]:
    """What the worker keeps: every static file by its versioned URL, and the offline page."""
    return [*(static_url(name) for name in page_files()), OFFLINE]


def cache_name(urls: list[str]) -> str:
    """The worker's cache: named after what it holds (and the offline page's template), so
    a release that changes either is a new cache."""
    digest = hashlib.sha256("\n".join(urls).encode())
    digest.update(_OFFLINE_TEMPLATE.read_bytes())
    return CACHE_PREFIX + digest.hexdigest()[:16]


def service_worker() -> str:
    """The worker's script with this release's list and cache name filled in."""
    urls = precached()
    filled = {
        "__CACHE__": json.dumps(cache_name(urls)),
        "__PREFIX__": json.dumps(CACHE_PREFIX),
        "__PRECACHE__": json.dumps(urls),
        "__OFFLINE__": json.dumps(OFFLINE),
        # A notification's picture: the app's own icon (the badge, drawn by the phone in one
        # colour, takes its shape).
        "__ICON__": json.dumps(static_url("icons/icon-192.png")),
        "__BADGE__": json.dumps(static_url("icons/icon-192.png")),
    }
    text = WORKER_SOURCE.read_text(encoding="utf-8")
    for mark, value in filled.items():
        text = text.replace(mark, value)
    return text
