"""Names by role: a class's name says which thing it is, so no two classes of app/ share one
(three classes were once called ``Table``: the engine's working state, the table page and the
arena's four players)."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "app"


def _classes() -> dict[str, list[str]]:
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(APP.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                found[node.name].append(str(path.relative_to(APP.parent)))
    return found


def test_no_two_classes_of_the_app_share_a_name() -> None:
    shared = {name: where for name, where in _classes().items() if len(where) > 1}
    assert shared == {}


def test_no_class_is_called_table() -> None:
    assert "Table" not in _classes()
