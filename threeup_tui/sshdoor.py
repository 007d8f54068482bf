"""The zero-install SSH front door: ``threeup host --ssh-port P``.

Friends run ``ssh -p P HOST`` and land in the game: each SSH session gets
its own ``threeup join`` app on a fresh pseudo-terminal, seated at the table
as a network client of the local host.  Because every session is a separate
process speaking the normal protocol, a session that drops (or crashes)
never disturbs the table; the table keeps the seat (D17) and the player gets
it back by connecting again under the same name.

Access: public keys listed in an authorized_keys file, or the room code
asked at connect (keyboard-interactive, or as the password), or, with
neither set, anyone who can reach the port.  Connections are rate-limited
per address.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import fcntl
import logging
import os
import pty
import re
import secrets
import sys
import termios
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import asyncssh

from .netplay.tokens import state_dir

log = logging.getLogger("threeup.ssh")

MAX_CONNECTIONS_PER_WINDOW = 5
RATE_WINDOW = 10.0
MAX_SESSIONS = 16
_NAME_OK = re.compile(r"[^A-Za-z0-9_.@ -]")


class RateLimiter:
    """At most ``limit`` new connections per address in ``window`` seconds."""

    def __init__(self, limit: int = MAX_CONNECTIONS_PER_WINDOW, window: float = RATE_WINDOW):
        self.limit = limit
        self.window = window
        self.seen: dict[str, collections.deque[float]] = {}
        self.refused = 0

    def allow(self, address: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        times = self.seen.setdefault(address, collections.deque())
        while times and now - times[0] > self.window:
            times.popleft()
        if len(times) >= self.limit:
            self.refused += 1
            return False
        times.append(now)
        if len(self.seen) > 4096:  # forget the quietest addresses first
            for key in [k for k, v in self.seen.items() if not v][:1024]:
                del self.seen[key]
        return True


def host_key_path() -> Path:
    return state_dir() / "ssh_host_ed25519_key"


def load_or_create_host_key(path: Path | None = None) -> asyncssh.SSHKey:
    path = path or host_key_path()
    if path.exists():
        return asyncssh.read_private_key(str(path))
    key = asyncssh.generate_private_key("ssh-ed25519")
    path.parent.mkdir(parents=True, exist_ok=True)
    key.write_private_key(str(path))
    os.chmod(path, 0o600)
    return key


class _DoorServer(asyncssh.SSHServer):
    def __init__(self, door: SshDoor) -> None:
        self.door = door

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        peer = conn.get_extra_info("peername")
        address = peer[0] if peer else "?"
        if not self.door.limiter.allow(address) or self.door.sessions >= MAX_SESSIONS:
            log.warning("refusing an SSH connection from %s (rate limit)", address)
            asyncio.get_running_loop().call_soon(conn.close)

    def begin_auth(self, username: str) -> bool:
        return self.door.code is not None or self.door.authorized_keys is not None

    def public_key_auth_supported(self) -> bool:
        return self.door.authorized_keys is not None

    def password_auth_supported(self) -> bool:
        return self.door.code is not None

    def validate_password(self, username: str, password: str) -> bool:
        return self.door.code_ok(password)

    def kbdint_auth_supported(self) -> bool:
        return self.door.code is not None

    def get_kbdint_challenge(
        self, username: str, lang: str, submethods: str
    ) -> tuple[str, str, str, list[tuple[str, bool]]]:
        return ("threeup", "This table asks for its room code.", "", [("Room code: ", False)])

    def validate_kbdint_response(self, username: str, responses: Sequence[str]) -> bool:
        return len(responses) == 1 and self.door.code_ok(responses[0])


class SshDoor:
    """Serves the app over SSH, each session a ``threeup join`` to ``game``."""

    def __init__(
        self,
        game_port: int,
        code: str | None = None,
        authorized_keys: Path | None = None,
        host_key: Path | None = None,
    ) -> None:
        self.game_port = game_port
        self.code = code
        self.authorized_keys = authorized_keys
        self.host_key = host_key
        self.limiter = RateLimiter()
        self.sessions = 0
        self._server: asyncssh.SSHAcceptor | None = None
        self._children: set[asyncio.subprocess.Process] = set()

    def code_ok(self, given: str) -> bool:
        return self.code is not None and secrets.compare_digest(given.encode(), self.code.encode())

    async def start(self, bind: str, port: int) -> tuple[str, int]:
        options: dict[str, Any] = {}
        if self.authorized_keys is not None:
            options["authorized_client_keys"] = str(self.authorized_keys)
        self._server = await asyncssh.create_server(
            lambda: _DoorServer(self),
            bind,
            port,
            server_host_keys=[load_or_create_host_key(self.host_key)],
            process_factory=self._session,
            encoding=None,
            line_editor=False,
            allow_scp=False,
            **options,
        )
        sock = self._server.sockets[0].getsockname()
        return sock[0], sock[1]

    async def close(self) -> None:
        for child in list(self._children):
            with contextlib.suppress(ProcessLookupError):
                child.kill()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _session(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        term = process.get_terminal_type()
        if term is None:
            process.stderr.write(
                b"threeup needs a terminal: connect with 'ssh -t' from a terminal.\r\n"
            )
            process.exit(1)
            return
        username = process.get_extra_info("username") or "player"
        name = _NAME_OK.sub("", username)[:24] or "player"
        self.sessions += 1
        try:
            code = await self._run_app(process, term, name)
        except Exception:  # a broken session must not take the door down
            log.exception("SSH session for %s failed", name)
            code = 1
        finally:
            self.sessions -= 1
        with contextlib.suppress(Exception):
            process.exit(code)

    async def _run_app(
        self, process: asyncssh.SSHServerProcess[bytes], term: str, name: str
    ) -> int:
        master, slave = pty.openpty()
        env = dict(os.environ)
        env["TERM"] = term
        # One seat per SSH user name: reconnecting gets the seat back.
        env["THREEUP_TERMINAL_ID"] = f"ssh:{name}"
        env.pop("NO_COLOR", None)
        for key in ("NO_COLOR", "LANG", "COLORTERM"):
            value = process.env.get(key) if hasattr(process, "env") else None
            if isinstance(value, str):
                env[key] = value
        args = [
            sys.executable,
            "-m",
            "threeup_tui",
            "join",
            f"127.0.0.1:{self.game_port}",
            "--name",
            name,
        ]
        if self.code is not None:
            args += ["--code", self.code]
        width, height, _, _ = process.get_terminal_size()
        _set_size(slave, width or 80, height or 24)
        child = await asyncio.create_subprocess_exec(
            *args,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            preexec_fn=_controlling_tty,
        )
        os.close(slave)
        self._children.add(child)
        reader = os.fdopen(master, "rb", buffering=0)
        writer = os.fdopen(os.dup(master), "wb", buffering=0)
        try:
            await process.redirect(stdin=writer, stdout=reader)
            exited = asyncio.ensure_future(child.wait())
            dropped = asyncio.ensure_future(process.channel.wait_closed())
            await asyncio.wait({exited, dropped}, return_when=asyncio.FIRST_COMPLETED)
            dropped.cancel()
            if exited.done():
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(process.stdout.drain(), 2.0)
        finally:
            if child.returncode is None:
                # The SSH session dropped: let the app leave the table
                # cleanly, and make sure it is gone.
                with contextlib.suppress(ProcessLookupError):
                    child.terminate()
                try:
                    await asyncio.wait_for(child.wait(), 3.0)
                except TimeoutError:
                    with contextlib.suppress(ProcessLookupError):
                        child.kill()
                    await child.wait()
            self._children.discard(child)
            for f in (reader, writer):
                with contextlib.suppress(OSError):
                    f.close()
        return child.returncode or 0


def _controlling_tty() -> None:
    """In the child: a new session whose controlling terminal is the pty."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def _set_size(fd: int, width: int, height: int) -> None:
    import struct

    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
