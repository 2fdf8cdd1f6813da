"""Whether the browser tests can run here: ``python -m tests.e2e.gate`` (see the Makefile).

They drive Debian's Chromium (``apt-get install chromium``), never a browser that
Playwright downloads. Without it: a clear "skipping browser tests" line and exit 0 (the
e2e conftest then skips every test with the same reason), unless
``ALLFOURS_REQUIRE_BROWSER=1`` (CI), which makes a missing browser an error (exit 1).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

CHROMIUM = Path(os.environ.get("ALLFOURS_CHROMIUM", "/usr/bin/chromium"))


def missing_browser() -> str | None:
    """Why the browser tests cannot run, or None when they can."""
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        return f"{CHROMIUM} not found (install it with: apt-get install chromium)"
    return None


def main() -> int:
    why = missing_browser()
    if why is None:
        return 0
    if os.environ.get("ALLFOURS_REQUIRE_BROWSER") == "1":
        print(f"browser tests required (ALLFOURS_REQUIRE_BROWSER=1) but {why}", file=sys.stderr)
        return 1
    print(f"skipping browser tests: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
