"""Every reason the code can give (app/reasons.py ``REASONS``) is reached by a real request or
a rules call, answers its own code, and has a sentence in every language: a new reason that no
test reaches, or that a catalog does not translate, fails here."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from app import i18n
from app.api.context import SIGNIN_TRIES
from app.api.limits import StreamGate
from app.main import create_app
from app.reasons import REASONS, Param
from app.rules import DEFAULT_RULES, Action, Rules, apply, legal_actions, new_game
from app.rules.errors import RuleError
from app.rules.state import Phase, call, reckoned
from app.services.moderation import REPORTS_PER_HOUR
from app.services.push import SUBSCRIPTIONS_PER_PLAYER
from app.web.refusals import sentence
from tests.api.conftest import ADMIN, app_settings
from tests.api.reneges import renege_room
from tests.api.table import bearer, new_room, play_random, seat_four, view
from tests.api.test_boards import boards_requests_reached
from tests.api.test_renege import play_until
from tests.clubs.helpers import club_requests_reached
from tests.players.test_blocks import social_requests_reached
from tests.players.test_passkeys import passkey_requests_reached
from tests.push.receiver import Browser
from tests.rules.stack import act, do, game, reach, stack
from tests.rules.test_play import FOLLOW, UNDER
from tests.rules.test_renege import HANDS as RENEGE_HANDS
from tests.rules.test_renege import strict_out

Json = dict[str, Any]
LANGS = ("fr", "de", "ms", "lb")
SAME_ORIGIN = {"Sec-Fetch-Site": "same-origin"}

# Reasons only a race can give (another process writing between two reads of a room, a
# thousand room codes all taken): no single request reaches them on demand. Each is raised
# where app/services/rooms.py and housekeeping.py retry; their sentences are checked below.
RACES = {"room_busy", "no_free_code", "version_overtaken", "changed_first"}
# Club night's races (app/services/nights.py): a round drawn by two clicks at the same instant
# (the second's insert meets the first's round), and eight registrations or night codes in a
# row lost to others writing at the same instant.
RACES |= {"night_round_drawn", "night_busy"}
# A club's: eight club codes in a row taken, or lock waits given up on (app/services/clubs.py).
RACES |= {"club_busy"}
# A game dealt before the documented shuffle exists only in an old database.
LEGACY = {"old_shuffle"}


def _rule(state: Any, action: Action) -> tuple[str, dict[str, Param]]:
    with pytest.raises(RuleError) as refused:
        apply(state, action)
    return refused.value.code, refused.value.params


def rules_reached() -> dict[str, tuple[str, dict[str, Param]]]:
    """The rules' reasons, each from the position that gives it."""
    follow = game(0, stack(0, FOLLOW, "3H"))
    follow = do(follow, "stand")
    under = do(game(0, stack(0, UNDER, "3H"), rules=Rules(undertrump="forbidden")), "stand")
    needs = Rules(give_one_needs_trump=True)
    bare = do(game(0, stack(0, {0: "2C 3C 4C 5C 6C 7C"}, "4H"), rules=needs), "beg")
    winning = do(reach((13, 0), 1, stack(1, kicks="4H")), "beg")
    return {
        "not_in_hand": _rule(follow, act("2C")),
        "must_follow": _rule(do(follow, "KC"), act("2S")),
        "trumps_led": _rule(do(follow, "AH"), act("2C")),
        "undertrump_forbidden": _rule(do(under, "KC TH"), act("9H")),
        "give_one_needs_trump": _rule(bare, Action("give_one")),
        "give_one_would_win": _rule(winning, Action("give_one")),
        "card_needed": _rule(follow, Action("play")),
        "not_a_card": _rule(follow, Action("play", 99)),
        "beggar_to_decide": _rule(game(0, stack(0, FOLLOW, "3H")), act("KC")),
        "dealer_to_decide": _rule(bare, Action("stand")),
        "cards_in_play": _rule(follow, Action("beg")),
        "game_over": _rule(_finished(), Action("stand")),
    }


