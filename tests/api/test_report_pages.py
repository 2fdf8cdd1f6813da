"""The page that reports a player: from the profile's link, the browser's player reports
from a table they sat at; refusals come back as the form, in the reader's words."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.api.context import PLAYER_COOKIE
from app.services.identity import grouped_code
from tests.api.conftest import ADMIN
from tests.api.table import bearer, new_room
from tests.api.test_reports import player, sit

SAME_SITE = {"Sec-Fetch-Site": "same-origin"}


def as_browser(client: TestClient, key: str) -> None:
    client.cookies.set(PLAYER_COOKIE, key)


def test_a_player_reports_from_the_page_and_the_admin_reads_it(client: TestClient) -> None:
    ann, ann_key = player(client, "Ann")
    ben, ben_key = player(client, "Ben")
    code = new_room(client)
    sit(client, code, ann_key)
    sit(client, code, ben_key)
    assert f'href="/p/{ben}/report"' in client.get(f"/p/{ben}").text

    signed_out = client.get(f"/p/{ben}/report")
    assert signed_out.status_code == 200 and "data-error" in signed_out.text
    assert "<form" not in signed_out.text.split("<main", 1)[1]

    as_browser(client, ann_key)
    form = client.get(f"/p/{ben}/report?room={code}")
    assert f'value="{code}"' in form.text and 'data-action="report"' in form.text
    # the code as the table writes it ("vpxa mwrv 49x8"), as a phone capitalises it
    body = {"room": grouped_code(code).capitalize(), "reason": "cheating", "text": "reneged twice"}
    sent = client.post(f"/p/{ben}/report", data=body, headers=SAME_SITE)
    assert sent.status_code == 201 and "data-reported" in sent.text
    kept = client.get("/api/admin/reports", headers=bearer(ADMIN)).json()["reports"]
    assert any(
        (k["reporter"], k["handle"], k["room"], k["text"]) == (ann, ben, code, "reneged twice")
        for k in kept
    )


def test_refusals_come_back_as_the_form_in_the_readers_words(client: TestClient) -> None:
    _, ann_key = player(client, "Ann")
    ben, _ = player(client, "Ben")
    code = new_room(client)
    as_browser(client, ann_key)  # Ann never sat at this table
    body = {"room": code, "reason": "abuse", "text": "rude"}
    refused = client.post(f"/p/{ben}/report?lang=fr", data=body, headers=SAME_SITE)
    assert refused.status_code == 403
    said = "Un signalement depuis une table est fait par un joueur qui s&#39;y est assis"
    assert said in refused.text
    assert 'value="rude"' not in refused.text and ">rude</textarea>" in refused.text
    no_reason = client.post(f"/p/{ben}/report", data={**body, "reason": "ugly"}, headers=SAME_SITE)
    assert no_reason.status_code == 422
    client.cookies.clear()
    assert client.post(f"/p/{ben}/report", data=body, headers=SAME_SITE).status_code == 401


def test_the_code_is_read_as_the_table_writes_it_with_dashes_or_spaces(client: TestClient) -> None:
    """What broke: the form refused "vpxa mwrv 49x8", the code as the table shows it."""
    _, ann_key = player(client, "Ann")
    ben, ben_key = player(client, "Ben")
    for dashed in (False, True):
        code = new_room(client)
        shown = grouped_code(code)  # "vpxa mwrv 49x8"
        typed = "-".join(shown.upper().split()) if dashed else shown
        sit(client, code, ann_key)
        sit(client, code, ben_key)
        as_browser(client, ann_key)
        body = {"room": f" {typed} ", "reason": "abuse", "text": "rude"}
        sent = client.post(f"/p/{ben}/report", data=body, headers=SAME_SITE)
        assert sent.status_code == 201 and "data-reported" in sent.text, sent.text
