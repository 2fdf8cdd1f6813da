"""Renege mode, R20-R27: any card played, reneges judged by kind, calls, the reckoning, the
penalties in R19's order, and who sees what."""

from __future__ import annotations

import pytest

from app.rules import (
    DEFAULT_RULES,
    PRESETS,
    Action,
    IllegalMove,
    NotOffered,
    Phase,
    RuleError,
    Rules,
    State,
    apply,
    legal_actions,
    observe,
)
from app.rules.cards import code
from app.rules.engine import legal_play_mask
from app.rules.state import SCORE, Award, Call, call, reckoned
from app.views.game import game_view
from app.views.records import hand_records
from tests.rules.stack import card, codeset, do, game, reach, stack

# Dealer 0, hearts trump (kick 3H, stand): seat 1 leads, then 2, 3, 0. Team 0 = seats 0, 2.
HANDS = {
    1: "KC AH 2D 3D 4D 5D",
    2: "2C 9H 2S 3S 4S 5S",
    3: "6D 7D 8D 9D TD JD",
    0: "3C 4C TH 6S 7S 8S",
}
ONE = Rules(renege="one")
BULLSEYE = Rules(renege="bullseye")
TRINIDAD = Rules(renege="trinidad")


def dealt(rules: Rules, hands: dict[int, str] = HANDS) -> State:
    return do(game(0, stack(0, hands, "3H"), rules=rules), "stand")


def strict_out(state: State) -> State:
    """Play the deal on, each seat its lowest card R14 allows, to the reckoning (or beyond)."""
    n = state.hand_number
    while state.hand_number == n and state.phase is Phase.PLAY:
        lowest = legal_play_mask(state) & -legal_play_mask(state)
        state = apply(state, Action("play", lowest.bit_length() - 1))
    return state


def everyone_reckons(state: State) -> State:
    for seat in range(4):
        state = apply(state, reckoned(seat))
    return state


# -- R20: any card may be played; the holder's view marks the reneging ones -----------------


def test_r20_with_renege_off_a_forbidden_card_is_refused_as_before() -> None:
    g = do(dealt(DEFAULT_RULES), "KC")
    with pytest.raises(IllegalMove, match=r"^R14"):
        apply(g, Action("play", card("2S")))


def test_r20_with_renege_on_every_card_of_the_hand_is_legal_and_a_renege_stands() -> None:
    g = do(dealt(ONE), "KC")
    assert {code(a.card) for a in legal_actions(g) if a.card is not None} == codeset(
        "2C 9H 2S 3S 4S 5S"
    )
    g = do(g, "2S")
    assert g.trick[-1] == (2, card("2S"))
    assert g.reneges[0][:4] == (2, 1, card("2S"), "a")


def test_r20_the_holder_alone_sees_which_cards_would_renege() -> None:
    g = do(dealt(ONE), "KC")
    own = game_view(observe(g, 2)).model_dump(exclude_none=False)
    assert set(own["renege_cards"]) == codeset("2S 3S 4S 5S")
    assert own["refused"] == []
    for seat in (0, 1, 3, None):
        assert "renege_cards" not in game_view(observe(g, seat)).model_dump()
    # with renege off, no view has the key
    off = observe(do(dealt(DEFAULT_RULES), "KC"), 2)
    assert "renege_cards" not in game_view(off).model_dump()


def test_r20_r27_no_other_view_shows_a_renege_before_it_is_called() -> None:
    g = do(dealt(ONE), "KC 2S")
    for seat in (0, 1, 3, None):
        view = observe(g, seat)
        assert view.calls == () and "renege" not in str(game_view(view).model_dump()["calls"])
        assert game_view(view).model_dump()["trick"][1] == {"seat": 2, "card": "2S"}


# -- R21: the three kinds ------------------------------------------------------------------


def test_r21_a_plain_suit_led_held_and_not_followed_is_kind_a() -> None:
    g = do(dealt(ONE), "KC 2S")
    assert g.reneges[0].kind == "a"
    g = do(dealt(ONE), "KC 9H")  # trumping is always allowed: no renege
    assert g.reneges == ()


def test_r21_trump_led_held_and_not_played_is_kind_b_with_its_honour() -> None:
    g = do(dealt(ONE), "AH 2S")  # seat 2 holds 9H: no honour
    assert g.reneges[0][:5] == (2, 1, card("2S"), "b", False)
    g = do(dealt(ONE), "AH 9H 6D 6S")  # seat 0 holds TH, an honour
    assert g.reneges[0][:5] == (0, 1, card("6S"), "b", True)
    assert [r.seat for r in g.reneges] == [0]  # seat 3 holds no trump: 6D is no renege


def test_r21_an_undertrump_forbidden_is_kind_c_and_only_with_the_option() -> None:
    hands = {**HANDS, 0: "3C 4C 2H 6S 7S 8S", 2: "2C 9H TH 3S 4S 5S"}
    g = do(dealt(Rules(renege="one", undertrump="forbidden"), hands), "KC 9H 6D 2H")
    assert [(r.seat, r.kind) for r in g.reneges] == [(0, "c")]
    g = do(dealt(Rules(renege="one"), hands), "KC 9H 6D 2H")
    assert g.reneges == ()


