"""The page a browser gets where a page cannot be shown: an unknown address, a refused link,
a route's error, an unexpected one. The reader's language, the site's look; the API's
routes (/api/) keep their JSON errors (app/api/errors.py decides which answer goes where)."""

from __future__ import annotations

from app.i18n import _
from app.web.render import environment


def title_of(status: int) -> str:
    if status == 404:
        return _("Page not found")
    if status >= 500:
        return _("Something went wrong")
    return _("That did not work")


def message_of(status: int) -> str:
    """The sentence for an error that carries no reason of its own."""
    if status == 404:
        return _(
            "There is no page at this address: check the link, or start again from the home page."
        )
    if status == 405:
        return _("This address is not a page to open.")
    if status == 413:
        return _("That is too large to send.")
    if status == 429:
        return _("Too many requests from your connection: wait a minute, then try again.")
    if status >= 500:
        return _("An unexpected error on our side: it has been logged. Try again in a moment.")
    return _("That did not work: check the link and try again.")


def render_error(status: int, message: str | None = None) -> str:
    """The error page: ``message`` in the reader's words, else the status's own sentence."""
    return (
        environment()
        .get_template("error.html")
        .render(
            status=status,
            title=title_of(status),
            message=message or message_of(status),
        )
    )
