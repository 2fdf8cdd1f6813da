"""The one way the exports write CSV (a night's, a season's): a cell of text that begins as a
spreadsheet formula would (``=``, ``+``, ``-``, ``@``, a tab or a carriage return) is written as
text, a single quote before it (OWASP's CSV injection rule), so a player named ``=HYPERLINK(…)``
is read as that name by whoever opens the file. Numbers are written as they are (a negative
head-to-head stays a number)."""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import Any, Protocol

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class _Writes(Protocol):
    def write(self, text: str, /) -> Any: ...


def text_cell(value: object) -> object:
    """A cell as written: text that a spreadsheet would take for a formula, quoted."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class CsvWriter:
    """``csv.writer`` whose every row's cells go through ``text_cell``."""

    def __init__(self, out: _Writes) -> None:
        self._writer = csv.writer(out)

    def writerow(self, row: Iterable[object]) -> None:
        self._writer.writerow([text_cell(cell) for cell in row])
