"""The glossary's words held in every entry of every catalog, read with Babel: the word for
hand, game, team and the club night's round wherever the English says it; French
typography (a narrow no-break space before : ; ? ! and inside « »); Luxembourgish's n-rule,
as its catalog's header keeps it; and no entry left in English but the words said as at the
table. Each check is one that would have caught a slip of the translation reviews
(shared/reviews: round 4's DE-N1, LB-N1, FR-N3, LB-N9, MS-N3...)."""

from __future__ import annotations

import itertools
import re

import pytest
from babel.messages.pofile import read_po

from app import i18n

LANGS = ("fr", "de", "lb", "ms")
PLACEHOLDER = re.compile(r"%\(\w+\)s")
TAG = re.compile(r"<[^>]+>")


def _entries(lang: str) -> list[tuple[str, str]]:
    """(English, translation) of every form of every entry; a plural's English is its
    singular for the first form, its plural for the others."""
    with (i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    out = []
    for m in catalog:
        if not m.id:
            continue
        ids = (m.id,) if isinstance(m.id, str) else tuple(m.id)
        forms = (m.string,) if isinstance(m.string, str) else tuple(m.string or ())
        out += [(ids[min(n, len(ids) - 1)], s) for n, s in enumerate(forms)]
    return out


def _plain(text: str) -> str:
    """The words of a text: no placeholder, no markup."""
    return TAG.sub(" ", PLACEHOLDER.sub(" ", text))


# -- hand, game, team and the night's round ------------------------------------------------

# The English word (case-sensitive: "Game", capitalized, is the hand's point and keeps its
# name) and the glossary's word in each language (a regular expression over the
# translation). A hand is a deal of the cards (the cards a player holds are a hand too:
# de/lb "Hand", ms "tangan"); "your side" and "the other side" are teams (the other side
# may be the opponents: de "die Gegner", ms "pihak lawan"); the night's round is a round
# of a club night, a word apart from the hand's in every language.
TERMS: dict[str, tuple[str, dict[str, str]]] = {
    "hand": (r"\b[Hh]ands?\b",
             {"fr": r"\b[Mm]ains?\b", "de": r"Runde|\bHand\b|Händ",
              "lb": r"\bRonn|\bHand\b|Hänn", "ms": r"[Pp]usingan|[Tt]angan"}),
    "game": (r"\bgames?\b|^Game over$|^Games$",
             {"fr": r"\b[Pp]arties?\b", "de": r"[Ss]piel(?!er)", "lb": r"\bPartie",
              "ms": r"[Pp]ermainan"}),
    "team": (r"\b[Tt]eams?\b|\b(your|other) sides?\b",
             {"fr": r"[ÉéEe]quipe", "de": r"\bTeam|\bGegner", "lb": r"Ekipp",
              "ms": r"[Pp]asukan|pihak lawan"}),
    "round": (r"\b[Rr]ounds?\b",
              {"fr": r"\b[Mm]anches?\b", "de": r"Durchg[aä]ng", "lb": r"\bTour",
               "ms": r"\b[Bb]abak\b"}),
}  # fmt: skip
# English that says one of those words in another sense, each with its reason.
OTHER_SENSE: dict[str, tuple[str, ...]] = {
    # the cards a player holds, said as "the cards" ("Karten", "kad")
    "hand": ("Keep my hand", "players' hands stay hidden", "So hands hold 6, 9 or 12 cards"),
    # the kind of game All Fours is (jeu, Kartenspiel, Kaartespill), and the game record,
    # which has its own glossary word (relevé, Spielprotokoll, Spillprotokoll, rekod)
    "game": ("card game", "game record"),
    # a match between two clubs' teams of pairs: the sport's word (Mannschaftskampf)
    "team": ("team match",),
    "round": (
        "Round robin",  # a format of the night: its name, said as such
        "goes round",  # play moves round the table
    ),
}
# Words a language must not use for a term any more (the reviews' findings).
NOT_THE_WORD: dict[str, dict[str, str]] = {
    "hand": {"fr": r"\b[Dd]onnes?\b(?! (un|1) point)", "lb": r"\bDonne"},
    "team": {"lb": r"\bEquipe"},
    "game": {"lb": r"\bSpill\b"},
    "round": {"de": r"\bRunde", "lb": r"\bRonn", "ms": r"[Pp]usingan"},
}


def _other_sense(term: str, english: str) -> bool:
    return any(sense.lower() in english.lower() for sense in OTHER_SENSE[term])


def _says(pattern: str, english: str) -> bool:
    return re.search(pattern, _plain(english)) is not None


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("term", list(TERMS))
def test_the_glossary_word_for_hand_game_team_and_round(lang: str, term: str) -> None:
    english_word, words = TERMS[term]
    wrong = []
    for english, said in _entries(lang):
        if not _says(english_word, english) or _other_sense(term, english):
            continue
        if not re.search(words[lang], said):
            wrong.append(f"{english!r} -> {said!r} does not say {words[lang]!r}")
        # the word of another term said for this one ("Spiel" for the hand, "Runde" for
        # the night's round), unless the English says that other term too
        retired = NOT_THE_WORD.get(term, {}).get(lang)
        others = [t for t in TERMS if t != term and _says(TERMS[t][0], english)]
        if retired and not others and re.search(retired, said):
            wrong.append(f"{english!r} -> {said!r} says {retired!r} for {term}")
    assert not wrong, f"{lang}, {term}:\n" + "\n".join(wrong)


def test_the_night_round_and_the_hand_are_two_words() -> None:
    for lang in LANGS:
        assert TERMS["round"][1][lang] != TERMS["hand"][1][lang]
        assert not re.search(
            TERMS["hand"][1][lang],
            {"fr": "manche", "de": "Durchgang", "lb": "Tour", "ms": "babak"}[lang],
        )


# -- French typography -----------------------------------------------------------------------


def _typography_slips(said: str) -> str | None:
    """What a French text does wrong before : ; ? ! or inside « », if anything."""
    text = PLACEHOLDER.sub("x", said)
    text = re.sub(r"https?://\S+", "", text)  # an address's colon is no punctuation
    if re.search(r"[ \u00a0\t]+[:;?!»]|«[ \u00a0]", text):
        return "an ordinary space"
    if re.search(r"[^\s\u202f][;?!»]|«[^\u202f]|\w:(?!//)(\s|$)", text):
        return "no space"
    return None


def test_french_has_a_narrow_no_break_space_before_high_punctuation_and_inside_quotes() -> None:
    wrong = []
    for english, said in _entries("fr"):
        if said == english:
            continue  # a call kept as shouted at the table ("Stand!"), in Trinidad English
        slip = _typography_slips(said)
        if slip:
            wrong.append(f"{slip}: {said!r}")
    assert not wrong, "\n".join(wrong)


def test_the_typography_check_sees_each_slip() -> None:
    assert _typography_slips("Vainqueur : %(who)s") == "an ordinary space"
    assert _typography_slips("dites\u00a0« on compte »") == "an ordinary space"
    assert _typography_slips("Vainqueur: %(who)s") == "no space"
    assert _typography_slips("Vous débutez?") == "no space"
    good = "La main est en cours de décompte\u202f: dites «\u202fon compte\u202f»\u202f!"
    assert _typography_slips(good) is None
    assert _typography_slips("Voir https://example.org/x") is None


# -- German: a sentence after a colon ------------------------------------------------------

# The catalog's header decides (DE-N10): a whole sentence after a colon starts with a
# capital (Amtliche Regelung § 81). Checked where a sentence surely starts: a personal
# pronoun or an imperative said to the reader.
SENTENCE_AFTER_COLON = re.compile(
    r": (du|er|es|versuch|warte|wähle?|drück|kopier|prüf|ruf|frag|spiel|sag)\b"
)


def test_german_starts_a_sentence_after_a_colon_with_a_capital() -> None:
    wrong = [said for _english, said in _entries("de") if SENTENCE_AFTER_COLON.search(said)]
    assert not wrong, "\n".join(wrong)


# -- Luxembourgish: the n-rule --------------------------------------------------------------

# The header keeps the n-rule (Eifeler Regel): a final -n/-nn stays before a vowel and before
# h, d, t, z and n, and drops before any other consonant. Checked on the common words whose
# two forms are not otherwise words of their own: the article den/de, en/e (also the
# pronoun), the "and"/"in" an/a, keen/kee, een/ee, dann/da, wann/wa, schonn/scho,
# nëmmen/nëmme, kann/ka, hien/hie, un/u, drun/dru, and (round 5, LB-R5-8) the pronouns
# deen/dee and wien/wie. The plural -en of a noun or an
# adjective is left to the reader: too many of its forms are words of their own to check
# it blindly.
N_WORDS = {"den": "de", "en": "e", "an": "a", "keen": "kee", "een": "ee", "dann": "da",
           "wann": "wa", "schonn": "scho", "nëmmen": "nëmme", "Den": "De", "En": "E",
           "Keen": "Kee", "Een": "Ee", "Dann": "Da", "Wann": "Wa", "Nëmmen": "Nëmme",
           "An": "A", "kann": "ka", "hien": "hie", "un": "u", "drun": "dru",
           "deen": "dee", "Deen": "Dee", "wien": "wie", "Wien": "Wie"}  # fmt: skip
DROPPED = {short: long for long, short in N_WORDS.items()}
KEEPS_N = re.compile(r"[aeiouäëéèöüàáâîïôûAEIOUÄËÉÖÜhdtznHDTZN]")
# A word (with its elision: d'Ronn), or any other sign, which stops the rule.
WORD = re.compile(r"[\w'\u2019]+|\S")


def _n_rule_slips(text: str) -> list[str]:
    # a placeholder (a name, a number) or markup stops the rule: its first letter is unknown
    tokens = WORD.findall(TAG.sub(" 0 ", PLACEHOLDER.sub(" 0 ", text)))
    slips = []
    for word, following in itertools.pairwise(tokens):
        if not re.match(r"[^\W\d_]", following) or following == "s":
            continue  # punctuation or a number comes next, or the clitic s of "wann s du"
        keeps = KEEPS_N.match(following) is not None
        if word in N_WORDS and not keeps:
            slips.append(f"{word} {following} (→ {N_WORDS[word]})")
        elif word in DROPPED and keeps and not following.startswith(("d'", "D'")):
            slips.append(f"{word} {following} (→ {DROPPED[word]})")
    return slips


def test_the_luxembourgish_n_rule_holds_on_its_common_words() -> None:
    wrong = []
    for _english, said in _entries("lb"):
        slips = _n_rule_slips(said)
        if slips:
            wrong.append(f"{said!r}: {', '.join(slips)}")
    assert not wrong, "\n".join(wrong)


def test_the_n_rule_check_sees_both_slips() -> None:
    assert _n_rule_slips("e erwëschte Renege") == ["e erwëschte (→ en)"]
    assert _n_rule_slips("keen kritt e Punkt") == ["keen kritt (→ kee)"]
    assert _n_rule_slips("en erwëschte Renege, de Lift, den Dësch, keen Tromp") == []


# -- no entry left in English ----------------------------------------------------------------

# The words an entry may keep from the English: the game's own words and calls, said as at a
# Trinidad table in every language (the headers' first rule), the islands' names, and
# abbreviations of those words on the score sheet (B+ for bullseyes, HJ for hang jacks).
KEPT_AS_SAID = {
    "kick", "kicks", "beg", "stand", "give", "one", "run", "the", "pack", "hang", "jack",
    "jacks", "lift", "lifts", "chalk", "bullseye", "bullseyes", "renege", "reneges", "high",
    "low", "game", "all", "fours", "play", "yuh", "card", "ah", "trinidad", "tobago", "b", "hj",
}  # fmt: skip
# Words that are the same word in a language (not English left behind), per language.
SAME_WORD = {
    "fr": {"point", "points", "minute", "minutes", "message", "messages", "table", "tables",
           "score", "club", "standard", "bot", "auto", "ok", "d"},  # d: the donneur's chip
    # board: duplicate's word in German, Luxembourgish and Malay (each catalog's glossary).
    "de": {"club", "export", "csv", "json", "team", "ok", "auto", "board"},
    "lb": {"club", "export", "csv", "json", "format", "message", "pair", "score", "ok", "auto",
           "d", "board"},  # d: the Deeler's chip; pair: the glossary's word for a night's pair
    "ms": {"format", "bot", "standard", "auto", "ok", "a", "k", "q", "j", "board"},
}  # fmt: skip
# (the card letters, msgctxt "card letter": "A" is the ace's letter in French, German and
# Luxembourgish too, "K" the king's in German and Luxembourgish; Malay writes the letters
# printed on the cards, J, Q, K, A)
for _lang, _letters in {"fr": {"a"}, "de": {"a", "k"}, "lb": {"a", "k"}}.items():
    SAME_WORD[_lang] |= _letters


@pytest.mark.parametrize("lang", LANGS)
def test_no_entry_is_left_in_english_but_the_words_kept_as_said(lang: str) -> None:
    left = []
    for english, said in _entries(lang):
        if said != english:
            continue
        words = {w.lower() for w in re.findall(r"[^\W\d_]+", _plain(english))}
        if words - KEPT_AS_SAID - SAME_WORD[lang]:
            left.append(english)
    assert not left, f"{lang}: left in English: {left}"
