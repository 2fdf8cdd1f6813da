"""Each event reaches the player's browser through the push service (the receiver on
loopback checks the VAPID signature and decrypts the payload as a browser does), in the
player's language; the push service's answers are obeyed; a move never waits for a push."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from app.main import create_app
from tests.api.table import bearer, new_room
from tests.night.helpers import next_round, open_night
from tests.push.conftest import push_settings
from tests.push.receiver import Browser, Receiver
from tests.push.test_subscriptions import mine, profile, subscribe

Json = dict[str, Any]


def hidden(client: TestClient, code: str, key: str) -> None:
    r = client.post(f"/api/rooms/{code}/sight", json={"visible": False}, headers=bearer(key))
    assert r.status_code == 204, r.text


def subscribed(client: TestClient, receiver: Receiver, key: str, **more: Any) -> Browser:
    browser = receiver.browser()
    r = subscribe(client, key, browser.subscription(), **more)
    assert r.status_code == 201, r.text
    return browser


def two_players_and_two_bots(client: TestClient, first: str, second: str) -> str:
    """A room: the players at seats 0 and 2, computer players at 1 and 3, not started."""
    code = new_room(client)
    for key, seat in ((first, 0), (second, 2)):
        r = client.post(
            f"/api/rooms/{code}/join", json={"name": "x", "seat": seat}, headers=bearer(key)
        )
        assert r.status_code == 200, r.text
    for seat in (1, 3):
        r = client.post(f"/api/rooms/{code}/bots", json={"seat": seat}, headers=bearer(first))
        assert r.status_code == 200, r.text
    return code


def my_view(client: TestClient, code: str, key: str) -> Json:
    found: Json = client.get(f"/api/rooms/{code}", headers=bearer(key)).json()
    return found


def play_a_while(client: TestClient, code: str, keys: dict[int, str], moves: int) -> int:
    """Each time it is a player's turn, they play their first legal action, until they have
    made ``moves`` moves or the game is over (or a minute has gone by: a bound, not a
    speed). How many moves were made."""
    played = 0
    deadline = time.monotonic() + 60
    while played < moves and time.monotonic() < deadline:
        v = my_view(client, code, keys[min(keys)])
        if v["phase"] == "game_over":
            break
        seat = v["turn"]
        if seat not in keys:
            time.sleep(0.05)
            continue
        mine_now = my_view(client, code, keys[seat])
        move = dict(mine_now["legal"][0], version=mine_now["version"])
        r = client.post(f"/api/rooms/{code}/actions", json=move, headers=bearer(keys[seat]))
        assert r.status_code == 200, r.text
        played += 1
    return played


def test_a_table_that_starts_and_each_turn_reach_the_players_in_their_language(
    client: TestClient, receiver: Receiver
) -> None:
    ann, bea = profile(client, "push_ann", "en"), profile(client, "push_bea", "fr")
    ann_phone, bea_phone = subscribed(client, receiver, ann), subscribed(client, receiver, bea)
    code = two_players_and_two_bots(client, ann, bea)
    hidden(client, code, ann)
    hidden(client, code, bea)
    assert client.post(f"/api/rooms/{code}/start", headers=bearer(ann)).status_code == 200
    for phone, title in (
        (ann_phone, "Your table has started"),
        (bea_phone, "Votre table a commencé"),
    ):
        first = receiver.wait_for(phone)[0]
        assert first["type"] == "table" and first["title"] == title, first
        assert first["url"] == f"/r/{code}" and first["tag"] == f"table-{code}"
    # Each player's turns, told while no page of theirs is in sight; each played at once.
    told = {"push_ann": 0, "push_bea": 0}
    keys = {
        "push_ann": (ann, ann_phone, "Your turn"),
        "push_bea": (bea, bea_phone, "À vous de jouer"),
    }
    deadline = time.monotonic() + 60
    while min(told.values()) < 2 and time.monotonic() < deadline:
        v = my_view(client, code, ann)
        if v["phase"] == "game_over":
            break
        seat = v["turn"]
        if seat not in (0, 2):
            time.sleep(0.05)
            continue
        handle = "push_ann" if seat == 0 else "push_bea"
        key, phone, title = keys[handle]
        letters = receiver.wait_for(phone, 1 + told[handle] + 1)
        turn = [letter for letter in letters if letter["type"] == "turn"]
        assert len(turn) == told[handle] + 1, letters
        assert turn[-1]["title"] == title and turn[-1]["tag"] == f"table-{code}"
        told[handle] += 1
        mine_now = my_view(client, code, key)
        move = dict(mine_now["legal"][0], version=mine_now["version"])
        r = client.post(f"/api/rooms/{code}/actions", json=move, headers=bearer(key))
        assert r.status_code == 200, r.text
    assert min(told.values()) >= 2, told


def test_no_turn_is_told_while_a_page_of_the_seat_is_in_sight(
    client: TestClient, receiver: Receiver
) -> None:
    ann, bea = profile(client, "sight_ann"), profile(client, "sight_bea")
    ann_phone, bea_phone = subscribed(client, receiver, ann), subscribed(client, receiver, bea)
    code = two_players_and_two_bots(client, ann, bea)
    for key in (ann, bea):
        r = client.post(f"/api/rooms/{code}/sight", json={"visible": True}, headers=bearer(key))
        assert r.status_code == 204
    assert client.post(f"/api/rooms/{code}/start", headers=bearer(ann)).status_code == 200
    deadline = time.monotonic() + 10
    while my_view(client, code, ann)["turn"] not in (0, 2) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.5)  # many times the wait the tests' server gives a turn
    assert receiver.heard_by(ann_phone) == [] and receiver.heard_by(bea_phone) == []
    # Out of sight now: told.
    seat = my_view(client, code, ann)["turn"]
    key, phone = (ann, ann_phone) if seat == 0 else (bea, bea_phone)
    hidden(client, code, key)
    assert receiver.wait_for(phone)[0]["type"] == "turn"
    # A spectator's page says nothing of a seat's sight.
    r = client.post(f"/api/rooms/{code}/sight", json={"visible": False})
    assert r.status_code == 403 and r.json()["code"] == "sight_not_seated"


def test_a_nudge_reaches_a_player_out_of_sight(client: TestClient, receiver: Receiver) -> None:
    ann, bea = profile(client, "nudge_ann", "de"), profile(client, "nudge_bea", "ms")
    phones = {
        0: subscribed(client, receiver, ann, events=["nudge"]),
        2: subscribed(client, receiver, bea, events=["nudge"]),
    }
    keys = {0: ann, 2: bea}
    code = two_players_and_two_bots(client, ann, bea)
    assert client.post(f"/api/rooms/{code}/start", headers=bearer(ann)).status_code == 200
    deadline = time.monotonic() + 10
    while my_view(client, code, ann)["turn"] not in (0, 2) and time.monotonic() < deadline:
        time.sleep(0.05)
    seat = my_view(client, code, ann)["turn"]
    other = 2 - seat
    hidden(client, code, keys[seat])
    r = client.post(f"/api/rooms/{code}/nudge", headers=bearer(keys[other]))
    assert r.status_code == 204, r.text
    letter = receiver.wait_for(phones[seat])[0]
    # The nudged player reads it in their own language (Ann German, Bea Malay).
    expected = {0: "Nudge_Bea hat dich angestupst", 2: "Nudge_Ann mengingatkan anda"}[seat]
    assert letter["type"] == "nudge" and letter["title"] == expected, letter
    assert receiver.heard_by(phones[other]) == []


def test_a_club_nights_table_and_an_invitation_are_told(
    client: TestClient, receiver: Receiver
) -> None:
    code, director = open_night(client, options={"grace_s": 0})
    keys = {
        h: profile(client, h, lang)
        for h, lang in (("n_nia", "lb"), ("n_oli", "en"), ("n_pia", "fr"), ("n_rex", "de"))
    }
    phones = {
        h: subscribed(client, receiver, k, events=["night", "invite"]) for h, k in keys.items()
    }
    for pair in (["n_nia", "n_oli"], ["n_pia", "n_rex"]):
        # A player registers themself and a friend (consent: API.md § Fifth round).
        for a, b in (pair, pair[::-1]):
            asked = client.post("/api/me/friends", json={"handle": b}, headers=bearer(keys[a]))
            assert asked.status_code == 200, asked.text
        r = client.post(
            f"/api/nights/{code}/pairs",
            json={"names": ["x", "y"], "handles": pair},
            headers=bearer(keys[pair[0]]),
        )
        assert r.status_code == 201, r.text
    table = next_round(client, code, director)["rounds"][0]["tables"][0]
    for handle, title in (
        ("n_nia", "Däin Dësch vum Clubowend ass op"),
        ("n_oli", "Your club-night table is open"),
        ("n_pia", "Votre table de la soirée de club est ouverte"),
    ):
        letter = receiver.wait_for(phones[handle])[0]
        assert letter["type"] == "night" and letter["title"] == title, letter
        assert letter["url"] == f"/n/{code}" and letter["tag"] == f"table-{table['room']}"
    # An invitation (the friends' issue invites through this door).
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    me = client.get("/api/me", headers=bearer(keys["n_rex"])).json()
    assert me["handle"] == "n_rex"
    player = ctx.players.signed_in(keys["n_rex"]).player.id
    ctx.push.invited(table["room"], player, "Oli")
    letters = receiver.wait_for(phones["n_rex"], 2)
    invite = next(x for x in letters if x["type"] == "invite")
    assert invite["title"] == "Oli lädt dich an einen Tisch ein"
    assert invite["url"] == f"/r/{table['room']}"
    pia = ctx.players.signed_in(keys["n_pia"]).player.id
    ctx.push.invited(table["room"], pia, "Rex")
    to_pia = next(x for x in receiver.wait_for(phones["n_pia"], 2) if x["type"] == "invite")
    assert to_pia["title"] == "Rex vous invite à une table"
    assert to_pia["body"].startswith("Table ") and "\u202f: touchez" in to_pia["body"]


def test_the_push_services_answers_are_obeyed(client: TestClient, receiver: Receiver) -> None:
    key = profile(client, "answers_ann")
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    player = ctx.players.signed_in(key).player.id

    def path(browser: Browser) -> str:
        return browser.endpoint.removeprefix(receiver.origin)

    gone, busy, moved, target = (subscribed(client, receiver, key) for _ in range(4))
    receiver.answers[path(gone)] = [410]
    receiver.answers[path(busy)] = [429, 503]
    receiver.answers[path(moved)] = [("redirect", target.endpoint)]
    ctx.push.invited("abcdabcdabcd", player, "Ben")
    # 429 and 503: tried again (backing off), then delivered.
    assert receiver.wait_for(busy, 1, timeout=30)[0]["type"] == "invite"
    # 410: the subscription is forgotten; a redirect is never followed.
    endpoints = {s["endpoint"] for s in mine(client, key)}
    assert gone.endpoint not in endpoints and busy.endpoint in endpoints
    assert receiver.heard_by(target) != [] and len(receiver.heard_by(target)) == 1
    assert receiver.heard_by(moved) == [] and receiver.posts_to(moved) == 1


def test_a_push_service_that_hangs_holds_up_no_move_and_no_other_push(
    database_url: str, receiver: Receiver
) -> None:
    settings = push_settings(database_url, receiver, push_timeout_s=3.0)
    with TestClient(create_app(settings)) as client:
        ann, bea = profile(client, "hang_ann"), profile(client, "hang_bea")
        slow = subscribed(client, receiver, ann)
        fine = subscribed(client, receiver, bea)
        receiver.hang_s = 2.5
        receiver.answers[slow.endpoint.removeprefix(receiver.origin)] = ["hang"] * 10
        code = two_players_and_two_bots(client, ann, bea)
        hidden(client, code, ann)
        hidden(client, code, bea)
        assert client.post(f"/api/rooms/{code}/start", headers=bearer(ann)).status_code == 200
        receiver.wait_for_kind(fine, "table")
        # Moves go on while the slow push service holds its request.
        assert play_a_while(client, code, {0: ann, 2: bea}, moves=6) == 6


def test_a_player_who_unsubscribes_mid_game_is_told_nothing_more(
    client: TestClient, receiver: Receiver
) -> None:
    ann, bea = profile(client, "quit_ann"), profile(client, "quit_bea")
    ann_phone = subscribed(client, receiver, ann)
    code = two_players_and_two_bots(client, ann, bea)
    hidden(client, code, ann)
    assert client.post(f"/api/rooms/{code}/start", headers=bearer(bea)).status_code == 200
    receiver.wait_for_kind(ann_phone, "table")
    r = client.request(
        "DELETE", "/api/me/push", json={"endpoint": ann_phone.endpoint}, headers=bearer(ann)
    )
    assert r.status_code == 204
    heard = len(receiver.heard_by(ann_phone))
    # The game goes on: whoever's turn it is plays.
    assert play_a_while(client, code, {0: ann, 2: bea}, moves=6) == 6
    time.sleep(1.0)
    assert len(receiver.heard_by(ann_phone)) == heard


def test_two_servers_on_one_database_never_send_one_notification_twice(
    database_url: str, receiver: Receiver
) -> None:
    settings = push_settings(database_url, receiver)
    with TestClient(create_app(settings)) as one, TestClient(create_app(settings)) as two:
        keys = [profile(one, f"twice_{n}") for n in range(8)]
        phones = [subscribed(one, receiver, key) for key in keys]
        servers = [c.app.state.ctx for c in (one, two)]  # type: ignore[attr-defined]
        players = [servers[0].players.signed_in(key).player.id for key in keys]
        for round_ in range(3):
            for n, player in enumerate(players):
                # Each event is noted by one server; both send from the one outbox.
                servers[(n + round_) % 2].push.invited(f"room{round_:08d}", player, "Ben")
        for phone in phones:
            assert len(receiver.wait_for(phone, 3)) >= 3
        time.sleep(1.5)  # a second sending would have come by now
        assert [len(receiver.heard_by(phone)) for phone in phones] == [3] * len(phones)
        # (Letters left by the module's earlier tests, on its database, may be sent too.)
        assert sum(s.push.sent for s in servers) >= 3 * len(phones)
