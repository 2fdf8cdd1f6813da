"""The computer players' names on a 360 px phone (issue #46): "Computer 1 (standard)" on a
seat's plate and under its card in the lift breaks between words, never inside one
("Compute r 3 (standar d)" was seen), in each of the five languages. A word too long for a
narrow column (German's "Computerspieler") is hyphenated where the catalog allows it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.e2e.players import create_room, open_table, seat_with_bots, take_turn

PHONE_360 = {"width": 360, "height": 740}
UNFIT = (Path(__file__).parent / "names_fit.js").read_text()


@pytest.mark.parametrize("lang", ["en", "fr", "de", "ms", "lb"])
def test_computer_players_names_break_between_words_on_a_phone(
    browser: Browser, server: str, lang: str
) -> None:
    code = create_room(server, seed=4602)
    page = open_table(browser, server, code, PHONE_360, lang=lang)
    seat_with_bots(page)
    rng = random.Random(4602)
    # Until a computer player's card lies in the lift, its name under it.
    moves = "[data-action=stand], [data-action=run_pack], [data-hand] [data-legal]"
    for _ in range(12):
        page.wait_for_selector(f".slot-name, {moves}")
        if page.locator(".slot-name").count():
            break
        take_turn(page, rng)
    assert page.locator(".slot-name").count(), "no card was played"
    unfit = page.evaluate(UNFIT)
    assert unfit == [], f"{lang}: names that do not fit: {unfit}"
    page.context.close()
