"""The player's own pages (API.md § Fourth round, *Players*): "Keep my games", the own page
``/me`` (name, language, listed, devices, signing another device in), and the page a sign-in
link opens. Built from the profile's rows as the service gives them; no key, seat token or
sign-in code ever reaches a page, but for the one-time link the own page was asked to show.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import segno
from markupsafe import Markup

from app import i18n
from app.i18n import LANGUAGES, _
from app.players.state import DeviceRow
from app.services.players import SignedIn
from app.web.profile_form import ProfileForm
from app.web.render import environment


@dataclass(frozen=True, slots=True)
class DeviceShown:
    id: int
    name: str  # from the browser's User-Agent, as the service names it
    first_seen: str  # dates in the reader's language
    last_seen: str
    this_device: bool


@dataclass(frozen=True, slots=True)
class SigninLinkShown:
    """A one-time link just made: its URL, drawn as a QR code, and the minutes it lasts."""

    url: str
    qr: Markup  # inline SVG
    minutes: int


def devices_shown(devices: Sequence[DeviceRow], this_device: int) -> list[DeviceShown]:
    return [
        DeviceShown(
            id=d.id,
            name=d.device or _("A browser"),
            first_seen=i18n.day(d.created_at),
            last_seen=i18n.day(d.seen_at),
            this_device=d.id == this_device,
        )
        for d in devices
    ]


def signin_link_shown(url: str, seconds: int) -> SigninLinkShown:
    """The link as a QR code another device's camera reads (error correction M: a phone's
    screen photographed by another phone), sized by the page's CSS."""
    code = segno.make(url, error="m")
    svg = code.svg_inline(scale=1, border=4, omitsize=True, svgclass="qr-code", title=None)
    # The picture is for a camera; a reader is given the same link as text beside it (the
    # figure's caption), so the picture itself is hidden from screen readers.
    svg = svg.replace("<svg ", '<svg aria-hidden="true" focusable="false" ', 1)
    return SigninLinkShown(url=url, qr=Markup(svg), minutes=max(1, seconds // 60))


def render_me(
    me: SignedIn,
    devices: Sequence[DeviceShown],
    *,
    link: SigninLinkShown | None = None,
    error: str | None = None,
    passkeys: Sequence[object] = (),
    push_count: int = 0,
    ties: object = None,
    done: str | None = None,
    find: str = "",
    found: Sequence[object] | None = None,
    find_error: str | None = None,
) -> str:
    """The own page of a signed-in player; ``push_count``: their devices with push on;
    ``ties``: friends, requests and blocks; ``done``: the tie just changed (a word said);
    ``find``: a search for players typed, ``found`` its answer or ``find_error`` why none."""
    return (
        environment()
        .get_template("me.html")
        .render(
            player=me.player,
            devices=devices,
            link=link,
            error=error,
            languages=LANGUAGES,
            passkeys=passkeys,
            push_count=push_count,
            ties=ties,
            done=done,
            find=find,
            found=found,
            find_error=find_error,
        )
    )


def render_tie_confirm(tie: str, handle: str) -> str:
    """The step before "Remove friend" or "Block" (``tie``) acts on ``handle``."""
    return environment().get_template("tie_confirm.html").render(tie=tie, handle=handle)


def render_me_delete(me: SignedIn) -> str:
    """The confirm step before a profile is erased."""
    return environment().get_template("me_delete.html").render(player=me.player)


def render_no_profile(form: ProfileForm) -> str:
    """``/me`` for a browser signed in to no profile: make one, or sign in."""
    return environment().get_template("me_none.html").render(form=form)


def render_keep_games(form: ProfileForm, code: str) -> str:
    """The "Keep my games" page of a table (its link, or its form sent back refused)."""
    return environment().get_template("keep_games.html").render(form=form, code=code)


def render_signin(
    *, gone: bool = False, error: str | None = None, profile: tuple[str, str] | None = None
) -> str:
    """The page a sign-in link opens: the ``profile`` (name, handle) it signs in to, and one
    button that asks before it uses the code (never written in the page: the form posts to
    the page's own address); ``gone``: the code was used or is past its ten minutes."""
    return environment().get_template("signin.html").render(gone=gone, error=error, profile=profile)
