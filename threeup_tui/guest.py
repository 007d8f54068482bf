"""The confined guest: the app as the SSH door runs it for a guest.

The door starts ``python -m threeup_tui join`` for each SSH session with
``THREEUP_GUEST=1`` in its environment.  Such an app shows only the table
(no start menu, no host, join or play-against-bots screens, no palette
entry that reaches them), writes no file on the host's disk (settings,
history, tokens or records), and exits when the player leaves the table or
the table closes, saying why.

The seat's secrets (the seat token and the room code) never go on the
command line, where ``ps`` shows them to every user of the machine: the door
writes them as one JSON object into a pipe whose reading end the app
inherits, and names that descriptor in ``THREEUP_GUEST_FD``.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
from typing import Any

from .paths import confined_guest

GUEST_ENV = "THREEUP_GUEST"
GUEST_FD_ENV = "THREEUP_GUEST_FD"
MAX_SECRETS = 4096
# The door cut the guest's input (too much at once, see doorkeys): it tells
# the app with this signal, and the app tells its player, since the door
# cannot write on the app's screen.  (None where there is no door: Windows.)
INPUT_CUT_SIGNAL: signal.Signals | None = getattr(signal, "SIGUSR1", None)
INPUT_CUT = "pasted text cut: too much at once"
# A guest the door lets in only to watch (no seat is theirs, and none is
# free) reads it in the chat: the table is drawn as for a player.
GUEST_WATCHES = "you are watching: no seat is free for you (s sits you down if one opens)"


def is_guest() -> bool:
    return confined_guest()


def read_guest_seat() -> dict[str, Any] | None:
    """What the door passed in the pipe: address, name, token, code.  Read
    once; the descriptor is closed and forgotten."""
    fd_text = os.environ.pop(GUEST_FD_ENV, None)
    if not is_guest() or fd_text is None or not fd_text.isdigit():
        return None
    fd = int(fd_text)
    try:
        data = b""
        while len(data) <= MAX_SECRETS:
            chunk = os.read(fd, MAX_SECRETS + 1)
            if not chunk:
                break
            data += chunk
    except OSError:
        return None
    finally:
        with contextlib.suppress(OSError):
            os.close(fd)
    try:
        value = json.loads(data.decode("utf-8"))
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