def _finished() -> Any:
    rng = random.Random(4)
    state = new_game(DEFAULT_RULES, 4, 0)
    while state.winner is None:
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def code_of(response: Any) -> tuple[str, dict[str, Param]]:
    assert response.status_code >= 400, response.text
    body = response.json()
    assert set(body) == {"error", "detail", "code", "params"}, body
    return body["code"], body["params"]


class Table:
    """A client and a few rooms in the states the requests need."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.lobby = new_room(client)
        self.lobby_token = client.post(
            f"/api/rooms/{self.lobby}/join", json={"name": "Ann", "seat": 0}
        ).json()["token"]
        self.playing = new_room(client)
        self.tokens = seat_four(client, self.playing)
        assert client.post(f"/api/rooms/{self.playing}/start", headers=self.auth(0)).is_success
        self.turn = view(client, self.playing, self.tokens[0])["turn"]

    def auth(self, seat: int) -> dict[str, str]:
        return bearer(self.tokens[seat])

    def post(self, path: str, body: Json | None = None, auth: dict[str, str] | None = None) -> Any:
        return self.client.post(path, json=body or {}, headers=auth or {})

    def page(self, path: str, form: dict[str, str], token: str) -> Any:
        headers = {"Cookie": f"allfours_seat={token}", **SAME_ORIGIN}
        return self.client.post(path, data=form, headers=headers)


@pytest.fixture
def table(client: TestClient) -> Table:
    return Table(client)


def requests_reached(t: Table) -> Iterator[tuple[str, tuple[str, dict[str, Param]]]]:
    c, lobby, playing = t.client, t.lobby, t.playing
    api_lobby, api_playing = f"/api/rooms/{lobby}", f"/api/rooms/{playing}"
    waiting = (t.turn + 1) % 4
    yield "no_room", code_of(c.get("/api/rooms/zzzzzzzzzzzz"))
    yield "token_holds_no_seat", code_of(t.post(f"{api_lobby}/start", auth=bearer("nobody")))
    yield "token_needed", code_of(t.post(f"{api_lobby}/start"))
    yield "unknown_action", code_of(t.page(f"/r/{playing}/act", {"type": "dance"}, t.tokens[0]))
    yield (
        "bad_card_code",
        code_of(t.page(f"/r/{playing}/act", {"type": "play", "card": "ZZ"}, t.tokens[0])),
    )
    yield "table_full", code_of(t.post(f"{api_playing}/join", {"name": "Eve"}))
    yield "seat_taken", code_of(t.post(f"{api_lobby}/join", {"name": "Eve", "seat": 0}))
    yield "game_started", code_of(t.post(f"{api_playing}/start", auth=t.auth(0)))
    yield "seats_empty", code_of(t.post(f"{api_lobby}/start", auth=bearer(t.lobby_token)))
    yield "game_not_finished", code_of(t.post(f"{api_playing}/rematch", auth=t.auth(0)))
    yield (
        "not_started",
        code_of(t.post(f"{api_lobby}/actions", {"type": "stand"}, auth=bearer(t.lobby_token))),
    )
    yield (
        "not_your_turn",
        code_of(t.post(f"{api_playing}/actions", {"type": "stand"}, auth=t.auth(waiting))),
    )
    yield (
        "stale_version",
        code_of(
            t.post(f"{api_playing}/actions", {"type": "stand", "version": 0}, auth=t.auth(t.turn))
        ),
    )
    yield "hand_not_over", code_of(c.get(f"{api_playing}/hands/1"))
    yield "no_game", code_of(c.get(f"{api_lobby}/games/3"))
    yield "deals_secret", code_of(t.post(f"{api_playing}/games/1/again", auth=t.auth(0)))
    yield "review_not_yet", code_of(t.post(f"{api_playing}/games/1/review"))
    yield "hints_off", code_of(c.get(f"{api_lobby}/hint", headers=bearer(t.lobby_token)))
    practice = new_room(c, {"options": {"hints": True}})
    practising = c.post(f"/api/rooms/{practice}/join", json={"name": "Ann"}).json()["token"]
    yield "no_hint_now", code_of(c.get(f"/api/rooms/{practice}/hint", headers=bearer(practising)))
    yield "players_deal_again", code_of(t.post(f"{api_playing}/games/1/again"))
    yield (
        "unknown_level",
        code_of(t.page(f"/r/{lobby}/bot", {"seat": "1", "level": "x"}, t.lobby_token)),
    )
    # the names a player may not take
    names = {
        "name_empty": "   ",
        "name_too_long": "x" * 30,
        "name_control_characters": "a\u0007b",
        "name_invisible": "\u2800",
        "name_reserved": "Us",
    }
    for code, name in names.items():
        yield code, code_of(t.post(f"{api_lobby}/join", {"name": name}))
    yield "invalid_request", code_of(t.post(f"{api_lobby}/join", {"name": "Eve", "seat": 9}))
    yield (
        "bad_json",
        code_of(
            c.post(f"{api_lobby}/join", content=b"{", headers={"Content-Type": "application/json"})
        ),
    )
    # table talk
    chat = f"/api/rooms/{playing}/chat"
    yield "text_empty", code_of(t.post(chat, {"text": "  "}, auth=t.auth(0)))
    yield "text_too_long", code_of(t.post(chat, {"text": "x" * 300}, auth=t.auth(0)))
    yield "spectators_read", code_of(t.post(chat, {"text": "hi"}))
    yield "text_or_preset", code_of(t.post(chat, {}, auth=t.auth(0)))
    yield "unknown_preset", code_of(t.post(chat, {"preset": "shout"}, auth=t.auth(0)))
    for _ in range(5):
        assert t.post(chat, {"text": "hi"}, auth=t.auth(1)).is_success
    yield "too_many_messages", code_of(t.post(chat, {"text": "hi"}, auth=t.auth(1)))
    yield "nobody_to_nudge", code_of(t.post(f"{api_lobby}/nudge", auth=bearer(t.lobby_token)))
    assert t.post(f"{api_playing}/nudge", auth=t.auth(waiting)).is_success
    yield "nudge_too_soon", code_of(t.post(f"{api_playing}/nudge", auth=t.auth(waiting)))
    # the host's powers (seat 0 opened the lobby room)
    host = f"{api_lobby}/host"
    lobby_auth = bearer(t.lobby_token)
    ben = t.post(f"{api_lobby}/join", {"name": "Ben", "seat": 1}).json()["token"]
    yield "host_only", code_of(t.post(f"{host}/free", {"seat": 0}, auth=bearer(ben)))
    yield "host_keeps_seat", code_of(t.post(f"{host}/free", {"seat": 0}, auth=lobby_auth))
    yield "seat_already_free", code_of(t.post(f"{host}/free", {"seat": 2}, auth=lobby_auth))
    yield "no_player_to_replace", code_of(t.post(f"{host}/bot", {"seat": 2}, auth=lobby_auth))
    yield "move_same_seat", code_of(t.post(f"{host}/move", {"seat": 1, "to": 1}, auth=lobby_auth))
    yield "seat_empty", code_of(t.post(f"{host}/move", {"seat": 2, "to": 3}, auth=lobby_auth))
    with c.stream("GET", f"/api/rooms/{lobby}/events", headers=bearer(ben)) as stream:
        next(stream.iter_lines())  # Ben is at the table while his stream is open
        yield "player_not_away", code_of(t.post(f"{host}/bot", {"seat": 1}, auth=lobby_auth))
    playing_host = f"{api_playing}/host"
    yield "free_in_lobby", code_of(t.post(f"{playing_host}/free", {"seat": 1}, auth=t.auth(0)))
    yield (
        "move_between_games",
        code_of(t.post(f"{playing_host}/move", {"seat": 1, "to": 2}, auth=t.auth(0))),
    )
    # a computer player's seat, claimed for the next deal, then asked for again
    bots = new_room(c)
    mine = [t.post(f"/api/rooms/{bots}/join", {"name": n, "seat": s}).json()["token"]
            for s, n in enumerate(["Ann", "Ben", "Cal"])]  # fmt: skip
    assert t.post(f"/api/rooms/{bots}/bots", {"seat": 3}, auth=bearer(mine[0])).is_success
    assert t.post(f"/api/rooms/{bots}/start", auth=bearer(mine[0])).is_success
    assert t.post(f"/api/rooms/{bots}/join", {"name": "Dee", "seat": 3}).is_success
    yield "seat_claimed", code_of(t.post(f"/api/rooms/{bots}/join", {"name": "Eve", "seat": 3}))
    # the same move sent twice: the second lost a race with the first
    acting = f"{api_playing}/actions"
    assert t.post(acting, {"type": "beg"}, auth=t.auth(t.turn)).is_success
    yield "move_already_made", code_of(t.post(acting, {"type": "beg"}, auth=t.auth(t.turn)))
    # a finished game
    play_random(c, playing, t.tokens, random.Random(7), check=False)
    yield "game_over", code_of(t.post(acting, {"type": "stand"}, auth=t.auth(0)))
    yield "review_not_asked", code_of(c.get(f"{api_playing}/games/1/review"))
    # the admin's
    yield "seed_admin_only", code_of(t.post("/api/rooms", {"seed": 1}))
    yield "admin_token_needed", code_of(c.get("/api/admin/rooms"))
    yield "admin_token_wrong", code_of(c.get("/api/admin/rooms", headers=bearer("guess")))
    assert c.get("/api/admin/rooms", headers=bearer(ADMIN)).is_success


def night_requests_reached(c: TestClient) -> Iterator[tuple[str, tuple[str, dict[str, Param]]]]:
    """Club night's reasons, each by the request that gives it (API.md § Club night)."""
    opened = c.post("/api/nights", json={"name": "Friday", "options": {"grace_s": 0}}).json()
    code, director = opened["code"], bearer(opened["director_token"])
    api = f"/api/nights/{code}"

    def register(night: str, names: list[str], team: str | None = None) -> list[str]:
        r = c.post(f"/api/nights/{night}/pairs", json={"names": names, "team": team})
        assert r.status_code == 201, r.text
        return [link.rsplit("/", 1)[1] for link in r.json()["links"]]

    yield "night_not_found", code_of(c.get("/api/nights/zzzzzzzzzzzz"))
    ann = register(code, ["Ann", "Bo"])
    yield "night_pair_registered", code_of(c.post(f"{api}/pairs", json={"names": ["bo", "Ann"]}))
    yield "night_director_token_needed", code_of(c.post(f"{api}/rounds"))
    yield "night_too_few_pairs", code_of(c.post(f"{api}/rounds", headers=director))
    yield "night_player_link_needed", code_of(c.post(f"{api}/sit"))
    yield "night_no_table_now", code_of(c.post(f"{api}/sit", headers=bearer(ann[0])))
    cy = register(code, ["Cy", "Di"])
    # another night: its director and its player links are strangers here
    other = c.post("/api/nights", json={"name": "Saturday"}).json()
    yield (
        "night_not_director",
        code_of(c.post(f"{api}/rounds", headers=bearer(other["director_token"]))),
    )
    stranger = register(other["code"], ["Ed", "Flo"])[0]
    yield "night_link_elsewhere", code_of(c.post(f"{api}/sit", headers=bearer(stranger)))
    mangled = bearer(ann[0][:-3] + "xyz")  # a link cut short or mistyped: nobody's
    yield "night_link_unknown", code_of(c.post(f"{api}/sit", headers=mangled))
    # registration closed by the director: only the director registers
    assert c.post(f"{api}/registration", json={"open": False}, headers=director).is_success
    yield (
        "night_registration_closed",
        code_of(c.post(f"{api}/pairs", json={"names": ["Gus", "Hal"]})),
    )
    # the first round: one table, its seats the night's
    first = c.post(f"{api}/rounds", headers=director)
    assert first.status_code == 201, first.text
    room = first.json()["rounds"][0]["tables"][0]["room"]
    yield "night_started", code_of(c.post(f"{api}/pairs", json={"names": ["Gus", "Hal"]}))
    yield "night_round_unfinished", code_of(c.post(f"{api}/rounds", headers=director))
    yield (
        "night_seats_reserved",
        code_of(c.post(f"/api/rooms/{room}/join", json={"name": "Stranger"})),
    )
    seated = c.post(f"{api}/sit", headers=bearer(cy[0]))
    assert seated.status_code == 200, seated.text
    seat_token = bearer(seated.json()["token"])
    yield (
        "night_director_seats",
        code_of(c.post(f"/api/rooms/{room}/bots", json={"seat": 1}, headers=seat_token)),
    )
    table = f"{api}/tables/1"
    yield (
        "night_seat_held",
        code_of(
            c.post(
                f"{table}/substitute",
                json={"seat": seated.json()["seat"], "name": "Sub"},
                headers=director,
            )
        ),
    )
    both = {"seat": 0, "name": "Sub", "bot": "easy"}
    yield (
        "night_substitute_who",
        code_of(c.post(f"{table}/substitute", json=both, headers=director)),
    )
    refused = c.post(f"{table}/substitute", json={"seat": 0, "bot": "x"}, headers=director)
    assert code_of(refused)[0] == "unknown_level"  # the tables' own reason
    yield (
        "night_no_table",
        code_of(c.post(f"{api}/tables/9/forfeit", json={"pair": 1}, headers=director)),
    )
    yield (
        "night_pair_not_at_table",
        code_of(c.post(f"{table}/forfeit", json={"pair": 7}, headers=director)),
    )
    yield (
        "night_bad_correction",
        code_of(c.post(f"{table}/result", json={"bullseyes": [3, 0]}, headers=director)),
    )
    assert c.post(f"{table}/forfeit", json={"pair": 1}, headers=director).is_success
    yield (
        "night_table_over",
        code_of(c.post(f"{table}/forfeit", json={"pair": 2}, headers=director)),
    )
    yield (
        "night_no_pair",
        code_of(c.post(f"{api}/pairs/9/links", headers=director)),
    )
    yield (
        "night_no_round_now",  # every table of the round is over: no empty seat to fill
        code_of(c.post(f"{api}/computer-players", json={}, headers=director)),
    )
    yield "night_over", code_of(c.post(f"{api}/rounds", headers=director))  # two pairs: one round
    # the grace time before a forfeit
    slow = c.post("/api/nights", json={"name": "Sunday", "options": {"grace_s": 600}}).json()
    for names in (["Ivy", "Jo"], ["Kim", "Lu"]):
        register(slow["code"], names)
    slow_api, slow_director = f"/api/nights/{slow['code']}", bearer(slow["director_token"])
    assert c.post(f"{slow_api}/rounds", headers=slow_director).status_code == 201
    yield (
        "night_in_grace",
        code_of(c.post(f"{slow_api}/tables/1/forfeit", json={"pair": 1}, headers=slow_director)),
    )
    # a team match: each pair names its club, and the clubs bring as many pairs
    teams = c.post("/api/nights", json={"name": "Clubs", "format": "teams"}).json()
    teams_api, teams_director = f"/api/nights/{teams['code']}", bearer(teams["director_token"])
    yield "night_team_needed", code_of(c.post(f"{teams_api}/pairs", json={"names": ["Mo", "Ned"]}))
    for n, club in enumerate(["Port", "Port", "San"]):
        register(teams["code"], [f"A{n}", f"B{n}"], club)
    yield "night_teams_uneven", code_of(c.post(f"{teams_api}/rounds", headers=teams_director))


