"""Renders in a language: a chat preset and a spectator's name read in the reader's
language (the message's own text stays as written), the refusals of the rules say their suit
or card in the reader's words, and a render's language never leaks into the next one."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app import i18n
from app.rules.engine import NOT_OFFERED
from app.rules.errors import IllegalMove, NotOffered
from app.rules.legal import GIVE_ONE_NEEDS_TRUMP, GIVE_ONE_WOULD_WIN
from app.rules.state import Phase
from app.rules.tricks import MUST_FOLLOW, TRUMPS_LED, UNDERTRUMP
from app.services import errors
from app.services.decide import HOST_ONLY
from app.services.rooms import STALE_VERSION
from app.services.talk import PRESETS, SPECTATOR, ChatMessageOut
from app.web.refusals import page_message, refused_sentence
from app.web.render import chat_renderer, render_chat_message, render_home

AT = datetime(2026, 12, 1, 16, 5, tzinfo=UTC)


def message(text: str, *, preset: str | None = None, seat: int | None = 0) -> ChatMessageOut:
    name = "Ann" if seat is not None else SPECTATOR
    return ChatMessageOut(id=1, seat=seat, name=name, text=text, preset=preset, at=AT)


def test_a_preset_reads_in_the_readers_language_and_typed_words_stay_as_typed() -> None:
    good = message(PRESETS["good_lift"], preset="good_lift")
    assert "Guter Lift, Partner" in chat_renderer("de")(good)
    assert "Good lift, partner" in chat_renderer("en")(good)
    yuh = message(PRESETS["play_yuh_card"], preset="play_yuh_card")
    assert "Play yuh card" in chat_renderer("lb")(yuh)  # as said at the table
    typed = message("Good lift, partner")  # typed, not the preset: left as written
    assert "Good lift, partner" in chat_renderer("fr")(typed)
    assert "16:05" in chat_renderer("fr")(typed)


def test_a_spectator_writes_under_the_word_for_spectator() -> None:
    said = chat_renderer("fr")(message("bonjour", seat=None))
    assert "Spectateur" in said and "Spectator" not in said


def test_a_renderer_keeps_its_language_and_leaves_the_context_as_it_was() -> None:
    with i18n.reading("ms"):
        assert "Anda" not in chat_renderer("de")(message("x"))
        assert i18n.current() == "ms"
        assert '<html lang="ms"' in render_home()
    assert i18n.current() == "en"
    assert '<html lang="en"' in render_home()
    assert "Mute Ann" in render_chat_message(message("x"))


@pytest.mark.parametrize(
    ("lang", "refusal", "said"),
    [
        ("de", IllegalMove("R14", MUST_FOLLOW, suit="H"),
         "Du musst Herz bedienen oder Trumpf spielen"),
        ("fr", IllegalMove("R14", TRUMPS_LED, suit="S"),
         "Atout (pique) entamé\u202f: vous devez jouer atout"),
        ("lb", IllegalMove("R14 (undertrump forbidden)", UNDERTRUMP, card="JH"),
         "Du dierfs keen Tromp ënner B♥ spillen, soulaang s du aner Kaarten hues"),
        ("ms", IllegalMove("R10 (give one needs trump)", GIVE_ONE_NEEDS_TRUMP, suit="C"),
         "Anda tiada kelawar: anda mesti run the pack"),
        ("en", IllegalMove("R11", GIVE_ONE_WOULD_WIN),
         "Giving one would win the game for the beggar's team: you must run the pack"),
    ],
)  # fmt: skip
def test_the_rules_refusals_in_the_readers_words(
    lang: str, refusal: IllegalMove, said: str
) -> None:
    with i18n.reading(lang):
        assert refused_sentence(refusal.code, refusal.params) == said


def test_a_refusal_of_the_services_by_its_code() -> None:
    refused = errors.IllegalMoveError.of_rule(IllegalMove("R14", MUST_FOLLOW, suit="H"))
    assert refused.detail == "R14: you must follow hearts or play a trump"
    assert (refused.code, refused.params) == ("must_follow", {"suit": "H"})
    over = NotOffered("R19", NOT_OFFERED[Phase.GAME_OVER], action="beg")
    assert errors.NotOfferedNow.of_rule(over).detail == (
        "R19: beg is not possible now: the game is over"
    )
    with i18n.reading("de"):
        assert page_message(refused) == "Du musst Herz bedienen oder Trumpf spielen"
        stale = errors.StaleVersion(STALE_VERSION, expected=3, current=4)
        assert page_message(stale).startswith("Am Tisch")
        assert (
            page_message(errors.Forbidden(HOST_ONLY)) == "Das darf nur der Gastgeber des Tisches."
        )
