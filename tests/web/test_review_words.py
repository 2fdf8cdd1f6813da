"""The review's words for review.js in the reader's language: the seat's line has a form for
each plural category the page's Intl.PluralRules may name, and the decimal sign is the
language's (review round 5: "1 décisions coûteuses", "0.42" in every language)."""

from __future__ import annotations

import pytest
from babel import Locale

from app import i18n
from app.web.review import review_words

NAMES = ["Ann", "Bo", "Cy", "Di"]


@pytest.mark.parametrize(
    ("lang", "sign", "one", "other"),
    [
        ("en", ".", "1 costly decision of", "5 costly decisions of"),
        ("fr", ",", "1 décision coûteuse sur", "5 décisions coûteuses sur"),
        ("de", ",", "1 teure Entscheidung von", "5 teure Entscheidungen von"),
        ("lb", ",", "1 deier Decisioun vun", "5 deier Decisioune vun"),
        ("ms", ".", "1 keputusan mahal daripada", "5 keputusan mahal daripada"),
    ],
)
def test_the_seat_line_has_each_plural_form_and_the_decimal_sign(
    lang: str, sign: str, one: str, other: str
) -> None:
    with i18n.reading(lang):
        words = review_words(NAMES)
    rule = Locale.parse(lang).plural_form
    assert set(words["seat"]) == {"other", *rule.tags}
    assert words["decimal"] == sign

    def line(costly: int) -> str:
        form = str(words["seat"][rule(costly)])
        return form.replace("{costly}", str(costly)).replace("{decisions}", "9")

    assert one in line(1)
    assert other in line(5)
    if lang == "fr":  # the millions: "1000000 de décisions coûteuses"
        assert "1000000 de décisions coûteuses" in line(1_000_000)