def player_requests_reached(c: TestClient) -> Iterator[tuple[str, tuple[str, dict[str, Param]]]]:
    """A profile's refusals (API.md § Players): a bad or taken handle, an unknown language, a
    request without a key, a device not the caller's, a used sign-in code, too many tries."""
    yield "handle_shape", code_of(c.post("/api/players", json={"handle": "a!", "name": "Ann"}))
    made = c.post("/api/players", json={"handle": "reasons", "name": "Ann"})
    key = bearer(made.json()["key"])
    yield "handle_taken", code_of(c.post("/api/players", json={"handle": "Reasons", "name": "B"}))
    yield "language_unknown", code_of(c.patch("/api/me", json={"language": "xx"}, headers=key))
    yield "player_key_needed", code_of(c.get("/api/me"))
    yield "no_device", code_of(c.delete("/api/me/devices/999999", headers=key))
    yield "signin_code_gone", code_of(c.post("/api/signin", json={"code": "sc.used-or-never"}))
    night = c.post("/api/nights", json={"name": "Handles"}).json()
    pairs, director = f"/api/nights/{night['code']}/pairs", bearer(night["director_token"])
    by_handle = {"names": ["A", "B"], "handles": ["reasons", None]}
    # A handle without its player's consent (the director of a plain night is nobody's).
    yield "no_consent", code_of(c.post(pairs, json=by_handle, headers=director))
    assert c.post(pairs, json=by_handle, headers=key).status_code == 201
    yield "night_player_in_a_pair", code_of(c.post(pairs, json=by_handle, headers=key))
    nobody = {"names": ["A", "B"], "handles": ["nobody", None]}
    yield "no_player", code_of(c.post(pairs, json=nobody, headers=director))
    for _ in range(SIGNIN_TRIES):
        c.post("/api/signin", json={"code": "sc.guess"})
    yield "too_many_signins", code_of(c.post("/api/signin", json={"code": "sc.guess"}))


