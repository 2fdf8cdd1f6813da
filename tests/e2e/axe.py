"""axe-core, the accessibility checker the browser tests inject into pages.

It is the npm package ``axe-core``, installed with npm (from whatever registry npm is set up
to use) under ``.venv/axe`` the first time it is needed: ``python -m tests.e2e.axe`` (the
Makefile's test-e2e does) or the first browser test that asks for it. Nothing of it is kept
in the repository.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PREFIX = Path(os.environ.get("ALLFOURS_AXE_PREFIX", ROOT / ".venv" / "axe"))
PACKAGE = "axe-core@^4.10"  # the 4.x rule set these tests were written against
SCRIPT = PREFIX / "node_modules" / "axe-core" / "axe.min.js"
# WCAG 2.1 A and AA, and axe's own best practices (one h1, landmarks, ...).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


class AxeMissing(RuntimeError):
    pass


def install() -> Path:
    """axe.min.js, installed with npm under .venv/axe unless it is there already."""
    if SCRIPT.is_file():
        return SCRIPT
    npm = shutil.which("npm")
    if npm is None:
        raise AxeMissing("npm not found (install it with: apt-get install npm)")
    PREFIX.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [npm, "install", "--prefix", str(PREFIX), "--no-audit", "--no-fund", "--loglevel=error",
         PACKAGE],
        capture_output=True,
        text=True,
        check=False,
    )  # fmt: skip
    if done.returncode != 0 or not SCRIPT.is_file():
        raise AxeMissing(f"npm install {PACKAGE} failed: {done.stderr.strip()[-2000:]}")
    return SCRIPT


# Resolves once every animation and transition on the page that has an end has ended,
# those started meanwhile too (a loop, e.g. a turn's pulse, has no end and is left to run).
SETTLED = """async () => {
  const ending = () => document.getAnimations().filter(a => a.playState === "running" &&
    Number.isFinite(a.effect?.getComputedTiming().endTime));
  for (let left = ending(); left.length; left = ending()) {
    await Promise.all(left.map(a => a.finished.catch(() => null)));
  }
}"""


def check(page: Any, source: str) -> list[dict[str, Any]]:
    """axe's violations on the page once its transitions have ended: each rule broken, with
    its nodes. A colour checked mid-transition is neither the old colour nor the new one (the
    contrast check once failed on a button fading in, under load).

    The script is evaluated through the browser's debugging protocol, which the page's
    Content-Security-Policy (script-src 'self') does not see.
    """
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(source)
    page.evaluate(SETTLED)
    result: dict[str, Any] = page.evaluate(
        "tags => axe.run(document, {runOnly: {type: 'tag', values: tags},"
        " resultTypes: ['violations']})",
        TAGS,
    )
    return list(result["violations"])


# What a tap opens, opened: every <details> (a hidden form, the rules in force) and every
# drawer (the table talk's, data-open). Returns how many <dialog>s the page has: those are
# opened one at a time (a modal one makes the rest of the page inert), by DIALOG.
OPEN_ALL = """() => {
  document.querySelectorAll("details").forEach((d) => { d.open = true; });
  document.querySelectorAll("[data-open=false]")
    .forEach((d) => d.setAttribute("data-open", "true"));
  return document.querySelectorAll("dialog").length;
}"""
# Opens the i-th dialog as a tap does (modal), or closes it again.
DIALOG = """([i, open]) => {
  const d = document.querySelectorAll("dialog")[i];
  if (!d) return;
  if (open && !d.open) d.showModal();
  if (!open && d.open) d.close();
}"""


def contrast(page: Any, source: str) -> list[dict[str, Any]]:
    """axe's color-contrast rule alone on the page as it stands (once settled)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(source)
    page.evaluate(SETTLED)
    result: dict[str, Any] = page.evaluate(
        "() => axe.run(document, {runOnly: {type: 'rule', values: ['color-contrast']},"
        " resultTypes: ['violations']})"
    )
    return list(result["violations"])


def contrast_opened(page: Any, source: str) -> list[dict[str, Any]]:
    """The color-contrast violations of the page with everything a tap opens opened: its
    <details> and drawers at once, then each of its dialogs on its own. A form behind a tap
    is checked as it is seen (issue 46: "Keep my games" on the result card, pale on paper,
    was never looked at, closed)."""
    dialogs = int(page.evaluate(OPEN_ALL))
    found = contrast(page, source)
    for i in range(dialogs):
        page.evaluate(DIALOG, [i, True])
        found += contrast(page, source)
        page.evaluate(DIALOG, [i, False])
    return found


def describe(violations: list[dict[str, Any]]) -> str:
    """The violations in a line each: rule, impact, and the first few offending elements."""
    lines = []
    for v in violations:
        targets = [" ".join(map(str, n["target"])) + _colours(n) for n in v["nodes"][:3]]
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} at {json.dumps(targets)}")
    return "\n".join(lines)


def _colours(node: dict[str, Any]) -> str:
    """A contrast failure's colours and ratio (what to change), else nothing."""
    data = next((c.get("data") for c in node.get("any", []) if c.get("data")), None)
    if not isinstance(data, dict) or "contrastRatio" not in data:
        return ""
    return f" ({data.get('fgColor')} on {data.get('bgColor')}: {data['contrastRatio']}:1)"


def required() -> bool:
    """Whether a missing checker is an error (CI, like a missing browser: tests/e2e/gate.py)."""
    return os.environ.get("ALLFOURS_REQUIRE_BROWSER") == "1"


def main() -> int:
    try:
        print(f"axe-core: {install()}")
    except AxeMissing as why:
        if required():
            print(f"axe-core required (ALLFOURS_REQUIRE_BROWSER=1): {why}", file=sys.stderr)
            return 1
        print(f"skipping the accessibility checks: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
