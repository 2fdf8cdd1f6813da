"""The vendored front-end files are exactly the ones VENDORED.md records."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

VENDOR = Path(__file__).resolve().parents[2] / "app" / "static" / "vendor"


def test_vendored_files_match_their_recorded_sha256() -> None:
    text = (VENDOR / "VENDORED.md").read_text()
    recorded = dict(re.findall(r"\| `([\w.-]+)` \| `[^`]+` \| [^|]+ \| `([0-9a-f]{64})` \|", text))
    files = {p.name for p in VENDOR.iterdir() if p.name != "VENDORED.md"}
    assert set(recorded) == files
    for name, digest in recorded.items():
        assert hashlib.sha256((VENDOR / name).read_bytes()).hexdigest() == digest, name


def test_htmx_is_2_0_and_the_sse_extension_2_2() -> None:
    text = (VENDOR / "VENDORED.md").read_text()
    assert re.search(r"`htmx\.org@2\.0\.\d+`", text)
    assert re.search(r"`htmx-ext-sse@2\.2\.\d+`", text)
    assert b'version:"2.0.' in (VENDOR / "htmx.min.js").read_bytes()


def test_idiomorph_is_0_8_and_the_library_alone() -> None:
    """app.js's extension "morph" calls the global ``Idiomorph``; idiomorph's own htmx
    extension is not loaded (it would claim the same name)."""
    text = (VENDOR / "VENDORED.md").read_text()
    assert re.search(r"`idiomorph@0\.8\.\d+`", text)
    script = (VENDOR / "idiomorph.min.js").read_bytes()
    assert script.startswith(b"var Idiomorph=") and b"defineExtension" not in script
