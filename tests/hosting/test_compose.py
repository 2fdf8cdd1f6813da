"""compose.yaml and compose.scale.yaml: valid YAML, consistent with the image and settings."""

import ipaddress
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from dockerfile_parse import DockerfileParser
from pydantic import AliasChoices

from app.settings import Settings

ROOT = Path(__file__).resolve().parents[2]

# Every setting the server reads (its environment names), plus uvicorn's proxy setting.
SETTINGS = {
    (alias.choices[0] if isinstance(alias := field.validation_alias, AliasChoices) else name): field
    for name, field in Settings.model_fields.items()
}
KNOWN_SETTINGS = set(SETTINGS) | {"FORWARDED_ALLOW_IPS"}


def _load(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / name).read_text())
    assert isinstance(loaded.get("services"), dict), f"{name} has no services"
    return loaded


def _image_env() -> Mapping[str, str]:
    return DockerfileParser(path=str(ROOT / "Dockerfile")).envs


def _image_volumes() -> set[str]:
    structure = DockerfileParser(path=str(ROOT / "Dockerfile")).structure
    found: set[str] = set()
    for step in structure:
        if step["instruction"] == "VOLUME":
            found.update(re.findall(r"/[\w/.-]+", step["value"]))
    return found


def _default(value: str) -> str:
    """The default of a `${VARIABLE:-default}` interpolation, or the value itself."""
    found = re.fullmatch(r"\$\{\w+:-(.*)\}", value)
    return found.group(1) if found else value


def _environment(service: dict[str, Any]) -> dict[str, str]:
    env = service.get("environment", {})
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)
    return {str(k): str(v) for k, v in env.items()}


def test_default_setup_serves_sqlite_on_localhost_8000() -> None:
    compose = _load("compose.yaml")
    app = compose["services"]["app"]
    assert app["build"]["context"] == "."
    # pip's index settings pass from the shell or `.env` to the build, and nothing else
    assert set(app["build"]["args"]) == {"PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_TRUSTED_HOST"}
    # host port 8000 by default, to the port the image listens on
    (port,) = app["ports"]
    host, container = port.rsplit(":", 1)
    assert host in {"8000", "${ALLFOURS_PUBLISH:-8000}"}
    assert container == _image_env()["PORT"]
    env = _environment(app)
    database = env.get("DATABASE_URL", _image_env()["DATABASE_URL"])
    assert database.startswith("sqlite:////data/")
    # one process: SQLite and the in-process notifier don't scale out
    assert app.get("deploy", {}).get("replicas", 1) == 1
    assert "scale" not in app


def test_default_setup_keeps_the_database_in_a_named_volume_at_data() -> None:
    compose = _load("compose.yaml")
    mounts = compose["services"]["app"]["volumes"]
    targets = {m.split(":")[1]: m.split(":")[0] for m in mounts}
    assert set(targets) & _image_volumes() == {"/data"}
    assert targets["/data"] in compose["volumes"]  # named, so `down` keeps it


def test_every_environment_variable_is_a_known_setting() -> None:
    for name in ("compose.yaml", "compose.scale.yaml"):
        for service_name, service in _load(name)["services"].items():
            if service.get("image", "").startswith(("postgres", "caddy")):
                continue
            unknown = set(_environment(service)) - KNOWN_SETTINGS
            assert not unknown, f"{name}: {service_name} sets {unknown}"


def test_every_setting_is_documented_with_its_default() -> None:
    guide = (ROOT / "docs" / "self-hosting.md").read_text()
    for setting, field in SETTINGS.items():
        row = next(
            (line for line in guide.splitlines() if line.startswith(f"| `{setting}` |")), None
        )
        assert row is not None, f"{setting} is not in the table of docs/self-hosting.md"
        default = field.default
        if isinstance(default, bool):
            shown = str(default).lower()
        elif isinstance(default, float) and default.is_integer():
            shown = str(int(default))
        else:
            shown = str(default)
        if default is not None:
            assert f"`{shown}`" in row.split("|")[2], f"{setting}: default {shown} not shown"
    assert "| `FORWARDED_ALLOW_IPS` |" in guide


def test_scale_setup_runs_postgres_migration_replicas_and_proxy() -> None:
    services = _load("compose.scale.yaml")["services"]
    assert services["db"]["image"].startswith("postgres:")
    assert "healthcheck" in services["db"]

    migrate = services["migrate"]
    assert migrate["command"] == ["alembic", "upgrade", "head"]
    assert migrate["depends_on"]["db"]["condition"] == "service_healthy"
    assert migrate["restart"] == "no"

    app = services["app"]
    assert app["deploy"]["replicas"] >= 2
    assert app["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert "ports" not in app  # only the proxy is reachable from outside
    for service in (migrate, app):
        url = _environment(service)["DATABASE_URL"]
        assert url.startswith("postgresql+psycopg://") and "@db:5432/" in url
        assert service["image"] == _load("compose.yaml")["services"]["app"]["image"]

    proxy = services["proxy"]
    assert proxy["image"].startswith("caddy:")
    assert {"80:80", "443:443"} <= set(proxy["ports"])
    config = next(v.split(":")[0] for v in proxy["volumes"] if "Caddyfile" in v)
    assert (ROOT / config).is_file()


def test_scale_setup_trusts_only_the_proxy_for_client_addresses() -> None:
    """The replicas believe X-Forwarded-For from Caddy's fixed address alone, never "*"."""
    compose = _load("compose.scale.yaml")
    app, proxy = compose["services"]["app"], compose["services"]["proxy"]
    trusted = _environment(app)["FORWARDED_ALLOW_IPS"]
    assert trusted == proxy["networks"]["default"]["ipv4_address"]
    address = ipaddress.ip_address(_default(trusted))
    (pool,) = compose["networks"]["default"]["ipam"]["config"]
    assert address in ipaddress.ip_network(_default(pool["subnet"]))
    assert "ports" not in app


def test_scale_replicas_share_one_server_secret() -> None:
    """Each replica making its own key file in its own container would give each player
    other seat tokens on each replica: the secret is given, the same to all, or none starts."""
    services = _load("compose.scale.yaml")["services"]
    for name in ("app", "migrate"):
        given = _environment(services[name])["ALLFOURS_SECRET_KEY"]
        assert given.startswith("${ALLFOURS_SECRET_KEY:?"), given


def test_every_setting_can_come_from_a_dot_env_file() -> None:
    """A `.env` beside either compose file reaches the app (and is optional)."""
    for name in ("compose.yaml", "compose.scale.yaml"):
        services = _load(name)["services"]
        for service_name in ("app", "migrate") if "scale" in name else ("app",):
            env_files = services[service_name]["env_file"]
            assert env_files == [{"path": ".env", "required": False}], (name, service_name)


def test_caddy_streams_events_unbuffered_to_every_replica() -> None:
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text()
    directives = [line.split("#")[0].strip() for line in caddyfile.splitlines()]
    assert "dynamic a app 8000 {" in directives
    assert "flush_interval -1" in directives
    # no compression and no timeout between the browser and a long-lived stream
    assert not any(d.startswith(("encode", "stream_timeout")) for d in directives)
