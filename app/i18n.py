"""The interface's languages: the gettext catalogs of app/locale (made with Babel, see
docs/translating.md) and which one a reader gets.

A request is read in one language, chosen once by the ``Language`` middleware (app/api/
language.py): ``?lang=`` (then remembered in a cookie), else the browser's Accept-Language,
else English. That choice is the context of everything the request renders: the templates of
``environment()`` and the sentences built in Python (``_``) both follow it, so a page and the
table inside it speak the same language. A render that outlives its request (the table on an
event stream) is bound to the language explicitly, with ``reading``.

English is the source language: its text is in the code, with no catalog of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from gettext import NullTranslations
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

from babel import Locale, negotiate_locale
from babel.dates import format_date, format_time
from babel.numbers import format_decimal
from babel.support import Translations

from app.reasons import N_ as N_  # re-exported: defined beside the reasons, which are pure

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"
SOURCE = "en"
# Each language as its own speakers name it, in the order the menu lists them.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "fr": "Français",
    "de": "Deutsch",
    "ms": "Bahasa Melayu",
    "lb": "Lëtzebuergesch",
}
LANG_COOKIE = "allfours_lang"
LANG_COOKIE_MAX_AGE = 365 * 24 * 3600  # a reader's language outlives any one table


class MissingCatalog(RuntimeError):
    """A language's compiled catalog (.mo) is not there: the install step did not run."""


@cache
def translations(lang: str) -> NullTranslations:
    """The compiled catalog of ``lang`` (English: the source text itself)."""
    if lang not in LANGUAGES:
        raise ValueError(f"not a language of the interface: {lang!r}")
    if lang == SOURCE:
        return NullTranslations()
    mo = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if not mo.is_file():
        # Never fall back to English in silence: a page half in the wrong language is a bug.
        raise MissingCatalog(f"{mo} is missing: compile the catalogs (`make messages-compile`)")
    with mo.open("rb") as fp:
        return Translations(fp, domain=DOMAIN)


@dataclass(frozen=True, slots=True)
class Reader:
    """Who a render is for: the language, and the address read (for the language menu)."""

    lang: str = SOURCE
    path: str = "/"
    query: str = ""
    # The address worked out only when a menu is drawn (most answers draw none: a move's).
    where: Callable[[], tuple[str, str]] | None = None

    def address(self) -> tuple[str, str]:
        return self.where() if self.where is not None else (self.path, self.query)


_SOURCE_READER = Reader()  # frozen: safe to share as the default
_reader: ContextVar[Reader] = ContextVar("allfours_reader", default=_SOURCE_READER)


def current() -> str:
    """The language of what is being rendered now."""
    return _reader.get().lang


def reader() -> Reader:
    return _reader.get()


@contextmanager
def reading(
    lang: str,
    path: str = "/",
    query: str = "",
    where: Callable[[], tuple[str, str]] | None = None,
) -> Iterator[Reader]:
    """Render in ``lang`` inside this block (the address is the page's, for its menu;
    ``where``: the address worked out when the menu asks for it)."""
    if lang not in LANGUAGES:
        raise ValueError(f"not a language of the interface: {lang!r}")
    token = _reader.set(Reader(lang, path, query, where))
    try:
        yield _reader.get()
    finally:
        _reader.reset(token)


