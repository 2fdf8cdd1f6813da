"""Helpers for the image tests: the docker and docker compose commands, containers, streams."""

from __future__ import annotations

import contextlib
import ipaddress
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
IMAGE = "allfours:latest"
# Every container, network and volume these tests make carries this prefix.
PREFIX = "allfours-imagetest"


def compose_env(**extra: str) -> dict[str, str]:
    """The environment for `docker compose`: this machine's pip index settings for the build."""
    return {**os.environ, **pip_index_settings(), **extra}


def run(
    argv: Sequence[str],
    *,
    timeout: float = 120,
    check: bool = True,
    env: dict[str, str] | None = None,
    cwd: Path = ROOT,
    stdin: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """Runs a command; a failure (when `check`) fails the test with its output."""
    done = subprocess.run(
        list(argv),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env=env,
        cwd=cwd,
        input=stdin,
    )
    if check and done.returncode != 0:
        pytest.fail(f"`{' '.join(argv)}` exited {done.returncode}:\n{done.stdout}{done.stderr}")
    return done


def docker(*args: str, timeout: float = 120, check: bool = True) -> str:
    """`docker ARGS`: its standard output, stripped."""
    return run(["docker", *args], timeout=timeout, check=check).stdout.strip()


def docker_problem() -> str | None:
    """Why Docker cannot run the image here, or None when it can."""
    try:
        info = run(["docker", "info", "--format", "{{.ServerVersion}}"], timeout=30, check=False)
    except FileNotFoundError:
        return "the docker command is not installed"
    except subprocess.TimeoutExpired:
        return "the Docker daemon does not answer (`docker info` timed out)"
    if info.returncode != 0:
        lines = (info.stderr or info.stdout).strip().splitlines()
        return f"the Docker daemon does not answer: {lines[-1] if lines else 'docker info failed'}"
    compose = run(["docker", "compose", "version", "--short"], timeout=30, check=False)
    if compose.returncode != 0:
        return "Docker Compose v2 (`docker compose`) is not installed"
    return None


def pip_index_settings() -> dict[str, str]:
    """This machine's pip index settings (URLs that a build can reach), as PIP_* variables.

    The Dockerfile takes PIP_INDEX_URL, PIP_EXTRA_INDEX_URL and PIP_TRUSTED_HOST as build
    arguments, and the compose files pass them from the environment; local `file:` indexes
    and wheel folders mean nothing inside a build and are left out.
    """
    listed = run(
        [sys.executable, "-m", "pip", "config", "list"], timeout=60, check=False
    ).stdout.splitlines()
    # pip lists files from the least to the most specific, its environment variables last
    found: dict[str, str] = {}
    for line in listed:
        key, _, value = line.partition("=")
        option = key.rsplit(".", 1)[-1]
        if option in ("index-url", "extra-index-url", "trusted-host"):
            found[option] = value.strip().strip("'\"")
    settings: dict[str, str] = {}
    for option, variable in (
        ("index-url", "PIP_INDEX_URL"),
        ("extra-index-url", "PIP_EXTRA_INDEX_URL"),
        ("trusted-host", "PIP_TRUSTED_HOST"),
    ):
        values = found.get(option, "").split()
        if option != "trusted-host":
            values = [v for v in values if v.startswith(("http://", "https://"))]
        if values:
            settings[variable] = " ".join(values)
    return settings


@dataclass
class Container:
    """A container of the image, its port 8000 published on a free loopback port."""

    id: str

    @property
    def url(self) -> str:
        host_port = docker("port", self.id, "8000/tcp").splitlines()[0]
        return "http://" + host_port.replace("0.0.0.0", "127.0.0.1")

    def inspect(self) -> dict[str, Any]:
        found: list[dict[str, Any]] = json.loads(docker("inspect", self.id))
        return found[0]

    def logs(self) -> str:
        done = run(["docker", "logs", self.id], check=False)
        return done.stdout + done.stderr

    def exec(self, *argv: str, timeout: float = 60) -> str:
        return docker("exec", self.id, *argv, timeout=timeout)


def start_container(*args: str) -> Container:
    """`docker run -d` of the image with ARGS before the image name; removed by the caller."""
    name = f"{PREFIX}-{os.getpid()}-{time.monotonic_ns() % 10**9}"
    return Container(docker("run", "-d", "--name", name, "-p", "127.0.0.1::8000", *args, IMAGE))


def remove_container(container: Container) -> None:
    docker("rm", "--force", "--volumes", container.id, check=False)


def wait_healthy(container_id: str) -> None:
    """Until Docker's HEALTHCHECK calls the container healthy; a failure if Docker calls it
    unhealthy or it stops. Docker's own verdict is waited for, not a clock of ours: it says
    "unhealthy" by itself once the start period is over and the probes keep failing (a busy
    machine took 28 s to start the server, which no fixed wait here would have known)."""
    while True:
        state = json.loads(docker("inspect", "--format", "{{json .State}}", container_id))
        status = state["Health"]["Status"]
        if status == "healthy":
            return
        if status == "unhealthy" or not state["Running"]:
            break
        time.sleep(0.1)
    logs = run(["docker", "logs", container_id], check=False)
    pytest.fail(f"{container_id[:12]} {status}:\n{logs.stdout}{logs.stderr}")


def wait_answering(container: Container) -> str:
    """Until GET /healthz answers 200 (without waiting for Docker's probe): the container's
    address. A failure if the container stops; a server that never answers is one Docker
    calls unhealthy, which fails too."""
    url = container.url
    while True:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url + "/healthz", timeout=2).status_code == 200:
                return url
        state = container.inspect()["State"]
        if not state["Running"] or state.get("Health", {}).get("Status") == "unhealthy":
            pytest.fail(f"{url} never answered /healthz ({state}):\n{container.logs()}")
        time.sleep(0.05)


