"""The zero-install SSH front door, with the real OpenSSH client."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from threeup_tui.cli import EXIT_USAGE
from threeup_tui.terminals import plain_terminal_words

from .conftest import Tmux, free_port, wait_for_line

SSH_OPTS = [
    "-o",
    "StrictHostKeyChecking=no",
    "-o",
    "UserKnownHostsFile=/dev/null",
    "-o",
    "LogLevel=ERROR",
    "-o",
    "ConnectTimeout=10",
]


@pytest.fixture
def client_key(tmp_path: Path) -> Path:
    key = tmp_path / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    return key


def start_door(headless_host, tmp_path: Path, *extra: str) -> tuple[subprocess.Popen[str], int]:
    door_port = free_port()
    proc, _port = headless_host(
        "--players",
        "3",
        "--bots",
        "1",
        "--ssh-port",
        str(door_port),
        "--takeover-after",
        "600",
        *extra,
    )
    wait_for_line(proc, r"ssh door listening on 127\.0\.0\.1:(\d+)")
    return proc, door_port


def door_connection(door: int, key: Path, user: str = "ann") -> Any:
    """An asyncssh connection to the door on loopback as ``user`` with ``key``
    (for what OpenSSH cannot send: odd terminal sizes and types, floods)."""
    from threeup_tui.sshdoor import asyncssh

    return asyncssh.connect(
        "127.0.0.1",
        door,
        username=user,
        client_keys=[str(key)],
        known_hosts=None,
        agent_path=None,
    )


def shared_connection(tmux: Tmux, door: int, key: Path, tmp_path: Path, shown: str) -> list[str]:
    """Ann's connection in a terminal, once it shows ``shown``, opened as an
    OpenSSH master; the command that opens one more session over it (one
    connection may carry hundreds of sessions)."""
    base = (
        f"ssh -p {door} -i {key} -o IdentitiesOnly=yes {' '.join(SSH_OPTS)} "
        f"-o ControlPath={tmp_path / 'control'}"
    )
    tmux.new("ann", f"{base} -o ControlMaster=yes -t ann@127.0.0.1", env={"TERM": "xterm-256color"})
    tmux.wait_for("ann", shown, timeout=60)
    return f"{base} -o ControlMaster=no -tt ann@127.0.0.1".split()


def ssh(
    door_port: int,
    key: Path,
    user: str,
    *args: str,
    timeout: float = 20,
    command: tuple[str, ...] = (),
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            "ssh",
            "-p",
            str(door_port),
            "-i",
            str(key),
            "-o",
            "BatchMode=yes",
            "-o",
            "IdentitiesOnly=yes",
            *SSH_OPTS,
            *args,
            f"{user}@127.0.0.1",
            *command,
        ],
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def test_a_session_without_a_terminal_is_refused_with_a_message(
    headless_host, tmp_path: Path, client_key: Path
) -> None:
    keys = tmp_path / "authorized_keys"
    keys.write_text(client_key.with_suffix(".pub").read_text())
    proc, door = start_door(headless_host, tmp_path, "--ssh-authorized-keys", str(keys))
    result = ssh(door, client_key, "ann", "-T")
    assert result.returncode == EXIT_USAGE  # as the app's own "needs a terminal"
    assert "needs a terminal" in result.stderr
    assert proc.poll() is None  # the table goes on


def test_a_command_is_refused_with_a_line_and_takes_no_seat(
    headless_host, tmp_path: Path, client_key: Path
) -> None:
    """The door runs only the game: ``ssh -tt HOST ls`` ran it as if nothing
    had been asked (and sat the player down); without a terminal it was told
    to get one, as if that were all."""
    keys = tmp_path / "authorized_keys"
    keys.write_text(client_key.with_suffix(".pub").read_text())
    proc, door = start_door(headless_host, tmp_path, "--ssh-authorized-keys", str(keys))
    for terminal in ("-tt", "-T"):
        result = ssh(door, client_key, "ann", terminal, command=("--", "ls", "-l"))
        assert result.returncode == EXIT_USAGE, terminal
        told = result.stdout + result.stderr
        assert "this door runs only the game, no commands" in told, terminal
        assert "needs a terminal" not in told
    assert proc.poll() is None
    proc.send_signal(signal.SIGTERM)
    assert proc.stderr is not None
    assert "sits down" not in proc.stderr.read()


def test_a_subsystem_is_refused_with_a_line_and_takes_no_seat(
    headless_host, tmp_path: Path, client_key: Path
) -> None:
    """``ssh -tt -s HOST foo`` asks for a subsystem, not a shell: asyncssh
    refuses sftp itself, but any other name reached the door, which ran the
    game for it, and a seated player's own key took its seat over."""
    keys = tmp_path / "authorized_keys"
    keys.write_text(client_key.with_suffix(".pub").read_text())
    proc, door = start_door(headless_host, tmp_path, "--ssh-authorized-keys", str(keys))
    for terminal in ("-tt", "-T"):
        result = ssh(door, client_key, "ann", terminal, "-s", command=("foo",))
        assert result.returncode == EXIT_USAGE, terminal
        told = result.stdout + result.stderr
        assert "this door runs only the game, no commands" in told, terminal
        assert "needs a terminal" not in told
    assert proc.poll() is None
    proc.send_signal(signal.SIGTERM)
    assert proc.stderr is not None
    assert "sits down" not in proc.stderr.read()


def fingerprint_of(key: Path) -> str:
    return subprocess.run(
        ["ssh-keygen", "-l", "-f", str(key.with_suffix(".pub"))],
        capture_output=True, text=True, check=True,
    ).stdout.split()[1]  # fmt: skip