def report_requests_reached(c: TestClient) -> Iterator[tuple[str, tuple[str, dict[str, Param]]]]:
    """A report's refusals (API.md § Reports): by one who never sat there, of oneself, a
    flood."""
    keys = []
    for handle in ("reporter", "reported"):
        made = c.post("/api/players", json={"handle": handle, "name": "Ann"})
        keys.append(bearer(made.json()["key"]))
    code = c.post("/api/rooms", json={}).json()["code"]
    assert c.post(f"/api/rooms/{code}/join", json={"name": "A"}, headers=keys[0]).status_code == 200
    said = {"reason": "abuse", "text": "rude", "room": code}
    yield (
        "not_at_table",
        code_of(c.post("/api/reports", json={**said, "handle": "reporter"}, headers=keys[1])),
    )
    yield (
        "report_self",
        code_of(c.post("/api/reports", json={**said, "handle": "reporter"}, headers=keys[0])),
    )
    # The reported player sits there too: a report names one who sat at the table.
    assert c.post(f"/api/rooms/{code}/join", json={"name": "B"}, headers=keys[1]).status_code == 200
    for _ in range(REPORTS_PER_HOUR):
        c.post("/api/reports", json={**said, "handle": "reported"}, headers=keys[0])
    flood = c.post("/api/reports", json={**said, "handle": "reported"}, headers=keys[0])
    yield "too_many_reports", code_of(flood)


