"""Seat tokens a client keeps, per table address, in the user state directory.

A token is chosen by the client the first time it joins a table and kept,
so a client that restarts (or a host that resumes) finds the same seat.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from pathlib import Path

from ..paths import state_dir as state_dir  # where sshdoor.py finds it too
from ..recordfile import write_atomic


class TokenStore:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or state_dir() / "seats.json"

    def _load(self) -> dict[str, str]:
        with contextlib.suppress(OSError, ValueError):
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if isinstance(data, dict):
                return {k: v for k, v in data.items() if isinstance(v, str)}
        return {}

    def token_for(self, table: str, name: str) -> str:
        """The kept token for this table, name and terminal, or a new one,
        kept from now on.  The terminal is part of the key so that two
        sessions of one user on one machine (two SSH logins) are two seats,
        while a client restarted in the same terminal gets its seat back."""
        key = f"{table}|{name}|{_terminal()}"
        tokens = self._load()
        token = tokens.get(key)
        if token is None:
            token = secrets.token_hex(16)
            tokens[key] = token
            with contextlib.suppress(OSError):  # no state dir: a seat for this run only
                write_atomic(self.path, json.dumps(tokens, indent=1))
        return token


def _terminal() -> str:
    # The SSH front door names the terminal after the SSH user, so that a
    # player who reconnects (on a new pseudo-terminal) finds the same seat.
    override = os.environ.get("THREEUP_TERMINAL_ID")
    if override:
        return override
    for fd in (0, 1, 2):
        with contextlib.suppress(OSError):
            return os.ttyname(fd)
    return "no-tty"