def test_an_unlisted_key_is_refused(headless_host, tmp_path: Path, client_key: Path) -> None:
    """A client that tries no more than its key (BatchMode) is refused, and
    told so in the door's SSH banner: in lines that fit 40 columns, as
    OpenSSH shows it before any terminal's size is known."""
    from threeup_tui.sshdoor import UNLISTED_BANNER

    keys = tmp_path / "authorized_keys"
    other = tmp_path / "other"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(other)], check=True)
    keys.write_text(other.with_suffix(".pub").read_text())
    proc, door = start_door(headless_host, tmp_path, "--ssh-authorized-keys", str(keys))
    result = ssh(door, client_key, "ann", "-T")
    assert result.returncode == 255
    assert "Permission denied" in result.stderr
    assert proc.poll() is None
    # Told that the key is not let in, and how to come in with it (OpenSSH
    # shows the door's banner at its default log level); the host reads
    # which key it was.
    fingerprint = fingerprint_of(client_key)
    told = subprocess.run(  # (ssh() sets LogLevel=ERROR, which hides it)
        ["ssh", "-tt", "-p", str(door), "-i", str(client_key), "-o", "BatchMode=yes",
         "-o", "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=no",
         "-o", "UserKnownHostsFile=/dev/null", "ann@127.0.0.1"],
        capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert told.returncode == 255
    lines = told.stderr.splitlines()
    assert all(line in lines for line in UNLISTED_BANNER), told.stderr
    assert max(len(line) for line in UNLISTED_BANNER) <= 40
    said = " ".join(UNLISTED_BANNER)
    assert "lets in only the SSH keys its host has listed, and not yours" in said
    proc.send_signal(signal.SIGTERM)
    assert proc.stderr is not None
    log = proc.stderr.read()
    assert f"refusing an SSH key from 127.0.0.1 (its key {fingerprint} is not listed)" in log
    assert "Traceback" not in log


def whole_words_lines(screen: str, said: str, long_word: str) -> list[str]:
    """The lines of ``screen`` that hold part of a word of ``said``, not the
    whole word: only ``long_word``, wider than the terminal, may be cut."""
    words = said.split()
    cut = []
    for line in screen.splitlines():
        for word in line.split():
            if word not in words and word not in long_word:
                cut.append(line)
    return cut


def test_someone_without_a_listed_key_reads_why_at_40_columns(
    headless_host, tmp_path: Path, client_key: Path, tmux: Tmux
) -> None:
    """The door refused an unlisted key with an SSH banner alone: hidden by
    ``ssh -o LogLevel=ERROR`` (the player read "Permission denied
    (publickey)" and nothing else) and, in a 40-column terminal, broken
    mid-word ("the k" / "ey"), the banner being sent before the door knows
    the terminal's width.  Whoever comes without a listed key, offering
    another key or none, is let in to a session that says why, between
    words at the session's width, and closes: no seat, no command."""
    from threeup_tui.sshdoor import unlisted_words

    keys = tmp_path / "authorized_keys"
    other = tmp_path / "other"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(other)], check=True)
    keys.write_text(other.with_suffix(".pub").read_text())
    proc, door = start_door(headless_host, tmp_path, "--ssh-authorized-keys", str(keys))
    fingerprint = fingerprint_of(client_key)
    base = f"ssh -t -p {door} {' '.join(SSH_OPTS)}"
    panes = {
        "unlisted": (f"{base} -i {client_key} -o IdentitiesOnly=yes ann@127.0.0.1", fingerprint),
        "keyless": (f"{base} -o PubkeyAuthentication=no bob@127.0.0.1", None),
        # A command asked for: the refusal, not the door's "no commands".
        "command": (
            f"{base} -t -i {client_key} -o IdentitiesOnly=yes cy@127.0.0.1 ls",
            fingerprint,
        ),
    }
    for name, (command, _key) in panes.items():
        tmux.new(name, f"{command}; echo EXIT=$?; sleep 600", 40, 15, env={"TERM": "xterm"})
    for name, (_command, key) in panes.items():
        screen = tmux.wait_for(name, "EXIT=")
        said = unlisted_words(key)
        assert "EXIT=1" in screen, screen
        shown = " ".join(screen.split("EXIT=")[0].split())
        if key is None:
            assert said in shown, screen
        else:
            # The fingerprint, wider than the terminal, goes on lines of its own.
            head = said.split(key)[0].rstrip()
            assert head in shown and key in "".join(shown.split(head)[1].split()), screen
        assert not whole_words_lines(screen.split("EXIT=")[0], said, key or ""), screen
        assert "Permission denied" not in screen and "no commands" not in screen, screen
    assert proc.poll() is None
    proc.send_signal(signal.SIGTERM)
    assert proc.stderr is not None
    log = proc.stderr.read()
    assert "sits down" not in log and "watches" not in log
    assert "refusing an SSH key from 127.0.0.1 (" in log, log  # the first of the three
    assert "Traceback" not in log


def test_connections_are_rate_limited_per_address(
    headless_host, tmp_path: Path, client_key: Path
) -> None:
    keys = tmp_path / "authorized_keys"
    keys.write_text(client_key.with_suffix(".pub").read_text())
    proc, door = start_door(headless_host, tmp_path, "--ssh-authorized-keys", str(keys))
    results = [ssh(door, client_key, "ann", "-T") for _ in range(7)]
    refused_by_rate = [r for r in results if "needs a terminal" not in r.stderr]
    assert results[0].returncode == EXIT_USAGE  # admitted, then refused for having no terminal
    assert len(refused_by_rate) >= 2  # the 6th and 7th within 10 s were cut off
    assert all(r.returncode == 255 for r in refused_by_rate)
    # Told why, not "Disconnected by application" (OpenSSH shows the reason
    # at its default log level).
    told = ssh(door, client_key, "ann", "-T", "-o", "LogLevel=INFO")
    assert told.returncode == 255
    assert "too many connections from your address: try again in 10 s" in told.stderr
    assert proc.poll() is None


