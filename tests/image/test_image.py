"""The image as `docker run` serves it: healthy, non-root, SQLite in /data, quick to stop."""

from __future__ import annotations

import ipaddress
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.image.support import (
    IMAGE,
    Container,
    default_gateway,
    docker,
    read_events,
    remove_container,
    request_clients,
    start_container,
    wait_answering,
    wait_healthy,
)

CLIENT = "203.0.113.7"  # a documentation address, standing for a player behind a proxy
# uvicorn's last line after a shutdown, and its line when the graceful timeout cut tasks short.
GRACEFUL_END = "Finished server process"
FORCED_END = "timeout graceful shutdown exceeded"


@pytest.fixture(scope="module")
def bridge_gateway(image: str) -> str:
    """The gateway of Docker's default bridge (its subnet's first address unless it says)."""
    (config,) = json.loads(
        docker("network", "inspect", "bridge", "--format", "{{json .IPAM.Config}}")
    )
    return config.get("Gateway") or str(ipaddress.ip_network(config["Subnet"])[1])


@pytest.fixture(scope="module")
def served(image: str, bridge_gateway: str) -> Iterator[Container]:
    """One container, as a self-hoster starts it, once Docker calls it healthy."""
    container = start_container("-e", f"FORWARDED_ALLOW_IPS={bridge_gateway}")
    try:
        wait_healthy(container.id)
        yield container
    finally:
        remove_container(container)


def test_turns_healthy_without_a_restart(served: Container) -> None:
    """Docker's HEALTHCHECK calls the first start healthy: no restart, one server start, the
    last probe passed and none failing since (how soon: `python -m bench.image`)."""
    state = served.inspect()
    assert state["RestartCount"] == 0, state["RestartCount"]
    health = state["State"]["Health"]
    assert health["Status"] == "healthy" and health["FailingStreak"] == 0, health
    assert health["Log"][-1]["ExitCode"] == 0, health["Log"]
    assert served.logs().count("All Fours at http://") == 1, served.logs()


def test_serves_the_home_page_and_opens_a_room(served: Container) -> None:
    """`GET /` is the home page; `POST /api/rooms` opens a room (201, its code)."""
    container = served
    home = httpx.get(container.url + "/", timeout=10)
    assert home.status_code == 200 and "text/html" in home.headers["content-type"]
    created = httpx.post(container.url + "/api/rooms", json={}, timeout=10)
    assert created.status_code == 201, created.text
    code = created.json()["code"]
    assert httpx.get(f"{container.url}/api/rooms/{code}", timeout=10).status_code == 200


def test_the_server_runs_as_uid_10001(served: Container) -> None:
    """PID 1 (python -m app.serve) runs as the unprivileged uid and gid 10001, never root."""
    container = served
    status = container.exec("cat", "/proc/1/status")
    ids = {line.split(":")[0]: line.split()[1:] for line in status.splitlines()}
    assert ids["Uid"] == ["10001"] * 4, ids["Uid"]
    assert ids["Gid"] == ["10001"] * 4, ids["Gid"]
    assert "app.serve" in container.exec("cat", "/proc/1/cmdline")


def test_the_database_is_in_the_data_volume(served: Container) -> None:
    """/data is a Docker volume and the SQLite database file is in it."""
    container = served
    (mount,) = [m for m in container.inspect()["Mounts"] if m["Destination"] == "/data"]
    assert mount["Type"] == "volume"
    assert "allfours.db" in container.exec("ls", "/data").split()
    assert (Path(mount["Source"]) / "allfours.db").is_file()  # on the volume, not the layer


def test_a_proxy_on_the_host_is_seen_at_the_bridge_gateway(
    served: Container, bridge_gateway: str
) -> None:
    """Host connections arrive from the bridge gateway; trusted there, X-Forwarded-For counts."""
    container = served
    assert default_gateway(container) == bridge_gateway
    httpx.get(container.url + "/nowhere-direct", timeout=10)
    httpx.get(container.url + "/nowhere-proxied", headers={"X-Forwarded-For": CLIENT}, timeout=10)
    assert request_clients("/nowhere-direct", container) == [bridge_gateway]
    assert request_clients("/nowhere-proxied", container) == [CLIENT]


def test_a_room_survives_a_restart(image: str) -> None:
    """A room opened before `docker restart` is still there after it (same /data volume)."""
    container = start_container()
    try:
        wait_answering(container)
        code = httpx.post(container.url + "/api/rooms", json={}, timeout=10).json()["code"]
        docker("restart", container.id)
        wait_answering(container)
        room = httpx.get(f"{container.url}/api/rooms/{code}", timeout=10)
        assert room.status_code == 200 and room.json()["code"] == code
    finally:
        remove_container(container)


def test_docker_stop_is_graceful_with_a_stream_open(image: str) -> None:
    """SIGTERM ends the open event streams and the process: `docker stop` needs no SIGKILL
    (exit 0, not 137) and uvicorn finished its shutdown without cancelling a stream at its
    graceful timeout (how long it takes: `python -m bench.image`)."""
    container = start_container()
    try:
        wait_answering(container)
        code = httpx.post(container.url + "/api/rooms", json={}, timeout=10).json()["code"]
        events = f"{container.url}/api/rooms/{code}/events"
        with httpx.stream("GET", events, timeout=httpx.Timeout(10, read=30)) as stream:
            lines = stream.iter_lines()
            event, _, _ = next(read_events(lines))
            assert event == "state"
            docker("stop", container.id)
            for _ in lines:  # the server closed the stream; the client sees its end
                pass
        state = container.inspect()["State"]
        assert state["ExitCode"] == 0 and not state["OOMKilled"], state
        logs = container.logs()
        assert GRACEFUL_END in logs, logs
        assert FORCED_END not in logs, logs
    finally:
        remove_container(container)


def test_a_data_folder_the_app_cannot_write_fails_with_what_to_do(
    image: str, tmp_path: Path
) -> None:
    """A root-owned host folder at /data stops the server with a message naming uid 10001."""
    data = tmp_path / "data"
    data.mkdir(mode=0o755)  # owned by the test's user (root in CI), not by 10001
    argv = ["docker", "run", "--rm", "-v", f"{data}:/data", IMAGE]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    assert "10001" in output, output
    assert "Traceback" not in output, output
