"""Renege mode at the table (R20-R27, issue 26), rendered from real engine views: the cards
that would renege are marked for their holder only, every call's verdict reaches every page,
the call controls are offered only where the engine would take the call, and the reckoning
shows the hand's lifts and "Score it"."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from app.i18n import reading
from app.rules.cards import code
from app.rules.config import Rules
from app.rules.engine import apply, legal_actions, new_game
from app.rules.renege import call_refusal, lifts_begun
from app.rules.state import Phase, State, call, play, reckoned
from app.rules.view import observe
from app.services.view import RoomView
from app.web.render import render_table
from app.web.table import build
from tests.web.dom import Element, having, parse
from tests.web.views import server_view

VIEWERS = (0, 1, 2, 3, None)
RULES = Rules(renege="one", target=14)


@dataclass(frozen=True)
class Reneged:
    """A hand in which ``seat`` has just played ``card``, a renege, to lift ``lift``."""

    before: State  # the renege holder to play, renege_cards in their view
    after: State
    seat: int
    lift: int
    card: str


def _strict_move(state: State, rng: random.Random) -> State:
    """A move R14 allows (no renege): the engine's legal list less the cards that renege."""
    marked = observe(state, state.turn).renege_cards
    moves = [a for a in legal_actions(state) if a.card is None or not (marked >> a.card) & 1]
    return apply(state, rng.choice(moves))


@cache
def reneged(seed: int = 26) -> Reneged:
    rng = random.Random(seed)
    state = new_game(RULES, seed)
    while True:
        assert state.phase is not Phase.GAME_OVER, "this seed offers no renege"
        seat = state.turn
        if state.phase is Phase.PLAY and seat is not None:
            marked = observe(state, seat).renege_cards
            if marked:
                card = (marked & -marked).bit_length() - 1
                lift = lifts_begun(state) if state.trick else lifts_begun(state) + 1
                after = apply(state, play(card))
                shown = server_view(after, None, version=1).trick
                played = next(p.card for p in shown if p.seat == seat) if shown else None
                last = server_view(after, None, version=1).last_trick
                if played is None and last is not None:
                    played = next(p.card for p in last.cards if p.seat == seat)
                assert played is not None
                return Reneged(state, after, seat, lift, played)
        state = _strict_move(state, rng)


def _view(state: State, viewer: int | None, version: int = 7) -> RoomView:
    return server_view(state, viewer, version=version)


def _page(state: State, viewer: int | None, lang: str = "en") -> list[Element]:
    with reading(lang):
        return parse(render_table(_view(state, viewer)))


def test_the_cards_that_would_renege_are_marked_for_their_holder_only() -> None:
    r = reneged()
    holder_view = _view(r.before, r.seat)
    assert holder_view.renege_cards, "the holder's view names the cards that would renege"
    for viewer in VIEWERS:
        page = _page(r.before, viewer)
        marked = [str(e.get("data-card")) for e in having(page, "data-renege-card")]
        if viewer == r.seat:
            assert sorted(marked) == sorted(holder_view.renege_cards)
            for e in having(page, "data-renege-card"):
                assert e.has("data-legal") and "Renege with" in str(e.get("data-renege-ask"))
        else:
            assert marked == []
            assert not any(e.has("data-renege-ask") for e in page)


def test_an_uncalled_renege_shows_nowhere_but_as_a_card_played() -> None:
    r = reneged()
    for viewer in VIEWERS:
        page = _page(r.after, viewer)
        assert not having(page, "data-call") and not having(page, "data-caught")
        assert not having(page, "data-talk-line")
        assert not any("caught" in e.classes for e in page)
        assert build(_view(r.after, viewer)).renege.calls == ()


def _called(r: Reneged) -> State:
    caller = (r.seat + 1) % 4
    assert call_refusal(r.after, caller, r.lift) is None
    return apply(r.after, call(caller, r.lift))


def test_an_upheld_call_reaches_every_page_with_its_verdict_in_the_readers_words() -> None:
    r = reneged()
    state = _called(r)
    for viewer in VIEWERS:
        page = _page(state, viewer)
        calls = having(page, "data-call")
        assert [(c.get("data-call"), c.get("data-upheld")) for c in calls] == [
            (str(r.lift), "true")
        ]
        table = build(_view(state, viewer))
        (shown,) = table.renege.calls
        assert "upheld: 1 point for" in shown.text and shown.card == r.card
        assert any(n.key == shown.key and n.text == shown.text for n in table.news.items)
        lines = having(page, "data-talk-line")
        assert [line.get("data-talk-line") for line in lines] == [shown.key]
        if viewer is not None and viewer % 2 != r.seat % 2:
            assert "for us" in shown.text
        elif viewer is not None:
            assert "for them" in shown.text
    with reading("fr"):
        said = build(_view(state, 0)).renege.calls[0].text
    assert "a réclamé un renege au lift" in said and "pour" in said


def test_a_wrong_call_says_what_it_cost() -> None:
    r = reneged()
    state = _called(r)
    # The offender's side calls a lift that holds no renege of the callers: they have paid
    # this hand already (R24), so it costs nothing more.
    wrong = apply(state, call(r.seat, r.lift))
    text = build(_view(wrong, r.seat)).renege.calls[-1].text
    assert text.startswith("You called renege on lift") and "no renege" in text
    assert "1 point" in build(_view(r.after, 0)).renege.false_call_cost  # R25 `penalty` under `one`
    # Called before the renege was played, the lift holds none: the callers pay (R25).
    caller = (r.seat + 1) % 4
    paid = apply(r.before, call(caller, r.lift))
    assert "no renege: 1 point for them" in build(_view(paid, caller)).renege.calls[-1].text
    assert "no renege: 1 point for us" in build(_view(paid, r.seat)).renege.calls[-1].text
    # With false_call "free" the same call costs nothing, and the page says so first.
    for rules, cost in ((Rules(renege="one", false_call="free"), "nothing"),
                        (Rules(renege="bullseye"), "the game")):  # fmt: skip
        seen = _view(paid, caller).model_copy(update={"rules": rules})
        assert cost in build(seen).renege.false_call_cost