def test_the_rate_limit_counts_every_loopback_address_as_one(
    headless_host, tmp_path: Path, client_key: Path
) -> None:
    """Anyone on the door's machine may connect from any of 127.0.0.0/8 (and
    a guesser on IPv6 from any address of its /64): counted one address at a
    time, a new source address for each connection went around the rate
    limit, the failures' slowing and the bounds on places at the prompts."""
    keys = tmp_path / "authorized_keys"
    keys.write_text(client_key.with_suffix(".pub").read_text())
    proc, door = start_door(headless_host, tmp_path, "--ssh-authorized-keys", str(keys))
    results = [ssh(door, client_key, "ann", "-T", "-b", f"127.0.0.{i}") for i in range(2, 9)]
    refused_by_rate = [r for r in results if "needs a terminal" not in r.stderr]
    assert results[0].returncode == EXIT_USAGE  # admitted, then refused for having no terminal
    assert len(refused_by_rate) >= 2  # the 6th and 7th within 10 s, from new addresses too
    assert all(r.returncode == 255 for r in refused_by_rate)
    assert proc.poll() is None


def test_connections_that_never_log_in_hold_only_a_few_places(
    headless_host, tmp_path: Path
) -> None:
    """A client that connects and says nothing holds its place until the
    log-in time-out: from a few addresses, within the rate limit, such
    connections filled all 64 places and a seated player's return read "the
    door is full". Only 4 from one address may be logging in at once."""
    from threeup_tui.sshdoor import MAX_LOGGING_IN_PER_ADDRESS

    proc, door = start_door(headless_host, tmp_path)
    silent = [
        socket.create_connection(("127.0.0.1", door), timeout=10)
        for _ in range(MAX_LOGGING_IN_PER_ADDRESS + 1)
    ]
    try:
        for conn in silent:
            assert conn.recv(256).startswith(b"SSH-2.0-")  # the door's greeting
        one_too_many = silent[-1]
        one_too_many.settimeout(15)
        assert until_closed(one_too_many), "the fifth silent connection was kept"
        wait_for_line(proc, r"refusing an SSH connection from 127\.0\.0\.1 \((4) connections "
                      r"from this address are logging in\)")  # fmt: skip
        first = silent[0]
        first.settimeout(0.5)
        with pytest.raises(TimeoutError):
            first.recv(256)  # the first four still wait for their log-in
    finally:
        for conn in silent:
            conn.close()
    assert proc.poll() is None


def until_closed(conn: socket.socket) -> bool:
    """Whether the door closes ``conn`` before its time-out (reading what it sends)."""
    try:
        while conn.recv(4096):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        pass
    return True


def test_a_client_that_reconnects_without_a_pause_is_logged_once(
    headless_host, tmp_path: Path, client_key: Path
) -> None:
    """Refused at once, a client that reconnects without a pause is refused
    thousands of times a minute: the host's log once had a line for each
    (a megabyte a minute), now the first and then one a minute with a count."""
    keys = tmp_path / "authorized_keys"
    keys.write_text(client_key.with_suffix(".pub").read_text())
    proc, door = start_door(headless_host, tmp_path, "--ssh-authorized-keys", str(keys))
    results = [ssh(door, client_key, "ann", "-T") for _ in range(15)]
    refused = [r for r in results if "too many connections" in r.stderr]
    assert len(refused) >= 8
    proc.send_signal(signal.SIGTERM)
    assert proc.stderr is not None
    log = proc.stderr.read()
    assert log.count("refusing an SSH connection from 127.0.0.1") == 1, log


def test_a_connection_that_runs_no_session_is_closed(
    headless_host, tmp_path: Path, client_key: Path
) -> None:
    """``ssh -N`` logs in and asks for nothing: kept open, 64 of them filled
    the door, and a seated player coming back read "the door is full"."""
    proc, door = start_door(headless_host, tmp_path, "--code", "pizza")
    started = time.monotonic()
    result = ssh(door, client_key, "mallory", "-N", timeout=40)
    assert time.monotonic() - started < 30
    assert result.returncode == 255
    assert "this door only seats players: connect with 'ssh -t'" in result.stderr
    assert proc.poll() is None


async def test_a_terminal_larger_than_the_door_gives_is_cut_to_its_largest(
    headless_host, tmp_path: Path, client_key: Path
) -> None:
    """The client says how large its terminal is, and the app keeps every
    cell: 100000 x 100000 failed the session (and left its pseudo-terminal
    open on the host), 30000 x 30000 would have taken the host's memory."""
    from threeup_tui.sshdoor import MAX_ROWS

    proc, door = start_door(headless_host, tmp_path)
    async with door_connection(door, client_key) as conn:
        process = await conn.create_process(
            term_type="xterm", term_size=(100000, 100000, 99999, 99999), encoding=None
        )
        shown = Shown(process)
        until = shown.until

        await until(b"Seats:")
        # The app draws its screen at the largest size the door gives.
        assert f"\x1b[{MAX_ROWS};1H".encode() in shown.text
        assert f"\x1b[{MAX_ROWS + 1};1H".encode() not in shown.text
        process.change_terminal_size(40000, 40000, 70000, 70000)
        process.stdin.write(b"q")  # the app still answers: it asks to leave
        await until(b"Leave this table?")
    assert proc.poll() is None
    proc.send_signal(signal.SIGTERM)
    assert proc.stderr is not None
    assert "SSH session failed" not in proc.stderr.read()


