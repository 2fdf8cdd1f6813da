"""Every game kept: its record (checked by ``python -m app.verify``), its scorer's notebook,
and the same deals again (API.md "Second round", docs/fairness.md)."""

from __future__ import annotations

import copy
import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app import verify
from app.api.record_schemas import GameRecordOut
from tests.api.conftest import ADMIN
from tests.api.table import bearer, new_room, play_random, seat_four, view
from tests.rules.golden import read as read_notebook
from tests.rules.golden import run as run_notebook

Json = dict[str, Any]
GOLDEN = Path(__file__).parent / "golden"


def record(client: TestClient, code: str, g: int = 1) -> Json:
    r = client.get(f"/api/rooms/{code}/games/{g}")
    assert r.status_code == 200, r.text
    assert r.headers["cache-control"] == "no-store"
    out: Json = r.json()
    GameRecordOut.model_validate(out, strict=True)  # what the OpenAPI document says
    return out


def started(
    client: TestClient, body: Json | None = None, admin: bool = False
) -> tuple[str, list[str]]:
    code = new_room(client, body, admin=ADMIN if admin else None)
    tokens = seat_four(client, code)
    r = client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    assert r.status_code == 200, r.text
    return code, tokens


def act(client: TestClient, code: str, tokens: list[str], type: str) -> Json:
    v = view(client, code)
    r = client.post(
        f"/api/rooms/{code}/actions", json={"type": type}, headers=bearer(tokens[v["turn"]])
    )
    assert r.status_code == 200, r.text
    out: Json = r.json()
    return out


def redealt(client: TestClient) -> tuple[str, list[str]]:
    """A game whose first deal is thrown in (admin seed 16: beg, run the pack, no new suit)."""
    code, tokens = started(client, {"seed": 16, "rules": {"target": 7}}, admin=True)
    act(client, code, tokens, "beg")
    assert act(client, code, tokens, "run_pack")["hand_number"] == 2
    return code, tokens


RULES = [{"target": 7}, {"target": 7, "flip_last_card": True}, {"target": 10, "kick_two": True}]


@pytest.mark.parametrize("rules", RULES)
def test_every_finished_game_checks_out_against_its_committed_seed(
    client: TestClient, rules: Json
) -> None:
    rng = random.Random(str(rules))
    code, tokens = started(client, {"rules": rules})
    running = record(client, code)
    assert running["seed"] is None and running["over"] is False
    commitment = running["seed_commitment"]
    assert len(commitment) == 64 and running["shuffle"] == "sha256-fisher-yates"
    with pytest.raises(verify.Unchecked, match="not over"):
        verify.check(running)
    play_random(client, code, tokens, rng, check=False)
    done = record(client, code)
    assert done["over"] and done["winner"] in (0, 1)
    assert done["seed_commitment"] == commitment  # the same from the first deal to the end
    seed = done["seed"]
    assert isinstance(seed, int) and 0 <= seed < 2**128
    assert hashlib.sha256(str(seed).encode()).hexdigest() == commitment
    assert done["seed"] == view(client, code)["seed"]
    assert done["first_dealer_from"] == "seed"
    assert done["rules"]["target"] == rules["target"]
    assert [s["name"] for s in done["seats"]] == ["Ann", "Ben", "Cal", "Dee"]
    assert len(done["actions"]) == view(client, code)["version"] - 5  # 4 joins and the start
    report = verify.check(done)
    assert report[-1].startswith(f"{len(done['hands'])} hands")


def test_fresh_seeds_have_128_bits(client: TestClient) -> None:
    seeds = []
    for _ in range(6):
        code, tokens = started(client, {"rules": {"target": 7}})
        play_random(client, code, tokens, random.Random(1), check=False)
        seeds.append(record(client, code)["seed"])
    assert len(set(seeds)) == 6 and max(s.bit_length() for s in seeds) > 120


def test_a_game_with_a_redeal_checks_out_and_hides_the_thrown_in_hands_until_over(
    client: TestClient,
) -> None:
    code, tokens = redealt(client)
    running = record(client, code)
    first = running["hands"][0]
    assert first["redeal"] and first["decision"] == "run_pack" and len(first["kicks"]) == 3
    assert first["dealt"] == {"0": None, "1": None, "2": None, "3": None}
    assert running["seed"] is None
    play_random(client, code, tokens, random.Random(5), check=False)
    done = record(client, code)
    assert all(len(cards) == 12 for cards in done["hands"][0]["dealt"].values())
    assert done["seed"] == 16 and done["first_dealer_from"] == "seed"
    assert any("a redeal" in line for line in verify.check(done))