def push_requests_reached(c: TestClient) -> Iterator[tuple[str, tuple[str, dict[str, Param]]]]:
    """Web Push's refusals (API.md § The phone): an endpoint off the push services' list, a
    subscription's keys that are not keys, a spectator saying a seat's page is in sight, an
    eleventh subscription of one player."""
    key = bearer(c.post("/api/players", json={"handle": "pusher", "name": "Pat"}).json()["key"])
    good = {"p256dh": "BOr" + "A" * 84, "auth": "A" * 22}
    off = {"endpoint": "http://10.0.0.1/push/x", "keys": good}
    yield "push_host", code_of(c.post("/api/me/push", json={"subscription": off}, headers=key))
    bad = {"endpoint": "https://fcm.googleapis.com/fcm/send/x", "keys": {**good, "p256dh": "x"}}
    yield "push_key", code_of(c.post("/api/me/push", json={"subscription": bad}, headers=key))
    code = c.post("/api/rooms", json={}).json()["code"]
    unseated = c.post(f"/api/rooms/{code}/sight", json={"visible": False})
    yield "sight_not_seated", code_of(unseated)
    phones = [Browser(f"https://fcm.googleapis.com/fcm/send/r{n}") for n in range(11)]
    for phone in phones[:SUBSCRIPTIONS_PER_PLAYER]:
        c.post("/api/me/push", json={"subscription": phone.subscription()}, headers=key)
    full = c.post("/api/me/push", json={"subscription": phones[-1].subscription()}, headers=key)
    yield "too_many", code_of(full)