async def test_a_terminal_type_or_variable_with_a_nul_still_gets_the_table(
    headless_host, tmp_path: Path, client_key: Path
) -> None:
    """The client's terminal type and LANG go into the app's environment,
    and an SSH string may hold a NUL, which no environment can: the app
    never started, the player read nothing at all, and the host's log had
    a traceback ("embedded null byte")."""

    proc, door = start_door(headless_host, tmp_path)
    for term, lang in (("xterm\0evil", "C.UTF-8"), ("xterm", "C.UTF-8\0x")):
        async with door_connection(door, client_key) as conn:
            process = await conn.create_process(
                term_type=term, term_size=(80, 24), env={"LANG": lang}, encoding=None
            )
            await Shown(process).until(b"Seats:")
    assert proc.poll() is None
    proc.send_signal(signal.SIGTERM)
    assert proc.stderr is not None
    log = proc.stderr.read()
    assert "SSH session failed" not in log and "Traceback" not in log


TRUECOLOR = re.compile(rb"\x1b\[[\d;]*[34]8;2;")  # a 24-bit colour, foreground or background


async def test_a_guests_colours_are_its_terminals_never_the_hosts(
    headless_host, tmp_path: Path, client_key: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The door's guest app had the host's environment, COLORTERM too: a
    host started in a terminal of millions of colours (COLORTERM=truecolor)
    drew 24-bit colours for a guest whose client sent none, in a 16-colour
    xterm or the Linux console, where a card's tint brought down to 16
    colours is white, and not the terminal's own red, green and blue that
    the app chooses for such a terminal.  A guest that says truecolor gets it."""

    monkeypatch.setenv("COLORTERM", "truecolor")  # the host's terminal
    _proc, door = start_door(headless_host, tmp_path)
    drawn = {}
    for sent in ({}, {"COLORTERM": "truecolor"}):
        async with door_connection(door, client_key) as conn:
            process = await conn.create_process(
                term_type="xterm", term_size=(80, 24), env={"LANG": "C.UTF-8", **sent},
                encoding=None,
            )  # fmt: skip
            shown = Shown(process)
            await shown.until(b"Seats:")
            drawn[bool(sent)] = shown.text
    assert not TRUECOLOR.search(drawn[False]), "24-bit colours for a 16-colour terminal"
    assert TRUECOLOR.search(drawn[True])


async def test_a_guest_gets_its_own_terminal_size_whatever_the_hosts_environment_says(
    headless_host, tmp_path: Path, client_key: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """COLUMNS and LINES say how large a terminal is, and the app believes
    them before the terminal itself: a host whose environment had them (a
    shell that exports them, pytest-xdist's workers: 80 and 24) gave them to
    every guest's app, which drew at the host's 80 x 24 whatever the guest's
    window, and stayed so through every window change."""

    monkeypatch.setenv("COLUMNS", "80")  # the host's terminal
    monkeypatch.setenv("LINES", "24")
    _proc, door = start_door(headless_host, tmp_path)
    async with door_connection(door, client_key) as conn:
        process = await conn.create_process(term_type="xterm", term_size=(100, 30), encoding=None)
        shown = Shown(process)
        await shown.until(b"Seats:")
        await asyncio.wait_for(shown.until(b"\x1b[30;1H"), 10)  # the footer on the guest's row 30
        process.change_terminal_size(90, 40)
        await asyncio.wait_for(shown.until(b"\x1b[40;1H"), 10)  # and on row 40 once it grows


async def test_a_guests_app_is_not_set_up_by_the_hosts_textual_settings(
    headless_host, tmp_path: Path, client_key: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The door gave a guest's app the host's whole environment, and Textual
    reads its settings there: a host that ran its own app in 16 colours
    (TEXTUAL_COLOR_SYSTEM=standard) drew every guest in 16 colours, whatever
    the guest's terminal; TEXTUAL_PRESS would have pressed keys in every
    guest's app, TEXTUAL_DRIVER swapped its driver."""

    monkeypatch.setenv("TEXTUAL_COLOR_SYSTEM", "standard")  # the host's own choice
    _proc, door = start_door(headless_host, tmp_path)
    async with door_connection(door, client_key) as conn:
        process = await conn.create_process(
            term_type="xterm-256color", term_size=(80, 24), encoding=None
        )
        shown = Shown(process)
        await shown.until(b"Seats:")
        await asyncio.wait_for(shown.until(b"38;5;"), 10)  # the guest's 256 colours


ROW = re.compile(rb"\x1b\[(\d+);1H")  # the app moves to a row's beginning to draw it


async def test_a_guests_keys_never_size_its_app_only_its_window_does(
    headless_host, tmp_path: Path, client_key: Path
) -> None:
    """The app takes a terminal's report of its own size from its input (an
    "in-band window resize": ESC [ 48 ; rows ; columns ; 0 ; 0 t), and a
    guest could type one: 3000 rows of 4000 columns, far past the door's
    largest, and a frame of 37 MB; a guest that answered that its terminal
    sends such reports (ESC [ ? 2048 ; 2 $ y) made its app deaf to the window
    changes the door passes.  The door takes both out of a guest's keys."""
    from threeup_tui.sshdoor import MAX_ROWS

    _proc, door = start_door(headless_host, tmp_path)
    async with door_connection(door, client_key) as conn:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        shown = Shown(process)
        await shown.until(b"Seats:")
        shown.text = b""
        process.stdin.write(b"\x1b[?2048;2$y" + b"\x1b[48;3000;4000;0;0t")
        process.stdin.write(b"c")  # read after them: the chat line is drawn at the app's size then
        await shown.until(b"Back to the lobby")
        rows = [int(row) for row in ROW.findall(shown.text)]
        assert max(rows) <= 24 < MAX_ROWS, f"the app drew {max(rows)} rows in a 24-row window"
        process.change_terminal_size(100, 30)
        await asyncio.wait_for(shown.until(b"\x1b[30;1H"), 10)  # the window still sizes it
        # A key that begins as a report does still reaches the app: 0 in the
        # kitty keyboard protocol, which the app asks the guest's terminal for.
        process.stdin.write(b"zq" + b"\x1b[48;;48u" + b"9")
        await asyncio.wait_for(shown.until(b"zq09"), 10)


async def test_a_guest_whose_terminal_moves_no_cursor_is_told_why_in_its_words(
    headless_host, tmp_path: Path, client_key: Path
) -> None:
    """A guest with TERM=dumb reads why the table cannot be drawn and what
    to do, not the commands of someone at the host's own machine; and is
    refused at the door, as a session without a terminal is: the app refused
    it only once the door had seated the guest (a seat taken, "sits down" in
    the host's log)."""
    proc, door = start_door(headless_host, tmp_path)
    async with door_connection(door, client_key) as conn:
        process = await conn.create_process(term_type="dumb", term_size=(80, 24), encoding=None)
        told = await asyncio.wait_for(process.stderr.read(), 30)
        shown = await asyncio.wait_for(process.stdout.read(), 30)
        await asyncio.wait_for(process.wait_closed(), 30)
    assert proc.poll() is None
    proc.send_signal(signal.SIGTERM)
    assert proc.stderr is not None
    assert "sits down" not in proc.stderr.read()
    assert b"seat word" not in shown + told  # nobody was asked who they are
    # Between words at the session's 80 columns.
    assert " ".join(told.decode().split()) == plain_terminal_words("dumb", "join", guest=True)
    assert max(len(line) for line in told.decode().splitlines()) <= 80
    assert b"set TERM to its name" in told and b"--headless" not in told
    # The app's own refusal of such a terminal, and the door's, are one code.
    assert process.exit_status == EXIT_USAGE


class Shown:
    """What an asyncssh session has shown so far, read on until a text comes."""

    def __init__(self, process: Any) -> None:  # an asyncssh SSHClientProcess
        self.process = process
        self.text = b""

    async def until(self, text: bytes) -> None:
        while text not in self.text:
            more = await asyncio.wait_for(self.process.stdout.read(1 << 20), 30)
            assert more, self.text[-2000:]  # the session ended
            self.text += more


def test_the_room_code_is_asked_at_connect(headless_host, tmp_path: Path, tmux: Tmux) -> None:
    _proc, door = start_door(headless_host, tmp_path, "--code", "pizza")
    command = (
        f"ssh -t -p {door} -o PubkeyAuthentication=no -o PreferredAuthentications="
        f"keyboard-interactive {' '.join(SSH_OPTS)} bob@127.0.0.1"
    )
    tmux.new("door", command, env={"TERM": "xterm-256color"})
    tmux.wait_for("door", "Room code:")
    tmux.keys("door", "wrong", "Enter")
    tmux.wait_for("door", re.compile(r"Room code:.*\n.*Room code:", re.S))
    tmux.keys("door", "pizza", "Enter")
    # Seated as a network client of the table: the app names the player.
    tmux.wait_for("door", "bob", timeout=30)


def test_a_dropped_session_keeps_its_seat_and_gets_it_back(
    headless_host, tmp_path: Path, client_key: Path, tmux: Tmux
) -> None:
    keys = tmp_path / "authorized_keys"
    keys.write_text(client_key.with_suffix(".pub").read_text())
    door_port = free_port()
    # Two seats: a bot and Ann, so the game starts as soon as Ann sits down.
    proc, _ = headless_host(
        "--players",
        "2",
        "--bots",
        "1",
        "--ssh-port",
        str(door_port),
        "--ssh-authorized-keys",
        str(keys),
        "--takeover-after",
        "600",
    )
    wait_for_line(proc, r"ssh door listening on 127\.0\.0\.1:(\d+)")
    command = (
        f"ssh -t -p {door_port} -i {client_key} -o IdentitiesOnly=yes "
        f"{' '.join(SSH_OPTS)} ann@127.0.0.1"
    )
    tmux.new("ann", command, env={"TERM": "xterm-256color"})
    # Seated: the set-up's cards show (its title can come a frame before
    # them, and an Enter typed before the cards were in sight lays nothing).
    tmux.wait_for("ann", "Chosen 0/3", timeout=60)
    tmux.keys("ann", "1", "2", "3", "Enter")
    tmux.wait_for("ann", "turn", timeout=30)
    # The connection drops hard: the SSH client is killed with its pane.
    tmux.run("kill-session", "-t", "ann")
    time_alive = proc.poll()
    assert time_alive is None  # the table does not notice anything amiss
    # Ann connects again: the table is full, so only her own seat can take her.
    tmux.new("ann2", command, env={"TERM": "xterm-256color"})
    screen = tmux.wait_for("ann2", re.compile(r"YOUR TURN|turn \d+"), timeout=60)
    assert "full" not in screen
    assert proc.poll() is None


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process has taken so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def apps_of(host: int) -> list[int]:
    """The door's guests' apps: the host's child processes."""
    apps = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue  # gone meanwhile
            if parent == host:
                apps.append(int(entry))
    return apps


def ann_in_the_chat(
    headless_host, tmp_path: Path, client_key: Path, tmux: Tmux
) -> subprocess.Popen[str]:
    """A door whose one guest, Ann (OpenSSH in the tmux pane "ann"), sits in
    the lobby with the chat line open; the host's process."""
    keys = tmp_path / "authorized_keys"
    keys.write_text(client_key.with_suffix(".pub").read_text())
    proc, door = start_door(headless_host, tmp_path, "--ssh-authorized-keys", str(keys))
    command = (
        f"ssh -t -p {door} -i {client_key} -o IdentitiesOnly=yes {' '.join(SSH_OPTS)} ann@127.0.0.1"
    )
    tmux.new("ann", command, env={"TERM": "xterm-256color"})
    tmux.wait_for("ann", "Seats:", timeout=60)
    tmux.keys("ann", "c")
    tmux.wait_for("ann", "Back to the lobby")
    return proc


def test_a_paste_of_100_kb_is_cut_at_the_door_and_costs_the_host_little(
    headless_host, tmp_path: Path, client_key: Path, tmux: Tmux
) -> None:
    """Pasted where the terminal does not bracket it (tmux's paste-buffer
    sends it so), 100 KB were 100 000 keys for the guest's app: 21 s of the
    host's CPU for a chat line cut to 200 characters, and the guest's seat
    dropped meanwhile. The door passes its first keys and says the rest was
    cut; a chat line pasted as terminals paste it still goes whole."""
    proc = ann_in_the_chat(headless_host, tmp_path, client_key, tmux)
    [app] = apps_of(proc.pid)
    line = tmp_path / "line.txt"
    line.write_text("a line " * 20)
    tmux.run("load-buffer", "-b", "line", str(line))
    tmux.run("paste-buffer", "-p", "-b", "line", "-t", "ann")  # bracketed: the app asked
    tmux.keys("ann", "Enter")
    tmux.wait_for("ann", "ann: a line a line a line")
    before = cpu_seconds(app)
    flood = tmp_path / "flood.txt"
    flood.write_text("x" * 100_000)
    tmux.run("load-buffer", "-b", "flood", str(flood))
    tmux.run("paste-buffer", "-b", "flood", "-t", "ann")  # unbracketed: key after key
    tmux.wait_for("ann", "pasted text cut: too much at once", timeout=10)
    # The app answers at once: Enter sends the line, as much as the chat
    # takes.  (Keys that come with the flood are over the budget too.)
    time.sleep(1.0)
    tmux.keys("ann", "Enter")
    tmux.wait_for("ann", re.compile(r"ann: *│\n.*│x{30}"), timeout=10)
    assert cpu_seconds(app) - before < 5.0
    tmux.keys("ann", "Escape", "Up", "Down")  # keys and escape sequences still work
    tmux.wait_for("ann", "c Chat")
    assert proc.poll() is None
    proc.send_signal(signal.SIGTERM)
    assert proc.stderr is not None
    log = proc.stderr.read()
    assert "ann from 127.0.0.1 sends more keys than the door passes" in log
    assert "Traceback" not in log


async def test_a_client_that_sends_as_fast_as_it_can_costs_the_host_little(
    headless_host, tmp_path: Path
) -> None:
    """The door reads a guest's input itself (its prompts, then the keys it
    passes to the app): read as fast as it came, a client writing without
    a pause at the seat word's prompt (anyone may log in to an open table)
    kept a CPU core of the host busy, 12 s in 15 s, in the process that runs
    the table. The door reads what it may at its own pace, and still answers."""
    from threeup_tui.sshdoor import asyncssh

    proc, door = start_door(headless_host, tmp_path)
    async with asyncssh.connect(
        "127.0.0.1",
        door,
        username="mallory",
        password="anything",
        preferred_auth="password",
        client_keys=None,
        known_hosts=None,
        agent_path=None,
    ) as conn:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        until = Shown(process).until

        await until(b"Your seat word")
        before = cpu_seconds(proc.pid)
        deadline = time.monotonic() + 5.0
        chunk = b"x" * 65536
        while time.monotonic() < deadline:
            process.stdin.write(chunk)
            try:
                await asyncio.wait_for(process.stdin.drain(), deadline - time.monotonic())
            except TimeoutError:
                break
        spent = cpu_seconds(proc.pid) - before
        assert spent < 1.5, f"the host took {spent:.1f} s of CPU in 5 s"
        await asyncio.sleep(1.0)  # (keys that come with the flood are over the budget too)
        process.stdin.write(b"\r")
        await until(b"No seat has that seat word")
    assert proc.poll() is None


def test_bytes_that_are_not_utf8_do_not_end_the_guests_app(
    headless_host, tmp_path: Path, client_key: Path, tmux: Tmux
) -> None:
    """The app reads its terminal as UTF-8: one byte that was not (0xff, or
    the first byte of a character without the rest) ended it with a
    traceback on the player's screen. A terminal set to Latin-1 sends such
    bytes for é."""
    proc = ann_in_the_chat(headless_host, tmp_path, client_key, tmux)
    tmux.run("send-keys", "-t", "ann", "-H", "ff", "e9", "e5", "41")  # not UTF-8
    tmux.keys("ann", "-l", "zq9 ok")
    screen = tmux.wait_for("ann", "zq9 ok")
    assert "Error" not in screen
    assert proc.poll() is None


async def test_a_flood_of_window_changes_costs_the_host_little_and_the_last_size_wins(
    headless_host, tmp_path: Path, client_key: Path
) -> None:
    """Every window change the client sends makes the guest's app draw its
    whole screen again, and nothing bounded them as the keys are bounded: a
    client sending a hundred a second (a request each, no input at all) kept
    the app and the host at a CPU core between them, 120 x 40 or 1000 x 500
    alike. The door passes a few at once and then about one a second, always
    the latest: the size a player settles on is the one drawn."""

    proc, door = start_door(headless_host, tmp_path)
    async with door_connection(door, client_key) as conn:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        shown = Shown(process)
        await shown.until(b"Seats:")
        [app] = apps_of(proc.pid)
        before = cpu_seconds(app) + cpu_seconds(proc.pid)
        deadline = time.monotonic() + 5.0
        changes = 0
        while time.monotonic() < deadline:
            process.change_terminal_size(120 + changes % 2, 40)
            changes += 1
            await asyncio.sleep(0.01)
        process.change_terminal_size(100, 30)
        shown.text = b""
        await asyncio.sleep(1.0)
        spent = cpu_seconds(app) + cpu_seconds(proc.pid) - before
        assert spent < 2.0, f"{changes} window changes took {spent:.1f} s of the host's CPU in 6 s"
        # The last size reaches the app, in a few seconds at most: its
        # screen is drawn 100 x 30 (the footer on row 30).
        await asyncio.wait_for(shown.until(b"\x1b[30;1H"), 10)
        process.stdin.write(b"q")  # and the app still answers
        await shown.until(b"Leave this table?")
    assert proc.poll() is None


async def test_a_client_whose_input_ends_leaves_the_table_told_why(
    headless_host, tmp_path: Path, client_key: Path
) -> None:
    """A client may end its input and keep its session (``ssh -tt HOST <
    file``, a program that closes its stdin): the door stopped passing keys
    and window changes, and the app ran on, its seat "here" for ever. Nothing
    could be typed in it again, not even the key that leaves: the game
    waited on a player who could not play (no bot takes a seat that is
    here), and the session held on until the client was killed. The door
    ends such a session, telling the player why; the seat waits, as for a
    drop."""
    from threeup_tui.sshdoor import INPUT_ENDED

    door = free_port()
    # Two seats, a bot's and Ann's: the game begins, and waits on Ann's choice.
    proc, _ = headless_host(
        "--players", "2", "--bots", "1", "--ssh-port", str(door), "--takeover-after", "600"
    )  # fmt: skip
    wait_for_line(proc, r"ssh door listening on 127\.0\.0\.1:(\d+)")
    async with door_connection(door, client_key) as conn:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        shown = Shown(process)
        await shown.until(b"face up")
        process.stdin.write_eof()
        await asyncio.wait_for(shown.until(b"goodbye from threeup"), 20)
        await asyncio.wait_for(process.wait_closed(), 10)
    assert INPUT_ENDED in " ".join(shown.text.decode(errors="replace").split())
    assert process.exit_status == EXIT_USAGE  # as a session without a terminal
    wait_for_line(proc, r"(ann) is away from seat 2; the seat waits for them")
    assert not apps_of(proc.pid)
    assert proc.poll() is None


async def test_an_input_that_ends_at_the_doors_prompt_is_told_why(
    headless_host, tmp_path: Path
) -> None:
    """At the seat word's prompt an end of input gave the prompt up with
    nothing said (exit status 1, as for a busy door): the player, whose
    client ended its input (``ssh -tt HOST < /dev/null``), never read why.
    Said at 40 columns, the line breaks between words: it was written whole,
    past the door's helper, and the terminal broke it mid-word."""
    from threeup_tui.sshdoor import INPUT_ENDED, asyncssh

    _proc, door = start_door(headless_host, tmp_path)
    async with asyncssh.connect(
        "127.0.0.1", door, username="mallory", password="anything", preferred_auth="password",
        client_keys=None, known_hosts=None, agent_path=None,
    ) as conn:  # fmt: skip
        process = await conn.create_process(term_type="xterm", term_size=(40, 15), encoding=None)
        shown = Shown(process)
        await shown.until(b"Your seat word")
        process.stdin.write_eof()
        await asyncio.wait_for(shown.until(b"to play."), 10)
        await asyncio.wait_for(process.wait_closed(), 10)
    assert process.exit_status == EXIT_USAGE
    said = shown.text.decode().split("Your seat word")[-1].split("\r\n", 1)[1]
    assert " ".join(said.split()) == INPUT_ENDED, said
    assert max(len(line) for line in said.split("\r\n")) <= 40, said


async def test_a_guest_without_a_seat_watches_and_the_door_bounds_how_many(
    headless_host, tmp_path: Path, client_key: Path
) -> None:
    """A guest whose key holds no seat, at a table whose game has begun, read
    "Every seat at this table is taken, and none is yours" and "goodbye":
    nothing to do but leave, not even watch, which a UDP guest may
    (``threeup join --watch``). A keyless guest was offered a new seat that
    did not exist, and each Enter was a wrong try: the third said "No seat
    word three times: goodbye". Now both watch. Each watcher is an app on the
    host, so one key watches from two terminals at most, and three guests
    from one address (or eight in all) at once; past that, a line says so."""
    door = free_port()
    # Two seats, a bot's and Ann's: the game begins as soon as Ann sits down.
    proc, _ = headless_host(
        "--players", "2", "--bots", "1", "--ssh-port", str(door), "--takeover-after", "600"
    )  # fmt: skip
    wait_for_line(proc, r"ssh door listening on 127\.0\.0\.1:(\d+)")
    keys = {user: tmp_path / user for user in ("carl", "dave")}
    for key in keys.values():
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)

    async def session(conn: Any) -> Shown:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        return Shown(process)

    async def told(shown: Shown) -> bytes:
        await asyncio.wait_for(shown.process.wait_closed(), 20)
        return shown.text + await shown.process.stdout.read()

    from threeup_tui.sshdoor import asyncssh

    async with (
        door_connection(door, client_key, "ann") as ann,
        door_connection(door, keys["carl"], "carl") as carl,
        asyncssh.connect(
            "127.0.0.1", door, username="mallory", password="x", preferred_auth="password",
            client_keys=None, known_hosts=None, agent_path=None,
        ) as mallory,
        door_connection(door, keys["dave"], "dave") as dave,
    ):  # fmt: skip
        await (await session(ann)).until(b"face up")  # seated: the game begins
        watching = await session(carl)
        await watching.until(b"choosing face-up cards")  # the table, as a spectator sees it
        wait_for_line(proc, r"SSH: (carl) from 127\.0\.0\.1, known by key .*, watches")
        await (await session(carl)).until(b"choosing face-up cards")  # from a second terminal too
        third = await told(await session(carl))
        assert b"you watch this table from two terminals already" in third, third
        keyless = await session(mallory)
        await keyless.until(b"A game is under way at this table: your seat word takes you back")
        await keyless.until(b"Your seat word, or Enter to watch: ")
        keyless.process.stdin.write(b"\r")
        await keyless.until(b"choosing face-up cards")
        crowded = await told(await session(dave))
        assert b"as many people as the door" in crowded and b"try again later" in crowded
        assert b"choosing face-up cards" not in crowded
        watching.process.stdin.write(b"q")  # a spectator leaves as a player does
        await watching.until(b"Leave this table?")
        watching.process.stdin.write(b"y")
        assert b"goodbye from threeup" in await told(watching)
        # The host stops mid-game: a spectator is promised no seat to come back to.
        assert proc.poll() is None
        proc.send_signal(signal.SIGTERM)
        last = await told(keyless)
        assert b"the host stopped in the middle of the game" in last
        assert b"To get this seat back" not in last
    assert proc.stderr is not None
    log = proc.stderr.read()
    # (each refusal after the first from an address is counted, not told)
    assert "refusing an SSH session from 127.0.0.1 (carl watches in 2 sessions already)" in log
    assert "Traceback" not in log


def test_many_sessions_of_one_key_at_once_start_at_most_two_apps(
    headless_host, tmp_path: Path, client_key: Path, tmux: Tmux
) -> None:
    """A seat's newer session takes it over, so each session of a key that
    holds a seat started an app (a Python process of 50 MB) at once, to be
    ended when the next took over: 30 sessions opened together on one
    connection (OpenSSH's own multiplexing does it) were 30 apps, 600 MB
    and a load of 6 on a 2-core host, and nothing bounded the number. One
    seat has at most two (the live one and the one taking it over); the
    others are told to try again, and the seat is still there."""
    keys = tmp_path / "authorized_keys"
    keys.write_text(client_key.with_suffix(".pub").read_text())
    proc, door = start_door(headless_host, tmp_path, "--ssh-authorized-keys", str(keys))
    again = shared_connection(tmux, door, client_key, tmp_path, "Seats:")
    more = [
        subprocess.Popen(
            again,
            stdin=subprocess.PIPE,  # kept open: an end of input ends the session
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        for _ in range(8)
    ]
    try:
        most = 0
        deadline = time.monotonic() + 8.0
        while time.monotonic() < deadline:
            most = max(most, len(apps_of(proc.pid)))
            time.sleep(0.02)
    finally:
        for client in more:
            client.kill()
    told = [client.communicate()[0] for client in more]
    assert most <= 2, f"{most} apps at once for one seat"
    refused = [out for out in told if b"being taken over from another terminal already" in out]
    assert len(refused) >= 6, told
    assert proc.poll() is None
    proc.send_signal(signal.SIGTERM)
    assert proc.stderr is not None
    log = proc.stderr.read()
    # Refused sessions are logged as refused connections are: once a minute.
    assert log.count("refusing an SSH session from 127.0.0.1") == 1, log
    assert "ann's seat has 2 sessions already" in log
    assert "Traceback" not in log


def test_sessions_refused_at_a_busy_door_are_logged_once_a_minute(
    headless_host, tmp_path: Path, client_key: Path, tmux: Tmux
) -> None:
    """Only a few people without a seat may wait at the door's prompts, and
    a session past them is refused: the host's log had a line for each, and
    one connection may open hundreds of sessions together (OpenSSH's own
    multiplexing does). Refused sessions are logged as refused connections
    are: the first, then a count once a minute."""
    proc, door = start_door(headless_host, tmp_path, "--code", "pizza")
    again = shared_connection(tmux, door, client_key, tmp_path, "Room code:")
    more = [
        subprocess.Popen(
            again,
            stdin=subprocess.PIPE,  # kept open: an end of input gives the prompt up
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        for _ in range(10)
    ]
    try:  # (three sessions in all may wait at the prompt: the others are refused)
        deadline = time.monotonic() + 20.0
        while sum(client.poll() is not None for client in more) < 8:
            assert time.monotonic() < deadline, "the door refused too few sessions"
            time.sleep(0.1)
    finally:
        for client in more:
            client.kill()
    told = [client.communicate()[0] for client in more]
    assert sum(b"the door is busy" in out for out in told) == 8, told
    proc.send_signal(signal.SIGTERM)
    assert proc.stderr is not None
    log = proc.stderr.read()
    assert log.count("refusing an SSH session from 127.0.0.1") == 1, log


async def test_a_prompt_left_unanswered_says_why_the_session_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player who answers none of the door's prompts in its time (two
    minutes; here two seconds) has the session closed: a player back from
    a pause read only OpenSSH's "Connection to 127.0.0.1 closed", and no
    reason."""
    from threeup_tui import sshdoor
    from threeup_tui.table import Table, TableConfig

    monkeypatch.setattr(sshdoor, "PROMPT_TIMEOUT", 2.0)
    table = Table(TableConfig(players=2))
    door = sshdoor.SshDoor(free_port(socket.SOCK_DGRAM), table, host_key=tmp_path / "host_key")
    port = free_port()
    await door.start("127.0.0.1", port)
    try:
        client = await asyncio.create_subprocess_exec(
            "ssh", "-tt", "-p", str(port), "-o", "PubkeyAuthentication=no",
            "-o", "PreferredAuthentications=keyboard-interactive", *SSH_OPTS, "zed@127.0.0.1",
            stdin=subprocess.PIPE,  # kept open: an end of input would end the prompt
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        assert client.stdout is not None and client.stdin is not None
        shown = await asyncio.wait_for(client.stdout.read(), 30)
        client.stdin.close()
        assert await client.wait() == 1
    finally:
        await door.close()
    assert b"Your seat word, or Enter for a new seat:" in shown
    assert b"threeup: no answer in 2 seconds: goodbye (connect again to come in)." in shown
