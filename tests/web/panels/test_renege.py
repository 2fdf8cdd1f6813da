"""The renege panel (R20-R27): the hand's calls and verdicts, the lifts the viewer's side may
call, what a wrong call costs, and the reckoning."""

from __future__ import annotations

from app.rules.config import Rules
from app.rules.engine import apply
from app.rules.renege import call_refusal, lifts_begun
from app.rules.state import Phase, State, call, reckoned
from app.services.view import RoomView
from app.web.panels.renege import OFF, RenegeCalls, renege
from app.web.panels.score import score
from app.web.panels.seats import seats
from tests.web.test_render_renege import _reckoning, reneged
from tests.web.views import playthrough, server_view


def _renege(state: State, viewer: int | None) -> RenegeCalls:
    view: RoomView = server_view(state, viewer, version=7)
    placed = seats(view)
    return renege(view, placed, score(view, placed))


def _called() -> tuple[State, int]:
    r = reneged()
    caller = (r.seat + 1) % 4
    return apply(r.after, call(caller, r.lift)), caller


def test_off_at_a_table_without_renege_mode() -> None:
    state = next(s for s in playthrough(3, Rules()) if s.phase is Phase.PLAY)
    assert _renege(state, 0) == OFF and not OFF.on


def test_before_any_call_the_seated_may_call_every_lift_begun() -> None:
    r = reneged()
    for viewer in (0, 1, 2, 3):
        panel = _renege(r.after, viewer)
        assert panel.on and panel.calls == () and panel.caught == frozenset()
        expected = {k for k in range(1, lifts_begun(r.after) + 1)
                    if call_refusal(r.after, viewer, k) is None}  # fmt: skip
        assert panel.callable_lifts == expected
        assert "1 point" in panel.false_call_cost
    assert _renege(r.after, None).callable_lifts == frozenset()


def test_an_upheld_call_is_shown_to_all_and_catches_the_card() -> None:
    r = reneged()
    state, caller = _called()
    for viewer in (0, 1, 2, 3, None):
        panel = _renege(state, viewer)
        (shown,) = panel.calls
        assert shown.upheld and shown.card == r.card and shown.lift == r.lift
        assert shown.seat == caller and shown.key.startswith("call:")
        assert panel.caught == frozenset({r.card})
        if viewer is not None and viewer % 2 == caller % 2:
            assert "for us" in shown.text and r.lift not in panel.callable_lifts
        elif viewer is not None:
            assert "for them" in shown.text
        else:
            assert "for Ann & Cy" in shown.text or "for Bob & Dan" in shown.text
    assert _renege(state, caller).calls[0].text.startswith("You called renege on lift")


def test_the_lift_in_play_and_the_earlier_lifts() -> None:
    state, caller = _called()
    panel = _renege(state, caller)
    done = len(state.tricks)
    assert panel.last_lift_n == (done or None)
    assert panel.lift_in_play == (done + 1 if state.trick else None)
    earlier = set(panel.callable_lifts) - {panel.lift_in_play, panel.last_lift_n}
    assert set(panel.earlier_lifts) == earlier
    assert [lift.n for lift in panel.earlier_lifts_shown] == sorted(earlier)
    assert [lift.n for lift in panel.lifts] == list(range(1, done + 1))


def test_the_reckoning_says_who_said_score_it() -> None:
    state = _reckoning(reneged())
    assert state.phase is Phase.RECKONING, "this seed's penalty does not end the game"
    said = apply(state, reckoned(0))
    panel = _renege(said, 0)
    assert panel.you_reckoned and panel.reckoned == ("You",)
    assert _renege(said, 1).reckoned == ("Ann",) and not _renege(said, 1).you_reckoned
    assert [lift.n for lift in panel.lifts] == list(range(1, len(state.tricks) + 1))
    assert all(not lift.callable for lift in _renege(said, None).lifts)
    assert _renege(state, 0).reckoned == () and not _renege(state, 0).you_reckoned