def test_call_controls_only_for_seated_players_on_lifts_the_engine_would_take() -> None:
    r = reneged()
    for viewer in VIEWERS:
        table = build(_view(r.after, viewer))
        page = _page(r.after, viewer)
        offered = {
            int(str(e.get("data-lift"))) for e in page if e.get("data-action") == "call-renege"
        }
        if viewer is None:
            assert table.renege.callable_lifts == frozenset() and offered == set()
            continue
        begun = lifts_begun(r.after)
        expected = {k for k in range(1, begun + 1) if call_refusal(r.after, viewer, k) is None}
        assert table.renege.callable_lifts == expected
        assert offered == expected
    state = _called(r)
    caller = (r.seat + 1) % 4
    for viewer in (caller, (caller + 2) % 4):
        assert r.lift not in build(_view(state, viewer)).renege.callable_lifts
    assert r.lift in build(_view(state, r.seat)).renege.callable_lifts


def test_every_begun_lift_may_be_called_later_in_the_hand() -> None:
    """R22: any lift of the hand, until it is scored: the earlier ones from memory."""
    rng = random.Random(2)
    state = _called(reneged())
    while state.phase is Phase.PLAY and len(state.tricks) < 4:
        state = _strict_move(state, rng)
    assert state.phase is Phase.PLAY
    for viewer in (0, 1, 2, 3):
        table = build(_view(state, viewer))
        offered = {
            int(str(e.get("data-lift")))
            for e in _page(state, viewer)
            if e.get("data-action") == "call-renege"
        }
        assert offered == table.renege.callable_lifts
        on_the_table = {table.renege.lift_in_play, table.renege.last_lift_n}
        assert set(table.renege.earlier_lifts) == offered - on_the_table
        assert table.renege.earlier_lifts


def _lift_of(element: Element) -> int | None:
    """The earlier lift an element of the page is shown in (data-earlier-lift), if any."""
    for e in (element, *element.ancestors):
        if e.has("data-earlier-lift"):
            return int(str(e.get("data-earlier-lift")))
    return None


def test_a_call_on_an_earlier_lift_shows_that_lifts_cards() -> None:
    """Issue 32: a player remembers a lift by its cards: the call on each earlier lift shows
    them, as all four saw them played, and only them (no card of a hand, none twice)."""
    rng = random.Random(2)
    state = _called(reneged())
    while state.phase is Phase.PLAY and len(state.tricks) < 4:
        state = _strict_move(state, rng)
    assert state.phase is Phase.PLAY
    lifts = {n: {code(c) for _s, c in t.cards} for n, t in enumerate(state.tricks, start=1)}
    for viewer in VIEWERS:
        table = build(_view(state, viewer))
        page = _page(state, viewer)
        shown: dict[int, set[str]] = {}
        for e in having(page, "data-card"):
            n = _lift_of(e)
            if n is not None:
                assert e.within("data-past")
                shown.setdefault(n, set()).add(str(e.get("data-card")))
        assert shown == {n: lifts[n] for n in table.renege.earlier_lifts}
        calls = {_lift_of(e) for e in page if e.get("data-action") == "call-renege" and _lift_of(e)}
        assert calls == set(table.renege.earlier_lifts)
        if viewer is None:
            assert not shown  # a spectator calls nothing
        else:
            assert shown


def _reckoning(r: Reneged) -> State:
    rng = random.Random(1)
    state = _called(r)
    while state.phase is Phase.PLAY:
        state = _strict_move(state, rng)
    return state


def test_the_reckoning_shows_the_lifts_a_countdown_and_score_it() -> None:
    state = _reckoning(reneged())
    if state.phase is not Phase.RECKONING:  # the penalty ended the game
        return
    for viewer in VIEWERS:
        page = _page(state, viewer)
        lifts = having(page, "data-reckon-lift")
        assert len(lifts) == len(state.tricks)
        # The lifts are the hand's, face up: cards of the past, as a finished lift's are.
        shown = [e for e in having(page, "data-card") if e.within("data-reckon-lift")]
        assert len(shown) == 4 * len(state.tricks) and all(e.within("data-past") for e in shown)
        buttons = [e for e in page if e.get("data-action") == "reckoned"]
        assert len(buttons) == (0 if viewer is None else 1)
    said = apply(state, reckoned(0))
    (button,) = [e for e in _page(said, 0) if e.get("data-action") == "reckoned"]
    assert button.has("disabled")
    (others,) = [e for e in _page(said, 1) if e.get("data-action") == "reckoned"]
    assert not others.has("disabled")
    assert "Ann" in "".join(e.all_text() for e in having(_page(said, 1), "data-reckoned"))
    # The countdown counts from the view's reckon_deadline, at its timed_at.
    timed = _view(said, 1).model_copy(update={"reckon_deadline": 12, "timed_at": 1000.0})
    (clock,) = having(parse(render_table(timed)), "data-reckon-clock")
    assert clock.get("data-seconds") == "12" and clock.get("data-timed-at") == "1000.0"
