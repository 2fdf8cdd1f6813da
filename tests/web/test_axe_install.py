"""``python -m tests.e2e.axe``: axe-core from npm under .venv/axe; without npm a clear line,
and a failure only when CI requires the browser tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e import axe


def test_an_installed_checker_is_used_as_it_is(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    script = tmp_path / "axe.min.js"
    script.write_text("window.axe = {};")
    monkeypatch.setattr(axe, "SCRIPT", script)
    monkeypatch.setattr("shutil.which", lambda _: None)  # npm is not even asked
    assert axe.install() == script and axe.main() == 0


def test_without_npm_it_skips_saying_why_unless_required(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(axe, "SCRIPT", tmp_path / "missing" / "axe.min.js")
    monkeypatch.setattr("shutil.which", lambda _: None)
    monkeypatch.delenv("ALLFOURS_REQUIRE_BROWSER", raising=False)
    assert axe.main() == 0
    assert capsys.readouterr().out.startswith("skipping the accessibility checks: npm not found")
    monkeypatch.setenv("ALLFOURS_REQUIRE_BROWSER", "1")
    assert axe.main() == 1
    assert "axe-core required" in capsys.readouterr().err
