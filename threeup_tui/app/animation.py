"""Whether the table animates (a card landing on the pile is highlighted).

The player's ``animation`` setting decides (the settings module keeps it;
read defensively: the app may hold a ``Settings`` or the file that holds
one, or neither), and a slow link turns it off: over a network with a long
round trip the highlight would only arrive late.
"""

from __future__ import annotations

SLOW_LINK = 0.25  # seconds of round trip from which a link counts as slow


def animation_wanted(app: object, client: object = None) -> bool:
    settings = getattr(app, "settings", None)
    settings = getattr(settings, "settings", settings)  # a settings file holds its Settings
    if getattr(settings, "animation", True) is False:
        return False
    rtt = getattr(client, "rtt", None)
    return not (isinstance(rtt, (int, float)) and rtt > SLOW_LINK)


__all__ = ["SLOW_LINK", "animation_wanted"]
