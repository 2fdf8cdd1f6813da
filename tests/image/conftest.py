"""The image tests need a Docker daemon and Compose v2 (`.ci/docker-standins` sets both up).

Without them every test here skips, saying why; with CI=true they fail instead, so CI
never passes without having built and run the image.
"""

from __future__ import annotations

import functools
import os
import time

import pytest

from tests.image.support import IMAGE, ROOT, compose_env, docker_problem, run


@functools.cache
def _why_not() -> str | None:
    return docker_problem()


def pytest_report_header() -> str:
    why = _why_not()
    return "image tests: Docker answers" if why is None else f"image tests cannot run: {why}"


@pytest.fixture(scope="session")
def docker_ready() -> None:
    """Docker answers (else skip, or fail under CI)."""
    why = _why_not()
    if why is None:
        return
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"CI=true and the image tests cannot run: {why} (see .ci/docker-standins)")
    pytest.skip(f"no image tests: {why}")


@pytest.fixture(scope="session")
def image(docker_ready: None) -> str:
    """The image, built as a self-hoster builds it (`docker compose build`), layers cached."""
    started = time.monotonic()
    run(
        ["docker", "compose", "-f", "compose.yaml", "build", "--quiet", "app"],
        timeout=600,
        env=compose_env(),
        cwd=ROOT,
    )
    print(f"image {IMAGE} built in {time.monotonic() - started:.1f} s")
    return IMAGE
