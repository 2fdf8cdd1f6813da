"""The install hint (issue #46): an iPhone shows a site's notifications only once the site is
on its home screen, and nothing said so. On an iPhone the home page says how (Share, then Add
to Home Screen), until "Not now"; a desktop browser is not told the iPhone's way. On a 360 px
phone the hint fits."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
)
PHONE_360 = {"width": 360, "height": 740}


def test_an_iphone_is_told_how_to_put_the_app_on_its_home_screen(
    browser: Browser, server: str
) -> None:
    context = browser.new_context(viewport=PHONE_360, user_agent=IPHONE, is_mobile=True)  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(f"{server}/")
    hint = page.locator("[data-install-hint]")
    expect(hint).to_be_visible()
    expect(page.locator("[data-install-ios]")).to_contain_text("Add to Home Screen")
    expect(page.locator("[data-install-offer]")).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_360["width"]
    page.click('[data-action="install-later"]')
    expect(hint).to_be_hidden()
    page.reload()
    page.wait_for_load_state("load")
    expect(hint).to_be_hidden()  # "Not now" holds
    context.close()

    desktop = browser.new_context()
    page = desktop.new_page()
    page.goto(f"{server}/")
    page.wait_for_load_state("load")
    # (Chromium may offer to install, beforeinstallprompt: that hint is its own, not tested.)
    expect(page.locator("[data-install-ios]")).to_be_hidden()
    desktop.close()
