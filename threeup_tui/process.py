"""What a threeup process does with its own signals and standard streams:
the app, a headless host, a joined bot and the thinking workers alike."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys

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


class _VoiceFormatter(logging.Formatter):
    """A log record as one line in the command's own voice (``threeup
    join: ...``): no level or logger name, and an exception in words at the
    line's end, not a traceback or a repr."""

    def __init__(self, voice: str, stamped: bool) -> None:
        super().__init__()
        self.voice = voice
        self.stamped = stamped

    def format(self, record: logging.LogRecord) -> str:
        said = record.getMessage()
        err = record.exc_info[1] if record.exc_info else None
        if err is not None:
            words = str(err).strip()
            said = f"{said}: {type(err).__name__}" + (f": {words}" if words else "")
        line = f"{self.voice}: {' '.join(said.split())}"
        return f"{self.formatTime(record)} {line}" if self.stamped else line


def log_to_stderr(voice: str, level: int, stamped: bool = False) -> None:
    """Send the process's log to stderr, each record one line that starts as
    the command's other lines do (``voice``: "threeup join"), ``stamped``
    with the time for a long-running host.  logging's default format
    ("ERROR:threeup.botseat:...") read as a crash to whoever ran the command."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_VoiceFormatter(voice, stamped))
    logging.basicConfig(level=level, handlers=[handler])
