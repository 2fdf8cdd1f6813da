"""``python -m tests.e2e.gate``: run, skip with a clear line, or fail when CI requires it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e import gate


def test_runs_when_the_browser_is_there(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    browser = tmp_path / "chromium"
    browser.write_text("#!/bin/sh\n")
    browser.chmod(0o755)
    monkeypatch.setattr(gate, "CHROMIUM", browser)
    assert gate.missing_browser() is None and gate.main() == 0


def test_skips_with_a_clear_line_without_the_browser(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(gate, "CHROMIUM", tmp_path / "no-chromium")
    monkeypatch.delenv("ALLFOURS_REQUIRE_BROWSER", raising=False)
    assert gate.main() == 0
    assert capsys.readouterr().out.startswith("skipping browser tests: ")


def test_fails_without_the_browser_when_required(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(gate, "CHROMIUM", tmp_path / "no-chromium")
    monkeypatch.setenv("ALLFOURS_REQUIRE_BROWSER", "1")
    assert gate.main() == 1
    assert "ALLFOURS_REQUIRE_BROWSER=1" in capsys.readouterr().err