def test_r21_a_void_player_may_play_anything() -> None:
    g = do(dealt(ONE), "KC 2C 6D")  # seat 3 holds no club
    assert g.reneges == ()


# -- R22: calling ---------------------------------------------------------------------------


def test_r22_a_call_on_a_renege_by_the_other_team_is_upheld_at_once() -> None:
    g = do(dealt(ONE), "KC 2S")
    g = apply(g, call(1, 1))  # the lift in play included
    assert g.calls == (Call(1, 1, True, "one", 0, card("2S"), 2, played=2),)
    assert g.reneges[0].called
    assert g.awards[-1] == Award("renege", 1, 1, card("2S"), 2)
    assert g.scores == (0, 1) and g.phase is Phase.PLAY and g.turn == 3  # play goes on


def test_r22_a_call_finding_no_renege_of_the_other_team_is_wrong() -> None:
    g = do(dealt(ONE), "KC 2S 6D 3C")
    g = apply(g, call(0, 1))  # the renege is their own team's
    assert g.calls[-1] == Call(0, 1, False, "one", 0, played=4)
    assert g.awards[-1] == Award("false_call", 1, 1, None, 0)


def test_r22_a_team_calls_each_lift_once_and_refusals_change_nothing() -> None:
    g = apply(do(dealt(ONE), "KC 2S"), call(1, 1))
    for refused in (call(3, 1), call(1, 1)):
        with pytest.raises(NotOffered) as err:
            apply(g, refused)
        assert err.value.code == "lift_already_called"
    again = apply(g, call(0, 1))  # the other team may still call it (and is wrong)
    assert not again.calls[-1].upheld


@pytest.mark.parametrize(
    ("setup", "action", "kind", "error"),
    [
        ("", call(1, 1), NotOffered, "call_outside_hand"),  # no card yet
        ("KC", call(1, 2), NotOffered, "lift_not_begun"),
        ("KC", call(1, 0), IllegalMove, "bad_lift"),
        ("KC", call(1, 13), IllegalMove, "bad_lift"),
        ("KC", call(4, 1), IllegalMove, "bad_seat"),
        ("KC", reckoned(1), NotOffered, "not_reckoning"),
        ("KC", SCORE, NotOffered, "not_reckoning"),
    ],
)
def test_r22_r23_refusals(setup: str, action: Action, kind: type[RuleError], error: str) -> None:
    g = do(dealt(ONE), setup) if setup else dealt(ONE)
    with pytest.raises(kind) as err:
        apply(g, action)
    assert err.value.code == error


def test_r22_with_renege_off_a_call_is_refused() -> None:
    with pytest.raises(NotOffered) as err:
        apply(do(dealt(DEFAULT_RULES), "KC"), call(1, 1))
    assert err.value.code == "renege_off"


def test_r22_before_the_deal_is_played_there_is_nothing_to_call() -> None:
    g = game(0, stack(0, HANDS, "3H"), rules=ONE)  # the beggar decides
    with pytest.raises(NotOffered) as err:
        apply(g, call(1, 1))
    assert err.value.code == "call_outside_hand"


# -- R23: the reckoning ---------------------------------------------------------------------


def test_r23_the_last_card_opens_the_reckoning_and_all_four_score_it() -> None:
    g = strict_out(dealt(ONE))
    assert g.phase is Phase.RECKONING and g.turn is None and g.hand_number == 1
    assert legal_actions(g) == []
    for seat in (2, 0, 1):
        g = apply(g, reckoned(seat))
        assert g.phase is Phase.RECKONING
    assert game_view(observe(g, None)).model_dump()["reckoned"] == [0, 1, 2]
    g = apply(g, reckoned(3))
    assert g.hand_number == 2 and g.phase is Phase.BEG


def test_r23_when_the_time_is_up_the_hand_is_scored() -> None:
    g = apply(strict_out(dealt(ONE)), SCORE)
    assert g.hand_number == 2 and [a.kind for a in g.history[-1].awards][:2] == ["high", "low"]


def test_r23_with_renege_off_the_hand_is_scored_at_once() -> None:
    assert strict_out(dealt(DEFAULT_RULES)).hand_number == 2


def test_r23_a_call_in_the_reckoning_is_judged() -> None:
    g = do(dealt(ONE), "KC 2S 6D 3C")
    g = apply(strict_out(g), call(3, 1))
    assert g.phase is Phase.RECKONING and g.calls[-1].upheld


# -- R24: penalties --------------------------------------------------------------------------


def test_r24_one_scores_one_at_once_and_bars_the_offenders_from_game() -> None:
    g = do(dealt(ONE), "KC 2S 6D 3C")  # seat 2 reneged; team 0 (seat 0: TH) wins the Game
    g = everyone_reckons(apply(strict_out(g), call(1, 1)))
    record = g.history[-1]
    kinds = [(a.kind, a.team) for a in record.awards]
    assert kinds[0] == ("renege", 1)  # in the order it happened: at the call
    assert ("game", 0) not in kinds
    assert record.game_totals is not None and record.game_totals[0] > record.game_totals[1]
    assert record.calls[0].penalty == "one" and record.reneges[0].called


