"""R13-R15: the lead, following, trumping, who wins a trick; the `undertrump` option."""

from __future__ import annotations

import pytest

from app.rules import (
    DEFAULT_RULES,
    Action,
    IllegalMove,
    NotOffered,
    Phase,
    Rules,
    State,
    apply,
    legal_actions,
)
from app.rules.cards import code, parse
from app.rules.tricks import trick_winner
from tests.rules.stack import act, card, codeset, do, game, play_out, stack

CLUB, DIAMOND, HEART, SPADE = range(4)

# Dealer 0, hearts trump (kick 3H, stand): seat 1 leads, then 2, 3, 0.
FOLLOW = {
    1: "KC AH 2D 3D 4D 5D",
    2: "2C 9H 2S 3S 4S 5S",
    3: "6D 7D 8D 9D TD JD",
    0: "3C 4C TH 6S 7S 8S",
}


def legal(state: State) -> set[str]:
    return {code(a.card) for a in legal_actions(state) if a.card is not None}


def follow_game(rules: Rules = DEFAULT_RULES) -> State:
    return do(game(0, stack(0, FOLLOW, "3H"), rules=rules), "stand")


def test_r13_the_beggar_leads_and_the_winner_of_each_trick_leads_the_next() -> None:
    g = follow_game()
    assert g.turn == 1
    g = do(g, "KC 9H 6D TH")  # seat 0 overtrumps
    assert g.tricks[-1].winner == 0 and g.turn == 0 and g.trick == ()
    g = do(g, "3C")
    assert g.turn == 1


@pytest.mark.parametrize(("kicks", "size"), [("3H", 6), ("3H 4C", 9), ("3H 4H 5C", 12)])
def test_r13_play_goes_on_until_every_hand_is_empty(kicks: str, size: int) -> None:
    g = game(0, stack(0, kicks=kicks))
    g = do(g, "stand" if size == 6 else "beg run_pack")
    assert [h.bit_count() for h in g.hands] == [size] * 4
    g = play_out(g)
    record = g.history[-1]
    assert len(record.tricks) == size and record.game_totals is not None
    assert g.hand_number == 2


def test_r13_a_card_not_in_hand_is_refused() -> None:
    g = follow_game()
    with pytest.raises(IllegalMove, match=r"^R13: 2C is not in your hand"):
        apply(g, act("2C"))
    with pytest.raises(IllegalMove, match=r"^R13: "):
        apply(g, Action("play"))
    with pytest.raises(NotOffered):
        apply(g, Action("stand"))


def test_r14_holding_the_suit_led_follow_or_trump() -> None:
    g = do(follow_game(), "KC")
    assert legal(g) == {"2C", "9H"}  # trumping is allowed while holding a club
    with pytest.raises(IllegalMove, match=r"^R14: you must follow clubs or play a trump"):
        apply(g, act("2S"))
    g = do(g, "9H")
    assert legal(g) == codeset("6D 7D 8D 9D TD JD")  # void in clubs: anything
    g = do(g, "6D")
    assert legal(g) == {"3C", "4C", "TH"}


def test_r14_when_trump_is_led_a_player_holding_trump_must_play_trump() -> None:
    g = do(follow_game(), "AH")
    assert legal(g) == {"9H"}
    with pytest.raises(IllegalMove, match=r"^R14: trumps \(hearts\) were led"):
        apply(g, act("2C"))
    g = do(g, "9H")
    assert len(legal(g)) == 6  # seat 3 holds no trump: anything
    g = do(g, "JD")
    assert legal(g) == {"TH"}


def test_r14_illegal_play_leaves_the_state_unchanged() -> None:
    g = do(follow_game(), "KC")
    with pytest.raises(IllegalMove):
        apply(g, act("3S"))
    # compared with the same position built afresh: an alias would equal itself whatever apply did
    assert g == do(follow_game(), "KC") and g.hands[2] >> card("3S") & 1


def test_r15_highest_trump_wins() -> None:
    g = do(follow_game(), "KC 9H 6D TH")
    assert g.tricks[-1].winner == 0
    assert trick_winner(((0, parse("AC")), (1, parse("2H")), (2, parse("KC"))), HEART) == 1


def test_r15_without_trump_the_highest_card_of_the_suit_led_wins() -> None:
    # An off-suit ace does not win; the led suit's highest does.
    cases = [
        ("2D 5S 6D AS", 2),
        ("TD 9D AC 2D", 0),
        ("3C 4C 5C AD", 2),
    ]
    for cards_, winner in cases:
        trick = tuple(enumerate(parse(c) for c in cards_.split()))
        assert trick_winner(trick, HEART) == winner


def test_r15_played_out_trick_without_trump() -> None:
    g = do(follow_game(), "KC 2C 6D 4C")
    assert g.tricks[-1].winner == 1 and g.turn == 1


# Dealer 0, hearts trump: seat 1 leads KC, seat 2 trumps with TH.
UNDER = {
    1: "KC 2C 3C 4C 5C 6C",
    2: "TH 2S 3S 4S 5S 6S",
    3: "9H 2D 3D 4D 5D 6D",
    0: "7C 4H QH 7S 8S 9S",
}


def test_undertrump_allowed_by_default() -> None:
    g = do(game(0, stack(0, UNDER, "3H")), "stand", "KC TH")
    assert "9H" in legal(g)
    g = do(g, "9H")
    assert legal(g) == {"7C", "4H", "QH"}


def test_undertrump_forbidden_after_a_plain_lead_was_trumped() -> None:
    rules = Rules(undertrump="forbidden")
    g = do(game(0, stack(0, UNDER, "3H"), rules=rules), "stand", "KC")
    assert legal(g) == {"TH"} | codeset("2S 3S 4S 5S 6S")  # no trump in it yet
    g = do(g, "TH")
    assert legal(g) == codeset("2D 3D 4D 5D 6D")
    with pytest.raises(IllegalMove, match=r"^R14 \(undertrump forbidden\): .*lower than TH"):
        apply(g, act("9H"))
    g = do(g, "2D")
    assert legal(g) == {"7C", "QH"}  # overtrumping stays allowed, 4H does not
    with pytest.raises(IllegalMove, match=r"undertrump forbidden"):
        apply(g, act("4H"))


def test_undertrump_forbidden_allows_it_with_only_trumps() -> None:
    rules = Rules(undertrump="forbidden")
    hands = {**UNDER, 3: "2H 4H 5H 6H 7H 9H", 0: "7C QH 2D 7S 8S 9S"}
    g = do(game(0, stack(0, hands, "3H"), rules=rules), "stand", "KC TH")
    assert legal(g) == codeset("2H 4H 5H 6H 7H 9H")


def test_undertrump_forbidden_does_not_apply_when_trump_is_led() -> None:
    rules = Rules(undertrump="forbidden")
    hands = {**UNDER, 1: "KH 2C 3C 4C 5C 6C", 0: "7C 4H QC 7S 8S 9S"}
    g = do(game(0, stack(0, hands, "3H"), rules=rules), "stand", "KH TH")
    assert legal(g) == {"9H"}
    g = do(g, "9H")
    assert legal(g) == {"4H"}
    assert do(g, "4H").phase is Phase.PLAY


def test_r3_a_play_of_something_that_is_not_a_card_is_refused_by_rule() -> None:
    g = follow_game()
    for bad in (52, -1, 99):
        with pytest.raises(IllegalMove, match=r"^R3: "):
            apply(g, Action("play", bad))
