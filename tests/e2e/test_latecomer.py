"""A latecomer on a 360 px phone (issue #46): a guest who takes a computer player's seat at
Play now's table from the next deal is not told the computer played "for them while they
were away" (they were not away: they arrived); the computer players keep one name; the
table's other player, on a phone too, sees the seat's "next deal: a player" pill inside
its plate meanwhile."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser

from tests.e2e.players import script_errors
from tests.e2e.test_play_now import _press_play_now, _seat_token, _until_seated, _view

PHONE_360 = {"width": 360, "height": 740}


def test_a_latecomers_first_deal_tells_no_lie_of_being_away(
    browser: Browser, server: str, screenshots: Path
) -> None:
    phone: dict[str, object] = {"viewport": PHONE_360, "has_touch": True, "is_mobile": True}
    ann_context, ben_context = browser.new_context(**phone), browser.new_context(**phone)  # type: ignore[arg-type]
    ann, ben = ann_context.new_page(), ben_context.new_page()
    # Tobago's rules: the public tables other tests leave behind (a computer player's seat
    # free, their people gone) are Trinidad's, and would seat these two beside no one.
    code = _press_play_now(ann, server, "tobago")
    assert _press_play_now(ben, server, "tobago") == code  # a computer player's seat, next deal
    ann_token, ben_token = _seat_token(ann_context), _seat_token(ben_context)
    # Ann's turns wait for her: the claim stands until she plays the deal out.
    ann.goto(f"{server}/r/{code}")
    pill = ann.locator(".chip-claimed")
    pill.wait_for()
    plate = ann.locator(".plate", has=pill)
    inside = plate.evaluate(
        """(plate) => {
          const p = plate.getBoundingClientRect();
          const c = plate.querySelector('.chip-claimed').getBoundingClientRect();
          return c.left >= p.left - 0.5 && c.right <= p.right + 0.5
            && c.top >= p.top - 0.5 && c.bottom <= p.bottom + 0.5 && p.right <= innerWidth;
        }"""
    )
    assert inside, "the next-deal pill bursts its seat's plate"
    ann.screenshot(path=str(screenshots / "latecomer-claimed-pill-360.png"), full_page=True)
    _until_seated(server, code, ann_token, ben_token)
    mine = _view(server, code, ben_token)
    assert mine["you"] is not None and mine["played_for_you"] == []
    ben.goto(f"{server}/r/{code}")
    ben.wait_for_selector("[data-hand]")
    text = ben.inner_text("body")
    assert "were away" not in text and "for you" not in text
    # The two computer players left, one name each, told apart.
    names = ben.locator(".seat-name").all_inner_texts()
    assert {"Computer 1 (standard)", "Computer 2 (standard)"} <= set(names), names
    assert not any(n.startswith("Bot") for n in names)
    wide = ben.evaluate("document.documentElement.scrollWidth")
    assert wide <= PHONE_360["width"], f"the table is {wide} px wide"
    ben.screenshot(path=str(screenshots / "latecomer-first-deal-360.png"), full_page=True)
    assert not script_errors(ben) and not script_errors(ann)
    ann_context.close()
    ben_context.close()
