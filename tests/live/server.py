"""A real server process (``python -m app.serve``: migrate, then uvicorn) on a free port."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]
# A loaded machine (load 20 on two cores, as seen) may take minutes to migrate and bind.
START_DEADLINE_S = 180


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    def __init__(self, database_url: str, log: Path, **env: str) -> None:
        self.database_url = database_url
        self.log = log
        self.env = env
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "HOST": "127.0.0.1",
            "PORT": str(self.port),
            "ALLFOURS_RATE_LIMIT": "0",
            "ALLFOURS_BOT_DELAY_MS": "0",
            # Review workers at the usual priority: under SCHED_IDLE they get no CPU while the
            # machine is busy (the other test lane), and a review test would need an idle one.
            "ALLFOURS_REVIEW_LIE_LOW": "0",
            "LOG_LEVEL": "warning",
            **self.env,
        }
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "app.serve"], cwd=ROOT, env=env, stdout=out, stderr=out
            )
        end = time.monotonic() + START_DEADLINE_S
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(self.url + "/healthz", timeout=5).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            if time.monotonic() > end:
                self.kill()
                raise RuntimeError(f"the server did not start: {self.log.read_text()[-2000:]}")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush — as a crash."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


def parse_sse(lines: list[str]) -> dict[str, Any]:
    """One SSE event from its field lines."""
    event: dict[str, Any] = {"event": "message", "data": []}
    for line in lines:
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "data":
            event["data"].append(value)
        elif field in ("event", "id"):
            event[field] = value
    event["data"] = "\n".join(event["data"])
    if event["event"] in ("state", "presence"):
        event["view"] = json.loads(event["data"])
    return event
