"""R9-R12: stand or beg, give one or run the pack, and the redeal when the pack runs out."""

from __future__ import annotations

import pytest

from app.rules import (
    Action,
    Award,
    IllegalMove,
    NotOffered,
    Phase,
    Rules,
    apply,
    legal_actions,
    observe,
)
from app.rules.cards import codes, mask_codes
from app.views.records import hand_records
from tests.rules.stack import card, do, game, reach, redeal_deck, stack

CLUB, DIAMOND, HEART, SPADE = range(4)


def test_r9_the_beggar_decides_first() -> None:
    g = game(2, stack(2, kicks="4H"))
    assert g.phase is Phase.BEG and g.turn == 3 and g.beggar == 3
    assert legal_actions(g) == [Action("stand"), Action("beg")]
    for wrong in ("give_one", "run_pack", "play"):
        with pytest.raises(NotOffered, match=r"^R9: "):
            apply(g, Action(wrong, card("2C") if wrong == "play" else None))


def test_r9_stand_makes_the_kick_suit_trump_and_play_begins() -> None:
    g = do(game(2, stack(2, kicks="4H")), "stand")
    assert g.trump == HEART and g.phase is Phase.PLAY and g.turn == 3
    assert g.decision == "stand" and g.scores == (0, 0)


def test_r9_only_one_beg_per_hand() -> None:
    g = do(game(2, stack(2, kicks="4H")), "beg")
    assert g.phase is Phase.GIVE_OR_RUN and g.turn == 2  # the dealer
    for again in ("beg", "stand"):
        with pytest.raises(NotOffered, match=r"^R9: "):
            apply(g, Action(again))
    g = do(g, "give_one")
    with pytest.raises(NotOffered):
        apply(g, Action("beg"))


def test_r10_give_one_scores_1_for_the_beggars_team_and_the_kick_is_trump() -> None:
    g = do(game(1, stack(1, kicks="4H")), "beg", "give_one")
    assert g.awards == (Award("give_one", 0, 1),)  # beggar is seat 2, team 0
    assert g.scores == (1, 0) and g.trump == HEART and g.decision == "give_one"
    assert g.phase is Phase.PLAY and g.turn == 2  # R13: the beggar leads


def test_r10_run_the_pack_once_deals_three_more_and_a_new_suit_is_trump() -> None:
    runs = [{2: "AS KS QS", 3: "2D 3D 4D", 0: "5D 6D 7D", 1: "8D 9D TD"}]
    g = game(1, stack(1, {2: "2C 3C 4C 5C 6C 7C"}, "4H 9C", runs))
    g = do(g, "beg run_pack")
    assert codes(g.kicks) == ["4H", "9C"]
    assert g.trump == CLUB and g.phase is Phase.PLAY and g.turn == 2
    assert [h.bit_count() for h in g.hands] == [9, 9, 9, 9]
    assert mask_codes(g.hands[2]) == ["2C", "3C", "4C", "5C", "6C", "7C", "QS", "KS", "AS"]
    assert {"8D", "9D", "TD"} <= set(mask_codes(g.hands[1]))
    assert g.scores == (0, 0) and g.decision == "run_pack"


def test_r10_run_the_pack_twice_when_the_same_suit_shows() -> None:
    g = do(game(0, stack(0, kicks="4H 9H 2S")), "beg run_pack")
    assert codes(g.kicks) == ["4H", "9H", "2S"]
    assert g.trump == SPADE
    assert [h.bit_count() for h in g.hands] == [12, 12, 12, 12]
    assert len(g.stock) == 1


def test_r11_give_one_refused_when_it_would_win() -> None:
    # Dealer 1; the beggar is seat 2, team 0, on 13 of 14.
    g = do(reach((13, 4), 1, stack(1, kicks="4H 9C")), "beg")
    assert legal_actions(g) == [Action("run_pack")]
    with pytest.raises(IllegalMove, match=r"^R11: "):
        apply(g, Action("give_one"))
    g = do(g, "run_pack")
    assert g.trump == CLUB and g.scores == (13, 4)


