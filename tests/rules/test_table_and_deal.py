"""R1-R8: the table, the cards, the deal and the kick."""

from __future__ import annotations

import pytest

from app.rules import DEFAULT_RULES, Award, Phase, new_game, observe
from app.rules.cards import FULL_DECK, BadCardCode, code, codes, mask_codes, parse
from app.rules.scoring import kick_points
from app.rules.tricks import trick_winner
from app.views.game import game_view
from tests.rules.stack import card, cards, do, game, mask, play_out, reach, redeal_deck, stack

CLUB, DIAMOND, HEART, SPADE = range(4)


def test_r1_partners_sit_opposite_and_score_together() -> None:
    # Dealer 2 is team 0 with seat 0: its kick scores for team 0.
    g = game(2, stack(2, kicks="JH"))
    assert g.awards == (Award("kick", 0, 3, card("JH")),)
    assert g.scores == (3, 0)
    # Seat 3, the beggar, is team 1 with seat 1: a give one scores for team 1.
    g = do(g, "beg give_one")
    assert g.awards[-1] == Award("give_one", 1, 1)
    assert g.scores == (3, 1)


def test_r2_one_deck_of_52_ranked_ace_high_to_two_low() -> None:
    order = "AKQJT98765432"
    for hi in range(13):
        for lo in range(hi + 1, 13):
            high, low = parse(order[hi] + "D"), parse(order[lo] + "D")
            assert trick_winner(((0, low), (1, high)), CLUB) == 1
            assert trick_winner(((0, high), (1, low)), CLUB) == 0
    g = game(0, stack(0, kicks="5C"))
    in_game = g.hands[0] | g.hands[1] | g.hands[2] | g.hands[3] | mask(codes(g.kicks))
    assert in_game | sum(1 << c for c in g.stock) == FULL_DECK
    with pytest.raises(ValueError):
        new_game(DEFAULT_RULES, 0, 0, stacked=[[*range(51), 0]])


def test_r3_card_codes_are_rank_then_suit() -> None:
    assert code(parse("TH")) == "TH"
    assert [code(c) for c in range(52)][:3] == ["2C", "3C", "4C"]
    assert {parse(code(c)) for c in range(52)} == set(range(52))
    for bad in ("th", "10H", "1H", "HT", "", "TX"):
        with pytest.raises(BadCardCode, match=r"^R3: "):
            parse(bad)
    view = game_view(observe(game(0, stack(0, {1: "TH JS 2C 3C 4C 5C"}, "9D")), 1)).model_dump()
    assert set(view["hand"]) == {"TH", "JS", "2C", "3C", "4C", "5C"}
    assert view["kicks"] == ["9D"]


def test_r4_play_passes_from_each_seat_to_the_next() -> None:
    hands = {
        0: "2C 3C 4C 5C 6C 7C",
        1: "2D 3D 4D 5D 6D 7D",
        2: "8C 9C TC JC QC KC",
        3: "8D 9D TD JD QD KD",
    }
    g = do(game(3, stack(3, hands, "2H")), "stand")
    seen = []
    for c in ("7C", "2D", "KC", "8D"):
        seen.append(g.turn)
        g = do(g, c)
    assert seen == [0, 1, 2, 3]  # dealer 3: seat 0 is on his right and starts


def test_r5_first_dealer_drawn_from_the_seed() -> None:
    dealers = [new_game(DEFAULT_RULES, seed).dealer for seed in range(64)]
    assert set(dealers) == {0, 1, 2, 3}
    assert dealers == [new_game(DEFAULT_RULES, seed).dealer for seed in range(64)]


def test_r5_deal_passes_to_the_right_after_each_hand() -> None:
    g = game(3, stack(3, kicks="2H"), stack(0, kicks="2H"), stack(1, kicks="2H"))
    for dealer in (3, 0, 1):
        assert g.dealer == dealer and g.turn == (dealer + 1) % 4
        g = play_out(do(g, "stand"))
    assert g.dealer == 2
    assert [r.dealer for r in g.history] == [3, 0, 1]


def test_r5_redeal_keeps_the_dealer() -> None:
    g = do(game(2, redeal_deck(2, 0), stack(2, kicks="5C")), "beg run_pack")
    assert g.history[-1].redeal and g.dealer == 2 and g.hand_number == 2


