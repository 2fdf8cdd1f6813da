"""Fan-out of "room X is at version N" to this process's streams and bot driver.

Only the version travels (never state): each stream re-reads and renders its own seat's view.
"""

from app.live.hub import Hub, Subscription
from app.live.notifier import LocalNotifier, Notifier
from app.live.pick import make_notifier
from app.live.presence import Presence

__all__ = ["Hub", "LocalNotifier", "Notifier", "Presence", "Subscription", "make_notifier"]
