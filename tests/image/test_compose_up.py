"""The compose files as a self-hoster runs them: `.env` settings, `up --wait`, the scale-out.

Each test is its own compose project (prefix allfours-imagetest) on free loopback ports, and
is taken down with its volumes whatever happens.
"""

from __future__ import annotations

import json
import os
import queue
import secrets
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.image.support import (
    PREFIX,
    ROOT,
    Compose,
    Container,
    default_gateway,
    request_clients,
)

CLIENT = "203.0.113.7"  # a documentation address, standing for a player behind a proxy

# Run inside a replica (its python, its loopback): prints each event of a room's stream as
# one JSON line, so the test reads a replica's stream without reaching into its network.
STREAM = """
import json, sys, urllib.request
url = "http://127.0.0.1:8000/api/rooms/%s/events" % sys.argv[1]
event = {}
with urllib.request.urlopen(url, timeout=60) as stream:
    for raw in stream:
        line = raw.decode().rstrip("\\r\\n")
        if not line:
            if "data" in event:
                print(json.dumps(event), flush=True)
            event = {}
        elif line.startswith(("event:", "id:", "data:")):
            key, _, value = line.partition(":")
            event[key] = value.strip()
"""

# Run inside a replica: POST JSON to a path of the server on its own loopback (or to the
# address given), print the answer.
POST = """
import json, sys, urllib.request
path, body, host = sys.argv[1], sys.argv[2], sys.argv[3]
headers = {"Content-Type": "application/json", **json.loads(sys.argv[4])}
request = urllib.request.Request("http://%s:8000%s" % (host, path), body.encode(), headers)
try:
    print(urllib.request.urlopen(request, timeout=10).read().decode())
except urllib.error.HTTPError as err:
    print(err.code)
"""


def _post(replica: Container, path: str, body: Any, host: str = "127.0.0.1", **headers: str) -> Any:
    answer = replica.exec("python", "-c", POST, path, json.dumps(body), host, json.dumps(headers))
    return json.loads(answer)


@pytest.fixture
def sqlite_setup(image: str, tmp_path: Path) -> Iterator[tuple[Compose, Path]]:
    """compose.yaml in a folder of its own (where its `.env` goes), taken down afterwards."""
    compose = Compose(f"{PREFIX}-sqlite-{secrets.token_hex(3)}", [ROOT / "compose.yaml"], tmp_path)
    try:
        yield compose, tmp_path
    finally:
        compose.down()
    assert not compose.leftovers()


def test_compose_up_waits_for_healthy_and_reads_settings_from_dot_env(
    sqlite_setup: tuple[Compose, Path],
) -> None:
    """`.env` beside compose.yaml sets any setting; unset ones keep the image's defaults."""
    compose, folder = sqlite_setup
    (folder / ".env").write_text(
        "ALLFOURS_PUBLISH=127.0.0.1:\n"  # a free loopback port
        "ALLFOURS_BOT_DELAY_MS=0\n"
        "ALLFOURS_RATE_LIMIT=777\n"
        "FORWARDED_ALLOW_IPS=192.0.2.1\n"  # some other proxy: this host is not trusted
    )
    compose.up()  # --wait: fails unless every service turned healthy
    (app,) = compose.containers("app")
    settings = compose(
        "exec", "-T", "app", "python", "-c",
        "from app.settings import Settings; s = Settings(); print(s.bot_delay_ms, s.rate_limit,"
        " s.database_url)",
    )  # fmt: skip
    assert settings.split() == ["0", "777", "sqlite:////data/allfours.db"]
    assert compose("exec", "-T", "app", "printenv", "FORWARDED_ALLOW_IPS") == "192.0.2.1"

    url = "http://" + compose("port", "app", "8000")
    assert httpx.get(url + "/", timeout=10).status_code == 200
    assert httpx.post(url + "/api/rooms", json={}, timeout=10).status_code == 201
    # A proxy on this host reaches the app from the compose network's gateway; an untrusted
    # one's X-Forwarded-For is ignored.
    httpx.get(url + "/nowhere", headers={"X-Forwarded-For": CLIENT}, timeout=10)
    assert request_clients("/nowhere", app) == [default_gateway(app)]


def test_compose_up_without_dot_env_runs_on_the_defaults(
    sqlite_setup: tuple[Compose, Path],
) -> None:
    """No `.env` at all: compose.yaml still starts, with the settings' defaults."""
    compose, folder = sqlite_setup
    assert not (folder / ".env").exists()
    # the host port is compose's own variable, from the shell here (8000 may be taken)
    compose.variables = {"ALLFOURS_PUBLISH": "127.0.0.1:"}
    compose.up()
    settings = compose(
        "exec", "-T", "app", "python", "-c",
        "from app.settings import Settings; s = Settings(); print(s.bot_delay_ms, s.rate_limit)",
    )  # fmt: skip
    assert settings.split() == ["800", "6000"]


