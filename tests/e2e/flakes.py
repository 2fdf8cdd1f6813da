"""The flake finder: the browser suite, or a part of it, run again and again under load.

    python -m tests.e2e.flakes                          # tests/e2e, 5 runs (make flakes)
    python -m tests.e2e.flakes --runs 2 tests/e2e/test_table.py tests/e2e/test_talk.py

CI runs the browser suite beside the unit suite, which keeps the machine's cores busy: a
test that waits on the wrong thing (a wall-clock pace, an animation, an event that came
before the one it means) passes on an idle machine and fails there, once in a while. So each
run here has a CPU hog beside it, one busy-looping process per core (killed at the end,
however the runs end), and the summary lists every test that failed at least once: its id,
failures/runs, the first lines of each failure, and where the run's log and its servers' logs
are (pytest's --basetemp of the run is kept: the session server's log is there).
Exit status 1 when any test failed once.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _busy() -> None:
    while True:
        pass


@contextmanager
def cpu_hog(cores: int) -> Iterator[list[int]]:
    """One busy-looping process per core while the block runs (their pids), then gone."""
    hogs = [multiprocessing.Process(target=_busy, daemon=True) for _ in range(cores)]
    for hog in hogs:
        hog.start()
    try:
        yield [hog.pid for hog in hogs if hog.pid is not None]
    finally:
        for hog in hogs:
            hog.kill()
        for hog in hogs:
            hog.join()


@dataclass
class Outcome:
    """One test over the runs: how many it ran in, and each failure (run, first lines)."""

    runs: int = 0
    failures: list[tuple[int, str]] = field(default_factory=list)


def read_junit(report: Path) -> Iterator[tuple[str, str | None]]:
    """(test id, failure text or None) of each test a junit XML report holds; skips left out."""
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        module = case.get("classname", "").replace(".", "/")
        test_id = f"{module}.py::{case.get('name')}"
        if case.find("skipped") is not None:
            continue
        failed = case.find("failure")
        if failed is None:
            failed = case.find("error")
        if failed is None:
            yield test_id, None
        else:
            text = failed.get("message") or failed.text or "(no message)"
            yield test_id, text


def first_lines(text: str, count: int = 3, width: int = 300) -> str:
    lines = [line.strip()[:width] for line in text.strip().splitlines() if line.strip()]
    return " | ".join(lines[:count])


def run_once(number: int, paths: Sequence[str], folder: Path, extra: Sequence[str]) -> Path:
    """One pytest run of ``paths``: its log, junit report and temporary folder in ``folder``."""
    here = folder / f"run-{number}"
    here.mkdir()
    report = here / "report.xml"
    argv = [
        sys.executable, "-m", "pytest", *paths, "-q", "-p", "no:cacheprovider",
        f"--junitxml={report}", f"--basetemp={here / 'tmp'}", *extra,
    ]  # fmt: skip
    env = {
        **os.environ,
        "ALLFOURS_REQUIRE_BROWSER": os.environ.get("ALLFOURS_REQUIRE_BROWSER", "1"),
    }
    with (here / "pytest.log").open("wb") as log:
        done = subprocess.run(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    print(f"run {number}: pytest exited {done.returncode} (log: {here / 'pytest.log'})", flush=True)
    return report


def summary(outcomes: dict[str, Outcome], runs: int, folder: Path) -> list[str]:
    flaky = {k: o for k, o in sorted(outcomes.items()) if o.failures}
    lines = [f"{len(outcomes)} tests, {runs} runs with a CPU hog beside them; logs in {folder}"]
    if not flaky:
        lines.append("no test failed")
        return lines
    lines.append(f"{len(flaky)} tests failed at least once (test id -> failures/runs):")
    for test_id, outcome in flaky.items():
        lines.append(f"  {test_id} -> {len(outcome.failures)}/{outcome.runs}")
        for run, text in outcome.failures:
            run_dir = folder / f"run-{run}"
            lines.append(f"    run {run}: {first_lines(text)}")
            lines.append(
                f"      log {run_dir / 'pytest.log'}, servers' logs under {run_dir / 'tmp'}"
            )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.e2e.flakes", description=__doc__)
    parser.add_argument("paths", nargs="*", default=["tests/e2e"], help="tests to run")
    parser.add_argument("--runs", type=int, default=5, help="how many runs (5)")
    parser.add_argument(
        "--hogs", type=int, default=os.cpu_count() or 1, help="busy processes (one per core)"
    )
    parser.add_argument("--out", type=Path, default=None, help="where the logs go (a new folder)")
    parser.add_argument("--pytest", default="", help="more pytest options, one string")
    args = parser.parse_args(argv)
    folder = args.out or Path(tempfile.mkdtemp(prefix="allfours-flakes-"))
    folder.mkdir(parents=True, exist_ok=True)
    outcomes: dict[str, Outcome] = defaultdict(Outcome)
    print(
        f"{args.runs} runs of {' '.join(args.paths)} beside {args.hogs} busy processes", flush=True
    )
    with cpu_hog(args.hogs):
        for number in range(1, args.runs + 1):
            report = run_once(number, args.paths, folder, args.pytest.split())
            if not report.exists():  # pytest stopped before it wrote one (collection, exit)
                outcomes["(the run itself)"].runs += 1
                outcomes["(the run itself)"].failures.append((number, "no report: see the log"))
                continue
            for test_id, failure in read_junit(report):
                outcomes[test_id].runs += 1
                if failure is not None:
                    outcomes[test_id].failures.append((number, failure))
    lines = summary(outcomes, args.runs, folder)
    (folder / "summary.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 1 if any(o.failures for o in outcomes.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
