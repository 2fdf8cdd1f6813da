"""What a seat may see: its own hand and the table, never another hand (API.md "The view")."""

from __future__ import annotations

import json
import random

from hypothesis import given
from hypothesis import strategies as st

from app.rules import Rules, apply, legal_actions, new_game, observe
from app.rules.cards import SUITS, code, mask_codes, mask_of, parse
from app.rules.view import sorted_hand
from app.views.game import game_view
from app.views.records import hand_records
from app.views.shapes import award_view, lift_view
from tests.rules import oracle
from tests.rules.deals import HANG, HANG_PLAY
from tests.rules.stack import do, game, play_out, reach, redeal_deck, stack


def test_observe_shows_only_the_viewers_own_hand() -> None:
    g = do(game(0, stack(0, HANG, "3H")), "stand", "AH JH")
    for seat in range(4):
        view = observe(g, seat)
        assert view.hand == g.hands[seat]
        data = game_view(view).model_dump()
        assert sorted(data["hand"]) == sorted(mask_codes(g.hands[seat]))
        text = json.dumps(data)
        for other in range(4):
            if other != seat:
                for c in mask_codes(g.hands[other]):
                    assert f'"{c}"' not in text, (seat, other, c)
        assert data["hand_sizes"] == [6, 5, 5, 6]
        assert bool(data["legal"]) == (seat == g.turn)
    spectator = game_view(observe(g, None)).model_dump()
    assert spectator["hand"] == [] and spectator["legal"] == []


def test_observe_explains_a_refused_give_one() -> None:
    g = do(reach((13, 0), 1, stack(1, kicks="4H")), "beg")
    refused = game_view(observe(g, 1)).model_dump()["refused"]
    assert refused == [
        {
            "type": "give_one",
            "reason": "R11: giving one would win the game for the beggar's team: "
            "you must run the pack",
            "rule": "R11",
            "code": "give_one_would_win",
            "params": {},
        }
    ]
    assert game_view(observe(g, 2)).model_dump()["refused"] == []


def test_hand_record_of_a_redeal_hides_other_seats_until_game_over() -> None:
    g = do(game(2, redeal_deck(2, 3), stack(2, kicks="5C")), "beg run_pack")
    record = g.history[-1]
    assert record.redeal and not record.played_out
    for viewer in range(4):
        shown_to = hand_records(observe(g, viewer))[-1].model_dump()
        dealt = shown_to["dealt"]
        assert dealt[str(viewer)] == mask_codes(record.dealt[viewer])
        assert all(dealt[str(s)] is None for s in range(4) if s != viewer)
        text = json.dumps(shown_to)
        for s in range(4):
            if s != viewer:
                assert not any(f'"{c}"' in text for c in mask_codes(record.dealt[s]))
    spectator = hand_records(observe(g, None))[-1].model_dump()
    assert all(v is None for v in spectator["dealt"].values())
    over, rng = g, random.Random(0)
    while over.winner is None:  # the same deal, once the game is over (its seed public)
        over = apply(over, rng.choice(legal_actions(over)))
    shown = hand_records(observe(over, 0))[record.n - 1].model_dump()["dealt"]
    assert all(shown[str(s)] == mask_codes(record.dealt[s]) for s in range(4))


def test_hand_record_of_a_played_out_deal_shows_every_hand() -> None:
    g = do(game(0, stack(0, HANG, "3H")), "stand", HANG_PLAY)
    data = hand_records(observe(g, 2))[-1].model_dump()
    assert sorted(data["dealt"]["1"]) == sorted(HANG[1].split())
    assert all(data["dealt"][str(s)] is not None for s in range(4))
    assert data["game_totals"] == [0, 25]
    assert [a["kind"] for a in data["awards"]] == ["high", "low", "hang_jack", "game"]
    hang = {"kind": "hang_jack", "team": 1, "points": 3, "card": "JH", "seat": 2}
    assert data["awards"][2] == hang


