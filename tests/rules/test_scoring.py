"""R16-R19: High, Low, Jack / hang jack, Game, in that order, and the end of the game."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from app.rules import (
    DEFAULT_RULES,
    Action,
    Award,
    NotOffered,
    Phase,
    Rules,
    State,
    apply,
    legal_actions,
)
from tests.rules.deals import (
    EXAMPLE,
    EXAMPLE_PLAY,
    HANG,
    HANG_PLAY,
    JACK_OWN,
    JACK_OWN_PLAY,
    TIE,
    TIE_PLAY,
)
from tests.rules.stack import Cards, card, do, game, play_out, reach, rotate, stack

SPADE = 3


def played(
    hands: Mapping[int, Cards],
    plays: str,
    *,
    dealer: int = 0,
    base: int = 0,
    rules: Rules = DEFAULT_RULES,
) -> State:
    """The deal (hands given for dealer ``base``) moved to ``dealer``: kick 3H, stand,
    ``plays``; the next deal's kick (5C) scores nothing."""
    deck = stack(dealer, rotate(hands, dealer - base), "3H")
    g = game(dealer, deck, stack((dealer + 1) % 4, kicks="5C"), rules=rules)
    return do(g, "stand", plays)


def test_r16_high_and_low_go_to_the_teams_dealt_them() -> None:
    awards = played(JACK_OWN, JACK_OWN_PLAY).history[-1].awards
    assert awards[0] == Award("high", 0, 1, card("AH"), 0)
    assert awards[1] == Award("low", 1, 1, card("2H"), 3)


def test_r16_cards_dealt_while_running_the_pack_count() -> None:
    # Clubs kicked, then spades turned on the run: the only spades dealt come in the run.
    g = game(0, stack(0, kicks="3C 3S", runs=[{2: "AS", 3: "2S"}]))
    g = play_out(do(g, "beg run_pack"))
    assert g.history[-1].trump == SPADE
    awards = g.history[-1].awards
    assert awards[:2] == (
        Award("high", 0, 1, card("AS"), 2),
        Award("low", 1, 1, card("2S"), 3),
    )
    assert all(a.kind not in ("jack", "hang_jack") for a in awards)  # JS was not dealt


def test_r16_only_one_trump_dealt_is_both_high_and_low() -> None:
    g = played(TIE, TIE_PLAY)
    awards = g.history[-1].awards
    assert awards == (
        Award("high", 0, 1, card("2H"), 2),
        Award("low", 0, 1, card("2H"), 2),
    )
    assert g.scores == (2, 0)


def test_r16_no_trump_dealt_no_high_or_low() -> None:
    quiet = {
        0: "2C 3C 4C 5C 6C 7C",
        1: "8C 9C 2D 3D 4D 5D",
        2: "6D 7D 8D 9D 2H 3H",
        3: "4H 5H 6H 7H 8H 9H",
    }
    g = play_out(do(game(0, stack(0, quiet, "3S")), "stand"))
    assert g.history[-1].awards == () and g.history[-1].scores_after == (0, 0)
    assert g.history[-1].game_totals == (0, 0)


def test_r17_jack_won_by_its_own_team_scores_1() -> None:
    awards = played(JACK_OWN, JACK_OWN_PLAY).history[-1].awards
    assert awards[2] == Award("jack", 0, 1, card("JH"), 2)


def test_r17_hang_jack_gives_capturers_3() -> None:
    g = played(HANG, HANG_PLAY)
    awards = g.history[-1].awards
    assert awards[2] == Award("hang_jack", 1, 3, card("JH"), 2)
    assert g.scores == (0, 6)


def test_r17_jack_not_dealt_scores_nothing() -> None:
    kinds = [a.kind for a in played(TIE, TIE_PLAY).history[-1].awards]
    assert "jack" not in kinds and "hang_jack" not in kinds


def test_r18_game_goes_to_the_higher_count() -> None:
    g = played(HANG, HANG_PLAY)
    record = g.history[-1]
    assert record.game_totals == (0, 4 + 1 + 1 + 10 + 2 + 3 + 4)
    assert record.awards[-1] == Award("game", 1, 1)
    g = played(EXAMPLE, EXAMPLE_PLAY, dealer=1, base=1)
    assert g.history[-1].game_totals == (7, 33)


def test_r18_game_tie_scores_nothing_by_default() -> None:
    record = played(TIE, TIE_PLAY).history[-1]
    assert record.game_totals == (10, 10)
    assert all(a.kind != "game" for a in record.awards)


@pytest.mark.parametrize(("dealer", "team"), [(0, 1), (1, 0), (2, 1), (3, 0)])
def test_r18_game_tie_non_dealer_option_gives_it_to_the_non_dealers(dealer: int, team: int) -> None:
    rules = Rules(game_tie="non_dealer")
    record = played(TIE, TIE_PLAY, dealer=dealer, rules=rules).history[-1]
    assert record.game_totals in ((10, 10),)
    assert record.awards[-1] == Award("game", team, 1)


