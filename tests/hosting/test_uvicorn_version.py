"""app/net.py extends uvicorn's private parts: it runs only on the uvicorn it was tested on."""

from __future__ import annotations

import tomllib
from pathlib import Path

import uvicorn

from app.net import TESTED_UVICORN

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def _minor(version: str) -> str:
    return ".".join(version.split(".")[:2])


def test_the_installed_uvicorn_is_one_app_net_was_tested_on() -> None:
    assert _minor(uvicorn.__version__) in TESTED_UVICORN, (
        f"uvicorn {uvicorn.__version__} is not one app/net.py was tested on ({TESTED_UVICORN}):"
        " read its changes to the httptools protocol, run tests/hosting, then add it"
    )


def test_pyproject_admits_only_the_tested_minor_versions() -> None:
    deps = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    (pin,) = [d for d in deps if d.split("[")[0].split(">")[0].split("<")[0] == "uvicorn"]
    low, high = (part.strip() for part in pin.removeprefix("uvicorn").split(","))
    assert low == f">={min(TESTED_UVICORN)}", pin
    major, minor = max(TESTED_UVICORN).split(".")
    assert high == f"<{major}.{int(minor) + 1}", pin
