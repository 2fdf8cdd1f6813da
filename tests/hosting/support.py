"""Helpers for the hosting tests: a real server process on a free loopback port."""

import contextlib
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest


@dataclass
class Server:
    """`python -m app.serve` running in a subprocess on a free loopback port."""

    proc: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        return self.log.read_text(errors="replace")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_healthy(server: Server, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            pytest.fail(f"the server exited with {server.proc.returncode}:\n{server.output()}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(server.url + "/healthz", timeout=2).status_code == 200:
                return
        time.sleep(0.1)
    pytest.fail(f"the server did not answer /healthz:\n{server.output()}")