def gettext(message: str) -> str:
    return translations(current()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translations(current()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return translations(current()).pgettext(context, message)


# Numbers that reach every CLDR plural category of our languages (French "one" for 0 and 1
# and "many" for whole millions; the others "one" and "other", or "other" alone).
PLURAL_SAMPLES = (1, 0, 2, 5, 21, 1_000_000)


def plural_forms(say: Callable[[int], str]) -> dict[str, str]:
    """A plural text for a page's script, which counts on the reader's side: its form for
    each CLDR category of the reader's language ("one", "many", "other", the names
    ``Intl.PluralRules`` gives), as the catalog gives it for a number of that category.
    ``say`` is the ``ngettext`` call, so the texts are extracted as any other plural."""
    rule = locale(current()).plural_form
    forms: dict[str, str] = {}
    for n in PLURAL_SAMPLES:
        forms.setdefault(rule(n), say(n))
    return forms


def decimal_sign() -> str:
    """The reader's language's decimal sign ("," in French, German, Luxembourgish), for a
    page's script that writes a fraction: the same as ``number`` writes."""
    return str(locale(current()).number_symbols["latn"]["decimal"])


_ = gettext


# -- The reader's choice ----------------------------------------------------------------------


def asked(query: str) -> str | None:
    """The language a query string asks for (``lang=de``), if it is one of ours."""
    if "lang=" not in query:
        return None
    for key, value in parse_qsl(query, keep_blank_values=True):
        if key == "lang":
            lang = value.strip().lower()
            return lang if lang in LANGUAGES else None
    return None


def accepted(header: str | None) -> list[str]:
    """The languages of an Accept-Language header, most wanted first (q=0 ones left out)."""
    weighted: list[tuple[float, int, str]] = []
    for n, part in enumerate((header or "").split(",")):
        tag, _sep, params = part.strip().partition(";")
        tag = tag.strip()
        if not tag or tag == "*":
            continue
        q = 1.0
        for param in params.split(";"):
            name, _eq, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > 0:
            weighted.append((-q, n, tag))
    return [tag for _q, _n, tag in sorted(weighted)]


def choose(query: str = "", cookie: str | None = None, accept_language: str | None = None) -> str:
    """The language a request is read in: asked in the query, else the remembered one, else
    the browser's first one we speak (``de-AT`` reads German), else English."""
    lang = asked(query)
    if lang is not None:
        return lang
    if cookie and cookie in LANGUAGES:
        return cookie
    wanted = accepted(accept_language)
    if wanted:
        # Babel matches a regional tag to its language (aliases off: ``ms`` is not ``ms_MY``).
        found = negotiate_locale(
            [w.replace("_", "-") for w in wanted], list(LANGUAGES), sep="-", aliases={}
        )
        if found is None:
            bare = [w.split("-")[0].lower() for w in wanted]
            found = next((b for b in bare if b in LANGUAGES), None)
        if found is not None:
            return found
    return SOURCE


# -- What the templates use -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MenuItem:
    lang: str
    name: str
    href: str
    current: bool


def menu() -> tuple[MenuItem, ...]:
    """The language menu: this very address in each language (its other query kept)."""
    here = _reader.get()
    at, query = here.address()
    kept = [(k, v) for k, v in parse_qsl(query, keep_blank_values=True) if k != "lang"]
    # A sign-in link's address holds its one-time code: there the menu names the same page
    # by its query alone (a relative "?lang=fr"), and the code is written nowhere in it.
    path = "" if at.startswith("/signin/") else at
    return tuple(
        MenuItem(
            lang=lang,
            name=name,
            href=f"{path}?{urlencode([*kept, ('lang', lang)])}",
            current=lang == here.lang,
        )
        for lang, name in LANGUAGES.items()
    )


@cache
def locale(lang: str) -> Locale:
    return Locale.parse(lang)


def number(value: float) -> str:
    """A number as the reader's language writes it (``1,5`` in German)."""
    return format_decimal(value, locale=locale(current()))


def day(value: datetime) -> str:
    """A date in the reader's language (``7 décembre 2026``; French writes the first of a
    month as an ordinal, ``1er décembre 2026``, which CLDR's long format does not)."""
    text = format_date(value, format="long", locale=locale(current()))
    if current() == "fr" and value.day == 1 and text.startswith("1 "):
        text = "1er" + text[1:]
    return text


def clock(value: datetime) -> str:
    """A time of day, on the 24-hour clock every one of these languages reads (``16:05``)."""
    return format_time(value, format="HH:mm", locale=locale(current()))
