"""HTML for the pages, from a viewer's view JSON only (see app/web/table.py)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from app.rules import Rules
from app.rules.view import HandRecordView
from app.services.identity import grouped_code
from app.services.talk import ChatMessageOut
from app.web import cards
from app.web.assets import static_url
from app.web.house_rules import GUIDE, options, presets
from app.web.sheet import build_sheet
from app.web.table import View, build


@cache
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("app", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=False,
        lstrip_blocks=False,
    )
    env.globals.update(
        face=cards.face,
        back=cards.back,
        sprite=cards.sprite,
        suit_symbol=cards.suit_symbol,
        card_short=cards.card_short,
        static_url=static_url,
    )
    env.filters["grouped"] = grouped_code  # a room code as it is read aloud
    return env


def render_table(view: View) -> str:
    """The live part of the room page for the viewer whose view this is."""
    return environment().get_template("_table.html").render(t=build(view))


def render_room(view: View) -> str:
    """The whole room page: the table plus the page around it (one event stream)."""
    return _around_table(view, "room.html")


def render_live(view: View) -> str:
    """The stream-holding element with the table inside: the answer to taking a seat, swapped
    in whole so that the page's event stream closes and reopens with the new seat's cookie."""
    return _around_table(view, "_live.html")


def _around_table(view: View, outer: str) -> str:
    table = build(view)
    env = environment()
    fragment = env.get_template("_table.html").render(t=table)
    return env.get_template(outer).render(t=table, table_html=Markup(fragment))


def render_home(*, error: str | None = None, code: str | None = None) -> str:
    return (
        environment()
        .get_template("home.html")
        .render(options=options(), presets=presets(), error=error, code=code)
    )


def render_how_to_play() -> str:
    """The game explained for a newcomer, with every house rule."""
    house = [(o, GUIDE[o.name]) for o in options()]
    return (
        environment()
        .get_template("how_to_play.html")
        .render(house=house, presets=presets(), default=Rules())
    )


def render_chat_message(message: ChatMessageOut) -> str:
    """One chat message as the page's stream sends it: text only, whatever it says."""
    return environment().get_template("_chat_message.html").render(m=message)


def render_sheet(view: View, records: Sequence[HandRecordView]) -> str:
    """The score sheet fragment: the finished deals ``records`` (what ``observe`` gives the
    viewer whose view this is), with that viewer's names for players and teams."""
    return environment().get_template("_sheet.html").render(s=build_sheet(view, records))


def render_sheet_page(view: View, records: Sequence[HandRecordView]) -> str:
    """The score sheet as a page of its own, for a browser without the page's script."""
    sheet = build_sheet(view, records)
    env = environment()
    fragment = env.get_template("_sheet.html").render(s=sheet)
    return env.get_template("sheet.html").render(s=sheet, sheet_html=Markup(fragment))
