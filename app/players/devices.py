"""A device's name as its list shows it: the browser and the system, read from the
User-Agent header ("Chrome · Android": names, no words to translate), never the header
itself; "" when neither is known (the page says "a browser" in its language)."""

from __future__ import annotations

_BROWSERS = (  # the first that matches: Edge and Opera say "Chrome" too, Chrome "Safari"
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("SamsungBrowser/", "Samsung Internet"),
    ("Firefox/", "Firefox"),
    ("Chrome/", "Chrome"),
    ("Chromium/", "Chromium"),
    ("Safari/", "Safari"),
)
_SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Windows", "Windows"),
    ("Mac OS X", "Mac"),
    ("CrOS", "ChromeOS"),
    ("Linux", "Linux"),
)


def device_name(user_agent: str | None) -> str:
    agent = user_agent or ""
    browser = next((name for mark, name in _BROWSERS if mark in agent), None)
    system = next((name for mark, name in _SYSTEMS if mark in agent), None)
    return " · ".join(part for part in (browser, system) if part)
