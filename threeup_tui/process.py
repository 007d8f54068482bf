"""What a threeup process does with its own signals and standard streams:
the app, a headless host, a joined bot and the thinking workers alike."""

from __future__ import annotations

import contextlib
import os
import signal

# The exit status of a command line, or a terminal, that cannot be served
# as given (argparse's own): the CLI, the app and the SSH door say it alike.
EXIT_USAGE = 2


def hangup_signal(even_if_ignored: bool = False) -> signal.Signals | None:
    """SIGHUP, to be handled as a clean stop (the terminal closed, the SSH
    session dropped); None where there is none, or under `nohup`, which
    asked to ignore it (unless ``even_if_ignored``: the app's)."""
    hangup: signal.Signals | None = getattr(signal, "SIGHUP", None)
    if hangup is None or (signal.getsignal(hangup) is signal.SIG_IGN and not even_if_ignored):
        return None
    return hangup


def output_to_nowhere() -> None:
    """Point stdout and stderr at /dev/null: a thinking worker's (nothing of
    it may reach the app's screen), or the app's once its terminal is gone
    (writes would fail or wait for ever)."""
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_WRONLY)
        for fd in (1, 2):
            os.dup2(null, fd)
        os.close(null)
