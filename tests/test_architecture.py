"""The map of the house (docs/architecture.md) is kept true: the floors it draws are the
import contract's, every package stands on a floor, every module of app/ is in exactly one
feature's row, and every file, test folder and document it names exists. The last map
(docs/server.md's house) went stale as features came: three packages and 17 of the context's
entries missing, with nothing to say so."""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app"
MAP = ROOT / "docs" / "architecture.md"


def _map() -> str:
    return MAP.read_text(encoding="utf-8")


def _floors_drawn() -> list[str]:
    block = re.search(r"```layers\n(.*?)```", _map(), re.S)
    assert block, "docs/architecture.md draws its floors in a ```layers block"
    return [line.strip() for line in block.group(1).splitlines() if line.strip()]


def _floors_contracted() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    (layers,) = [c["layers"] for c in contracts if c["type"] == "layers"]
    return [" | ".join(part.strip() for part in floor.split("|")) for floor in layers]


def _feature_rows() -> list[list[str]]:
    section = _map().split("## The features", 1)[1]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    # The header and its rule first; each row after them is a feature.
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]


def _modules_named() -> Counter[str]:
    named: Counter[str] = Counter()
    for row in _feature_rows():
        for cell in row[1:6]:
            named.update(re.findall(r"[\w/]+\.py", cell))
    return named


def _app_modules() -> set[str]:
    return {
        str(path.relative_to(APP))
        for path in APP.rglob("*.py")
        if path.name != "__init__.py" and "vendor" not in path.parts
    }


def test_the_floors_drawn_are_the_import_contracts() -> None:
    assert _floors_drawn() == _floors_contracted()


def test_every_package_of_the_app_stands_on_a_floor() -> None:
    on_floors = {name.strip() for floor in _floors_drawn() for name in floor.split("|")}
    packages = {
        f"app.{path.parent.relative_to(APP).parts[0]}" for path in APP.glob("*/__init__.py")
    }
    top_modules = {f"app.{path.stem}" for path in APP.glob("*.py") if path.stem != "__init__"}
    assert packages | top_modules <= on_floors


def test_every_module_is_in_one_features_row() -> None:
    named = _modules_named()
    missing = sorted(_app_modules() - set(named))
    twice = sorted(module for module, count in named.items() if count > 1)
    assert missing == [], "modules with no row in docs/architecture.md"
    assert twice == [], "modules in two rows of docs/architecture.md"


def test_every_file_the_map_names_exists() -> None:
    assert sorted(set(_modules_named()) - _app_modules()) == []
    for row in _feature_rows():
        tests, doc = row[6], row[7]
        for folder in re.findall(r"tests/[\w/]+", tests):
            assert (ROOT / folder).is_dir(), folder
        for page in re.findall(r"docs/[\w.-]+\.md", doc):
            assert (ROOT / page).is_file(), page


def test_the_readme_leads_a_developer_to_the_map() -> None:
    assert "docs/architecture.md" in (ROOT / "README.md").read_text(encoding="utf-8")