def ban_requests_reached(c: TestClient) -> Iterator[tuple[str, tuple[str, dict[str, Param]]]]:
    """A banned player's play now (API.md § Play now, friends, blocks, reports)."""
    key = bearer(c.post("/api/players", json={"handle": "outcast", "name": "Oz"}).json()["key"])
    c.post("/api/admin/players/outcast/ban", json={"reason": "abuse"}, headers=bearer(ADMIN))
    yield "banned", code_of(c.post("/api/play", json={}, headers=key))


def cooling_off_reached(c: TestClient) -> Iterator[tuple[str, tuple[str, dict[str, Param]]]]:
    """Play now for a player who left 3 of their last 10 public games (API.md § Fifth round,
    *Leavers*)."""
    from tests.players.test_cooling_off import played

    key = c.post("/api/players", json={"handle": "quitter", "name": "Quin"}).json()["key"]
    now = datetime.now(UTC)
    played(c, key, "quitter", [(now - timedelta(minutes=m), True) for m in (3, 2, 1)])
    yield "cooling_off", code_of(c.post("/api/play", json={}, headers=bearer(key)))


def renege_requests_reached(c: TestClient) -> Iterator[tuple[str, tuple[str, dict[str, Param]]]]:
    """Renege mode's refusals of a request (R22-R23): a move while the hand is reckoned, a
    call by someone who holds no seat at the table."""
    code, tokens = renege_room(c, ADMIN)
    play_until(c, code, tokens, renege=False, stop="reckoning")
    api = f"/api/rooms/{code}"
    stand = {"type": "stand"}
    yield "being_reckoned", code_of(c.post(f"{api}/actions", json=stand, headers=bearer(tokens[0])))
    yield "call_needs_seat", code_of(c.post(f"{api}/renege", json={"lift": 1}))


