"""The catalogs (app/locale): every English text of the sources has its translation in every
language, complete and with the same placeholders; and the reader's language is chosen as
app/i18n.py says (``?lang=``, the cookie, Accept-Language, English)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from app import i18n

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE]
PLACEHOLDER = re.compile(r"%\((\w+)\)s|\{(\w+)\}")
TAG = re.compile(r"</?([a-z][a-z0-9]*)\b")


def catalog(lang: str) -> Catalog:
    with (i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as fp:
        return read_po(fp, locale=lang)


def entries(cat: Catalog) -> list[Message]:
    return [m for m in cat if m.id]


def texts(value: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


def placeholders(text: str) -> Counter[str]:
    return Counter(a or b for a, b in PLACEHOLDER.findall(text))


def extracted() -> set[tuple[str | tuple[str, str], str | None]]:
    """What `make messages` extracts from app/ now: (msgid, context) of every marked text."""
    with (ROOT / "babel.cfg").open() as fp:
        method_map, options_map = parse_mapping_cfg(fp)  # type: ignore[no-untyped-call]
    found: set[tuple[str | tuple[str, str], str | None]] = set()
    for _file, _line, message, _comments, context in extract_from_dir(
        str(ROOT / "app"),
        method_map,
        options_map,
        keywords={
            "N_": None,
            "_": None,
            "gettext": None,
            "ngettext": (1, 2),
            "pgettext": ((1, "c"), 2),
        },
    ):
        found.add((message if isinstance(message, str) else (message[0], message[1]), context))
    return found


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(lang: str) -> None:
    cat = catalog(lang)
    assert cat.num_plurals >= 1
    problems = []
    for m in entries(cat):
        sources = texts(m.id)
        forms = texts(m.string)
        if m.fuzzy:
            problems.append(f"fuzzy: {sources[0]!r}")
        if not forms or any(not f.strip() for f in forms):
            problems.append(f"untranslated: {sources[0]!r}")
            continue
        if m.pluralizable and len(forms) != cat.num_plurals:
            problems.append(f"{len(forms)} plural forms, not {cat.num_plurals}: {sources[0]!r}")
        wanted = placeholders(sources[-1])
        tags = Counter(TAG.findall(sources[-1]))
        for form in forms:
            if placeholders(form) != wanted:
                problems.append(f"placeholders of {form!r} differ from {sources[-1]!r}")
            if Counter(TAG.findall(form)) != tags:
                problems.append(f"markup of {form!r} differs from {sources[-1]!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_catalog_holds_exactly_the_texts_of_the_sources(lang: str) -> None:
    """A new English text (or one changed) with no entry in a catalog fails here; so does an
    entry whose text is gone. `make messages` brings the catalogs up to date with the
    sources, then the new entries want their translations (docs/translating.md)."""
    have = {(m.id if isinstance(m.id, str) else (m.id[0], m.id[1]), m.context)
            for m in entries(catalog(lang))}  # fmt: skip
    wanted = extracted()
    missing = sorted(map(str, wanted - have))
    gone = sorted(map(str, have - wanted))
    assert not missing, f"not in the {lang} catalog (run `make messages`): {missing}"
    assert not gone, f"in the {lang} catalog but no longer in the sources: {gone}"


def test_each_language_has_its_glossary_in_the_catalog_comments() -> None:
    seeds = {
        "fr": ("atout", "carte révélée"),
        "de": ("Trumpf", "aufgedeckte Karte"),
        "ms": ("truf", "kad yang didedahkan"),
        "lb": ("Tromp", "opgedeckt Kaart"),
    }
    for lang, words in seeds.items():
        header = catalog(lang).header_comment
        assert "Glossary" in header
        for word in (*words, "kick", "beg", "bullseye", "native speaker"):
            assert word in header, (lang, word)


# Round 5's words and duplicate's, named in each glossary before their texts are written.
ROUND_5_TERMS = ("rating:", "rated", "review", "ban", "block", "passkey:", "handle:",
                 "sign-in link:", "board:", "traveller:", "matchpoints:", "North\u2013South:",
                 "East\u2013West:", "today's boards:", "card written short")  # fmt: skip


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_glossary_names_the_players_words_and_duplicates(lang: str) -> None:
    header = catalog(lang).header_comment
    missing = [term for term in ROUND_5_TERMS if term not in header]
    assert not missing, f"{lang}: the glossary does not name {missing}"


def test_every_language_is_compiled_and_says_its_own_words() -> None:
    for lang, words in {"fr": "atout", "de": "Trumpf", "ms": "truf", "lb": "Tromp"}.items():
        assert i18n.translations(lang).gettext("trump") == words


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError):
        i18n.translations("xx")
    with pytest.raises(ValueError), i18n.reading("xx"):
        pass


@pytest.mark.parametrize(
    ("query", "cookie", "accept", "chosen"),
    [
        ("", None, None, "en"),
        ("lang=de", None, None, "de"),
        ("lang=DE", "fr", "ms", "de"),  # the query wins, whatever its case
        ("lang=xx", "fr", None, "fr"),  # not one of ours: as if not asked
        ("code=ab&lang=lb", None, None, "lb"),
        ("", "ms", "de", "ms"),  # the remembered choice, over the browser's
        ("", "xx", "de", "de"),
        ("", None, "de-AT,de;q=0.9,en;q=0.8", "de"),
        ("", None, "pt-BR, fr;q=0.7, en;q=0.5", "fr"),
        ("", None, "en;q=0.2, lb;q=0.8", "lb"),
        ("", None, "ms-MY", "ms"),
        ("", None, "fr;q=0, de;q=0.1", "de"),
        ("", None, "pt, es", "en"),
        ("", None, "*", "en"),
        ("", None, "de;q=x", "en"),  # a broken weight counts as 0
    ],
)
def test_the_language_a_request_is_read_in(
    query: str, cookie: str | None, accept: str | None, chosen: str
) -> None:
    assert i18n.choose(query, cookie, accept) == chosen


def test_the_menu_offers_this_address_in_each_language() -> None:
    with i18n.reading("fr", "/join", "code=p9d5&lang=fr"):
        items = i18n.menu()
    assert [i.lang for i in items] == list(i18n.LANGUAGES)
    assert {i.lang: i.href for i in items}["de"] == "/join?code=p9d5&lang=de"
    assert [i.current for i in items] == [lang == "fr" for lang in i18n.LANGUAGES]


def test_numbers_and_dates_follow_the_language() -> None:
    from datetime import UTC, datetime

    when = datetime(2026, 12, 1, 16, 5, tzinfo=UTC)
    with i18n.reading("de"):
        assert i18n.number(1234.5) == "1.234,5"
        assert i18n.clock(when) == "16:05"
        assert "Dez" in i18n.day(when)
    with i18n.reading("fr"):
        assert i18n.number(1234.5).replace("\u202f", " ") == "1 234,5"
        assert "déc" in i18n.day(when)
        assert i18n.day(when).startswith("1er déc")  # the review's "le 1 décembre"
        assert i18n.day(when.replace(day=7)).startswith("7 déc")
    with i18n.reading("en"):
        assert i18n.number(1234.5) == "1,234.5"


# -- plural forms ----------------------------------------------------------------------------

# Numbers that reach every plural category of our languages (CLDR: French "one" for 0 and 1,
# "many" for whole millions; German and Luxembourgish "one"; Malay none but "other").
SAMPLES = (0, 1, 2, 3, 5, 11, 21, 100, 101, 1000, 1_000_000, 2_000_000, 2_500_000)
ORDINARY = (2, 5, 21)  # the ordinary plural: "5 parties", "5 Spiele", never "5 de parties"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_plural_forms_header_sorts_numbers_as_the_language_does(lang: str) -> None:
    """A catalog's Plural-Forms expression (what gettext runs) and its language's CLDR rule
    (Babel's) put the same numbers together: one form per category, the singular first."""
    rule = Locale.parse(lang).plural_form
    index = i18n.translations(lang).plural  # type: ignore[attr-defined]
    categories = {"other", *rule.tags}
    assert catalog(lang).num_plurals == len(categories)
    forms: dict[str, set[int]] = {}
    for n in SAMPLES:
        forms.setdefault(rule(n), set()).add(index(n))
    assert set(forms) == categories
    assert all(len(at) == 1 for at in forms.values()), forms  # a category, one form
    assert len({next(iter(at)) for at in forms.values()}) == len(categories)  # and its own
    assert index(1) == 0, "msgstr[0] is the singular, as the English msgid"
    assert len({index(n) for n in ORDINARY}) == 1


def french_million_forms(plural: str) -> set[str]:
    """The forms French may write for a whole million from its ordinary plural: "de" (d'
    before a vowel) between the counted number and the word that follows it ("1 000 000 de
    parties"), after whichever placeholder is the count; the plural itself only where no
    number is followed by a word that lacks it ("5 de vos appareils", "Vos tables")."""
    forms = set()
    for m in re.finditer(r"(%\(\w+\)[sd]) (?!de |d')([^\W\d_])", plural):
        de = "d'" if m.group(2).lower() in "aeiouyéèêh" else "de "
        forms.add(plural[: m.start(2)] + de + plural[m.start(2) :])
    return forms or {plural}


def test_the_french_million_form_is_the_plural_with_de() -> None:
    assert french_million_forms("%(num)d parties classées") == {"%(num)d de parties classées"}
    assert french_million_forms("pendant %(num)s minutes.") == {"pendant %(num)s de minutes."}
    assert french_million_forms("%(num)s appareils") == {"%(num)s d'appareils"}
    assert french_million_forms("%(num)s de vos appareils") == {"%(num)s de vos appareils"}
    assert french_million_forms("Vos tables") == {"Vos tables"}
    assert "%(a)s de cartes, %(b)s points" in french_million_forms("%(a)s cartes, %(b)s points")
    # FR-R5-1's forms, in the wrong order: the check does not take them
    slipped_plural, slipped_million = "%(num)d de parties classées", "%(num)d parties classées"
    assert slipped_million not in french_million_forms(slipped_plural)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_plural_entry_gives_the_ordinary_plural_for_2_5_and_21(lang: str) -> None:
    """What broke: every French profile with 2 rated games or more read "5 de parties
    classées", its msgstr[1] (the millions) and msgstr[2] (every other plural) swapped."""
    said = i18n.translations(lang)
    many = lang == "fr"
    wrong = []
    for m in entries(catalog(lang)):
        if not m.pluralizable:
            continue
        singular, plural = texts(m.id)[:2]
        one, *ordinary = (said.ngettext(singular, plural, n) for n in (1, *ORDINARY))
        if len(set(ordinary)) != 1:
            wrong.append(f"{singular!r}: 2, 5 and 21 read {ordinary}")
        if catalog(lang).num_plurals > 1 and one == ordinary[0]:
            wrong.append(f"{singular!r}: 1 and 5 read alike, {one!r}")
        if many:
            million = said.ngettext(singular, plural, 1_000_000)
            if million not in french_million_forms(ordinary[0]):
                wrong.append(f"{singular!r}: 5 reads {ordinary[0]!r}, 1 000 000 {million!r}")
    assert not wrong, f"{lang}:\n" + "\n".join(wrong)
