"""The ratings panel: each seat's rating change at the end of a rated game, as the page
shows it (the shown rating after minus before; docs/careers-and-ratings.md)."""

from __future__ import annotations

from app.rules.state import Phase
from app.services.view import RatingView, RoomView, SeatRatingView
from app.web.panels.ratings import MINUS, rating_changes, shown, signed
from app.web.panels.seats import seats
from tests.web.views import playthrough, server_view


def _rating(mu: float, sigma: float) -> RatingView:
    return RatingView(mu=mu, sigma=sigma, ordinal=mu - 3 * sigma)


def _game_over(you: int | None = 0) -> RoomView:
    state = next(s for s in playthrough(5) if s.phase is Phase.GAME_OVER)
    return server_view(state, you, version=99)


def test_a_change_reads_signed_with_a_true_minus_sign() -> None:
    assert signed(23) == "+23" and signed(0) == "0"
    assert signed(-7) == f"{MINUS}7" and MINUS == "\u2212"
    assert shown(0.234) == 23 and shown(-0.076) == -8


def test_a_rated_game_lists_every_seat_in_seat_order_with_its_page() -> None:
    ratings = [
        SeatRatingView(
            seat=n,
            handle=f"p{n}" if n != 3 else None,  # seat 3's profile was deleted since
            before=_rating(25.0, 8.0),
            after=_rating(25.0 + (1.5 if n % 2 == 0 else -1.5), 7.5),
        )
        for n in (2, 0, 3, 1)
    ]
    view = _game_over(you=0).model_copy(update={"rated": True, "ratings": ratings})
    changes = rating_changes(view, seats(view))
    assert [c.seat for c in changes] == [2, 0, 3, 1]  # as the view lists them
    by_seat = {c.seat: c for c in changes}
    assert by_seat[0].name == "You" and by_seat[1].name == "Bob"
    assert by_seat[0].href == "/p/p0" and by_seat[3].href is None
    # before: 25 - 24 = 1.00 -> 100; after (team 0): 26.5 - 22.5 = 4.00 -> 400, +300
    assert by_seat[0].change == "+300" and by_seat[0].won
    # after (team 1): 23.5 - 22.5 = 1.00 -> 100: no change, not a win
    assert by_seat[1].change == "0" and not by_seat[1].won


def test_an_unrated_game_or_one_not_yet_counted_shows_nothing() -> None:
    view = _game_over()
    assert rating_changes(view.model_copy(update={"rated": False}), seats(view)) == ()
    pending = view.model_copy(update={"rated": True, "ratings": None})
    assert rating_changes(pending, seats(pending)) == ()