def renege_reached() -> dict[str, tuple[str, dict[str, Param]]]:
    """Renege mode's reasons in the rules (R22-R23), each from the position that gives it."""
    one = Rules(renege="one")
    dealt = do(game(0, stack(0, RENEGE_HANDS, "3H"), rules=one), "stand")
    led = do(dealt, "KC")
    called = apply(led, call(1, 1))
    reckoning = strict_out(dealt)
    assert reckoning.phase is Phase.RECKONING
    return {
        "call_outside_hand": _rule(dealt, call(1, 1)),
        "lift_not_begun": _rule(led, call(1, 2)),
        "bad_lift": _rule(led, call(1, 0)),
        "bad_seat": _rule(led, call(4, 1)),
        "not_reckoning": _rule(led, reckoned(1)),
        "lift_already_called": _rule(called, call(3, 1)),
        "renege_off": _rule(do(game(0, stack(0, RENEGE_HANDS, "3H")), "stand KC"), call(1, 1)),
        "hand_being_reckoned": _rule(reckoning, Action("stand")),
    }


def test_every_reason_is_reached_and_answers_its_own_code(table: Table, database_url: str) -> None:
    reached: dict[str, tuple[str, dict[str, Param]]] = {}
    reached |= rules_reached()
    reached |= renege_reached()
    reached |= dict(requests_reached(table))
    reached |= dict(night_requests_reached(table.client))
    reached |= dict(renege_requests_reached(table.client))
    reached |= dict(passkey_requests_reached(table.client))
    reached |= dict(club_requests_reached(table.client))
    reached |= dict(social_requests_reached(table.client, database_url))
    reached |= dict(player_requests_reached(table.client))  # last: it spends the sign-in tries
    reached |= dict(_limits_reached(database_url))
    reached |= dict(report_requests_reached(table.client))
    reached |= dict(push_requests_reached(table.client))
    reached |= dict(ban_requests_reached(table.client))
    reached |= dict(cooling_off_reached(table.client))
    reached |= dict(boards_requests_reached(table.client))
    for expected, (code, _params) in reached.items():
        assert code == expected, (expected, code)
    unreached = set(REASONS) - set(reached) - RACES - LEGACY
    assert not unreached, f"no test reaches {sorted(unreached)}"
    assert set(REASONS) >= (RACES | LEGACY)  # still defined: still checked for their words