def test_r18_game_points_option_makes_game_worth_2() -> None:
    g = played(HANG, HANG_PLAY, rules=Rules(game_points=2))
    assert g.history[-1].awards[-1] == Award("game", 1, 2)
    assert g.scores == (0, 7)
    rules = Rules(game_points=2, game_tie="non_dealer")
    assert played(TIE, TIE_PLAY, rules=rules).history[-1].awards[-1] == Award("game", 1, 2)


def test_r19_the_seeds_example_high_is_awarded_first_and_wins() -> None:
    g = reach((13, 13), 1, stack(1, EXAMPLE, "3H"))
    g = do(g, "stand", EXAMPLE_PLAY)
    assert g.phase is Phase.GAME_OVER and g.winner == 0 and g.turn is None
    assert g.scores == (14, 13)
    record = g.history[-1]
    assert record.awards == (Award("high", 0, 1, card("AH"), 2),)
    assert record.scores_after == (14, 13)
    assert legal_actions(g) == []


def test_r19_the_seeds_example_deal_from_nil_awards_all_four() -> None:
    g = played(EXAMPLE, EXAMPLE_PLAY, dealer=1, base=1)
    assert [(a.kind, a.team) for a in g.history[-1].awards] == [
        ("high", 0),
        ("low", 1),
        ("jack", 1),
        ("game", 1),
    ]
    assert g.scores == (1, 3) and g.phase is Phase.BEG and g.dealer == 2


def test_r19_the_game_ends_on_the_award_that_reaches_the_target() -> None:
    # Team 1 at 10 gets High (11), Low (12), then the hang jack (15): Game is never awarded.
    g = reach((0, 10), 0, stack(0, HANG, "3H"))
    g = do(g, "stand", HANG_PLAY)
    assert [a.kind for a in g.history[-1].awards] == ["high", "low", "hang_jack"]
    assert g.scores == (0, 15) and g.winner == 1


def test_r19_nothing_is_offered_after_the_game() -> None:
    g = reach((11, 0), 0, stack(0, kicks="JC"))
    assert g.phase is Phase.GAME_OVER
    for action in (Action("stand"), Action("beg"), Action("give_one"), Action("play", 0)):
        with pytest.raises(NotOffered, match=r"^R19: "):
            apply(g, action)


def test_target_option_7_ends_the_game_sooner() -> None:
    # Team 0 at 5: High (6), Low to team 1, Jack (7): the game ends before Game.
    rules = Rules(target=7)
    g = do(reach((5, 0), 0, stack(0, JACK_OWN, "3H"), rules=rules), "stand", JACK_OWN_PLAY)
    assert g.winner == 0 and g.scores == (7, 1)
    assert [a.kind for a in g.history[-1].awards] == ["high", "low", "jack"]
    # Under the default target the same deal plays on.
    g = do(reach((5, 0), 0, stack(0, JACK_OWN, "3H")), "stand", JACK_OWN_PLAY)
    assert g.winner is None and g.history[-1].scores_after == (8, 1) and g.phase is Phase.BEG


@pytest.mark.parametrize("target", [7, 10, 14, 21])
def test_target_option_any_target_is_reached_exactly_then(target: int) -> None:
    rules = Rules(target=target)
    g = reach((target - 1, 0), 0, stack(0, kicks="AC"), rules=rules)
    assert g.winner == 0 and g.scores == (target, 0)
    assert reach((target - 2, 0), 0, stack(0, kicks="AC"), rules=rules).winner is None


def test_kick_two_option_scores_the_two_instead_of_the_six() -> None:
    rules = Rules(kick_two=True)
    assert game(0, stack(0, kicks="2D"), rules=rules).scores == (2, 0)
    assert game(0, stack(0, kicks="6D"), rules=rules).scores == (0, 0)
    assert game(0, stack(0, kicks="2D")).scores == (0, 0)
    assert game(0, stack(0, kicks="6D")).scores == (2, 0)
    # Jacks and aces are unchanged, and every card turned on a run counts the same way.
    g = do(game(1, stack(1, kicks="JH 2H AD"), rules=rules), "beg run_pack")
    assert [a.points for a in g.awards] == [3, 2, 1] and g.scores == (0, 6)


def test_give_one_needs_trump_option() -> None:
    rules = Rules(give_one_needs_trump=True)
    # Dealer 0 holds no heart: he may not give one.
    bare = {0: "2C 3C 4C 5C 6C 7C"}
    g = do(game(0, stack(0, bare, "4H"), rules=rules), "beg")
    assert legal_actions(g) == [Action("run_pack")]
    with pytest.raises(Exception, match=r"^R10 \(give one needs trump\): you hold no hearts"):
        apply(g, Action("give_one"))
    # Holding a heart, he may.
    g = do(game(0, stack(0, {0: "2H 3C 4C 5C 6C 7C"}, "4H"), rules=rules), "beg")
    assert Action("give_one") in legal_actions(g)
    assert do(g, "give_one").scores == (0, 1)
    # Without the option, no trump is needed.
    g = do(game(0, stack(0, bare, "4H")), "beg", "give_one")
    assert g.scores == (0, 1)
