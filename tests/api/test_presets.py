"""Opening a room by preset: ``POST /api/rooms`` with ``"preset"`` (API.md "Second round"),
explicit ``rules`` on top, and the home page's form, with its script or without."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.rules import PRESETS, Rules
from tests.api.table import new_room, view


def _rules(client: TestClient, code: str) -> Rules:
    return Rules(**view(client, code)["rules"])


def test_each_preset_opens_a_room_with_its_rules(client: TestClient) -> None:
    for name, rules in PRESETS.items():
        assert _rules(client, new_room(client, {"preset": name})) == rules
    assert _rules(client, new_room(client)) == PRESETS["trinidad"]


def test_explicit_rules_override_the_preset(client: TestClient) -> None:
    code = new_room(client, {"preset": "tournament", "rules": {"undertrump": "allowed"}})
    assert _rules(client, code) == Rules(
        game_points=2, give_one_needs_trump=True, renege="bullseye"
    )
    code = new_room(client, {"preset": "quick", "rules": {"target": 10, "kick_two": True}})
    assert _rules(client, code) == Rules(target=10, kick_two=True)


def test_an_unknown_preset_is_a_422_and_opens_nothing(client: TestClient) -> None:
    for bad in ("bullseye", "", "Trinidad", 7):
        r = client.post("/api/rooms", json={"preset": bad})
        assert r.status_code == 422, bad
        assert "preset" in r.text
    bad_rule = {"preset": "quick", "rules": {"target": 8}}
    assert client.post("/api/rooms", json=bad_rule).status_code == 422


def test_the_openapi_document_lists_the_presets(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()["components"]["schemas"]["CreateRoom"]
    branches = schema["properties"]["preset"]["anyOf"]
    assert {"type": "string", "enum": list(PRESETS)} in branches
    assert {"type": "null"} in branches


def _form(client: TestClient, data: dict[str, str]) -> Rules:
    r = client.post("/rooms", data=data, follow_redirects=False)
    assert r.status_code == 303, r.text
    return _rules(client, r.headers["location"].removeprefix("/r/"))


# What the page sends for a preset: the radio and every house-rule field (the selects always,
# each checkbox only when ticked).
def _page_fields(rules: Rules) -> dict[str, str]:
    out = {"target": str(rules.target), "game_points": str(rules.game_points)}
    out |= {"game_tie": rules.game_tie, "undertrump": rules.undertrump}
    out |= {"renege": rules.renege, "false_call": rules.false_call}
    flags = ("give_one_can_win", "give_one_needs_trump", "kick_two", "flip_last_card")
    return out | {f: "true" for f in flags if getattr(rules, f)}


def test_the_form_opens_the_chosen_preset(client: TestClient) -> None:
    # Without the page's script the fields stay at the rules as written.
    for name, rules in PRESETS.items():
        assert _form(client, {"preset": name, **_page_fields(Rules())}) == rules
        # With it, choosing a preset set the fields to its rules first.
        assert _form(client, {"preset": name, **_page_fields(rules)}) == rules


def test_house_rules_changed_on_the_form_override_its_preset(client: TestClient) -> None:
    changed = {"preset": "tournament", **_page_fields(Rules()), "target": "21"}
    assert _form(client, changed) == Rules(
        target=21,
        game_points=2,
        undertrump="forbidden",
        give_one_needs_trump=True,
        renege="bullseye",
    )
    # The script sends no preset once the fields match none: the fields alone count.
    custom = _page_fields(Rules(game_points=2, give_one_needs_trump=True))
    assert _form(client, custom) == Rules(game_points=2, give_one_needs_trump=True)


def test_an_unknown_preset_on_the_form_is_refused_in_words(client: TestClient) -> None:
    r = client.post("/rooms", data={"preset": "bullseye"}, follow_redirects=False)
    assert r.status_code == 422 and "Those rules do not work" in r.text
    assert "(R" not in r.text


def test_the_form_sets_the_reckonings_time_and_refuses_one_out_of_range(
    client: TestClient,
) -> None:
    """R23's room option reckon_s (5-120 seconds) from the form's field; absent, 15."""
    data = {**_page_fields(Rules(renege="one")), "reckon_s": "40"}
    r = client.post("/rooms", data=data, follow_redirects=False)
    assert r.status_code == 303, r.text
    assert view(client, r.headers["location"].removeprefix("/r/"))["options"]["reckon_s"] == 40
    r = client.post("/rooms", data=_page_fields(Rules(renege="one")), follow_redirects=False)
    assert view(client, r.headers["location"].removeprefix("/r/"))["options"]["reckon_s"] == 15
    for bad in ("4", "121", "soon", "15.5"):
        r = client.post("/rooms", data={**data, "reckon_s": bad}, follow_redirects=False)
        assert r.status_code == 422, bad
        assert "reckon_s" in r.text