def _limits_reached(database_url: str) -> Iterator[tuple[str, tuple[str, dict[str, Param]]]]:
    gate = StreamGate(per_address=1, per_room=1)
    assert gate.admit("10.0.0.1", "room", None) is None
    for code, refused in [
        ("too_many_streams", gate.admit("10.0.0.1", "other", None)),
        ("room_streams_full", gate.admit("10.0.0.2", "room", None)),
    ]:
        assert refused is not None
        yield code, (refused.code, refused.params)
    app = create_app(app_settings(database_url, rooms_per_hour=1))
    with TestClient(app) as quota:
        assert quota.post("/api/rooms", json={}).status_code == 201
        yield "too_many_rooms", code_of(quota.post("/api/rooms", json={}))
    with TestClient(create_app(app_settings(database_url, admin_token=None))) as off:
        yield "admin_off", code_of(off.get("/api/admin/rooms"))
        yield "metrics_loopback_only", code_of(off.get("/metrics"))


# -- the words of every reason, in every language -------------------------------------------

SAMPLE: dict[str, Param] = {
    "suit": "H", "card": "JH", "seat": 2, "name": "Ann", "max": 24, "count": 5, "seconds": 10,
    "action": "beg", "index": 99, "given": "ZZ", "code": "abcd", "number": 2, "hand": 1,
    "expected": 3, "current": 4, "levels": "easy", "presets": "stand", "fields": "seat",
    "per_hour": 30, "address": "10.0.0.1", "lift": 3, "to": 2, "round": 2, "pairs": 1,
    "left": 3, "games": 10, "minutes": 10,
}  # fmt: skip


@pytest.fixture(scope="module")
def catalogs() -> dict[str, dict[tuple[str | None, str], Any]]:
    out = {}
    for lang in LANGS:
        with (i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
            out[lang] = {
                (m.context, m.id if isinstance(m.id, str) else m.id[0]): m for m in read_po(f)
            }
    return out


@pytest.mark.parametrize("code", sorted(REASONS))
def test_every_reason_has_its_sentence_in_every_language(
    code: str, catalogs: dict[str, dict[tuple[str | None, str], Any]]
) -> None:
    import app.main  # noqa: F401 - every module that defines a reason is loaded

    reason = REASONS[code]
    params = {k: v for k, v in SAMPLE.items() if "{" + k in reason.detail}
    for lang in LANGS:
        entry = catalogs[lang].get((None, reason.sentence))
        assert entry is not None and entry.string, (lang, code, reason.sentence)
        with i18n.reading(lang):
            said = sentence(reason, params)
        assert said and "%(" not in said, (lang, code, said)


def test_the_openapi_document_lists_every_code(client: TestClient) -> None:
    code = client.get("/openapi.json").json()["components"]["schemas"]["ErrorOut"]["properties"]
    listed = code["code"]["x-reasons"]
    assert set(listed) == set(REASONS)
    assert listed["must_follow"] == "you must follow {suit} or play a trump"
    assert all(name in code["code"]["description"] for name in REASONS)
