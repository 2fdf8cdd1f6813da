"""HTML for the pages, from a viewer's view JSON only (see app/web/table.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from app import i18n
from app.rules import Rules
from app.services.identity import grouped_code
from app.services.names import NAME_MAX
from app.services.nights import TableOfNight
from app.services.options import RoomOptions
from app.services.talk import ChatMessageOut
from app.services.view import RoomView
from app.views.records import HandRecordView
from app.web import cards, icons
from app.web.assets import static_url
from app.web.held import HeldTable
from app.web.house_rules import GUIDE, options, presets
from app.web.profile_form import ProfileForm
from app.web.sheet import build_sheet
from app.web.table import build
from app.web.words import level_name


def environment() -> Environment:
    """The templates in the language being rendered now (app/i18n.py)."""
    return _environment(i18n.current())


@cache
def _environment(lang: str) -> Environment:
    """One environment per language, each with its own catalog installed: the templates are
    compiled once per language, and nothing is shared between two readers' renders."""
    env = Environment(
        loader=PackageLoader("app", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=False,
        lstrip_blocks=False,
        extensions=["jinja2.ext.i18n"],
    )
    # As babel.cfg extracts them: a {% trans %} block's text with its whitespace collapsed.
    env.policies["ext.i18n.trimmed"] = True
    # New-style gettext: ``_("... %(name)s", name=x)`` formats and escapes in one step.
    env.install_gettext_translations(i18n.translations(lang), newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(
        lang=lang,
        language_menu=i18n.menu,
        face=cards.face,
        back=cards.back,
        sprite=cards.sprite,
        suit_symbol=cards.suit_symbol,
        icon=icons.icon,
        card_short=cards.card_short,
        static_url=static_url,
        level_name=level_name,
        name_max=NAME_MAX,  # a seat name's longest (app/services/names.py), for the name fields
        keep_form=_keep_form,  # the result's "Keep my games" form, posted to the room's path
    )
    env.filters["grouped"] = grouped_code  # a room code as it is read aloud
    env.filters["number"] = i18n.number
    env.filters["day"] = i18n.day
    env.filters["clock"] = i18n.clock
    return env


def _keep_form(code: str) -> ProfileForm:
    return ProfileForm(f"/r/{code}/profile")


def table_renderer(lang: str) -> Callable[[RoomView], str]:
    """``render_table`` in ``lang``, for a stream whose renders come after its request. One
    function per language, so the rendered-view cache (RenderedViews, keyed by the renderer)
    keeps each language's table apart."""
    return _table_renderers[lang]


def chat_renderer(lang: str) -> Callable[[ChatMessageOut], str]:
    """``render_chat_message`` in ``lang``, for the same streams."""
    return _chat_renderers[lang]


def _in(lang: str, render: Callable[[RoomView], str]) -> Callable[[RoomView], str]:
    def rendered(view: RoomView) -> str:
        with i18n.reading(lang):
            return render(view)

    return rendered


def _said_in(lang: str) -> Callable[[ChatMessageOut], str]:
    def rendered(message: ChatMessageOut) -> str:
        with i18n.reading(lang):
            return render_chat_message(message)

    return rendered


def render_table(view: RoomView) -> str:
    """The live part of the room page for the viewer whose view this is."""
    return environment().get_template("_table.html").render(page=build(view))


def render_room(
    view: RoomView,
    friends: Sequence[str] = (),
    *,
    invited: bool = False,
    player_name: str | None = None,
    night: TableOfNight | None = None,
) -> str:
    """The whole room page: the table plus the page around it (one event stream);
    ``friends``: the handles a seated player may invite to it; ``invited``: one just was;
    ``player_name``: a signed-in viewer's profile name, the name they sit under; ``night``:
    the night this room is a table of, linked from the lobby to the result."""
    more = {"invited": invited, "player_name": player_name, "night": night}
    return _around_table(view, "room.html", friends=friends, **more)


def render_live(view: RoomView) -> str:
    """The stream-holding element with the table inside: the answer to taking a seat, swapped
    in whole so that the page's event stream closes and reopens with the new seat's cookie."""
    return _around_table(view, "_live.html")


def _around_table(view: RoomView, outer: str, **more: object) -> str:
    page = build(view)
    env = environment()
    fragment = env.get_template("_table.html").render(page=page)
    return env.get_template(outer).render(page=page, table_html=Markup(fragment), **more)


def render_home(
    *,
    error: str | None = None,
    code: str | None = None,
    held: Sequence[HeldTable] = (),
    signed_in_as: str | None = None,
    profile: ProfileForm | None = None,
    public_play: bool = True,
    tables: Sequence[object] = (),
    invitations: Sequence[tuple[str, str, str]] = (),
    friend_requests: int = 0,
) -> str:
    """The home page; ``held``: the tables this browser holds a seat at ("Your table");
    ``signed_in_as``: the name of the profile it is signed in to, else ``profile``: the
    "Keep my games" form; ``friend_requests``: how many wait for that player's answer."""
    return (
        environment()
        .get_template("home.html")
        .render(
            options=options(),
            presets=presets(),
            error=error,
            code=code,
            held=held,
            signed_in_as=signed_in_as,
            form=profile or ProfileForm(),
            public_play=public_play,
            tables=tables,
            invitations=invitations,
            friend_requests=friend_requests,
        )
    )


def render_public_tables(tables: Sequence[object]) -> str:
    """The lobby's public tables (app/api/play.py's LobbyTable), as the home page lists them."""
    return environment().get_template("_public_tables.html").render(tables=tables)


def render_how_to_play() -> str:
    """The game explained for a newcomer, with every house rule."""
    house = [(o, i18n.gettext(GUIDE[o.name])) for o in options()]
    return (
        environment()
        .get_template("how_to_play.html")
        .render(house=house, presets=presets(), default=Rules(), reckon_s=RoomOptions().reckon_s)
    )


def render_chat_message(message: ChatMessageOut) -> str:
    """One chat message as the page's stream sends it: text only, whatever it says."""
    return environment().get_template("_chat_message.html").render(m=message)


def render_sheet(view: RoomView, records: Sequence[HandRecordView]) -> str:
    """The score sheet fragment: the finished deals ``records`` (what ``observe`` gives the
    viewer whose view this is), with that viewer's names for players and teams."""
    return environment().get_template("_sheet.html").render(s=build_sheet(view, records))


def render_sheet_page(view: RoomView, records: Sequence[HandRecordView]) -> str:
    """The score sheet as a page of its own, for a browser without the page's script."""
    sheet = build_sheet(view, records)
    env = environment()
    fragment = env.get_template("_sheet.html").render(s=sheet)
    return env.get_template("sheet.html").render(s=sheet, sheet_html=Markup(fragment))


_table_renderers = {lang: _in(lang, render_table) for lang in i18n.LANGUAGES}
_chat_renderers = {lang: _said_in(lang) for lang in i18n.LANGUAGES}


def render_offline() -> str:
    """The page the service worker shows when the network fails (app/web/install.py)."""
    return environment().get_template("offline.html").render()
