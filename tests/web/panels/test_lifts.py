"""The lifts panel: the lift on the table, lead first, and the last one collected."""

from __future__ import annotations

from app.rules.state import Phase
from app.web.panels.lifts import lifts
from app.web.panels.seats import seats
from tests.web.views import beg_with_last_lift, playthrough, server_view


def test_the_lift_on_the_table_is_placed_at_each_players_seat() -> None:
    state = next(s for s in playthrough(3) if s.phase is Phase.PLAY and len(s.trick) == 2)
    view = server_view(state, 1, version=1)
    placed = seats(view)
    panel = lifts(view, placed)
    assert [p.code for p in panel.trick] == [p.card for p in view.trick]
    assert [p.lead for p in panel.trick] == [True, False]
    assert not any(p.winner for p in panel.trick)
    for p in panel.trick:
        assert p.pos == placed.by_number[p.seat].pos and p.player == placed.by_number[p.seat].name


def test_the_last_lift_names_its_winner_and_is_keyed_by_its_cards() -> None:
    view = beg_with_last_lift()
    raw = view.last_trick
    assert raw is not None
    panel = lifts(view, seats(view))
    assert panel.trick == ()
    assert [p.code for p in panel.last] == [p.card for p in raw.cards]
    assert [p.seat for p in panel.last if p.winner] == [raw.winner]
    assert panel.last_winner is not None and panel.last_winner.seat == raw.winner
    assert panel.last_key == "".join(p.card for p in raw.cards)


def test_no_lift_before_the_first_card() -> None:
    state = next(iter(playthrough(3)))
    view = server_view(state, 0, version=1)
    panel = lifts(view, seats(view))
    assert panel.trick == () and panel.last == ()
    assert panel.last_winner is None and panel.last_key is None