def test_r6_six_each_three_at_a_time_from_the_dealers_right_then_the_kick() -> None:
    deck = cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AC")
    deck += [c for c in range(52) if c not in deck]
    g = game(1, deck)
    # dealer 1: seats 2, 3, 0, 1 get three each, twice round; the 25th card is the kick.
    assert mask_codes(g.hands[2]) == ["2C", "3C", "4C", "2D", "3D", "4D"]
    assert mask_codes(g.hands[3]) == ["5C", "6C", "7C", "5D", "6D", "7D"]
    assert mask_codes(g.hands[0]) == ["8C", "9C", "TC", "8D", "9D", "TD"]
    assert mask_codes(g.hands[1]) == ["JC", "QC", "KC", "JD", "QD", "KD"]
    assert codes(g.kicks) == ["AC"]
    assert len(g.stock) == 52 - 25
    assert g.phase is Phase.BEG and g.trump is None
    g = do(g, "stand")
    assert g.trump == CLUB  # the kick's suit


@pytest.mark.parametrize(
    ("kick", "points"),
    [("AH", 1), ("6H", 2), ("JH", 3), ("KH", 0), ("QH", 0), ("TH", 0), ("2H", 0), ("5H", 0)],
)
def test_r7_kick_points_ace_1_six_2_jack_3(kick: str, points: int) -> None:
    g = game(0, stack(0, kicks=kick))
    assert g.scores == (points, 0)
    assert g.awards == ((Award("kick", 0, points, card(kick)),) if points else ())
    assert kick_points(card(kick), DEFAULT_RULES) == points


def test_r7_every_card_turned_while_running_the_pack_scores() -> None:
    # Dealer 1 (team 1): JH 3, then run: AH 1 (same suit, run again), then 6D 2, a new suit.
    g = game(1, stack(1, kicks="JH AH 6D"))
    assert g.scores == (0, 3)
    g = do(g, "beg run_pack")
    assert g.awards == (
        Award("kick", 1, 3, card("JH")),
        Award("kick", 1, 1, card("AH")),
        Award("kick", 1, 2, card("6D")),
    )
    assert g.scores == (0, 6)
    assert g.trump == DIAMOND and g.phase is Phase.PLAY


def test_r7_a_kick_that_reaches_the_target_ends_the_game_at_once() -> None:
    g = reach((11, 5), 0, stack(0, kicks="JD"))
    assert g.phase is Phase.GAME_OVER and g.winner == 0 and g.turn is None
    assert g.scores == (14, 5)
    record = g.history[-1]
    assert record.kicks == (card("JD"),)
    assert record.trump is None and record.decision is None and not record.redeal
    assert record.awards == (Award("kick", 0, 3, card("JD")),)
    assert record.tricks == () and record.game_totals is None


def test_r7_a_kick_while_running_the_pack_can_end_the_game() -> None:
    g = do(reach((0, 11), 3, stack(3, kicks="5S JS")), "beg run_pack")
    assert g.phase is Phase.GAME_OVER and g.winner == 1 and g.scores == (0, 14)
    assert [h.bit_count() for h in g.hands] == [9, 9, 9, 9]  # nothing more was dealt
    record = g.history[-1]
    assert record.decision == "run_pack" and record.trump is None
    assert codes(record.kicks) == ["5S", "JS"]


def test_r8_turned_cards_are_in_no_hand_and_count_for_nothing() -> None:
    # The kick AH is the highest heart but out of play: High goes to KH's holder.
    hands = {
        1: "KH 2C 3C 4C 5C 6C",
        2: "2H 2D 3D 4D 5D 6D",
        3: "7C 8C 9C TC 7D 8D",
        0: "9D TD 2S 3S 4S 5S",
    }
    g = game(0, stack(0, hands, "AH"))
    for hand in g.hands:
        assert not hand >> card("AH") & 1
    g = play_out(do(g, "stand"))
    awards = g.history[-1].awards
    assert awards[1] == Award("high", 1, 1, card("KH"), 1)
    assert awards[2] == Award("low", 0, 1, card("2H"), 2)
    # The jack of trumps is in the stock: no Jack award (R17), and the kick's AH counts for
    # no one's Game (R8): team totals are only what was lifted.
    assert all(a.kind not in ("jack", "hang_jack") for a in awards)
    assert sum(g.history[-1].game_totals or ()) == 3 + 10 + 10  # KH TC TD, not the AH


def test_r8_a_turned_jack_of_trumps_is_not_in_play() -> None:
    hands = {
        1: "KH 2C 3C 4C 5C 6C",
        2: "2H 2D 3D 4D 5D 6D",
        3: "7C 8C 9C TC 7D 8D",
        0: "9D TD 2S 3S 4S 5S",
    }
    g = play_out(do(game(0, stack(0, hands, "JH")), "stand"))
    kinds = [a.kind for a in g.history[-1].awards]
    assert kinds[0] == "kick" and "jack" not in kinds and "hang_jack" not in kinds