def test_r24_r19_a_penalty_of_one_can_win_the_game_at_once() -> None:
    deck = stack(0, HANDS, "3H")
    g = do(reach((5, 13), 0, deck, rules=ONE), "stand", "KC 2S")
    g = apply(g, call(1, 1))
    assert g.phase is Phase.GAME_OVER and g.winner == 1 and g.scores == (5, 14)
    assert g.history[-1].awards[-1].kind == "renege"


def test_r24_bullseye_ends_the_game_whatever_the_scores() -> None:
    deck = stack(0, HANDS, "3H")
    g = do(reach((13, 0), 0, deck, rules=BULLSEYE), "stand", "KC 2S")
    g = apply(g, call(3, 1))
    assert g.phase is Phase.GAME_OVER and g.winner == 1 and g.scores == (13, 0)
    assert g.history[-1].awards[-1] == Award("renege_bullseye", 1, 0, card("2S"), 2)
    assert g.history[-1].calls[-1].penalty == "bullseye"


def test_r24_trinidad_is_bullseye_for_a_trump_renege_holding_an_honour() -> None:
    g = apply(do(dealt(TRINIDAD), "AH 9H 6D 6S"), call(1, 1))  # seat 0 held TH
    assert g.winner == 1 and g.calls[-1].penalty == "bullseye"


@pytest.mark.parametrize("play", ["AH 2S", "KC 2S"])
def test_r24_trinidad_is_one_otherwise(play: str) -> None:
    g = apply(do(dealt(TRINIDAD), play), call(1, 1))
    assert g.winner is None and g.calls[-1].penalty == "one" and g.scores == (0, 1)


def test_r24_a_team_pays_at_most_once_a_hand() -> None:
    hands = {**HANDS, 0: "3C 4C TH 6S 7S 8S", 2: "2C 9H 2S 3S 4S 5C"}
    g = do(dealt(ONE, hands), "KC 2S 6D 3C")  # lift 1: seat 2 reneges (holds 2C, 5C)
    g = apply(g, call(1, 1))
    g = do(g, "AH 9H 7D TH")  # seat 1 won lift 1 and leads trump: lift 2, no renege
    g = apply(g, call(3, 2))  # wrong: team 1 pays
    assert g.calls[-1] == Call(3, 2, False, "one", 1, played=8)
    g = apply(g, call(0, 2))  # wrong again, team 0 has paid already: nothing more
    assert g.calls[-1] == Call(0, 2, False, None, None, played=8)
    assert g.scores == (1, 1)


# -- R25: wrong calls ---------------------------------------------------------------------------


def test_r25_a_wrong_call_under_bullseye_loses_the_game() -> None:
    g = apply(do(dealt(BULLSEYE), "KC 2C"), call(1, 1))
    assert g.winner == 0 and g.history[-1].awards[-1] == Award("false_call_bullseye", 0, 0, None, 1)


def test_r25_a_wrong_call_with_false_call_free_costs_nothing() -> None:
    g = apply(do(dealt(Rules(renege="bullseye", false_call="free")), "KC 2C"), call(1, 1))
    assert (
        g.winner is None
        and g.calls[-1] == Call(1, 1, False, None, None, played=2)
        and g.scores == (0, 0)
    )


def test_r25_a_wrong_caller_scores_no_game() -> None:
    g = do(dealt(ONE), "KC 2C")
    g = everyone_reckons(strict_out(apply(g, call(0, 1))))
    assert ("game", 0) not in [(a.kind, a.team) for a in g.history[-1].awards]


# -- R27: who sees what -------------------------------------------------------------------------


def test_r27_a_call_is_public_and_an_uncalled_renege_is_not_until_game_over() -> None:
    g = do(dealt(ONE), "KC 2S 6D 3C")  # lift 1: seat 2 reneges (uncalled)
    g = apply(g, call(0, 1))  # seat 0 calls it (wrong: their own side's)
    g = everyone_reckons(strict_out(g))
    for seat in (0, 1, 2, 3, None):
        view = observe(g, seat)
        record = hand_records(view)[0].model_dump()
        assert record["reneges"] is None
        assert record["calls"] == [
            {
                "seat": 0,
                "lift": 1,
                "upheld": False,
                "penalty": "one",
                "paid_by": 0,
                "card": None,
                "offender": None,
            }
        ]
        assert view.history[0].reneges == ()  # not even a bot's observation holds it


def test_r27_at_game_over_every_renege_is_public_marked_called_or_not() -> None:
    g = do(dealt(BULLSEYE), "KC 2S 6D 3C", "AH 9H 7D TH")
    g = apply(g, call(1, 1))
    assert g.winner == 1
    record = hand_records(observe(g, None))[-1].model_dump()
    assert record["reneges"] == [{"seat": 2, "lift": 1, "card": "2S", "kind": "a", "called": True}]


def test_tournament_plays_renege_bullseye() -> None:
    assert PRESETS["tournament"].renege == "bullseye"
    assert DEFAULT_RULES.renege == "off" and DEFAULT_RULES.false_call == "penalty"
