"""Real components for end-to-end tests: an OpenSSH server on 127.0.0.1, tmux
panes at 80x24, a headless threeup host.  Everything listens on loopback.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SSHD = shutil.which("sshd") or "/usr/sbin/sshd"
THREEUP = [sys.executable, "-m", "threeup_tui"]


def free_port(kind: int = socket.SOCK_STREAM) -> int:
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_line(proc: subprocess.Popen[str], pattern: str, timeout: float = 20.0) -> str:
    """Read the process's stderr until a line matches; return the match's group 1."""
    assert proc.stderr is not None
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            if proc.poll() is not None:
                break
            continue
        seen.append(line)
        match = re.search(pattern, line)
        if match:
            return match.group(1)
    raise AssertionError(f"no line matching {pattern!r}; saw: {''.join(seen)[-2000:]}")


@dataclass
class Sshd:
    port: int
    key: Path  # the client's private key
    user: str
    home: Path

    def ssh_command(self, remote: str, term: str = "xterm-256color") -> str:
        """A shell command that opens ``ssh -t`` to run ``remote`` there."""
        return (
            f"env TERM={term} ssh -t -p {self.port} -i {self.key} "
            "-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null "
            "-o LogLevel=ERROR -o BatchMode=yes -o IdentitiesOnly=yes "
            f"{self.user}@127.0.0.1 {remote!r}"
        )


@pytest.fixture(scope="session")
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sshd]:
    """A real OpenSSH server on 127.0.0.1, a generated host key, key-only login."""
    if not os.path.exists(SSHD):
        pytest.fail("OpenSSH server not installed: .ci/run installs openssh-server")
    base = tmp_path_factory.mktemp("sshd")
    host_key = base / "host_ed25519"
    client_key = base / "client_ed25519"
    for key in (host_key, client_key):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    authorized = base / "authorized_keys"
    authorized.write_text(client_key.with_suffix(".pub").read_text())
    authorized.chmod(0o600)
    port = free_port()
    config = base / "sshd_config"
    config.write_text(
        "\n".join(
            [
                f"Port {port}",
                "ListenAddress 127.0.0.1",
                f"HostKey {host_key}",
                f"PidFile {base / 'sshd.pid'}",
                f"AuthorizedKeysFile {authorized}",
                "PubkeyAuthentication yes",
                "PasswordAuthentication no",
                "KbdInteractiveAuthentication no",
                "PermitRootLogin prohibit-password",
                "UsePAM no",
                "StrictModes no",
                "PrintMotd no",
                "PermitUserEnvironment no",
                "AcceptEnv LANG NO_COLOR",
                "",
            ]
        )
    )
    Path("/run/sshd").mkdir(parents=True, exist_ok=True)  # privilege separation dir
    proc = subprocess.Popen(
        [SSHD, "-D", "-e", "-f", str(config)], stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        if proc.poll() is not None:
            raise AssertionError(f"sshd exited: {proc.stderr.read() if proc.stderr else ''}")
        time.sleep(0.05)
    user = (
        os.environ.get("USER")
        or subprocess.run(["id", "-un"], capture_output=True, text=True, check=True).stdout.strip()
    )
    try:
        yield Sshd(port, client_key, user, base)
    finally:
        proc.terminate()
        proc.wait(5)


class Tmux:
    """A private tmux server; each pane is a real terminal of a given size."""

    def __init__(self, socket_name: str) -> None:
        self.socket = socket_name

    def run(self, *args: str) -> str:
        # -u: UTF-8 whatever the locale says (names such as 山田 in the panes).
        # Without COLUMNS and LINES (pytest-xdist's workers have 80 and 24),
        # which tmux would give every pane and the app believes before its
        # terminal: each pane is the size it is made.
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        out = subprocess.run(
            ["tmux", "-u", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            check=False,
            env=env,
        )
        return out.stdout

    def flag(self, name: str, fmt: str) -> str:
        """A pane's format value, e.g. ``#{alternate_on}`` or ``#{pane_dead_status}``."""
        return self.run("display-message", "-p", "-t", name, fmt).strip()

    def new(
        self,
        name: str,
        command: str,
        width: int = 80,
        height: int = 24,
        env: dict[str, str] | None = None,
    ) -> None:
        extra: list[str] = []
        for key, value in (env or {}).items():
            extra += ["-e", f"{key}={value}"]
        self.run(
            "new-session", "-d", "-s", name, "-x", str(width), "-y", str(height), *extra, command
        )
        self.run("set-option", "-t", name, "remain-on-exit", "on")

    def keys(self, name: str, *keys: str) -> None:
        self.run("send-keys", "-t", name, *keys)

    def screen(self, name: str, escapes: bool = False) -> str:
        """The pane's text; with ``escapes``, with the SGR sequences of its colours."""
        return self.run("capture-pane", "-p", *(["-e"] if escapes else []), "-t", name)

    def wait_for(self, name: str, text: str | re.Pattern[str], timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen(name)
            found = text.search(screen) if isinstance(text, re.Pattern) else text in screen
            if found:
                return screen
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never appeared in pane {name}:\n{screen}")

    def kill(self) -> None:
        self.run("kill-server")


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    server = Tmux(f"threeup-test-{os.getpid()}-{tmp_path.name}")
    # A session that outlives the others: tmux exits with its last session,
    # and a new session sent to a server that is shutting down is lost.
    server.new("keeper", "sleep 3600")
    try:
        yield server
    finally:
        server.kill()


@pytest.fixture
def headless_host(tmp_path: Path) -> Iterator[object]:
    """Starts ``threeup host --headless`` on loopback; call it with arguments."""
    procs: list[subprocess.Popen[str]] = []

    def start(*args: str) -> tuple[subprocess.Popen[str], int]:
        proc = subprocess.Popen(
            [
                *THREEUP,
                "host",
                "--headless",
                "--bind",
                "127.0.0.1",
                "--port",
                "0",
                "--announce",
                "off",
                "--record",
                str(tmp_path / "game.json"),
                *args,
            ],
            stderr=subprocess.PIPE,
            text=True,
            env=host_env(tmp_path),
        )
        procs.append(proc)
        port = int(wait_for_line(proc, r"threeup host listening on 127\.0\.0\.1:(\d+)"))
        return proc, port

    yield start
    stop_hosts(procs)


def host_env(tmp_path: Path) -> dict[str, str]:
    """A headless host's environment: its own state directory (where a
    resumed table finds its seats), and names such as 山田."""
    return {**os.environ, "THREEUP_STATE_DIR": str(tmp_path / "host-state"), "LANG": "C.UTF-8"}


def stop_hosts(procs: list[subprocess.Popen[str]]) -> None:
    """Stop the hosts a fixture started that still run: asked, then killed."""
    for proc in procs:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
