"""The accessibility check itself: what it waits for before it judges a page."""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.e2e.axe import check, describe

FADING_IN = """<!doctype html><html lang="en"><head><title>fading in</title><style>
  body { background: #fff; }
  .note { color: #fff; transition: color 5s linear; }
  .note.shown { color: #111; }
</style></head><body><main><h1>A page</h1><p class="note">Your turn</p></main></body></html>"""


def test_the_contrast_check_waits_for_a_transition_to_end(browser: Browser, axe: str) -> None:
    """axe's contrast check once caught a text mid-transition (a colour between the old and
    the new, under load) and failed a page whose colours were all fine once drawn."""
    page = browser.new_page()
    page.set_content(FADING_IN)
    page.evaluate("document.querySelector('.note').classList.add('shown')")
    assert page.evaluate("document.getAnimations().length") == 1  # the fade is under way
    violations = check(page, axe)
    assert not [v for v in violations if v["id"] == "color-contrast"], describe(violations)
    assert page.evaluate("document.getAnimations().length") == 0
