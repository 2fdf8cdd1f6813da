"""The Docker image's times, as a self-hoster meets them: how long a container takes to turn
healthy (Docker's HEALTHCHECK, one probe every 5 s) and how long `docker stop` takes with an
event stream open (uvicorn closes the streams on SIGTERM; Docker's SIGKILL would come after
10 s).

    python -m bench.image               # the image as built (make test-image builds it)
    python -m bench.image --runs 5      # the median and the slowest of five containers
    python -m bench.image --build       # `docker compose build` first

The image tests (tests/image) assert the behaviour these figures come from (healthy without a
restart; a graceful stop, no SIGKILL), never a figure: a busy machine makes any figure
slower, and says nothing a benchmark would not.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence

import httpx

from tests.image.support import (
    ROOT,
    compose_env,
    docker,
    docker_problem,
    read_events,
    remove_container,
    run,
    start_container,
    wait_answering,
    wait_healthy,
)


def healthy_after() -> float:
    """Seconds from `docker run -d` to Docker's "healthy"."""
    started = time.monotonic()
    container = start_container()
    try:
        wait_healthy(container.id)
        return time.monotonic() - started
    finally:
        remove_container(container)


def stop_with_a_stream_open() -> tuple[float, int]:
    """Seconds `docker stop` takes with one event stream open, and the exit code."""
    container = start_container()
    try:
        wait_answering(container)
        code = httpx.post(container.url + "/api/rooms", json={}, timeout=10).json()["code"]
        events = f"{container.url}/api/rooms/{code}/events"
        with httpx.stream("GET", events, timeout=httpx.Timeout(10, read=30)) as stream:
            next(read_events(stream.iter_lines()))
            started = time.monotonic()
            docker("stop", container.id)
            took = time.monotonic() - started
        exit_code = int(docker("inspect", "--format", "{{.State.ExitCode}}", container.id))
        return took, exit_code
    finally:
        remove_container(container)


def main(argv: Sequence[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.image", description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="containers of each kind")
    parser.add_argument("--build", action="store_true", help="build the image first")
    args = parser.parse_args(argv)
    why = docker_problem()
    if why is not None:
        print(f"no image benchmark: {why} (see .ci/docker-standins)")
        return
    if args.build:
        run(["docker", "compose", "-f", "compose.yaml", "build", "--quiet", "app"],
            timeout=600, env=compose_env(), cwd=ROOT)  # fmt: skip
    healthy = [healthy_after() for _ in range(args.runs)]
    stops = [stop_with_a_stream_open() for _ in range(args.runs)]
    stopped = [took for took, _ in stops]
    print(
        f"healthy after   median {statistics.median(healthy):5.1f} s, "
        f"slowest {max(healthy):5.1f} s ({args.runs} containers)"
    )
    print(
        f"docker stop     median {statistics.median(stopped):5.1f} s, "
        f"slowest {max(stopped):5.1f} s, exit codes {sorted({c for _, c in stops})} "
        "(137: killed, not stopped)"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