def test_last_hand_is_the_award_list_of_the_deal_just_finished() -> None:
    g = do(game(0, stack(0, HANG, "3H"), stack(1, kicks="5C")), "stand", HANG_PLAY)
    view = game_view(observe(g, 3)).model_dump()
    assert [a["kind"] for a in view["last_hand"]] == ["high", "low", "hang_jack", "game"]
    assert view["scores"] == [0, 6] and view["hand_number"] == 2
    assert game_view(observe(game(0, stack(0, HANG, "3H")), 0)).model_dump()["last_hand"] is None


def test_the_last_lift_of_a_deal_stays_in_view_until_the_next_deals_first_lift() -> None:
    """The last lift often decides the hang jack, Game and High: it stays face up as
    ``last_trick`` while the next deal is begged, until a lift of the new deal is taken."""
    g = do(game(0, stack(0, HANG, "3H"), stack(1, kicks="5C")), "stand", HANG_PLAY)
    final = g.history[-1].tricks[-1]
    for seat in (0, 1, 2, 3, None):
        shown = game_view(observe(g, seat)).last_trick
        assert shown == lift_view(final)
    assert game_view(observe(g, 0)).tricks_won == [0, 0]
    first_lift = g
    while not first_lift.tricks:
        first_lift = apply(first_lift, legal_actions(first_lift)[0])
    assert game_view(observe(first_lift, 0)).last_trick == lift_view(first_lift.tricks[0])
    assert game_view(observe(game(0, stack(0, HANG, "3H")), 0)).last_trick is None


def test_the_view_tells_the_decision_and_what_each_team_counted_for_game() -> None:
    g = do(game(0, stack(0, HANG, "3H")), "stand")
    assert game_view(observe(g, 2)).model_dump()["decision"] == "stand"
    done = play_out(g)
    record = done.history[-1]
    assert record.game_totals is not None
    view = game_view(observe(done, 1)).model_dump()
    # last_hand keeps exactly the record's award shape (API.md); the counts sit beside it.
    assert view["last_hand"] == [award_view(a).model_dump() for a in record.awards]
    assert view["last_hand_totals"] == list(record.game_totals)
    (game_award,) = [a for a in view["last_hand"] if a["kind"] == "game"]
    totals = view["last_hand_totals"]
    assert totals[game_award["team"]] > totals[1 - game_award["team"]]


def test_r7_the_view_says_what_each_kick_scored() -> None:
    """The page worked kick points out again from the rules it guessed; the view states them."""
    for seed in range(40):
        for kick_two in (False, True):
            rules = Rules(kick_two=kick_two)
            state = new_game(rules, seed, seed % 4)
            view = game_view(observe(state, 0)).model_dump()
            assert len(view["kick_points"]) == len(view["kicks"])
            for card, points in zip(view["kicks"], view["kick_points"], strict=True):
                assert points == oracle.kick_points(card, kick_two)


# -- the order a player holds the hand (API.md's `hand`, docs/server.md) -------------------
ROUND = "SHCD"  # spades, hearts, clubs, diamonds: neighbouring suits of other colours
HIGH_TO_LOW = "AKQJT98765432"


def test_a_hand_is_held_trumps_first_then_round_in_alternating_colours_high_to_low() -> None:
    hand = mask_of(parse(c) for c in ("2C", "AD", "TH", "JS", "3H", "KC", "9D"))
    assert [code(c) for c in sorted_hand(hand, SUITS.index("C"))] == [
        "KC", "2C", "AD", "9D", "JS", "TH", "3H"
    ]  # fmt: skip
    assert [code(c) for c in sorted_hand(hand, None)] == [
        "JS", "TH", "3H", "KC", "2C", "AD", "9D"
    ]  # fmt: skip


@given(st.sets(st.integers(0, 51), max_size=14), st.sampled_from([None, *range(4)]))
def test_every_hand_is_held_in_the_one_order(cards: set[int], trump: int | None) -> None:
    first = ROUND.index(SUITS[trump]) if trump is not None else 0
    suits = ROUND[first:] + ROUND[:first]
    expected = sorted(
        (code(c) for c in cards), key=lambda t: (suits.index(t[1]), HIGH_TO_LOW.index(t[0]))
    )
    assert [code(c) for c in sorted_hand(mask_of(cards), trump)] == expected
