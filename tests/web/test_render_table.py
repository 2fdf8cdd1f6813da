"""The table fragment, rendered from real engine views: the hooks of API.md "HTML pages" are
there, and no page holds a card of another player's hand."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from app.rules.cards import cards_in, code
from app.rules.config import Rules
from app.rules.engine import apply, legal_actions, new_game
from app.rules.state import Phase, State
from app.rules.view import observe
from app.services.view import RoomView
from app.web.render import render_room, render_table
from tests.web.dom import Element, having, parse
from tests.web.views import lobby_view, playthrough, server_view

VIEWERS = (0, 1, 2, 3, None)


def _games() -> Iterator[tuple[int, State]]:
    version = 0
    for seed, rules in ((3, Rules()), (11, Rules(target=7, give_one_needs_trump=True))):
        for state in playthrough(seed, rules):
            version += 1
            yield version, state


GAMES = list(_games())


@cache
def _rendered(index: int, viewer: int | None) -> tuple[dict[str, Any], list[Element]]:
    """The view and parsed fragment of GAMES[index] for ``viewer``, rendered once per run."""
    version, state = GAMES[index]
    view = server_view(state, viewer, version=version)
    return view.model_dump(), parse(render_table(view))


def _every_table() -> Iterator[tuple[State, int | None, dict[str, Any], list[Element]]]:
    for index, (_, state) in enumerate(GAMES):
        for viewer in VIEWERS:
            view, elements = _rendered(index, viewer)
            yield state, viewer, view, elements


def _table(elements: list[Element]) -> Element:
    tables = [e for e in elements if e.get("id") == "table"]
    assert len(tables) == 1
    return tables[0]


def _cards(elements: list[Element], *, where: str | None = None) -> list[str]:
    out = []
    for e in having(elements, "data-card"):
        if where is None or e.within(where):
            out.append(str(e.get("data-card")))
    return out


def test_no_page_holds_a_card_of_another_players_hand() -> None:
    """Outside data-past, that is: the summary of the last deal may name a card (High 2H)
    that the new deal has since given to someone."""
    for state, viewer, view, elements in _every_table():
        shown = {
            str(e.get("data-card"))
            for e in having(elements, "data-card")
            if not e.within("data-past")
        }
        past = set(_cards(elements, where="data-past"))
        last_trick = {p["card"] for p in (view["last_trick"] or {"cards": []})["cards"]}
        awarded = {a["card"] for a in view["last_hand"] or [] if "card" in a}
        assert past <= last_trick | awarded
        for seat in range(4):
            if seat == viewer:
                continue
            hidden = {code(c) for c in cards_in(state.hands[seat])}
            assert not shown & hidden, (view["version"], viewer, seat, shown & hidden)


def test_every_card_is_in_the_hand_the_trick_the_kicks_or_marked_past() -> None:
    for _, _, view, elements in _every_table():
        public = set(view["kicks"]) | {p["card"] for p in view["trick"]}
        current = [
            e
            for e in having(elements, "data-card")
            if not e.within("data-past") and not e.within("data-hand")
        ]
        assert {e.get("data-card") for e in current} <= public
        shown_hand = sorted(_cards(elements, where="data-hand"))
        assert shown_hand == ([] if view["phase"] == "game_over" else sorted(view["hand"]))


def test_table_carries_phase_and_scores() -> None:
    for index, (version, _) in enumerate(GAMES):
        view, elements = _rendered(index, 0)
        table = _table(elements)
        assert table.get("data-phase") == view["phase"]
        assert table.get("data-score-0") == str(view["scores"][0])
        assert table.get("data-score-1") == str(view["scores"][1])
        assert table.get("data-version") == str(version)


def test_legal_cards_are_marked_and_only_for_the_seat_to_play() -> None:
    for _, _, view, elements in _every_table():
        legal = sorted(a["card"] for a in view["legal"] if a["type"] == "play")
        marked = [e for e in having(elements, "data-legal")]
        assert sorted(str(e.get("data-card")) for e in marked) == legal
        for e in marked:
            assert e.within("data-hand")
            assert e.tag == "button" and e.get("type") == "submit"
            assert e.get("name") == "card" and e.get("value") == e.get("data-card")


def test_refused_cards_say_why() -> None:
    seen = 0
    for index, (_, state) in enumerate(GAMES):
        if state.phase is not Phase.PLAY:
            continue
        view, elements = _rendered(index, state.turn)
        for refusal in view["refused"]:
            [card] = [
                e
                for e in having(elements, "data-card")
                if e.get("data-card") == refusal["card"] and e.within("data-hand")
            ]
            assert not card.has("data-legal")
            reason = card.get("data-reason") or ""
            assert reason and reason.lower() in refusal["reason"].lower()
            seen += 1
    assert seen > 0


def _actions(elements: list[Element]) -> dict[str, Element]:
    return {str(e.get("data-action")): e for e in having(elements, "data-action")}


def _seats(buttons: list[Element]) -> list[str]:
    """The sorted data-seat of the buttons, each of which must carry one."""
    seats = [seat for e in buttons if (seat := e.get("data-seat")) is not None]
    assert len(seats) == len(buttons), "a seat button without data-seat"
    return sorted(seats)


def test_beg_step_buttons_go_to_the_seat_to_act_only() -> None:
    checked = {"beg": 0, "give_or_run": 0}
    for index, (_, state) in enumerate(GAMES):
        if state.phase not in (Phase.BEG, Phase.GIVE_OR_RUN):
            continue
        for viewer in VIEWERS:
            view, elements = _rendered(index, viewer)
            actions = _actions(elements)
            if viewer != state.turn:
                assert not set(actions) & {"stand", "beg", "give_one", "run_pack"}
                continue
            checked[state.phase.value] += 1
            if state.phase is Phase.BEG:
                assert {"stand", "beg"} <= set(actions)
                assert not actions["stand"].has("disabled")
            else:
                assert not actions["run_pack"].has("disabled")
                refused = {r["type"] for r in view["refused"]}
                assert actions["give_one"].has("disabled") == ("give_one" in refused)
    assert checked["beg"] and checked["give_or_run"]


def _give_one_refused() -> RoomView:
    rules = Rules(give_one_needs_trump=True)
    for seed in range(200):
        state = new_game(rules, seed)
        state = apply(state, legal_actions(state)[1])  # beg
        obs = observe(state, state.turn)
        if obs.refusals:
            return server_view(state, state.turn, version=3)
    raise AssertionError("no deal where the dealer holds no trump")


def test_give_one_disabled_shows_the_reason() -> None:
    view = _give_one_refused()
    html = render_table(view)
    actions = _actions(parse(html))
    assert actions["give_one"].has("disabled")
    assert "you must run the pack" in html
    describedby = actions["give_one"].get("aria-describedby")
    assert describedby and f'id="{describedby}"' in html


def test_spectator_sees_no_hand_and_no_actions() -> None:
    for index in range(0, len(GAMES), 7):
        _, elements = _rendered(index, None)
        assert not having(elements, "data-hand")
        assert not having(elements, "data-legal")
        # (Anyone may ask for a finished game's review: API.md § The review of a game.)
        assert not set(_actions(elements)) - {"bot", "join", "review"}


def test_lobby_for_a_newcomer_offers_name_and_free_seats() -> None:
    view = lobby_view(["Ann", None, "Cy", None], None)
    elements = parse(render_table(view))
    assert [e for e in elements if e.tag == "input" and e.get("name") == "name"]
    joins = [e for e in having(elements, "data-action") if e.get("data-action") == "join"]
    assert _seats(joins) == ["1", "3"]
    for e in joins:  # each seat button submits the form that holds the name
        assert e.get("name") == "seat" and e.get("value") == e.get("data-seat")
        assert any(a.tag == "form" and a.get("hx-post") == "/r/k3x9q2/join" for a in e.ancestors)
    assert not [e for e in elements if e.get("data-action") in ("bot", "start")]
    assert _table(elements).get("data-phase") == "lobby"


def test_lobby_for_a_seated_player_offers_bots_then_start() -> None:
    elements = parse(render_table(lobby_view(["Ann", None, "Cy", None], 0)))
    bots = [e for e in having(elements, "data-action") if e.get("data-action") == "bot"]
    assert _seats(bots) == ["1", "3"]
    assert not [e for e in elements if e.get("name") == "name"]
    assert "start" not in _actions(elements)
    full = parse(render_table(lobby_view(["Ann", "Bob", "Cy", "Dan"], 0)))
    assert "start" in _actions(full)
    watching = parse(render_table(lobby_view(["Ann", "Bob", "Cy", "Dan"], None)))
    assert set(_actions(watching)) == {"share"}  # a spectator may still pass the link on


def test_partners_sit_opposite_and_play_moves_counterclockwise() -> None:
    """R4: the viewer at the bottom, the next seat to play on the right, the partner across."""
    for you in range(4):
        elements = parse(render_table(lobby_view(["Ann", "Bob", "Cy", "Dan"], you)))
        where = {}
        for e in elements:
            classes = e.classes
            if "lobby-seat" in classes:
                pos = next(c[4:] for c in classes if c.startswith("pos-"))
                where[pos] = e.all_text()
        names = ["Ann", "Bob", "Cy", "Dan"]
        assert names[you] in where["bottom"]
        assert names[(you + 1) % 4] in where["right"]
        assert names[(you + 2) % 4] in where["top"]
        assert names[(you + 3) % 4] in where["left"]


def test_game_over_shows_winner_score_hands_and_rematch() -> None:
    version, state = GAMES[-1]
    assert state.phase is Phase.GAME_OVER and state.winner is not None
    view = server_view(state, 0, version=version)
    html = render_table(view)
    elements = parse(html)
    assert _table(elements).get("data-phase") == "game_over"
    assert "rematch" in _actions(elements)
    assert f"{state.hand_number} hands played" in html
    spectator = parse(render_table(server_view(state, None, version=version)))
    assert "rematch" not in _actions(spectator)


@pytest.mark.parametrize("viewer", VIEWERS)
def test_room_page_has_one_event_stream(viewer: int | None) -> None:
    version, state = GAMES[40]
    html = render_room(server_view(state, viewer, version=version))
    elements = parse(html)
    streams = having(elements, "sse-connect")
    assert len(streams) == 1 and streams[0].get("sse-connect") == "/r/k3x9q2/events?lang=en"
    assert html.count("EventSource") == 0  # htmx-ext-sse opens it, once
    assert len([e for e in elements if e.get("id") == "table"]) == 1


def test_names_at_the_table_are_unique_and_bots_are_marked() -> None:
    view = lobby_view(["Ann", "Bot (standard)", "Ann", "Bot (standard)"], 0, bots=(1, 3))
    html = render_table(view)
    for name in ("Ann 2", "Computer 1 (standard)", "Computer 2 (standard)"):
        assert name in html
    assert "Bot" not in html.replace("chip-bot", "")  # the API's seat name is never shown
    assert html.count('class="chip chip-bot"') == 2


def test_hand_summary_says_what_each_team_counted_for_game() -> None:
    shown = 0
    for index, (version, state) in enumerate(GAMES):
        view, _ = _rendered(index, 0)
        game = [a for a in view["last_hand"] or [] if a["kind"] == "game"]
        if not game or state.phase is Phase.GAME_OVER:
            continue
        totals = view["last_hand_totals"]
        team = game[0]["team"]
        html = render_table(server_view(state, 0, version=version))
        assert f"counted {totals[team]}\u2013{totals[1 - team]}" in html
        shown += 1
    assert shown


def test_the_page_holds_the_hand_in_the_order_of_the_json_view() -> None:
    """The page sorted the hand one way (S H C D with spades trump) and the JSON another
    (S C D H): one order now, the JSON's, trumps (or the kick's suit) first, then the suits
    in alternating colours, each high to low."""
    for _, viewer, view, elements in _every_table():
        if viewer is None or not view["hand"]:
            continue
        shown = _cards(elements, where="data-hand")
        assert shown == view["hand"]
        suits = list(dict.fromkeys(c[1] for c in shown))
        lead = view["trump"] or (view["kicks"][-1][1] if view["kicks"] else None)
        if lead in suits:
            assert suits[0] == lead
        # the suits follow S H C D (alternating colours) round from the first one
        order = "SHCD"
        start = order.index(suits[0])
        ring = order[start:] + order[:start]
        assert suits == [s for s in ring if s in suits]