@pytest.fixture(scope="module")
def scale_setup(image: str) -> Iterator[Compose]:
    """compose.scale.yaml up (on a subnet of its own, Caddy on a free loopback port)."""
    subnet = 200 + os.getpid() % 50
    compose = Compose(
        f"{PREFIX}-scale-{secrets.token_hex(3)}",
        [ROOT / "compose.scale.yaml", ROOT / "tests" / "image" / "scale.override.yaml"],
        variables={
            "ALLFOURS_DB_PASSWORD": secrets.token_urlsafe(16),
            "ALLFOURS_SECRET_KEY": secrets.token_urlsafe(32),
            "ALLFOURS_SUBNET": f"172.31.{subnet}.0/24",
            "ALLFOURS_PROXY_IP": f"172.31.{subnet}.250",
        },
    )
    try:
        compose.up()
        yield compose
    finally:
        compose.down()
    assert not compose.leftovers()


def _address(container: Container) -> str:
    (network,) = container.inspect()["NetworkSettings"]["Networks"].values()
    address: str = network["IPAddress"]
    return address


def test_scale_out_a_move_on_one_replica_reaches_a_stream_on_the_other(
    scale_setup: Compose,
) -> None:
    """PostgreSQL, migrate, two replicas, Caddy: a join, the bots and the start on replica A
    are each a new version on an event stream held by replica B."""
    compose = scale_setup
    a, b = compose.containers("app")
    caddy = compose("port", "proxy", "443").replace("127.0.0.1", "localhost")
    # through Caddy (HTTPS with its own local CA), as a browser would
    with httpx.Client(base_url=f"https://{caddy}", verify=False, timeout=10) as client:
        created = client.post("/api/rooms", json={})
        assert created.status_code == 201, created.text
    code = created.json()["code"]

    with subprocess.Popen(
        ["docker", "exec", b.id, "python", "-c", STREAM, code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as reader:
        try:
            first = _next_event(reader)
            joined = _post(a, f"/api/rooms/{code}/join", {"name": "Ann"})
            assert joined["seat"] == 0 and joined["token"]
            seen = _next_event(reader)
            assert seen["event"] == "state"
            assert int(seen["id"]) == int(first["id"]) + 1
            assert json.loads(seen["data"])["seats"][0]["name"] == "Ann"

            bearer = {"Authorization": f"Bearer {joined['token']}"}
            for seat in (1, 2, 3):
                _post(a, f"/api/rooms/{code}/bots", {"seat": seat}, **bearer)
            started = _post(a, f"/api/rooms/{code}/start", {}, **bearer)
            assert started["phase"] != "lobby", started
            assert started["version"] == int(seen["id"]) + 4  # three bots, the start
            versions = [int(seen["id"])]
            while versions[-1] < started["version"]:
                versions.append(int(_next_event(reader)["id"]))
        finally:
            reader.kill()
    assert versions == sorted(set(versions)) and versions[-1] == started["version"], versions


def test_scale_out_replicas_believe_only_caddy_about_client_addresses(
    scale_setup: Compose,
) -> None:
    """Through Caddy the log shows the player's address; a forged header elsewhere is ignored."""
    compose = scale_setup
    a, b = compose.containers("app")
    (caddy,) = compose.containers("proxy")
    host_port = compose("port", "proxy", "443").replace("127.0.0.1", "localhost")
    with httpx.Client(base_url=f"https://{host_port}", verify=False, timeout=10) as client:
        for _ in range(4):  # least_conn spreads them over both replicas
            client.get("/nowhere-via-caddy", headers={"X-Forwarded-For": CLIENT})
    seen = request_clients("/nowhere-via-caddy", a, b, count=4)
    # Caddy passes on the address it saw (this host, by the network's gateway), never its own
    gateway = default_gateway(a)
    assert seen == [gateway] * 4, seen
    assert compose.variables is not None
    assert _address(caddy) == compose.variables["ALLFOURS_PROXY_IP"]

    # replica A claiming to be a proxy for CLIENT: B logs A's own address
    answer = _post(a, "/api/nowhere-forged", {}, _address(b), **{"X-Forwarded-For": CLIENT})
    assert answer == 404
    assert request_clients("/api/nowhere-forged", b) == [_address(a)]


def _next_event(reader: subprocess.Popen[str], timeout_s: float = 20) -> dict[str, str]:
    """The next event the in-container stream reader printed.

    Lines are read by a thread of their own: a select() on the pipe would miss events that
    arrived together and sit in the text stream's buffer after the first was read."""
    lines = _LINES.get(reader)
    if lines is None:
        lines = _LINES[reader] = queue.Queue()
        threading.Thread(target=_pump, args=(reader, lines), daemon=True).start()
    try:
        line = lines.get(timeout=timeout_s)
    except queue.Empty:
        pytest.fail(f"no event within {timeout_s} s")
    if not line:
        assert reader.stderr is not None
        pytest.fail(f"the stream reader ended: {reader.stderr.read()}")
    event: dict[str, str] = json.loads(line)
    return event


_LINES: dict[subprocess.Popen[str], queue.Queue[str]] = {}


def _pump(reader: subprocess.Popen[str], lines: queue.Queue[str]) -> None:
    assert reader.stdout is not None
    for line in reader.stdout:
        lines.put(line)
    lines.put("")  # the reader ended