def tampered(good: Json, change: Any) -> Json:
    bad = copy.deepcopy(good)
    change(bad)
    return bad


def _swap_dealt(r: Json) -> None:
    dealt = r["hands"][1]["dealt"]
    dealt["0"][0], dealt["1"][0] = dealt["1"][0], dealt["0"][0]


def _swap_trick(r: Json) -> None:
    hand = next(h for h in r["hands"] if len(h["tricks"]) > 1)
    hand["tricks"][0]["cards"][0]["card"] = hand["tricks"][1]["cards"][0]["card"]


def test_a_tampered_record_fails_naming_the_first_difference(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, tokens = redealt(client)
    play_random(client, code, tokens, random.Random(8), check=False)
    good = record(client, code)
    kick = good["hands"][1]["kicks"][0]
    other_kick = "2C" if kick != "2C" else "3C"
    cases: list[tuple[Any, type[Exception], str]] = [
        (lambda r: r.update(seed=r["seed"] + 1), verify.Mismatch, "not the one committed to"),
        (lambda r: r.update(seed_commitment="0" * 64), verify.Mismatch, "committed"),
        (lambda r: r.update(first_dealer=(r["first_dealer"] + 1) % 4), verify.Mismatch,
         "first dealer"),
        (_swap_dealt, verify.Mismatch, "hand 2: seat 0 was dealt"),
        (lambda r: r["hands"][1]["kicks"].__setitem__(0, other_kick), verify.Mismatch,
         "hand 2: "),
        (lambda r: r["hands"][0].update(redeal=False), verify.Mismatch, "hand 2: dealt by"),
        (lambda r: r["hands"].pop(0), verify.Mismatch, "hand 1 is numbered 2"),
        (_swap_trick, verify.Mismatch, "lift 1"),
        (lambda r: r["actions"].pop(), verify.Mismatch, "actions, the record only"),
        (lambda r: r["actions"][0].update(type="stand"), verify.Mismatch, "action 1 is seat"),
        (lambda r: r.update(format="x"), verify.Unchecked, "not a game record"),
        (lambda r: r.update(seed=None), verify.Unchecked, "not over"),
        (lambda r: r.update(hands=[[1, 2]]), verify.Unchecked, "not a game record"),
        (lambda r: r["hands"][0].update(tricks=[{"cards": [7]}]), verify.Unchecked, "shape"),
    ]  # fmt: skip
    for change, kind, words in cases:
        with pytest.raises(kind, match=words):
            verify.check(tampered(good, change))

    # The command line: 0 checks out, 1 differs from its seed, 2 cannot be checked.
    path = tmp_path / "game.json"
    path.write_text(json.dumps(good))
    assert verify.main([str(path)]) == 0
    assert capsys.readouterr().out.rstrip().endswith("OK")
    path.write_text(json.dumps(tampered(good, _swap_dealt)))
    assert verify.main([str(path)]) == 1
    assert "FAILED: hand 2: seat 0 was dealt" in capsys.readouterr().err
    path.write_text("{not json")
    assert verify.main([str(path)]) == 2
    assert "cannot check: not JSON" in capsys.readouterr().err
    assert verify.main([str(tmp_path / "missing.json")]) == 2


def test_the_verifier_stands_alone(client: TestClient, tmp_path: Path) -> None:
    source = Path(verify.__file__).read_text()
    imports = [line for line in source.splitlines() if line.startswith(("import ", "from "))]
    assert imports and not [line for line in imports if "app" in line.split()[1]], imports
    # One file: copied anywhere, run by a bare Python (isolated: no site packages, no
    # project on the path), it checks a record.
    code, tokens = started(client, {"rules": {"target": 7}})
    play_random(client, code, tokens, random.Random(30), check=False)
    (tmp_path / "game.json").write_text(json.dumps(record(client, code)))
    copy_of = tmp_path / "verify.py"
    copy_of.write_text(source)
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(copy_of), "game.json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and done.stdout.rstrip().endswith("OK"), done.stderr


def test_unknown_games_are_404_and_bad_numbers_422(client: TestClient) -> None:
    code = new_room(client)
    for path in (f"/api/rooms/{code}/games/1", f"/api/rooms/{code}/games/1/notebook.txt"):
        r = client.get(path)
        assert r.status_code == 404 and r.json()["error"] == "not_found"  # not started yet
    seat_four(client, code)
    assert client.get(f"/api/rooms/{code}/games/2").status_code == 404
    assert client.get("/api/rooms/nosuchroom12/games/1").status_code == 404
    for g in ("0", "-1", "x", str(2**40)):
        assert client.get(f"/api/rooms/{code}/games/{g}").status_code == 422


def test_rematches_are_kept_each_with_its_own_seed(client: TestClient) -> None:
    code, tokens = started(client, {"rules": {"target": 7}})
    play_random(client, code, tokens, random.Random(2), check=False)
    first = record(client, code)
    client.post(f"/api/rooms/{code}/rematch", headers=bearer(tokens[0]))
    second = record(client, code, 2)
    assert second["game"] == 2 and second["seed"] is None and not second["over"]
    assert second["seed_commitment"] != first["seed_commitment"]
    assert second["first_dealer_from"] == "rotation"
    assert second["first_dealer"] == (first["hands"][-1]["dealer"] + 1) % 4
    assert record(client, code, 1) == first  # the first game's record stays as it was
    play_random(client, code, tokens, random.Random(3), check=False)
    assert verify.check(record(client, code, 2))


# -- the notebook ------------------------------------------------------------------------------


def first_legal_to_the_end(client: TestClient, code: str, tokens: list[str]) -> None:
    """Always the first legal move: a game that plays the same each time."""
    while (v := view(client, code))["turn"] is not None:
        mine = view(client, code, tokens[v["turn"]])
        r = client.post(
            f"/api/rooms/{code}/actions", json=mine["legal"][0], headers=bearer(tokens[v["turn"]])
        )
        assert r.status_code == 200, r.text


def test_the_notebook_of_a_finished_game_is_a_golden_playthrough(
    client: TestClient, tmp_path: Path
) -> None:
    code, tokens = redealt(client)
    first_legal_to_the_end(client, code, tokens)
    r = client.get(f"/api/rooms/{code}/games/1/notebook.txt")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    text = r.text
    # The room's code is drawn afresh: the golden copy names it ROOMCODE.
    golden = (GOLDEN / "notebook_seed_16.txt").read_text()
    assert text.replace(code, "ROOMCODE") == golden
    # And it is one: the golden reader replays it on the engine, every check passing.
    path = tmp_path / "notebook.txt"
    path.write_text(text)
    final = run_notebook(read_notebook(path))
    done = record(client, code)
    assert final.winner == done["winner"] and list(final.scores) == done["scores"]


def test_the_notebook_of_a_running_game_shows_only_what_is_public(client: TestClient) -> None:
    code, _ = redealt(client)
    text = client.get(f"/api/rooms/{code}/games/1/notebook.txt").text
    assert "seed: a secret until the game is over" in text
    assert record(client, code)["seed_commitment"] in text
    assert "# seat 0: not shown" in text and "deal 2 is being played" in text


# -- the same deals again ----------------------------------------------------------------------


def test_the_same_deals_again_for_a_seated_player_once_the_game_is_over(
    client: TestClient,
) -> None:
    code, tokens = redealt(client)
    again = f"/api/rooms/{code}/games/1/again"
    r = client.post(again, headers=bearer(tokens[1]))
    assert r.status_code == 409 and r.json()["error"] == "conflict"  # not over yet
    play_random(client, code, tokens, random.Random(9), check=False)
    original = record(client, code)
    assert client.post(again).status_code == 403  # no seat
    _, other_tokens = started(client)
    assert client.post(again, headers=bearer(other_tokens[0])).status_code == 403
    assert (
        client.post(f"/api/rooms/{code}/games/2/again", headers=bearer(tokens[0])).status_code
        == 404
    )

    r = client.post(again, headers=bearer(tokens[2]))
    assert r.status_code == 201, r.text
    replay = r.json()["code"]
    assert replay != code and r.json()["url"] == f"/r/{replay}"
    new_tokens = seat_four(client, replay)
    client.post(f"/api/rooms/{replay}/start", headers=bearer(new_tokens[3]))
    # The same moves, in the same order, on the new table: the very same game.
    for a in original["actions"]:
        move = {"type": a["type"], **({"card": a["card"]} if a["card"] else {})}
        r = client.post(
            f"/api/rooms/{replay}/actions", json=move, headers=bearer(new_tokens[a["seat"]])
        )
        assert r.status_code == 200, r.text
    copy_of = record(client, replay)
    assert copy_of["replay_of"] == {"room": code, "game": 1}
    assert copy_of["first_dealer_from"] == "replay"
    for key in ("hands", "seed", "seed_commitment", "first_dealer", "winner", "scores", "rules"):
        assert copy_of[key] == original[key], key
    assert verify.check(copy_of)
    # Its rematch is a new secret: the replayed seed is public.
    client.post(f"/api/rooms/{replay}/rematch", headers=bearer(new_tokens[0]))
    assert record(client, replay, 2)["seed_commitment"] != original["seed_commitment"]


def test_the_same_deals_again_deal_identical_first_hands_before_anyone_moves(
    client: TestClient,
) -> None:
    code, tokens = started(client, {"rules": {"target": 7}})
    play_random(client, code, tokens, random.Random(4), check=False)
    client.post(f"/api/rooms/{code}/rematch", headers=bearer(tokens[0]))
    play_random(client, code, tokens, random.Random(6), check=False)
    second = record(client, code, 2)
    r = client.post(f"/api/rooms/{code}/games/2/again", headers=bearer(tokens[0]))
    replay = r.json()["code"]
    new_tokens = seat_four(client, replay)
    client.post(f"/api/rooms/{replay}/start", headers=bearer(new_tokens[0]))
    # A rematch's first dealer came from the deal passing on: the replay keeps it.
    assert view(client, replay)["dealer"] == second["first_dealer"]
    first_hand = second["hands"][0]
    for seat in range(4):
        held = set(view(client, replay, new_tokens[seat])["hand"])
        assert held <= set(first_hand["dealt"][str(seat)]) and len(held) == 6
    assert view(client, replay)["kicks"] == first_hand["kicks"][:1]


def test_the_openapi_document_describes_the_record_routes(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    paths = doc["paths"]
    record_route = paths["/api/rooms/{code}/games/{g}"]["get"]
    ok = record_route["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok == {"$ref": "#/components/schemas/GameRecordOut"}
    assert {"404", "422"} <= set(record_route["responses"])
    notebook = paths["/api/rooms/{code}/games/{g}/notebook.txt"]["get"]["responses"]["200"]
    assert list(notebook["content"]) == ["text/plain"]
    again = paths["/api/rooms/{code}/games/{g}/again"]["post"]["responses"]
    assert {"201", "403", "404", "409"} <= set(again)
    schema = doc["components"]["schemas"]["GameRecordOut"]
    assert schema["properties"]["first_dealer"]["maximum"] == 3  # an integer, not 3.0
    assert isinstance(schema["properties"]["first_dealer"]["maximum"], int)


def test_every_view_carries_the_commitment_and_the_replay_mark(client: TestClient) -> None:
    """API.md: ``seed_commitment`` in every view of a game, the same from its first deal to
    its end; the replay mark on a room that deals a finished game again."""
    code, tokens = redealt(client)
    committed = record(client, code)["seed_commitment"]
    for token in (*tokens, None):
        v = view(client, code, token)
        assert v["seed_commitment"] == committed and v["replay_of"] is None
    play_random(client, code, tokens, random.Random(1), check=False)
    assert view(client, code)["seed_commitment"] == committed
    replay = client.post(f"/api/rooms/{code}/games/1/again", headers=bearer(tokens[0])).json()
    lobby = view(client, replay["code"])
    assert lobby["seed_commitment"] is None and lobby["replay_of"] == {"room": code, "game": 1}
    new_tokens = seat_four(client, replay["code"])
    client.post(f"/api/rooms/{replay['code']}/start", headers=bearer(new_tokens[0]))
    playing = view(client, replay["code"], new_tokens[0])
    assert playing["seed_commitment"] == committed
    assert playing["replay_of"] == {"room": code, "game": 1}


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)


def test_the_verifier_answers_any_mangled_record_with_a_reason(client: TestClient) -> None:
    code, tokens = redealt(client)
    play_random(client, code, tokens, random.Random(21), check=False)
    good = record(client, code)

    @given(data=st.data())
    @settings(
        max_examples=300, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True
    )
    def mangle(data: st.DataObject) -> None:
        bad = copy.deepcopy(good)
        node: Any = bad
        for _ in range(data.draw(st.integers(0, 6))):
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            if not keys:
                break
            key = data.draw(st.sampled_from(keys))
            child = node[key]
            if not isinstance(child, dict | list) or data.draw(st.booleans()):
                node[key] = data.draw(JSON_VALUES)
                break
            node = child
        try:
            verify.check(bad)
        except (verify.Unchecked, verify.Mismatch) as err:
            assert str(err)

    mangle()


def test_an_admins_seed_deals_reproducible_rematches(client: TestClient) -> None:
    code, tokens = redealt(client)  # the admin's seed 16
    play_random(client, code, tokens, random.Random(2), check=False)
    client.post(f"/api/rooms/{code}/rematch", headers=bearer(tokens[0]))
    play_random(client, code, tokens, random.Random(3), check=False)
    second = record(client, code, 2)
    assert second["seed"] == 17  # the admin's seed + 1, as before: a rematch is reproducible
    assert verify.check(second)
