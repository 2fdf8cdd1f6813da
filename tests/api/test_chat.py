"""Table talk (API.md § Second round): the chat and the nudge, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import count

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.services.talk import PRESETS, RoomTalk, clean_text
from tests.api.conftest import app_settings
from tests.api.table import bearer, new_room, seat_four, view
from tests.databases import database_url  # noqa: F401 - a fixture

REQUIRED_PRESETS = (
    "stand",
    "ah_beg",
    "give_one",
    "run_the_pack",
    "hang_jack",
    "good_lift",
    "play_yuh_card",
    "all_fours",
    "bullseye",
    "thumbs_up",
    "laugh",
    "wow",
    "sleepy",
)


def _chat(client: TestClient, code: str, token: str | None, **body: object) -> object:
    headers = bearer(token) if token else {}
    return client.post(f"/api/rooms/{code}/chat", json=body, headers=headers)


def test_a_seated_player_chats_and_everyone_reads_it_oldest_first(client: TestClient) -> None:
    code = new_room(client)
    tokens = seat_four(client, code)
    r = client.post(
        f"/api/rooms/{code}/chat", json={"text": "  Evening all  "}, headers=bearer(tokens[1])
    )
    assert r.status_code == 201, r.text
    message = r.json()
    assert message["seat"] == 1 and message["name"] == "Ben"
    assert message["text"] == "Evening all" and message["preset"] is None
    assert datetime.fromisoformat(message["at"]).tzinfo is not None
    r = client.post(
        f"/api/rooms/{code}/chat", json={"preset": "hang_jack"}, headers=bearer(tokens[2])
    )
    assert r.status_code == 201
    assert r.json()["text"] == "Hang jack!" and r.json()["preset"] == "hang_jack"
    listed = client.get(f"/api/rooms/{code}/chat").json()["messages"]
    assert [m["text"] for m in listed] == ["Evening all", "Hang jack!"]
    assert listed[0]["id"] < listed[1]["id"]
    # Chat never raises the room's version: it is not a change to the game.
    assert view(client, code)["version"] == 4


def test_every_trinidad_preset_is_offered() -> None:
    assert set(REQUIRED_PRESETS) <= set(PRESETS)


@pytest.mark.parametrize("text", ["", "   ", "\n\t", "x" * 201, "\x00\x01"])
def test_empty_or_over_long_text_is_422_and_stores_nothing(client: TestClient, text: str) -> None:
    code = new_room(client)
    token = seat_four(client, code)[0]
    r = _chat(client, code, token, text=text)
    assert r.status_code == 422, r.text  # type: ignore[attr-defined]
    assert client.get(f"/api/rooms/{code}/chat").json()["messages"] == []


@pytest.mark.parametrize(
    "body",
    [{"preset": "nope"}, {}, {"text": "hi", "preset": "stand"}, {"text": 5}, {"colour": "red"}],
)
def test_unknown_presets_and_malformed_bodies_are_422(client: TestClient, body: object) -> None:
    code = new_room(client)
    token = seat_four(client, code)[0]
    r = client.post(f"/api/rooms/{code}/chat", json=body, headers=bearer(token))
    assert r.status_code == 422, r.text
    assert client.get(f"/api/rooms/{code}/chat").json()["messages"] == []


def test_control_characters_go_and_html_stays_text() -> None:
    assert clean_text("a\x00b\x1bc\u202ed") == "abcd"
    assert clean_text("line one\nline two") == "line one line two"
    # An emoji sequence keeps its joiner (a family: man, ZWJ, woman, ZWJ, girl).
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert clean_text(family) == family
    assert clean_text('<img src=x onerror="alert(1)">') == '<img src=x onerror="alert(1)">'


def test_spectators_and_other_rooms_tokens_may_not_write(client: TestClient) -> None:
    code = new_room(client)
    seat_four(client, code)
    other = new_room(client)
    stranger = seat_four(client, other)[0]
    assert _chat(client, code, None, text="hello").status_code == 403  # type: ignore[attr-defined]
    assert _chat(client, code, stranger, text="hello").status_code == 403  # type: ignore[attr-defined]
    assert client.post(f"/api/rooms/{code}/nudge", headers=bearer(stranger)).status_code == 403
    assert client.get(f"/api/rooms/{code}/chat").json()["messages"] == []


def test_unknown_room_is_404(client: TestClient) -> None:
    assert client.get("/api/rooms/nosuchroom1/chat").status_code == 404
    assert client.post("/api/rooms/nosuchroom1/chat", json={"text": "hi"}).status_code == 404


def test_a_flooding_seat_gets_429_and_the_others_still_talk(client: TestClient) -> None:
    code = new_room(client)
    tokens = seat_four(client, code)
    for n in range(5):
        assert _chat(client, code, tokens[0], text=f"hi {n}").status_code == 201  # type: ignore[attr-defined]
    flood = _chat(client, code, tokens[0], text="hi again")
    assert flood.status_code == 429, flood.text  # type: ignore[attr-defined]
    assert flood.json()["error"] == "too_many_requests"  # type: ignore[attr-defined]
    assert _chat(client, code, tokens[1], text="steady on").status_code == 201  # type: ignore[attr-defined]
    assert len(client.get(f"/api/rooms/{code}/chat").json()["messages"]) == 6


def test_the_chat_keeps_the_last_hundred(client: TestClient) -> None:
    code = new_room(client)
    tokens = seat_four(client, code)
    clock = iter(datetime(2026, 12, 1, 20, tzinfo=UTC) + timedelta(seconds=3 * n) for n in count())
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    ctx.talk = RoomTalk(ctx.rooms, now=lambda: next(clock))  # a slow, steady talker
    for n in range(104):
        assert _chat(client, code, tokens[n % 4], text=f"message {n}").status_code == 201  # type: ignore[attr-defined]
    listed = client.get(f"/api/rooms/{code}/chat").json()["messages"]
    assert len(listed) == 100
    assert listed[-1]["text"] == "message 103"


def test_nudge_the_player_to_act_once_in_thirty_seconds(client: TestClient) -> None:
    code = new_room(client)
    tokens = seat_four(client, code)
    nobody = client.post(f"/api/rooms/{code}/nudge", headers=bearer(tokens[0]))
    assert nobody.status_code == 409  # the lobby: nobody is to act
    assert client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0])).status_code == 200
    turn = view(client, code)["turn"]
    assert client.post(f"/api/rooms/{code}/nudge", headers=bearer(tokens[turn])).status_code == 409
    other = tokens[(turn + 1) % 4]
    assert client.post(f"/api/rooms/{code}/nudge", headers=bearer(other)).status_code == 204
    again = client.post(f"/api/rooms/{code}/nudge", headers=bearer(other))
    assert again.status_code == 429
    third = tokens[(turn + 2) % 4]
    assert client.post(f"/api/rooms/{code}/nudge", headers=bearer(third)).status_code == 204
    assert client.post(f"/api/rooms/{code}/nudge").status_code == 403  # a spectator
    assert view(client, code)["version"] == 5  # a nudge changes nothing at the table


def test_nudging_a_computer_player_is_409(database_url: str) -> None:  # noqa: F811
    slow_bots = app_settings(database_url, bot_delay_ms=60_000)
    with TestClient(create_app(slow_bots)) as client:
        code = new_room(client)
        ann = client.post(f"/api/rooms/{code}/join", json={"name": "Ann", "seat": 0}).json()
        for seat in (1, 2, 3):
            r = client.post(
                f"/api/rooms/{code}/bots", json={"seat": seat}, headers=bearer(ann["token"])
            )
            assert r.status_code == 200
        client.post(f"/api/rooms/{code}/start", headers=bearer(ann["token"]))
        v = view(client, code)
        assert v["turn"] is not None
        r = client.post(f"/api/rooms/{code}/nudge", headers=bearer(ann["token"]))
        assert r.status_code == 409  # a computer player is thinking, or it is Ann's own turn
