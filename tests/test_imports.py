"""No circles in the house: no module of app/ reaches itself again through its imports.

Every import counts, wherever it is written (at the top, under ``TYPE_CHECKING``, inside a
function, through ``importlib.import_module``): an import put off until a call is still a
circle, only one that fails later.
"""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "app"


def _modules() -> dict[str, Path]:
    out = {}
    for path in APP.rglob("*.py"):
        parts = path.relative_to(APP.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of app/ that ``path`` imports; ``from package import submodule`` counts as
    the submodule (the package is only being run, as Python does it)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            subs = {f"{node.module}.{a.name}" for a in node.names} & modules.keys()
            found |= subs or {node.module}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            found.add(str(node.args[0].value))
    return found & modules.keys()


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of ``graph``, as the modules along it, or None."""
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        path.append(module)
        for imported in sorted(graph[module]):
            found = visit(imported)
            if found:
                return found
        path.pop()
        done.add(module)
        return None

    for module in sorted(graph):
        found = visit(module)
        if found:
            return found
    return None


def test_no_module_of_the_app_imports_itself_round_a_circle() -> None:
    modules = _modules()
    assert "app.rules.engine" in modules and "app.live.notifier" in modules
    graph = {name: _imports(path, modules) - {name} for name, path in modules.items()}
    assert _circle(graph) is None, " -> ".join(_circle(graph) or [])


def test_the_circle_finder_finds_a_circle() -> None:
    assert _circle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _circle({"a": {"b"}, "b": set()}) is None


def test_no_route_module_imports_another() -> None:
    """What routes share lives in app/api/answers.py; a route module is one with a router."""
    modules = _modules()
    routes = {
        name
        for name, path in modules.items()
        if name.startswith("app.api.") and "APIRouter(" in path.read_text()
    }
    assert {"app.api.rooms", "app.api.pages", "app.api.host"} <= routes
    for name in sorted(routes):
        assert not _imports(modules[name], modules) & routes, name


def test_routes_reach_the_services_one_way() -> None:
    """Through the Rooms' two doors (``write`` for a change, ``read`` for a read), never a
    thread pool of their own."""
    for path in sorted((APP / "api").glob("*.py")):
        text = path.read_text()
        assert "run_in_threadpool" not in text and "to_thread" not in text, path.name
