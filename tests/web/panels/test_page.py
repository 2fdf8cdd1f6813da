"""The page composed of its panels: each panel frozen, the composer's signature the only
order between them, and no class named Table in the web layer."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from app.web.table import TablePage, build
from tests.web.views import beg_with_last_lift

WEB = Path(__file__).resolve().parents[3] / "app" / "web"


def test_the_page_and_every_panel_are_frozen() -> None:
    page = build(beg_with_last_lift())
    with pytest.raises(dataclasses.FrozenInstanceError):
        page.code = "x"  # type: ignore[misc]
    for field in dataclasses.fields(TablePage):
        panel = getattr(page, field.name)
        if dataclasses.is_dataclass(panel):
            first = dataclasses.fields(panel)[0].name
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(panel, first, None)


def test_the_same_view_composes_the_same_page() -> None:
    view = beg_with_last_lift()
    assert build(view) == build(view)
