"""The room code read aloud: shown grouped ("p9d5 btxd hggh"), accepted as typed — any
case, with or without spaces or dashes, or the whole link — and kept at its length."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.services.identity import CODE_LENGTH, grouped_code, typed_code
from tests.api.table import new_room
from tests.web.dom import having, parse


def _spoken(code: str) -> list[str]:
    return [
        grouped_code(code),
        grouped_code(code).upper(),
        "-".join(grouped_code(code).split()),
        f"  {code[:6]} \u2013 {code[6:]} ",  # the long dash a keyboard makes of "-"
        f"{code[:4]}\u00a0{code[4:]}",  # a no-break space from a copied page
    ]


def test_grouped_and_typed_codes() -> None:
    assert grouped_code("p9d5btxdhggh") == "p9d5 btxd hggh"
    assert typed_code(" P9D5-BTXD hggh ") == "p9d5btxdhggh"
    assert typed_code("https://example.test/r/p9d5btxdhggh/") == "p9d5btxdhggh"
    assert len(typed_code(grouped_code("p9d5btxdhggh"))) == CODE_LENGTH


def test_the_room_page_shows_the_code_grouped(client: TestClient) -> None:
    code = new_room(client)
    assert len(code) == CODE_LENGTH  # the table's key keeps its length
    page = client.get(f"/r/{code}").text
    elements = parse(page)
    [shown] = having(elements, "data-room-code")
    assert shown.get("data-room-code") == code and shown.all_text() == grouped_code(code)
    assert f"<b>{grouped_code(code)}</b>" in page  # the top bar too


def test_a_typed_code_finds_the_room(client: TestClient) -> None:
    code = new_room(client)
    for typed in _spoken(code):
        r = client.get("/join", params={"code": typed}, follow_redirects=False)
        assert (r.status_code, r.headers["location"]) == (303, f"/r/{code}"), typed


def test_a_room_url_typed_by_hand_goes_to_the_room_s_one_address(client: TestClient) -> None:
    code = new_room(client)
    for typed in (code.upper(), "-".join(grouped_code(code).split()), grouped_code(code)):
        r = client.get(f"/r/{typed}", follow_redirects=False)
        assert (r.status_code, r.headers["location"]) == (301, f"/r/{code}"), typed
    assert client.get(f"/r/{code}", follow_redirects=False).status_code == 200


def test_a_code_of_no_room_says_so(client: TestClient) -> None:
    for typed in ("nosuchroom", "abcd efgh jkmn", "x" * 300, "p9d5\x00btxd"):
        r = client.get("/join", params={"code": typed})
        assert r.status_code in (404, 422) and "table" in r.text, typed
    r = client.get("/r/abcd-efgh-jkmn")
    assert r.status_code == 404 and "No table" in r.text
    assert client.get("/join", params={"code": " - "}).status_code == 422


def test_the_invite_box_offers_share_with_its_own_status(client: TestClient) -> None:
    code = new_room(client)
    elements = parse(client.get(f"/r/{code}").text)
    [box] = having(elements, "data-invite-box")
    [button] = [e for e in having(elements, "data-action") if e.get("data-action") == "share"]
    [status] = having(elements, "data-share-status")
    assert box in button.ancestors and box in status.ancestors  # the "copied" note stays inside
    assert status.get("role") == "status"


def test_how_to_play_is_served(client: TestClient) -> None:
    r = client.get("/how-to-play")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "How to play All Fours" in r.text
