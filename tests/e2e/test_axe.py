"""The accessibility check itself: what it waits for before it judges a page."""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.e2e.axe import check, contrast_opened, describe

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


TAPPED_OPEN = """<!doctype html><html lang="en"><head><title>behind a tap</title><style>
  body { background: #fff; color: #111; }
  .pale { color: #eee; }
</style></head><body><main><h1>A page</h1>
<details><summary>Keep my games</summary><label class="pale">Handle <input></label></details>
<dialog><p class="pale">Sure?</p></dialog>
</main></body></html>"""


def test_the_opened_check_sees_what_a_tap_opens(browser: Browser, axe: str) -> None:
    """A pale form behind a <details> and a pale dialog were never seen by the contrast check
    (issue 46): the page is checked with each opened, as a tap shows it."""
    page = browser.new_page()
    page.set_content(TAPPED_OPEN)
    assert not [v for v in check(page, axe) if v["id"] == "color-contrast"]  # closed: unseen
    found = contrast_opened(page, axe)
    flagged = {n["html"][:9] for v in found for n in v["nodes"]}
    assert flagged == {"<label cl", "<p class="}, describe(found)
    assert page.evaluate("document.querySelector('dialog').open") is False  # closed again