def test_r11_give_one_allowed_below_the_target() -> None:
    g = do(reach((12, 4), 1, stack(1, kicks="4H")), "beg")
    assert Action("give_one") in legal_actions(g)
    g = do(g, "give_one")
    assert g.scores == (13, 4) and g.phase is Phase.PLAY


def test_r11_give_one_can_win_lets_the_point_end_the_game() -> None:
    rules = Rules(give_one_can_win=True)
    g = do(reach((13, 4), 1, stack(1, kicks="4H"), rules=rules), "beg")
    assert Action("give_one") in legal_actions(g)
    g = do(g, "give_one")
    assert g.phase is Phase.GAME_OVER and g.winner == 0 and g.scores == (14, 4)
    record = g.history[-1]
    assert record.decision == "give_one" and record.awards == (Award("give_one", 0, 1),)
    # Giving one fixed the kick's suit as trump, even though no card was played (API.md).
    assert record.trump == HEART and hand_records(observe(g, 0))[-1].trump == "H"


def test_r12_pack_exhausted_redeal_by_the_same_dealer_kick_points_stand() -> None:
    nxt = stack(3, kicks="5C")
    g = game(3, stack(3, kicks="JD AD 6D"), nxt)
    g = do(g, "beg run_pack")
    assert g.hand_number == 2 and g.dealer == 3 and g.phase is Phase.BEG
    assert g.scores == (0, 6)  # 3 + 1 + 2 for dealer 3's team, all kept
    assert codes(g.kicks) == ["5C"]  # the next deck was dealt
    record = g.history[-1]
    assert record.redeal and record.n == 1 and record.decision == "run_pack"
    assert record.trump is None and record.tricks == () and record.game_totals is None
    assert codes(record.kicks) == ["JD", "AD", "6D"]
    assert [a.points for a in record.awards] == [3, 1, 2]
    assert [h.bit_count() for h in record.dealt] == [12, 12, 12, 12]
    assert hand_records(observe(g, 3))[-1].redeal is True


def test_r12_flip_last_card_turns_the_last_card_for_a_new_suit() -> None:
    rules = Rules(flip_last_card=True)
    g = game(0, stack(0, kicks="3S 4S 5S", rest="AD"), rules=rules)
    g = do(g, "beg run_pack")
    assert codes(g.kicks) == ["3S", "4S", "5S", "AD"]
    assert g.trump == DIAMOND and g.phase is Phase.PLAY and g.turn == 1
    assert g.scores == (1, 0)  # the flipped ace scores its kick point
    assert [h.bit_count() for h in g.hands] == [12, 12, 12, 12] and g.stock == ()


def test_r12_flip_last_card_redeals_when_all_match() -> None:
    rules = Rules(flip_last_card=True)
    g = game(0, stack(0, kicks="3S 4S 5S", rest="6S"), stack(0, kicks="2C"), rules=rules)
    g = do(g, "beg run_pack")
    assert g.history[-1].redeal and codes(g.history[-1].kicks) == ["3S", "4S", "5S", "6S"]
    assert g.scores == (2, 0) and g.dealer == 0 and g.hand_number == 2


def test_r12_without_flip_last_card_the_last_card_is_not_turned() -> None:
    g = game(0, stack(0, kicks="3S 4S 5S", rest="AD"), stack(0, kicks="2C"))
    g = do(g, "beg run_pack")
    assert g.history[-1].redeal and g.scores == (0, 0)
    assert codes(g.history[-1].kicks) == ["3S", "4S", "5S"]


def test_r12_redeal_deck_helper_scores_what_it_says() -> None:
    for points in range(7):
        g = do(game(1, redeal_deck(1, points), stack(1, kicks="2C")), "beg run_pack")
        assert g.history[-1].redeal and g.scores == (0, points)
