"""The easy player's habits, one situation each (R9-R11 bidding, R14-R15 card play)."""

from __future__ import annotations

import pytest

from app.bots import easy
from app.rules import Rules, apply, new_game, observe
from app.rules.cards import FULL_DECK, Card, Hand, parse
from app.rules.state import STAND, play
from tests.rules.stack import stack

SPADES = 3  # trump in the play situations below


def cards(*codes: str) -> Hand:
    return sum(1 << parse(c) for c in codes)


def card(code: str) -> Card:
    return parse(code)


def all_but(hand: Hand, *unknown: str) -> Hand:
    """``out`` for a seat holding ``hand`` when only ``unknown`` are still held by others."""
    return FULL_DECK & ~hand & ~cards(*unknown)


# -- bidding ---------------------------------------------------------------------------------


def test_the_beggar_stands_on_top_trumps_and_begs_on_a_few_low_ones() -> None:
    rules = Rules()
    kick = card("5S")
    assert easy.stand_wanted(cards("AS", "KS", "2H", "3H", "4D", "5C"), kick, (0, 0), 1, rules)
    assert not easy.stand_wanted(cards("7S", "8S", "2H", "3H", "4D", "5C"), kick, (0, 0), 1, rules)


def test_the_dealer_gives_one_on_a_strong_holding_and_runs_the_pack_on_a_fair_one() -> None:
    rules = Rules()
    kick = card("5S")
    strong = cards("AS", "KS", "QS", "2H", "3H", "4D")
    fair = cards("KS", "7S", "2H", "3H", "4D", "5C")
    assert easy.give_wanted(strong, kick, (0, 0), 1, rules)
    assert not easy.give_wanted(fair, kick, (0, 0), 1, rules)


def test_the_dealer_does_not_give_the_beggars_team_their_second_last_point() -> None:
    strong = cards("AS", "KS", "QS", "2H", "3H", "4D")
    assert not easy.give_wanted(strong, card("5S"), (0, 12), 1, Rules())


def test_one_point_short_the_beggar_stands_on_anything_when_a_give_may_not_win() -> None:
    weak = cards("7S", "2H", "3H", "4D", "5C", "6C")
    kick = card("5S")
    assert easy.stand_wanted(weak, kick, (0, 13), 1, Rules())  # R11: a beg forces a run
    assert not easy.stand_wanted(weak, kick, (0, 13), 1, Rules(give_one_can_win=True))


def test_low_trumps_are_worth_more_with_the_two_or_three_for_low() -> None:
    assert easy.trump_worth(cards("2S", "8S"), SPADES) > easy.trump_worth(cards("7S", "8S"), SPADES)


# -- card play --------------------------------------------------------------------------------


def test_an_unbeatable_plain_ace_waits_while_a_trump_is_out_against_us() -> None:
    hand = cards("AH", "4D", "5C")
    with_trump_out = all_but(hand, "KH", "QH", "3S", "9D", "8C")
    assert easy.play_card(0, hand, hand, [], SPADES, with_trump_out) != card("AH")
    no_trump_out = all_but(hand, "KH", "QH", "9D", "8C")
    assert easy.play_card(0, hand, hand, [], SPADES, no_trump_out) == card("AH")


@pytest.mark.parametrize(
    ("hearts", "played"),
    [
        (("TH", "9H", "3H"), "TH"),  # a ten that takes the lead is played
        (("JH", "9H", "3H"), "9H"),  # else the cheapest heart that takes it
    ],
)
def test_second_to_play_the_lead_is_taken_in_the_suit(hearts: tuple[str, ...], played: str) -> None:
    hand = cards(*hearts, "4D")
    trick = [(3, card("5H"))]
    out = all_but(hand, "AH", "KH", "9D", "2S", "6C")
    assert easy.play_card(0, hand, cards(*hearts), trick, SPADES, out) == card(played)


def test_last_to_play_on_partners_lift_an_ace_is_given_to_it() -> None:
    hand = cards("AH", "3H")
    trick = [(1, card("4H")), (2, card("KS")), (3, card("5H"))]  # partner (seat 2) trumped
    out = all_but(hand, "2S", "9D")
    assert easy.play_card(0, hand, hand, trick, SPADES, out) == card("AH")


def test_before_the_last_card_an_ace_that_can_win_its_own_lift_is_kept() -> None:
    hand = cards("AH", "3H")
    trick = [(2, card("KH")), (3, card("4H"))]  # partner's king: no heart out can beat it
    out = all_but(hand, "2S", "QH")
    assert easy.play_card(0, hand, hand, trick, SPADES, out) == card("3H")


def test_a_ten_goes_to_partners_contested_lift_once_it_holds_points() -> None:
    hand = cards("TH", "3H")
    trick = [(2, card("QH")), (3, card("4H"))]  # the king of hearts is still out
    out = all_but(hand, "KH", "2S")
    assert easy.play_card(0, hand, hand, trick, SPADES, out) == card("TH")


@pytest.mark.parametrize(("led", "played"), [("5C", "8H"), ("QC", "3S")])
def test_last_to_play_a_trump_is_spent_only_on_a_lift_with_points(led: str, played: str) -> None:
    hand = cards("3S", "8H", "9D")
    trick = [(1, card(led)), (2, card("6C")), (3, card("2S"))]  # the other side trumped
    out = all_but(hand, "AS", "KH")
    assert easy.play_card(0, hand, hand, trick, SPADES, out) == card(played)


@pytest.mark.parametrize(("second", "played"), [("KH", "3S"), ("9H", "5D")])
def test_third_to_play_a_lift_with_points_is_taken_with_a_low_trump(
    second: str, played: str
) -> None:
    hand = cards("3S", "5D", "7C")
    trick = [(2, card("4H")), (3, card(second))]  # partner led; the other side is on top
    out = all_but(hand, "AS", "KS", "AH", "9C")  # the last player may overtrump, or not
    assert easy.play_card(0, hand, hand, trick, SPADES, out) == card(played)


def test_last_to_play_a_ten_that_wins_the_lift_is_banked() -> None:
    hand = cards("TH", "JH", "4D")
    trick = [(1, card("5H")), (2, card("2H")), (3, card("9H"))]  # the other side is on top
    out = all_but(hand, "AS", "KH")
    assert easy.play_card(0, hand, cards("TH", "JH"), trick, SPADES, out) == card("TH")


def test_once_both_opponents_showed_no_trump_a_plain_ace_is_cashed() -> None:
    # Seat 0, the beggar, stands and leads the ace of trumps; seats 1 and 3 show no spade.
    # The spades still unseen can only be partner's or the stock's: the ace of hearts is safe.
    deck = stack(
        3,
        {
            0: "AS AH 4D 5C 6C 7C",
            1: "2H 3H 4H 2D 3D 5D",
            2: "3S 8S 9H 8D 8C 9C",
            3: "5H 6H 6D 7D 2C 3C",
        },
        "TS",
    )
    state = apply(new_game(Rules(), 0, 3, stacked=[deck]), STAND)
    for code in ("AS", "2H", "3S", "5H"):
        state = apply(state, play(card(code)))
    assert easy.choose(observe(state, 0)) == play(card("AH"))
