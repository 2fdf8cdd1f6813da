"""The words of the game in every language: each award said for "us", "them" or a team by
name as a whole sentence (never "für Wir"), the jack as a card named as the language's
players name it while Jack the point keeps its name, one word per glossary term in each
catalog, and each catalog's register (vous, du, du, anda), the share invitation included."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from babel.messages.pofile import read_po

from app import i18n
from app.rules.state import Phase
from app.web.cards import card_name
from app.web.table import build
from tests.web.views import playthrough, server_view

LANGS = ("fr", "de", "ms", "lb")
KINDS = {"kick", "give_one", "high", "low", "jack", "hang_jack", "game"}

# What the jack is called as a card, and what must never name it.
JACK_OF_HEARTS = {
    "en": "Jack of hearts",
    "fr": "Valet de cœur",
    "de": "Herz Bube",
    "lb": "Häerz Bauer",
    "ms": "Pekak lekuk",
}
# Each language's words for "for us", "for them"; and what a sentence must never say.
FOR_US = {"en": "for us", "fr": "pour nous", "de": "für uns", "lb": "fir eis", "ms": "untuk kami"}
FOR_THEM = {
    "en": "for them",
    "fr": "pour eux",
    "de": "für die Gegner",
    "lb": "fir déi aner",
    "ms": "untuk mereka",
}
NEVER = {
    "en": ("for Us", "for Them"),
    "fr": ("pour Nous", "pour Eux", "Vous & Cy gagnent"),
    "de": ("für Wir", "für Sie", "für Gegner", "Du & Cy gewinnen"),
    "lb": ("fir Mir", "fir Si", "Du & Cy gewannen"),
    "ms": ("untuk Kami", "untuk Mereka"),
}


def hands_with_awards() -> Iterator[object]:
    """Views (seat 0's) right after deals whose awards, together, hold every kind."""
    seen: set[str] = set()
    for seed in range(60):
        for state in playthrough(seed):
            if state.phase is Phase.BEG and state.history:
                kinds = {a.kind for a in state.history[-1].awards}
                if kinds - seen:
                    seen |= kinds
                    yield state
        if seen >= KINDS:
            return
    raise AssertionError(f"no deal gave {KINDS - seen}")


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_every_award_is_said_whole_for_us_for_them_and_by_team(lang: str) -> None:
    said = []
    for n, state in enumerate(hands_with_awards()):
        for seat in (0, 1, None):
            table_view = server_view(state, seat, version=n + 2)  # type: ignore[arg-type]
            with i18n.reading(lang):
                news = [x.text for x in build(table_view).news.items if x.key.startswith("hand:")]
            assert len(news) == 1
            said.append((seat, news[0]))
    for seat, line in said:
        assert "%(" not in line and "%s" not in line
        for wrong in NEVER[lang]:
            assert wrong not in line, (lang, line)
        if seat is not None:
            assert FOR_US[lang] in line or FOR_THEM[lang] in line, line
    if lang != "en":
        english = {"High", "Low", "Jack", "Game", "Kick"}  # the points keep their names
        assert any(word in line for word in english for _seat, line in said)


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_the_jack_as_a_card_is_named_as_its_players_say_it(lang: str) -> None:
    with i18n.reading(lang):
        assert card_name("JH") == JACK_OF_HEARTS[lang]
        assert i18n.gettext("Jack") == "Jack"  # the hand's point keeps its name


# -- the catalogs ------------------------------------------------------------------------------

# One word per game term: the English word (a regular expression over the msgid) and, per
# language, the only word a translation of it may use (a regular expression over the msgstr);
# a translation of an entry with the term that uses a different word fails.
GLOSSARY: dict[str, dict[str, str]] = {
    r"\btrump": {"fr": r"atout|coup|sous-coup", "de": r"Trumpf|Trümpf|stech|stich|gestochen",
                 "lb": r"Tromp", "ms": r"truf"},
    r"(?<!non-)\bdealer\b": {"fr": r"donneur", "de": r"Geber", "lb": r"Deeler", "ms": r"pembahagi"},
    r"\breplay": {"fr": r"rediffusion|revoir", "de": r"Wiederholung|ansehen",
                  "lb": r"Widderhuelung|kucken", "ms": r"[Uu]lang tayang|[Tt]onton semula"},
    r"\bpartnerships?\b": {"fr": r"équipe", "de": r"Teams", "lb": r"Ekippen", "ms": r"pasukan"},
    r"\bgames\b": {"lb": r"Partien"},
    r"\bnudge": {"fr": r"signe", "de": r"[Ss]tups|[Ee]rinner", "lb": r"[Ee]rënner|[Ss]tups",
                 "ms": r"[Cc]ucuk|[Ii]ngat"},
    # round 5: the players' words (a rated game, a ban apart from a block, the game's review)
    r"\brating": {"fr": r"\bcotes?\b", "de": r"Wertung", "lb": r"Wäertung", "ms": r"penarafan"},
    r"\brated\b": {"fr": r"classée", "de": r"gewertet", "lb": r"gewäert", "ms": r"bertaraf"},
    r"\breview": {"fr": r"analys", "de": r"analys", "lb": r"analys", "ms": r"analisis"},
    r"\bban": {"fr": r"banni", "de": r"sperr|gesperrt", "lb": r"spär|gespaart", "ms": r"larang"},
    r"\bblock": {"fr": r"bloqu", "de": r"blockier", "lb": r"blockéier", "ms": r"sekat|nyekat"},
    r"passkey": {"fr": r"clés? d'accès", "de": r"Passkey", "lb": r"Passkey",
                 "ms": r"kunci laluan"},
    r"\bhandle\b": {"fr": r"pseudo", "de": r"Benutzername", "lb": r"Benotzernumm",
                    "ms": r"nama ?pengguna"},
    r"sign-in link": {"fr": r"liens? de connexion", "de": r"Anmeldelink", "lb": r"Umeldelink",
                      "ms": r"pautan log masuk"},
}  # fmt: skip
# Words a catalog no longer uses for a term (the review's findings).
RETIRED: dict[str, tuple[str, ...]] = {
    "fr": ("relecture", "Relecture", "Relancer", "relancé", "toutes les quelques secondes",
           "renonce", "votre classement", "statistiques et classement", "Identifiant",
           "était meilleur", "n'est pas ici", "Toutes règles", "\u2019"),
    "de": ("Partnerschaft", "bekommen von", "ein give one", "kein give one", "Renonce",
           "Zählung", "Ehre", "give one gegeben", "Preise", "Hang Jack", "Zugangsschlüssel",
           "Auswertung", "auswerten", "ausgewertet", "Kein solcher", "Freigeben", "Bitte einen"),
    "lb": ("Stéch", "stiechen", "Bouf", "ongeschidden", "fäerdeg Spiller", "gewonne Spiller",
           "liest hinnen", "Partnerschaften", "a kengem seng Hand", "Donne", "Equipe",
           "Renonce", "Du gëss", "D'Ginn", "d'Ginn", "däerf", "Präisser", "give one ginn",
           "Hang Jack", "Zougangsschl", "Auswäertung", "auswäert", "ausgewäert", "Däi Plaz",
           "Vum @", "vergeben", "Regel", "Spille mat Renege", "d'Ruffe", "Umeldungslink"),
    "ms": ("Main semula permainan", "Belum ada main semula", "Itu tidak boleh sekarang",
           "satu pusingan kad", "Tiada:", "Tempat duduk", "tempat duduk", "merugikan",
           "'kira'", "malam ini", "Semakan", "semakan", "permainan disemak",
           "Semak permainan", "tidak dinilai", "Tarik sekatan", "Menipu"),
}  # fmt: skip
# (round 4 of the review: de/lb "Renonce" is a void suit in Skat, the catalogs say renege;
# lb Donne and Equipe for Ronn and Ekipp; ms "malam ini" is "tonight", not the club night.
# Round 5: de/lb "Auswertung" beside "gewertet", the rating, for the review (Analyse); fr
# "classement" is the leaderboard, not the rating (cote); lb "Regel" for the catalog's
# "Reegel"; ms "semak" is to check, "sekat" a block, not a ban; fr U+2019 for the catalog's ')
# The register: words that must never address the reader in each language.
NOT_THE_REGISTER: dict[str, str] = {
    "fr": r"\b(tu|toi|ton|ta|tes|viens)\b",
    "de": r"\b(Ihr|Ihnen|Euch)\b|\bSie (bitte|können|müssen|haben)",
    "lb": r"\b(Dir|Iech|Äre|[Ss]ot)\b",  # "Sot mer Bescheed": the Dir imperative
    "ms": r"\b(kamu|awak|engkau|kau)\b",
}
REGISTER = {"fr": r"\bvous\b|\bVous\b", "de": r"\bdu\b|\bdich\b|\bdein",
            "lb": r"\b[Dd]u\b|\b[Dd]ech\b|\b[Dd](äin|äi|eng|enger|engem)\b",
            "ms": r"\banda\b"}  # fmt: skip
# (lb: "Du" opens a sentence, and its possessives däin, däi, deng are the du register too)


def _entries(lang: str) -> list[tuple[str, str]]:
    with (i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        out = []
        for m in read_po(f):
            if not m.id:
                continue
            ids = (m.id,) if isinstance(m.id, str) else m.id
            strings = (m.string,) if isinstance(m.string, str) else tuple(m.string or ())
            out += [(ids[min(n, len(ids) - 1)], s) for n, s in enumerate(strings)]
        return out


@pytest.mark.parametrize("lang", LANGS)
def test_one_word_per_game_term(lang: str) -> None:
    entries = _entries(lang)
    for term, words in GLOSSARY.items():
        if lang not in words:
            continue
        for english, said in entries:
            plain = re.sub(r"%\(\w+\)s", "", english)  # a placeholder is no word
            if re.search(term, plain, re.I) and not re.search(words[lang], said, re.I):
                pytest.fail(f"{lang}: {english!r} -> {said!r} does not say {words[lang]!r}")
    for english, said in entries:
        for retired in RETIRED[lang]:
            assert retired not in said, (lang, english, said)


@pytest.mark.parametrize("lang", LANGS)
def test_the_register_holds_everywhere_and_in_the_invitation(lang: str) -> None:
    entries = _entries(lang)
    for english, said in entries:
        assert not re.search(NOT_THE_REGISTER[lang], said), (lang, english, said)
    invitations = [s for e, s in entries if e.startswith("Come and play All Fours")]
    assert len(invitations) == 2
    for said in invitations:
        if lang == "fr":
            assert said.startswith("Venez jouer"), said
    addressed = [s for e, s in entries if re.search(r"\byou\b|\byour\b", e, re.IGNORECASE)]
    assert sum(bool(re.search(REGISTER[lang], s)) for s in addressed) > len(addressed) / 3