def default_gateway(container: Container) -> str:
    """The container's default route's gateway, as its kernel has it (/proc/net/route)."""
    for line in container.exec("cat", "/proc/net/route").splitlines()[1:]:
        fields = line.split()
        if fields[1] == "00000000":  # destination 0.0.0.0: the default route
            return str(ipaddress.IPv4Address(bytes.fromhex(fields[2])[::-1]))
    pytest.fail("the container has no default route")


def request_clients(path: str, *containers: Container, count: int = 1) -> list[str]:
    """The client addresses of the request log lines for `path` in the containers' logs.

    The server writes a request's line after its answer has gone, so the line may not be in
    the log yet when the client has the answer: wait (a while) until `count` lines are."""
    deadline = time.monotonic() + 15
    while True:
        logs = "".join(container.logs() for container in containers)
        found = re.findall(rf"path={re.escape(path)} status=\d+ ms=[\d.]+ client=(\S+)", logs)
        if len(found) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def read_events(lines: Iterator[str]) -> Iterator[tuple[str, int | None, dict[str, Any]]]:
    """Server-sent events from text lines: (event, id, data as JSON)."""
    event, event_id, data = "message", None, ""
    for raw in lines:
        line = raw.rstrip("\r\n")
        if not line:
            if data:
                yield event, event_id, json.loads(data)
            event, event_id, data = "message", None, ""
        elif line.startswith("event:"):
            event = line.removeprefix("event:").strip()
        elif line.startswith("id:"):
            event_id = int(line.removeprefix("id:").strip())
        elif line.startswith("data:"):
            data += line.removeprefix("data:").strip()


@dataclass
class Compose:
    """`docker compose` on one project of these tests: its files, folder and variables."""

    project: str
    files: list[Path]
    directory: Path = ROOT
    variables: dict[str, str] | None = None

    def __call__(self, *args: str, timeout: float = 180, check: bool = True) -> str:
        argv = ["docker", "compose", "-p", self.project, "--project-directory", str(self.directory)]
        for file in self.files:
            argv += ["-f", str(file)]
        done = run(
            [*argv, *args],
            timeout=timeout,
            check=False,
            env=compose_env(**(self.variables or {})),
        )
        if check and done.returncode != 0:
            logs = run([*argv, "logs", "--no-color"], check=False, env=compose_env())
            pytest.fail(
                f"`docker compose {' '.join(args)}` exited {done.returncode}:\n"
                f"{done.stdout}{done.stderr}\n--- logs:\n{logs.stdout}{logs.stderr}"
            )
        return done.stdout.strip()

    def up(self) -> None:
        """`up -d --wait` with the image already built: every service healthy, or a failure."""
        self("up", "--detach", "--wait", "--no-build", "--pull", "never")

    def down(self) -> None:
        """`down -v`: containers, network and volumes gone, whatever happened before."""
        self("down", "--volumes", "--remove-orphans", "--timeout", "10", check=False)

    def containers(self, service: str) -> list[Container]:
        return [Container(cid) for cid in self("ps", "--quiet", service).split()]

    def leftovers(self) -> list[str]:
        """Containers, networks and volumes of this project still there."""
        label = f"label=com.docker.compose.project={self.project}"
        found = docker("container", "ls", "--all", "--quiet", "--filter", label).split()
        for kind in ("network", "volume"):
            found += docker(kind, "ls", "--quiet", "--filter", label).split()
        return found
