"""The zero-install SSH front door: ``threeup host --ssh-port P``.

Friends run ``ssh -p P HOST`` and land at the table: each SSH session gets
its own confined app (``threeup join`` with ``THREEUP_GUEST=1``, see
:mod:`threeup_tui.guest`) on a fresh pseudo-terminal, seated as a network
client of the local host.  A session that drops (or crashes) never disturbs
the table: the table keeps the seat (D17) and its player gets it back.

**Who is who.**  A seat belongs to an identity, never to a user name:

- a player who offers a public key is known by the key's SHA256
  fingerprint (the convention of SSH-served apps);
- a player who offers none is known by a *seat word* the door shows when
  they sit down ("to get this seat back, reconnect and give: otter-427").

The door turns the identity into the seat token with an HMAC keyed by the
table's secret (kept in the table file, so a resumed table knows everyone
again).  The seat words it gave are kept there too (each as an HMAC, not
the word), so that a resumed table's door takes back even a word whose
seat opened again in the lobby, and no other table's door does.  Two
connections under one user name with two identities are two players with
two seats ("Ann", "Ann (2)"); one identity in two sessions is one player,
and the newer session takes the seat over.

**Who gets in.**

- ``--ssh-authorized-keys FILE``: only the keys listed there, and the room
  code is not asked of them.  Anyone else (another key, or none) is let in
  by keyboard-interactive only to be told why in their session, at their
  terminal's width, which then ends: OpenSSH hides a banner at
  ``LogLevel=ERROR``, and a banner comes before any width is known.
- Otherwise anyone who can reach the port; when the table has a room code,
  everyone gives it: keyless players while logging in (keyboard-interactive
  or password), key users at the door's own prompt once logged in.
- A wrong room code (or seat word) says so and asks again; the third wrong
  one closes the connection.  Repeated failures from one address slow
  down, and so do all wrong answers once there are many from anywhere
  (:mod:`threeup_tui.guesses`); new connections are rate-limited per
  address, and the client is told why it was refused.  Only a few people
  without a seat may wait at the door's prompts at once (in all and per
  address), so that people who connect and never answer cannot keep anyone
  out; a key that holds a seat always gets back in.  "Per address" means
  per address group (:func:`threeup_tui.addresses.address_group`): every
  loopback address is one, and a global IPv6 address counts as its /64,
  whose 2**64 addresses one guesser could otherwise step through.

**No seat free.**  A guest whose identity holds no seat, at a table with
none open (every seat taken, or the game under way), watches: its app joins
as a spectator with the identity's token, so that sitting down from the
lobby (``s``, if a seat opens) seats that identity.  Each watcher is an app
on the host, so the door bounds them (in all, per address, per identity).

When the player leaves the table, or the table closes, the guest's app ends
and the door restores the terminal (alternate screen, mouse reporting,
cursor) and ends the session with a goodbye line and exit status 0.  A
session refused for how it was opened (no terminal, one that moves no
cursor, a command, a subsystem, an input that ends) ends with exit status
2, as the app refuses such a terminal or command line; one refused or ended for the table's sake
(a busy door, no seat free, wrong room codes) with 1.

**What a guest's keys may cost.**  Every guest's app runs on the host's
machine, and the door reads each session's input itself: its keys pass a
budget (:mod:`threeup_tui.doorkeys`) on their way to the prompts and the
app, and the door reads them at a bounded pace, so that no guest, pasting
or flooding, keeps a CPU core of the host busy.
"""

from __future__ import annotations

import asyncio
import codecs
import collections
import contextlib
import fcntl
import hashlib
import hmac
import json
import logging
import os
import pty
import secrets
import signal
import struct
import sys
import termios
import textwrap
import time
import warnings
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

with warnings.catch_warnings():
    # cryptography 51 deprecates DSA, which asyncssh 2.24 still names as it
    # is imported: five warnings on the player's terminal before the one
    # line a refused command prints, and before every hosted table's log.
    warnings.filterwarnings("ignore", message="DSA is deprecated")
    import asyncssh
    from asyncssh.sftp import MIN_SFTP_VERSION
from rich.cells import cell_len

from net.ratelimit import LruTable, TokenBucket

from .addresses import (
    address_group,
    reached_here,
    show_address,
    ssh_door_address,
    ssh_door_bind,
)
from .doorkeys import KeyBudget, ResizeBudget, SizeReports
from .guesses import Guesses, doubling_wait
from .guest import GUEST_ENV, GUEST_FD_ENV, INPUT_CUT, INPUT_CUT_SIGNAL
from .names import clean_name
from .netplay.tokens import state_dir
from .netplay.wire import CLOSE_RESUMABLE, CLOSE_TABLE_CLOSED
from .process import EXIT_USAGE
from .terminals import plain_terminal, plain_terminal_words
from .textclean import one_line

if TYPE_CHECKING:
    from .table import Table

log = logging.getLogger("threeup.ssh")

MAX_CONNECTIONS_PER_WINDOW = 5
RATE_WINDOW = 10.0
MAX_CONNECTIONS = 64  # open at once, logging in or in a session
# Connections not yet logged in, from one address and in all.  asyncssh
# gives each LOGIN_TIMEOUT seconds; a client that connects and says nothing
# (a raw TCP connection) holds its place that long, and the rate limit
# alone let a few addresses fill every place, a seated player's return too
# (as OpenSSH's MaxStartups bounds it).
MAX_LOGGING_IN_PER_ADDRESS = 4
MAX_LOGGING_IN = 16
LOGIN_TIMEOUT = 60.0
REFUSAL_WAIT = 5.0  # seconds a refused connection may take to hear why
# People at the door's prompts (room code, seat word) who hold no seat yet:
# at most this many in all, and from one address.  A seated player coming
# back (a key that holds a seat) is never kept out by them.
MAX_AT_THE_DOOR = 8
MAX_AT_THE_DOOR_PER_ADDRESS = 3
# Guests who watch the table (no seat is theirs, and none is open), in all
# and from one address: each one is an app of some 50 MB on the host, and
# a key without a seat once only read "goodbye" at a full table.
MAX_WATCHING = 8
MAX_WATCHING_PER_ADDRESS = 3
MAX_WORDS_KEPT = 1024  # seat words given out, remembered for a return
# Apps running for one seat (one identity) at once: the live one and the
# newer one taking it over.  Each app is a Python process of some 50 MB;
# 30 sessions of one key opened together were 30 apps, each to be ended by
# the next one's take-over.
MAX_APPS_PER_SEAT = 2
# Connections refused at once (rate, a full door) are logged at most once
# per address in this many seconds, with a count: a client that reconnects
# without a pause is refused thousands of times a minute.
REFUSALS_LOG_EVERY = 60.0
TRIES = 3  # wrong room codes or seat words before the connection closes
# Wrong answers at the door from anyone, in FailureGuard's window, before
# each one waits: a guesser with many networks gets about 16 guesses a
# minute in all (MAX_AT_THE_DOOR prompts, each waiting the 30 s cap).
TABLE_FREE_FAILURES = 30
PROMPT_TIMEOUT = 120.0
# Seconds the door reads for more keys typed ahead of its answer to a wrong
# try, to drop them: those come in while it waits, and are read at once.
TYPED_AHEAD_READ = 0.05
TYPED_AHEAD_MOST = 1.0  # seconds spent dropping them at most
# A logged-in connection that runs no session (``ssh -N``, or one left open
# after its session ended) is closed after this many seconds: it would hold
# one of the MAX_CONNECTIONS places, and enough of them kept everyone out.
SESSION_WAIT = 10.0
CLOSE_GRACE = 5.0  # seconds the guests' apps get to say goodbye when the table closes
# What a player reads whose client ends its input (``ssh -tt HOST < file``):
# nothing more can be typed, at the door's prompts or in the app, so the door
# ends the session (the app too: its seat waits, as for a drop).
INPUT_ENDED = (
    "threeup: your terminal sends no more input, so nothing can be played from here: "
    "connect with 'ssh -t' from a terminal to play."
)
# What a player reads who gives up at a prompt (Ctrl-C, Ctrl-D): the session
# once ended with OpenSSH's "Connection to ... closed" alone.
# What a client that tries no more after an unlisted key reads (an SSH
# banner, before any terminal's size is known): lines that fit 40 columns.
UNLISTED_BANNER = (
    "threeup: this table lets in only the",
    "SSH keys its host has listed, and not",
    "yours: ask the host to add it (its",
    "log names the key).",
)
LEFT_AT_THE_PROMPT = "threeup: you left at the door's prompt: goodbye (connect again to come in)."
# What a player reads when their session fails in a way nobody foresaw.
SESSION_FAILED = "threeup: something went wrong here (the host's log says why): try again."
# A client that stops answering without closing (a laptop asleep, a network
# gone) kept its connection for as long as TCP cared, and its app, on the
# host, kept the seat "here": the table never handed it to a bot.  The door
# asks every KEEPALIVE_EVERY seconds, and a connection that has not
# answered KEEPALIVE_MISSED of them is closed: its seat is away within a
# minute, as a UDP player's is when its datagrams stop.
KEEPALIVE_EVERY = 15.0
KEEPALIVE_MISSED = 3
# Characters of a line typed at the door's prompts (room code, seat word);
# the rest is not read, and the player is told so when the line ends (a
# paste past it once read as a wrong answer, with nothing said of the cut).
MAX_LINE = 200
LINE_CUT = f"threeup: only the first {MAX_LINE} characters of that line were read."
# The largest terminal a session's app is given.  The app keeps and draws
# every cell its terminal has, and the client says how many: 30000 x 30000
# would take the host's memory, and a size past 32767 failed the session
# and left its pseudo-terminal open on the host.
MAX_COLUMNS = 1000
MAX_ROWS = 500
# A guest's keys pass through a budget (doorkeys) before its prompts and its
# app see them: a paste of 100 KB once cost the host 21 s of CPU, key by key.
# The guest's app, and the host's log, hear of a cut at most once in this
# many seconds (a flood is cut read after read).
CUT_TOLD_EVERY = 10.0
# What is dropped is read first, and reading (decrypting) what a client
# sent as fast as it could took a CPU core of the host (270 MB a second).
# Past the first READ_BURST bytes, a session's input is read at most
# READ_PER_SECOND; more waits in the client (SSH's flow control), which may
# send at most CHANNEL_WINDOW bytes ahead: with asyncssh's 2 MiB, a flood read at
# 1 MiB a second still took 13% of a core (it arrived in large bursts of
# small packets), with 64 KiB 2%.
READ_BURST = 1 << 20
READ_PER_SECOND = 256 << 10
READ_SIZE = 64 << 10  # bytes read from the channel at once
CHANNEL_WINDOW = 64 << 10

# The client's terminal type and LANG, NO_COLOR, COLORTERM reach the app's
# environment if they can (no NUL, at most this long); a terminal type that
# cannot is taken for this one.
MAX_ENV_VALUE = 1024
DEFAULT_TERM = "xterm-256color"
GUEST_COMMAND = "join"  # threeup join: what a guest's app runs, and names
TERMINAL_VARIABLES = ("NO_COLOR", "COLORTERM")  # about the terminal: the guest's, or unset
# The size of the host's terminal, which the app believes before its own
# terminal's: never a guest's (the door sizes the guest's pseudo-terminal,
# within MAX_COLUMNS x MAX_ROWS), from the host or from the client.
TERMINAL_SIZE_VARIABLES = ("COLUMNS", "LINES")
# More of the host's terminal and how its own app would run in it, which
# Textual and Rich read: the terminal program (Textual reads keys otherwise
# for iTerm2), forced colours, a multiplexer's, and every TEXTUAL_ setting
# (a colour system, keys pressed at start, a driver, devtools, a log file).
# A guest's app runs in the guest's terminal, as the door sets it up.
HOST_TERMINAL_VARIABLES = (
    "TERM_PROGRAM", "TERM_PROGRAM_VERSION", "LC_TERMINAL", "LC_TERMINAL_VERSION",
    "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "ROWS", "JUPYTER_COLUMNS",
    "JUPYTER_LINES", "ESCDELAY", "TMUX", "TMUX_PANE", "STY", "VTE_VERSION",
    "KITTY_WINDOW_ID", "WT_SESSION",
)  # fmt: skip
HOST_APP_PREFIX = "TEXTUAL"

# Everything a full-screen app may leave switched on, switched off again.
RESTORE_TERMINAL = (
    b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l"  # mouse reporting
    b"\x1b[?2004l\x1b[?1004l"  # bracketed paste, focus events
    b"\x1b[0m\x1b[?25h"  # colours, cursor shown
)
LEAVE_ALTERNATE_SCREEN = b"\x1b[?1049l"

SEAT_WORDS = (
    "otter", "badger", "heron", "lynx", "marten", "raven", "wren", "finch", "plover", "curlew",
    "stoat", "vole", "hare", "fox", "wolf", "bear", "elk", "moose", "bison", "ibex", "yak",
    "llama", "alpaca", "camel", "tapir", "okapi", "zebra", "koala", "wombat", "dingo", "quokka",
    "lemur", "gibbon", "tamarin", "panda", "civet", "genet", "mongoose", "meerkat", "beaver",
    "muskrat", "mink", "ermine", "sable", "puffin", "gannet", "petrel", "albatross", "kestrel",
    "falcon", "osprey", "kite", "harrier", "buzzard", "condor", "owl", "robin", "thrush", "swift",
    "swallow", "martin", "lark", "pipit", "bunting", "sparrow", "linnet", "siskin", "crossbill",
    "starling", "magpie", "jay", "rook", "jackdaw", "crane", "stork", "ibis", "egret", "bittern",
    "pelican", "cormorant", "grebe", "loon", "eider", "teal", "wigeon", "pintail", "gadwall",
    "tern", "skua", "gull", "dolphin", "orca", "narwhal", "walrus", "seal", "manatee", "turtle",
    "gecko", "iguana", "newt", "salmon", "trout", "pike", "perch", "carp", "minnow", "marlin",
    "tuna",
)  # fmt: skip


def seat_word() -> str:
    """A word a person can type back: about 17 bits (a guess costs a try)."""
    return f"{secrets.choice(SEAT_WORDS)}-{secrets.randbelow(900) + 100}"


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


@dataclass
class _Refused:
    logged_at: float  # when the host's log last said so
    since: int = 0  # connections refused since, unsaid


class RefusalLog:
    """The host's log of refused connections (or sessions: ``what``): the
    first from an address, then at most one line per ``every`` seconds
    saying how many more."""

    def __init__(self, every: float = REFUSALS_LOG_EVERY, what: str = "connection") -> None:
        self.every = every
        self.what = what
        self.addresses: LruTable[str, _Refused] = LruTable(4096)

    def refused(self, address: str, why: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        entry = self.addresses.get(address)
        if entry is None:
            log.warning("refusing an SSH %s from %s (%s)", self.what, address, why)
            self.addresses.setdefault(address, lambda: _Refused(now))
        elif now - entry.logged_at < self.every:
            entry.since += 1
        else:
            log.warning(
                "refusing an SSH %s from %s (%s; %d more refused in the last %.0f s)",
                self.what,
                address,
                why,
                entry.since,
                now - entry.logged_at,
            )
            entry.logged_at, entry.since = now, 0


def _place_refusal(
    holders: Collection[str],
    group: str,
    in_all: tuple[int, str],
    per_address: tuple[int, str],
) -> str | None:
    """Why address group ``group`` may not take one more of some bounded
    places, each held by the group in ``holders`` (for the host's log), or
    None: the bound in all first, then the bound per group, each (most, words)."""
    most, words = in_all
    if len(holders) >= most:
        return f"{most} {words}"
    most, words = per_address
    if sum(1 for holder in holders if holder == group) >= most:
        return f"{most} {words}"
    return None


class FailureGuard:
    """Wrong room codes and seat words: each one makes the next answer to its
    address group wait longer (0.5 s, 1 s, 2 s ... up to ``cap``), for
    ``window`` s; past ``table_free`` of them from anywhere in the window,
    every wrong answer waits so too (a guesser with many networks)."""

    def __init__(
        self, window: float = 600.0, cap: float = 30.0, table_free: int = TABLE_FREE_FAILURES
    ) -> None:
        self.cap = cap
        self.table_free = table_free
        self.guesses = Guesses(window)

    def failed(self, address: str, now: float | None = None) -> float:
        """Count a failure; the seconds to wait before answering it."""
        now = time.monotonic() if now is None else now
        self.guesses.wrong(address_group(address), now)
        return self.delay(address, now)

    def delay(self, address: str, now: float | None = None) -> float:
        now = time.monotonic() if now is None else now
        own = self.guesses.of(address_group(address), now)
        everyone = self.guesses.at_table(now)
        return max(
            doubling_wait(own, 0, self.cap), doubling_wait(everyone, self.table_free, self.cap)
        )


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


def tries_left(wrong: int) -> str:
    left = TRIES - wrong
    return f"{left} {'try' if left == 1 else 'tries'} left"


class _DoorSession(asyncssh.SSHServerProcess[bytes]):
    """A session whose terminal, as the app's pseudo-terminal is given it
    (at the start and at each window change), is at most MAX_COLUMNS x
    MAX_ROWS, whatever the client asks."""

    @property
    def term_size(self) -> tuple[int, int, int, int]:
        width, height, _, _ = super().term_size
        return _bounded(width, height)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        super().terminal_size_changed(*_bounded(width, height))


def _bounded(width: int, height: int) -> tuple[int, int, int, int]:
    """A terminal size (no pixel size) that the door lets an app have."""
    return min(width, MAX_COLUMNS), min(height, MAX_ROWS), 0, 0


class _DoorServer(asyncssh.SSHServer):
    """One SSH connection's log-in: it learns who the player is.

    Authentication always runs (even on an open table), because that is how
    a public key is offered.  The key counts only when the log-in that
    succeeds is the public-key one, whose signature asyncssh has verified:
    a key merely offered, then abandoned for another method, is not an
    identity (anyone can offer anyone's public key).
    """

    def __init__(self, door: SshDoor) -> None:
        self.door = door
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.method = ""
        self.key: asyncssh.SSHKey | None = None
        self.code_given = False
        self.wrong = 0
        self.refusal: str | None = None  # why this connection is refused, told at begin_auth
        self.told_unlisted = False  # that a key it offered is not listed
        self.unlisted: str | None = None  # the fingerprint of the last key offered, not listed
        # Let in (keyboard-interactive) only to be told, in its session, why
        # it may not come in: at a table of listed keys, with none of them.
        self.refused_in = False

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = peer[0] if peer else "?"
        group = address_group(self.address)
        door = self.door
        if not door.limiter.allow(group):
            self._refuse(
                f"more than {MAX_CONNECTIONS_PER_WINDOW} connections in {RATE_WINDOW:g} s",
                f"too many connections from your address: try again in {RATE_WINDOW:g} s",
            )
            return
        if len(door.connections) >= MAX_CONNECTIONS:
            self._refuse(
                f"{MAX_CONNECTIONS} connections are open", "the door is full: try again later"
            )
            return
        busy = door.logging_in_refusal(group)
        if busy is not None:
            self._refuse(busy, "too many people are logging in: try again in a minute")
            return
        door.connections.add(conn)
        door.logging_in[conn] = group

    def _refuse(self, why: str, words: str) -> None:
        """Refuse the connection once its key exchange is done (begin_auth),
        telling the client why: OpenSSH prints "Received disconnect from …:
        too many connections …".  Closed at once instead, the client was
        still writing its own opening and died of a broken pipe, unread."""
        self.door.refusals.refused(self.address, why)
        self.refusal = f"threeup: {words}"
        conn = self.conn
        if conn is not None:  # one that never gets as far is not waited for
            asyncio.get_running_loop().call_later(REFUSAL_WAIT, conn.close)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.conn is not None:
            self.door.connections.discard(self.conn)
            self.door.logging_in.pop(self.conn, None)

    def begin_auth(self, username: str) -> bool:
        if self.refusal is not None and self.conn is not None:
            self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, self.refusal)
        return True

    def session_requested(self) -> _DoorSession:
        # No SFTP and no scp: only the app.
        return _DoorSession(self.door._session, None, MIN_SFTP_VERSION, False)

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        self.method, self.key = "publickey", None
        listed = self.door.authorized_keys
        if listed is not None and listed.validate(key, self.address, self.address) is None:
            self._unlisted(key)
            return False
        self.key = key
        return True

    def _unlisted(self, key: asyncssh.SSHKey) -> None:
        """A key that ``--ssh-authorized-keys`` does not list: its player read
        only OpenSSH's "Permission denied (publickey)", and the host's log
        said nothing, so neither knew which key to add.  Both are told, once
        a connection (a client may offer several keys, one of them listed)."""
        self.unlisted = key.get_fingerprint("sha256")
        if self.told_unlisted or self.conn is None:
            return
        self.told_unlisted = True
        self.door.key_refusals.refused(self.address, f"its key {self.unlisted} is not listed")
        # Shown by OpenSSH only at its default log level (not with
        # LogLevel=ERROR) and before any terminal size is known: broken
        # mid-word at 40 columns.  The whole refusal is said in a session
        # (keyboard-interactive, next); this is for a client that tries no
        # more (BatchMode=yes), in lines narrow enough for any terminal.
        with contextlib.suppress(Exception):  # the connection may be closing
            self.conn.send_auth_banner("".join(f"{line}\r\n" for line in UNLISTED_BANNER))

    def kbdint_auth_supported(self) -> bool:
        # At a table of listed keys too: the one way to tell someone with
        # none of them why, in words they read at any log level, at their
        # terminal's width (its session says it, ``threeup_refused``, and
        # ends: _one_session); nothing more.
        return True

    def get_kbdint_challenge(
        self, username: str, lang: str, submethods: str
    ) -> bool | tuple[str, str, str, list[tuple[str, bool]]]:
        self.method, self.key = "keyboard-interactive", None
        if self.door.authorized_keys is not None:
            self.refused_in = True
            if self.unlisted is None:
                self.door.key_refusals.refused(self.address, "it offered no SSH key")
            return True
        if self.door.code is None:
            return True  # an open table: in, to be known by a seat word
        return ("threeup", "This table asks for its room code.", "", [("Room code: ", False)])

    async def validate_kbdint_response(
        self, username: str, responses: Sequence[str]
    ) -> bool | tuple[str, str, str, list[tuple[str, bool]]]:
        if len(responses) == 1 and self.door.code_ok(responses[0]):
            self.code_given = True
            return True
        if not await self._wrong_code():
            return False
        # The prompt itself says it was wrong: OpenSSH shows the prompt at
        # every log level, the instruction text only at some.
        prompt = f"Wrong room code ({tries_left(self.wrong)}). Room code: "
        return ("threeup", "", "", [(prompt, False)])

    def password_auth_supported(self) -> bool:
        return self.door.authorized_keys is None

    async def validate_password(self, username: str, password: str) -> bool:
        self.method, self.key = "password", None
        if self.door.code is None:
            return True  # the password means nothing on an open table
        if self.door.code_ok(password):
            self.code_given = True
            return True
        await self._wrong_code()
        return False

    async def _wrong_code(self) -> bool:
        """Count a wrong code; False (and the connection closing) after the last try."""
        self.wrong += 1
        wait = self.door.failures.failed(self.address)
        log.info(
            "wrong room code at the SSH door from %s (%d of %d)", self.address, self.wrong, TRIES
        )
        await asyncio.sleep(wait)
        if self.wrong >= TRIES:
            if self.conn is not None:
                self.conn.disconnect(
                    asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                    "wrong room code three times: goodbye",
                )
            return False
        return True

    def auth_completed(self) -> None:
        key = self.key if self.method == "publickey" else None
        fingerprint = key.get_fingerprint("sha256") if key is not None else None
        if self.conn is not None:
            self.door.logging_in.pop(self.conn, None)
            refused = unlisted_words(self.unlisted) if self.refused_in else None
            self.conn.set_extra_info(
                threeup_fingerprint=fingerprint,
                threeup_code_given=self.code_given,
                threeup_refused=refused,
            )
            self.door.expect_a_session(self.conn)


def unlisted_words(fingerprint: str | None) -> str:
    """What someone let in at a table of listed keys with none of them
    reads: which key is not listed (or that they offered none), and how
    to come in."""
    if fingerprint is None:
        return (
            "threeup: this table lets in only the SSH keys its host has listed, and you "
            "offered none: to come in, ask the host to add your public key."
        )
    # The fingerprint last: a word wider than a narrow terminal, it goes on
    # lines of its own there, not between the words of the sentence.
    return (
        "threeup: this table lets in only the SSH keys its host has listed, and not "
        f"yours: to come in with it, ask the host to add it. Your key: {fingerprint}"
    )


def read_authorized_keys(path: Path) -> asyncssh.SSHAuthorizedKeys:
    """The keys ``--ssh-authorized-keys`` lets in; ValueError, in words, if
    the file cannot be read or lists none (the command line checks it so,
    before anything opens)."""
    try:
        return asyncssh.read_authorized_keys(str(path))
    except OSError as err:  # its words, not "[Errno 13] ... '/the/path'" again
        raise ValueError(
            f"--ssh-authorized-keys {path}: cannot read it: {err.strerror or err}"
        ) from None
    except ValueError as err:
        raise ValueError(f"--ssh-authorized-keys {path}: cannot use it: {err}") from None


class SshDoor:
    """Serves the app over SSH, each session a confined ``threeup join`` to the table."""

    def __init__(
        self,
        game_port: int,
        table: Table,
        authorized_keys: Path | None = None,
        host_key: Path | None = None,
    ) -> None:
        self.game_port = game_port
        self.table = table
        self.authorized_keys_path = authorized_keys
        self.authorized_keys: asyncssh.SSHAuthorizedKeys | None = None
        self.host_key = host_key
        self.limiter = RateLimiter()
        self.failures = FailureGuard()
        self.refusals = RefusalLog()
        # Sessions refused at once: one connection may open hundreds together.
        self.session_refusals = RefusalLog(what="session")
        self.key_refusals = RefusalLog(what="key")  # not in --ssh-authorized-keys
        self.input_dropped = 0  # bytes of guests' input over their keys' budget
        self.connections: set[asyncssh.SSHServerConnection] = set()
        # Those not yet logged in, and the address group each came from.
        self.logging_in: dict[asyncssh.SSHServerConnection, str] = {}
        self._server: asyncssh.SSHAcceptor | None = None
        self._children: set[asyncio.subprocess.Process] = set()
        self._apps: collections.Counter[str] = collections.Counter()  # by seat token
        self._session_tasks: set[asyncio.Task[Any]] = set()
        # Sessions running on each connection (OpenSSH may share one among
        # several terminals): a connection without one is closed.
        self._sessions: collections.Counter[asyncssh.SSHServerConnection] = collections.Counter()
        self._at_the_door: dict[asyncssh.SSHServerProcess[bytes], str] = {}  # unseated: address
        self._watching: dict[asyncssh.SSHServerProcess[bytes], str] = {}  # spectators: address
        # Seat words given out (a seat that opened again before the game, a
        # lobby drop, still takes its word back), the oldest forgotten first:
        # each as its mark (_word_mark), kept in the table file with the
        # table, so that the door of a resumed table honours them too.
        self._words: collections.OrderedDict[str, None] = collections.OrderedDict.fromkeys(
            table.door_words[-MAX_WORDS_KEPT:]
        )
        self._closing = False
        self._goodbye = CLOSE_TABLE_CLOSED  # why the door closes, once it does

    @property
    def code(self) -> str | None:
        return self.table.config.code

    def code_ok(self, given: str) -> bool:
        code = self.code
        return code is not None and secrets.compare_digest(given.encode(), code.encode())

    def token_for(self, identity: str) -> str:
        """The seat token of an identity at this table (an HMAC under the
        table's secret: nobody can work it out from a public key)."""
        key = bytes.fromhex(self.table.secret)
        return hmac.new(key, identity.encode(), hashlib.sha256).hexdigest()

    def _word_mark(self, word: str) -> str:
        """What the door keeps of a seat word it gave: an HMAC under the
        table's secret, never the word.  The table file beside it holds the
        secret, and a word's 17 bits are no secret from whoever reads both;
        but the file shows no word to a glance, holds no second seat token
        (the mark is not the word's token), and a mark means nothing to
        another table, whose secret is another."""
        return self.token_for(f"given {word}")[:32]

    def _keep_word(self, word: str) -> None:
        """Remember a seat word given out, on disk (flushed) before its
        player reads it: a host that stops or crashes, then resumes, still
        takes them back with it, even to a seat that opened again."""
        self._words[self._word_mark(word)] = None
        while len(self._words) > MAX_WORDS_KEPT:
            self._words.popitem(last=False)
        self.table.door_words = list(self._words)
        self.table.save_table_file()

    @property
    def game_address(self) -> str:
        """Where the guests' apps reach the table: the host's own address."""
        return show_address(reached_here(self.table.hosting.bind), self.game_port)

    async def start(self, bind: str, port: int) -> tuple[str, int]:
        """Listen where a table bound to ``bind`` does (``ssh_door_bind``: on
        every address, a socket for each of IPv4 and IPv6), at TCP ``port``;
        where the door listens, as its lines tell friends."""
        listen = ssh_door_bind(bind, port)
        if self.authorized_keys_path is not None:
            try:
                self.authorized_keys = read_authorized_keys(self.authorized_keys_path)
            except ValueError as err:
                from .table import TableError

                raise TableError(str(err)) from None
        self._server = await asyncssh.create_server(
            lambda: _DoorServer(self),
            listen,
            port,
            server_host_keys=[load_or_create_host_key(self.host_key)],
            # Sessions: _DoorServer.session_requested, each one _session.
            encoding=None,
            line_editor=False,
            allow_scp=False,
            agent_forwarding=False,
            x11_forwarding=False,
            allow_pty=True,
            login_timeout=LOGIN_TIMEOUT,
            window=CHANNEL_WINDOW,
            keepalive_interval=KEEPALIVE_EVERY,
            keepalive_count_max=KEEPALIVE_MISSED,
        )
        return ssh_door_address(self._first_address(), listen, bind)

    def _first_address(self) -> tuple[str, int]:
        """The address of the door's first socket (of several on every
        address, in whichever order the system lists them)."""
        assert self._server is not None
        host, port = self._server.sockets[0].getsockname()[:2]
        return host, port

    async def close(self, reason: str = CLOSE_TABLE_CLOSED) -> None:
        """The table is closing (``reason``, as its host told every app).
        Each app gets ``CLOSE_GRACE`` seconds to say so and restore its
        terminal, then the rest are ended and the door says it for them.
        A host stopped with its table kept (``CLOSE_RESUMABLE``) may resume the
        table, but this door goes with it: the apps, which would wait for
        it, are ended at once, and each player is told how to come back."""
        self._closing = True
        self._goodbye = reason
        if self._server is not None:
            self._server.close()
        for process in list(self._at_the_door):  # still at a prompt: nothing to wait for
            with contextlib.suppress(Exception):
                process.stdout.write(b"\r\n")  # below the prompt's question
                say(process, f"threeup: {reason}")
                process.exit(0)
        tasks = [t for t in self._session_tasks if not t.done()]
        if tasks:
            if reason in CLOSE_RESUMABLE:
                for child in list(self._children):  # SIGTERM: it leaves cleanly
                    with contextlib.suppress(ProcessLookupError):
                        child.terminate()
            await asyncio.wait(tasks, timeout=CLOSE_GRACE)
        for child in list(self._children):
            with contextlib.suppress(ProcessLookupError):
                child.kill()
        tasks = [t for t in self._session_tasks if not t.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=CLOSE_GRACE)
        # Each client closes its connection once its session has ended.
        deadline = time.monotonic() + 2.0
        while self.connections and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        for conn in list(self.connections):
            conn.close()
        if self._server is not None:
            await self._server.wait_closed()

    def logging_in_refusal(self, group: str) -> str | None:
        """Why a new connection from address group ``group`` may not start
        logging in now (for the host's log), or None."""
        return _place_refusal(
            self.logging_in.values(),
            group,
            (MAX_LOGGING_IN, "connections are logging in"),
            (MAX_LOGGING_IN_PER_ADDRESS, "connections from this address are logging in"),
        )

    def expect_a_session(self, conn: asyncssh.SSHServerConnection) -> None:
        """Close ``conn`` if it runs no session ``SESSION_WAIT`` seconds from now."""

        def check() -> None:
            if conn in self.connections and not self._sessions[conn]:
                log.info("closing an SSH connection that runs no session")
                conn.disconnect(
                    asyncssh.DISC_BY_APPLICATION,
                    "threeup: this door only seats players: connect with 'ssh -t'",
                )

        asyncio.get_running_loop().call_later(SESSION_WAIT, check)

    # ------------------------------------------------------------ a session
    async def _session(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        conn = cast(asyncssh.SSHServerConnection, process.channel.get_connection())
        self._sessions[conn] += 1
        try:
            await self._one_session(process)
        finally:
            self._sessions[conn] -= 1
            if not self._sessions[conn]:
                del self._sessions[conn]
                self.expect_a_session(conn)

    async def _one_session(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._session_tasks.add(task)
            task.add_done_callback(self._session_tasks.discard)
        code = 1
        try:
            code = await self._admit_and_play(process)
        except Exception:  # a broken session must not take the door down
            log.exception("an SSH session failed")
            # The player read nothing at all (a NUL in TERM once did that):
            # say so in a line; what went wrong is the host's to read.
            with contextlib.suppress(Exception):
                process.stderr.write(b"\r\n")
                say(process, SESSION_FAILED, stderr=True)
        with contextlib.suppress(Exception):
            process.exit(code)
            # Until the client has the exit status and every byte before it
            # (and asyncssh's own clean-up has run).
            await asyncio.wait_for(process.wait_closed(), CLOSE_GRACE)

    async def _admit_and_play(self, process: asyncssh.SSHServerProcess[bytes]) -> int:
        """The session's exit status: refused at once, saying why, before
        anyone is asked who they are (no listed key, a command, no terminal
        or one that moves no cursor), else seated and played."""
        refused = process.get_extra_info("threeup_refused")
        if isinstance(refused, str):  # before anything else: no command, no prompt, no seat
            say(process, refused)
            return 1
        if process.command is not None or process.subsystem is not None:
            # Not run, and not ignored either: the game ran as if nothing had
            # been asked, and a player who asked for ``ls`` found a seat taken.
            # A subsystem (``ssh -s HOST foo``; asyncssh itself refuses only
            # sftp) is a command by another name: it took over its key's seat.
            say(
                process,
                "threeup: this door runs only the game, no commands: connect with 'ssh -t'.",
                stderr=True,
            )
            return EXIT_USAGE
        term = process.get_terminal_type()
        if term is None:
            say(
                process,
                "threeup needs a terminal: connect with 'ssh -t' from a terminal.",
                stderr=True,
            )
            return EXIT_USAGE
        # The TERM the guest's app would get.  One that moves no cursor: the
        # app refused it only once the guest had been asked who they were and
        # seated (a seat taken, "sits down" in the log) for nothing.
        plain = plain_terminal(_env_value(term) or DEFAULT_TERM)
        if plain is not None:
            words = plain_terminal_words(one_line(plain), GUEST_COMMAND, guest=True)
            say(process, words, stderr=True)
            return EXIT_USAGE
        return await self._seat_and_play(process, term)

    async def _seat_and_play(self, process: asyncssh.SSHServerProcess[bytes], term: str) -> int:
        peer = process.get_extra_info("peername")
        address = peer[0] if peer else "?"
        username = process.get_extra_info("username") or ""
        name = clean_name(username, "player")
        fingerprint = process.get_extra_info("threeup_fingerprint")
        keys = _Keys(self, process, f"{name} from {address}")
        prompt = _Prompt(process, keys)
        group = address_group(address)
        busy = None if self._holds_a_seat(fingerprint) else self._door_busy(group)
        if busy is not None:
            self.session_refusals.refused(address, busy)
            prompt.say("threeup: the door is busy: too many people are at its prompts now.")
            prompt.say("Try again in a minute.")
            return 1
        self._at_the_door[process] = group
        try:
            known = await self._identify(prompt, address, fingerprint)
        finally:
            self._at_the_door.pop(process, None)
        if known is None or self._closing:
            if keys.ended and not self._closing:  # not a try given up: no more come
                with contextlib.suppress(Exception):
                    process.stdout.write(b"\r\n")  # below the prompt's question
                    say(process, INPUT_ENDED)
                return EXIT_USAGE
            if prompt.gave_up and not self._closing:
                prompt.say(LEFT_AT_THE_PROMPT)
            return 1
        identity, how, word = known
        token = self.token_for(identity)
        # No seat is theirs and none is open (every seat taken, or the game
        # under way): they watch, and may sit down from the lobby if one opens.
        watch = self.table.seat_of_token(token) is None and not self._has_open_seat()
        if watch:
            crowded = self._watching_refusal(group)
            if crowded is not None:
                self.session_refusals.refused(address, crowded)
                prompt.say(f"threeup: {self._no_seat_words()}, and as many people as the door")
                prompt.say("lets in watch it already: try again later.")
                return 1
        if self._apps[token] >= MAX_APPS_PER_SEAT:
            held = f"{name} watches in" if watch else f"{name}'s seat has"
            self.session_refusals.refused(address, f"{held} {self._apps[token]} sessions already")
            if watch:
                prompt.say("threeup: you watch this table from two terminals already.")
            else:
                prompt.say("threeup: this seat is being taken over from another terminal already.")
                prompt.say("Try again in a moment.")
            return 1
        log.info(
            "SSH: %s from %s, known by %s, %s", name, address, how,
            "watches (no seat is free)" if watch else "sits down",
        )  # fmt: skip
        self._apps[token] += 1
        if watch:
            self._watching[process] = group
            if word is not None:
                # Its app tells a keyless watcher this word when it sits down
                # (s), and the word must take them back to that seat.  Kept
                # now, not once the door sees the seat taken: a drop in the
                # lobby right after sitting down opened the seat again before
                # a look (every 0.25 s) saw it taken, and the word told took
                # nobody back (CI, under load).  Nobody knows it until it is
                # told, and it gives no more than a newcomer's Enter does.
                self._keep_word(word)
        try:
            returned, input_ended = await self._run_app(
                process, keys, term, name, token, word, watch
            )
        finally:
            self._watching.pop(process, None)
            self._apps[token] -= 1
            if not self._apps[token]:
                del self._apps[token]
            keys.done()
        # 0 when the table closed under the app; an app killed by a signal
        # (a negative return code) is a failure, 1, not 256 minus the signal.
        code = 0 if self._closing or not returned else max(returned, 1)
        if input_ended and not self._closing:
            # Refused in the end for how it was opened, as a session without
            # a terminal is (and whether the app was up yet or not).
            code = EXIT_USAGE
        if self._closing and self._goodbye in CLOSE_RESUMABLE:
            # Not closed: stopped, and --resume brings the table back.
            prompt.say(f"threeup: {self._goodbye}")
            if self.table.seat_of_token(token) is not None:  # not for a spectator
                how = f"and give: {word}" if word is not None else "with the same key"
                prompt.say(f"To get this seat back once the table is back, reconnect {how}")
        elif word is not None and not self._closing and self._word_seats(word):
            # Not on a closed table, nor when the app never sat (the last
            # seat went to someone else first): no seat to come back to.
            prompt.say(f"To get this seat back, reconnect and give: {word}")
        prompt.say("goodbye from threeup")
        return code

    async def _identify(
        self, prompt: _Prompt, address: str, fingerprint: object
    ) -> tuple[str, str, str | None] | None:
        """(identity, how it is told in the log, seat word) once the player
        has given the room code if one is asked; None to end the session."""
        asked = self.code is not None and self.authorized_keys is None
        given = prompt.process.get_extra_info("threeup_code_given")
        if asked and not given and not await self._ask_code(prompt, address):
            return None
        if isinstance(fingerprint, str):
            return f"key {fingerprint}", f"key {fingerprint}", None
        word = await self._ask_seat_word(prompt, address)
        if word is None:
            return None
        return f"word {word}", "a seat word", word

    def _holds_a_seat(self, fingerprint: object) -> bool:
        """A key whose player has a seat here: never kept waiting at the door."""
        if not isinstance(fingerprint, str):
            return False
        return self.table.seat_of_token(self.token_for(f"key {fingerprint}")) is not None

    def _door_busy(self, group: str) -> str | None:
        """Why one more person without a seat may not come to the prompts now
        from address group ``group`` (None: they may).  People who sit at a
        prompt and never answer must not keep the players out."""
        return _place_refusal(
            self._at_the_door.values(),
            group,
            (MAX_AT_THE_DOOR, "people are at the door's prompts"),
            (MAX_AT_THE_DOOR_PER_ADDRESS, "sessions from this address are at its prompts"),
        )

    def _watching_refusal(self, group: str) -> str | None:
        """Why one more guest from address group ``group`` may not watch now
        (for the host's log), or None."""
        return _place_refusal(
            self._watching.values(),
            group,
            (MAX_WATCHING, "guests watch through the door"),
            (MAX_WATCHING_PER_ADDRESS, "guests from this address watch"),
        )

    def _no_seat_words(self) -> str:
        """Why a guest gets no seat: what the table is doing (between games
        no game is under way, but its seats stay set for the next)."""
        if self.table.game_under_way:
            return "a game is under way at this table and none of its seats is yours"
        return "every seat at this table is taken and none is yours"

    def _watch_words(self) -> str:
        """What a keyless player is told at a table with no seat open, before
        the door knows who they are: a player coming back (after a drop, or
        to a resumed table) read that "none of its seats is yours".  Between
        games, with the result showing, they read that a game was under way."""
        if self.table.game_under_way:
            return "A game is under way at this table: your seat word takes you back to your seat."
        return "Every seat at this table is taken: your seat word takes you back to yours."

    def _has_open_seat(self) -> bool:
        table = self.table
        return table.state is None and any(s.kind == "open" for s in table.seats)

    async def _ask_code(self, prompt: _Prompt, address: str) -> bool:
        prompt.say("This table asks for its room code.")
        for wrong in range(TRIES):
            given = await prompt.ask("Room code: ", secret=True)
            if given is None:
                return False
            if self.code_ok(given):
                return True
            log.info(
                "wrong room code at the SSH door from %s (%d of %d)", address, wrong + 1, TRIES
            )
            await asyncio.sleep(self.failures.failed(address))
            if await prompt.forget_typed_ahead():
                return False
            if wrong + 1 < TRIES:
                prompt.say(f"Wrong room code ({tries_left(wrong + 1)}).")
        prompt.say("Wrong room code three times: goodbye.")
        return False

    async def _ask_seat_word(self, prompt: _Prompt, address: str) -> str | None:
        """The seat word of a keyless player: one they were given, or a new one."""
        prompt.say("You offered no SSH key, so this table knows you by a seat word.")
        wrong = 0
        told = False  # that no seat is free, and Enter watches
        while wrong < TRIES:
            if self._has_open_seat():
                given = await prompt.ask("Your seat word, or Enter for a new seat: ")
            else:
                if not told:
                    prompt.say(self._watch_words())
                    told = True
                given = await prompt.ask("Your seat word, or Enter to watch: ")
            if given is None:
                return None
            word = given.strip().lower()
            if not word:
                if not self._has_open_seat():
                    # Known by a word of their own, not shown here: its app
                    # tells it if the spectator sits down (in the lobby).
                    return self._new_word()
                word = self._new_word()
                self._keep_word(word)
                prompt.say(f"Your seat word is {word}.")
                prompt.say(f"To get this seat back, reconnect and give: {word}")
                if await prompt.ask("Press Enter to sit down.") is None:
                    return None
                return word
            if self._word_seats(word) or self._word_mark(word) in self._words:
                # A word this table gave is its player, seat or none: one
                # whose seat went to another (it opened in the lobby) watches
                # as themselves, as a key without a seat does, and s seats
                # them if one opens.  (It was once a wrong try, which slowed
                # their address down as a guesser's.)
                return word
            wrong += 1
            log.info("unknown seat word at the SSH door from %s (%d of %d)", address, wrong, TRIES)
            await asyncio.sleep(self.failures.failed(address))
            if await prompt.forget_typed_ahead():
                return None
            if wrong < TRIES:
                prompt.say(f"No seat has that seat word ({tries_left(wrong)}).")
        prompt.say("No seat word three times: goodbye.")
        return None

    def _word_seats(self, word: str) -> bool:
        """Whether ``word`` given at the door now gets its player a seat: the
        one the table keeps for it, or, if its seat opened again before the
        game (a drop in the lobby), a seat anew."""
        if self.table.seat_of_token(self.token_for(f"word {word}")) is not None:
            return True
        return self._word_mark(word) in self._words and self._has_open_seat()

    def _new_word(self) -> str:
        while True:
            word = seat_word()
            if self._word_mark(word) in self._words:
                continue  # given to someone else already
            token = self.token_for(f"word {word}")
            # Nor one a watcher holds (kept words may be forgotten, oldest
            # first): two watchers of one word were one identity, and the
            # second to sit down (s) took the first one's seat over.
            if token not in self._apps and self.table.seat_of_token(token) is None:
                return word

    async def _run_app(
        self,
        process: asyncssh.SSHServerProcess[bytes],
        keys: _Keys,
        term: str,
        name: str,
        token: str,
        word: str | None = None,
        watch: bool = False,
    ) -> tuple[int | None, bool]:
        """The app's exit status, and whether the door ended it because the
        client's input ended."""
        master, slave = pty.openpty()
        secret_read = -1
        try:
            env = dict(os.environ)
            env["TERM"] = _env_value(term) or DEFAULT_TERM
            env[GUEST_ENV] = "1"
            # What the guest's terminal can show is the guest's to say, never
            # the host's: a host started in a terminal of millions of colours
            # (COLORTERM=truecolor) drew 24-bit colours for a guest in a
            # 16-colour xterm.  LANG may stay the host's: the app draws UTF-8.
            # Nor its size: a host whose environment had COLUMNS=80 LINES=24
            # gave every guest an app drawn 80 x 24 whatever its window.
            for key in (*TERMINAL_VARIABLES, *TERMINAL_SIZE_VARIABLES, *HOST_TERMINAL_VARIABLES):
                env.pop(key, None)
            for key in [key for key in env if key.startswith(HOST_APP_PREFIX)]:
                del env[key]
            for key in ("NO_COLOR", "LANG", "COLORTERM"):
                value = _env_value(process.env.get(key) if hasattr(process, "env") else None)
                if value is not None:
                    env[key] = value
            # The seat's secrets go through a pipe, never the command line.
            secret_read, secret_write = os.pipe()
            seat: dict[str, object] = {
                "address": self.game_address,
                "name": name,
                "token": token,
                "code": self.code,
            }
            if word is not None:  # a keyless player's: the app shows it in the chat
                # (a spectator's once it sits down)
                seat["word"] = word
            if watch:  # a spectator, who may sit down with the token if a seat opens
                seat["watch"] = True
            try:
                os.write(secret_write, json.dumps(seat).encode())
            finally:
                os.close(secret_write)
            env[GUEST_FD_ENV] = str(secret_read)
            width, height, _, _ = process.get_terminal_size()
            _set_size(slave, width or 80, height or 24)
            child = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "threeup_tui",
                GUEST_COMMAND,
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=env,
                preexec_fn=_controlling_tty,
                pass_fds=(secret_read,),
            )
        except BaseException:
            # Nothing of a session that did not start stays open on the host
            # (a pseudo-terminal, a pipe: a session after session would run
            # the host out of them).
            os.close(master)
            raise
        finally:
            os.close(slave)
            if secret_read >= 0:
                os.close(secret_read)
        self._children.add(child)
        keys.app = child
        output = _Output(process)
        loop = asyncio.get_running_loop()
        reader = os.fdopen(master, "rb", buffering=0)
        writer = os.fdopen(os.dup(master), "wb", buffering=0)
        transport, _ = await loop.connect_read_pipe(lambda: output, reader)
        clean = False
        feeding: asyncio.Future[None] | None = None
        input_ended = False
        try:
            # Keys (and window size changes) go to the app's terminal.
            feeding = asyncio.ensure_future(_feed(keys, writer))
            exited = asyncio.ensure_future(child.wait())
            dropped = asyncio.ensure_future(process.channel.wait_closed())
            await asyncio.wait({exited, dropped, feeding}, return_when=asyncio.FIRST_COMPLETED)
            dropped.cancel()
            # The client sent its last key (an end of input): nothing can
            # reach the app again, not even the key that leaves, and its seat
            # stayed "here" for ever, the table waiting on a player who could
            # not play.  The session ends as a drop does: its seat waits.
            input_ended = keys.ended and not exited.done()
            if exited.done():
                # All the app wrote reaches the player before the goodbye.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(output.done.wait(), 2.0)
                clean = child.returncode == 0
        finally:
            if child.returncode is None:
                # The SSH session dropped, or its input ended: let the app
                # leave the table cleanly, and make sure it is gone.
                with contextlib.suppress(ProcessLookupError):
                    child.terminate()
                try:
                    await asyncio.wait_for(child.wait(), 3.0)
                except TimeoutError:
                    with contextlib.suppress(ProcessLookupError):
                        child.kill()
                    await child.wait()
            self._children.discard(child)
            if feeding is not None:
                feeding.cancel()
                await asyncio.gather(feeding, return_exceptions=True)
            transport.close()
            with contextlib.suppress(OSError):
                writer.close()
        restore = RESTORE_TERMINAL if clean else LEAVE_ALTERNATE_SCREEN + RESTORE_TERMINAL
        with contextlib.suppress(Exception):
            process.stdout.write(restore + b"\r\n")
            if not clean and self._closing and self._goodbye not in CLOSE_RESUMABLE:
                say(process, f"threeup: {self._goodbye}")
            elif input_ended and not self._closing:
                say(process, INPUT_ENDED)
        return child.returncode, input_ended


class _Keys:
    """A session's input as the door lets it through (doorkeys.KeyBudget),
    read by the door's prompts and then fed to the app.  A cut is counted,
    logged, and told to the app, which tells its player."""

    def __init__(self, door: SshDoor, process: asyncssh.SSHServerProcess[bytes], who: str):
        self.door = door
        self.process = process
        self.who = who  # for the host's log: "ann from 127.0.0.1"
        self.budget = KeyBudget(time.monotonic())
        self.reading = TokenBucket(READ_PER_SECOND, READ_BURST, time.monotonic())
        self.app: asyncio.subprocess.Process | None = None  # told of a cut once it runs
        self._told_at: float | None = None
        self._logged = 0  # bytes dropped that the log has said
        self.ended = False  # the client has sent its last byte (or the channel closed)

    async def read(self) -> bytes:
        """The keys that may go on; b"" once the client has sent its last.
        A window size change, a break or a signal is raised, as the
        channel raises it."""
        while True:
            short = READ_SIZE - self.reading.level(time.monotonic())
            if short > 0:
                await asyncio.sleep(short / self.reading.rate)
            data = await self.process.stdin.read(READ_SIZE)
            if not data:
                self.ended = True
                return b""
            self.reading.take(time.monotonic(), len(data))
            dropped = self.budget.dropped
            kept = self.budget.feed(data, time.monotonic())
            if self.budget.dropped != dropped:
                self._cut(self.budget.dropped - dropped)
            if kept:
                return kept

    def _cut(self, dropped: int) -> None:
        self.door.input_dropped += dropped
        now = time.monotonic()
        if self._told_at is not None and now - self._told_at < CUT_TOLD_EVERY:
            return
        self._told_at = now
        self._log("sends more keys than the door passes", "so far")
        app = self.app
        if app is not None and app.returncode is None and INPUT_CUT_SIGNAL is not None:
            with contextlib.suppress(ProcessLookupError):
                app.send_signal(INPUT_CUT_SIGNAL)

    def _log(self, what: str, when: str) -> None:
        dropped = self.budget.dropped
        log.warning("SSH: %s %s: %d bytes of input dropped %s", self.who, what, dropped, when)
        self._logged = dropped

    def done(self) -> None:
        """The session's app has ended: what the log has not said yet."""
        if self.budget.dropped != self._logged:
            self._log("has left", "in all")


async def _feed(keys: _Keys, pty_file: Any) -> None:
    """The player's keys to the app's terminal, and the terminal's size as
    the player's window changes, until the player sends no more (``keys.ended``)
    or the app, or the channel, has gone."""
    loop = asyncio.get_running_loop()
    transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, pty_file)
    pty = asyncio.StreamWriter(transport, protocol, None, loop)
    # The app reads its terminal as UTF-8 and ended at the first byte that
    # was not (0xff: a traceback on the player's screen, and the session
    # gone): such bytes reach it as U+FFFD.  A character split between two
    # reads is held until it is whole.
    utf8 = codecs.getincrementaldecoder("utf-8")("replace")
    # The app's size is its window's, as the door passes it: never one the
    # player types as a terminal's report (doorkeys.SizeReports).
    reports = SizeReports()
    # Each window change redraws the app's whole screen: they pass a budget
    # too (doorkeys.ResizeBudget), the latest one waiting for its turn.
    resizes = ResizeBudget(time.monotonic())
    waiting: asyncio.TimerHandle | None = None

    def resize() -> None:
        nonlocal waiting
        waiting = None
        size = resizes.take(time.monotonic())
        if size is not None:
            with contextlib.suppress(OSError, ValueError):  # the app's terminal has closed
                _set_size(pty_file.fileno(), *size)
        wait = resizes.due(time.monotonic())
        if wait is not None:
            waiting = loop.call_later(wait, resize)

    try:
        while True:
            try:
                data = await keys.read()
            except asyncssh.TerminalSizeChanged as change:
                resizes.offer(change.width, change.height)
                if waiting is None:
                    resize()
                continue
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                continue  # nothing the app asks for
            if not data:
                return
            pty.write(utf8.decode(reports.feed(data)).encode())
            await pty.drain()  # an app that reads slowly slows the client down
    except (OSError, asyncssh.Error):
        return  # the app's terminal, or the channel, has closed: the session ends
    except Exception:  # the player's keys stop, but the door and the table go on
        log.exception("an SSH session's keys could not reach its app")
    finally:
        if waiting is not None:
            waiting.cancel()
        transport.close()


class _Output(asyncio.Protocol):
    """The app's terminal output, forwarded to the SSH channel; ``done`` once
    the app's side of the terminal has closed."""

    def __init__(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        self.process = process
        self.done = asyncio.Event()

    def data_received(self, data: bytes) -> None:
        with contextlib.suppress(Exception):  # the channel may be gone
            self.process.stdout.write(data)

    def eof_received(self) -> bool:
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.done.set()


def fitted(process: asyncssh.SSHServerProcess[bytes], text: str) -> list[str]:
    """``text`` in lines as wide as the player's terminal, broken between
    words: left to the terminal, a 40-column one broke "kn" / "ows", and a
    narrow one a seat word in two ("ott" / "er-427"), which the player then
    copies, or reads, wrong.  (The door's own words: one cell a character.)
    Without a terminal (``ssh -T``), whole."""
    with contextlib.suppress(Exception):
        width = process.get_terminal_size()[0]
        if 0 < width < len(text):
            return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False) or [
                text
            ]
    return [text]


def say(process: asyncssh.SSHServerProcess[bytes], text: str, stderr: bool = False) -> None:
    """A line of the door's, fitted to the player's terminal (:func:`fitted`)."""
    stream = process.stderr if stderr else process.stdout
    with contextlib.suppress(Exception):  # the session may be closing
        stream.write("".join(f"{line}\r\n" for line in fitted(process, text)).encode())


class _Prompt:
    """Lines asked at the door, before the app: the client's terminal is raw,
    so the door echoes what is typed (nothing for a secret) and edits the
    line itself (backspace; Ctrl-C or Ctrl-D give up)."""

    def __init__(self, process: asyncssh.SSHServerProcess[bytes], keys: _Keys) -> None:
        self.process = process
        self.keys = keys
        self._pending = b""  # typed ahead of the question (a fast typist, a paste)
        self.gave_up = False  # the player ended a prompt (Ctrl-C, Ctrl-D, a break or signal)

    def say(self, text: str) -> None:
        say(self.process, text)

    async def forget_typed_ahead(self) -> bool:
        """Drop the keys typed before the door answered a wrong try (as
        ``login`` and ``sudo`` do): an Enter pressed again while it waited
        was the answer to the next question, "Enter to watch" or "Enter for
        a new seat", before the player had read that the word was wrong.
        True if the player gave up meanwhile (Ctrl-C, Ctrl-D): that is heard."""
        typed, self._pending = self._pending, b""
        gave_up = False
        deadline = time.monotonic() + TYPED_AHEAD_MOST  # a client that never stops
        while True:
            gave_up = gave_up or b"\x03" in typed or b"\x04" in typed
            if self.keys.ended or time.monotonic() >= deadline:
                break  # (an input that ended is the next question's to hear)
            try:
                typed = await asyncio.wait_for(self.keys.read(), TYPED_AHEAD_READ)
            except TimeoutError:
                break  # nothing more has come
            except (asyncssh.TerminalSizeChanged, asyncssh.BreakReceived, asyncssh.SignalReceived):
                typed = b""
        if gave_up:
            self.gave_up = True
            with contextlib.suppress(Exception):
                self.process.stdout.write(b"\r\n")
        return gave_up

    async def ask(self, question: str, secret: bool = False) -> str | None:
        """The line typed; None if the player gives up, says nothing in
        PROMPT_TIMEOUT seconds, or is gone (the channel closed while the
        door waited to answer a wrong try: a drop, not a failure)."""
        try:
            return await self._ask(question, secret)
        except BrokenPipeError:
            return None

    async def _ask(self, question: str, secret: bool) -> str | None:
        out = self.process.stdout
        *said, asked = fitted(self.process, question.rstrip()) or [""]
        for before in said:  # the question's last line is where the answer is typed
            out.write(f"{before}\r\n".encode())
        out.write((asked + question[len(question.rstrip()) :]).encode())
        line = bytearray()
        characters = 0  # in the line, each of one or more bytes (UTF-8)
        cut = False  # a character past MAX_LINE was not read
        taking = True  # the character being read is
        dropped = self.keys.budget.dropped  # keys the budget cut before this line
        escape = 0  # where in an escape sequence (arrow keys): ignored
        deadline = time.monotonic() + PROMPT_TIMEOUT
        while True:
            chunk, self._pending = self._pending, b""
            if not chunk:
                try:
                    chunk = await asyncio.wait_for(
                        self.keys.read(), max(deadline - time.monotonic(), 0.01)
                    )
                except asyncssh.TerminalSizeChanged:
                    continue
                except TimeoutError:
                    # Said: a player back from a pause read only OpenSSH's
                    # "Connection to ... closed", and no reason.
                    out.write(b"\r\n")
                    say(self.process, _timed_out_words())
                    return None
                except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                    self.gave_up = True
                    out.write(b"\r\n")
                    return None
                if not chunk:
                    return None
            for at, byte in enumerate(chunk):
                if escape:
                    escape, part = _escape_after(escape, byte)
                    if part:
                        continue
                if byte == 0x1B:
                    escape = _ESC_BEGUN
                elif byte in (3, 4):  # Ctrl-C, Ctrl-D
                    self.gave_up = True
                    out.write(b"\r\n")
                    return None
                elif byte in (10, 13):
                    out.write(b"\r\n")
                    if cut:
                        say(self.process, LINE_CUT)
                    elif self.keys.budget.dropped != dropped:
                        say(self.process, f"threeup: {INPUT_CUT}.")
                    rest = chunk[at + 1 :]
                    self._pending = rest[1:] if byte == 13 and rest[:1] == b"\n" else rest
                    return line.decode("utf-8", "replace")
                elif byte in (8, 127):
                    if line:
                        start = len(line) - 1
                        while start > 0 and line[start] & 0xC0 == 0x80:
                            start -= 1  # back to the first byte of the UTF-8 character
                        gone = bytes(line[start:]).decode("utf-8", "replace")
                        del line[start:]
                        characters = max(characters - 1, 0)  # (a stray byte began it)
                        if not secret:  # a wide character (山) takes two cells to rub out
                            out.write(b"\b \b" * max(cell_len(gone), 1))
                elif byte >= 32:
                    # A character past MAX_LINE is not read, nor the bytes
                    # that go on with it (UTF-8): never half of one.
                    if byte & 0xC0 != 0x80:  # a character begins
                        taking = characters < MAX_LINE
                        cut = cut or not taking
                        characters += taking
                    if taking:
                        line.append(byte)
                        if not secret:
                            out.write(bytes([byte]))


def _timed_out_words() -> str:
    """What a player reads who answers no prompt in PROMPT_TIMEOUT seconds."""
    return f"threeup: no answer in {PROMPT_TIMEOUT:g} seconds: goodbye (connect again to come in)."


# Where the door's prompts are in an escape sequence (an arrow key, a
# function key), which they ignore: just after ESC, in a CSI sequence's
# parameters, or before an SS3 sequence's one byte.
_ESC_BEGUN, _ESC_CSI, _ESC_SS3 = 1, 2, 3


def _escape_after(state: int, byte: int) -> tuple[int, bool]:
    """The escape state after ``byte``, and whether ``byte`` was part of the
    sequence.  A byte that cannot be (after a lone Escape, say) is a key of
    its own: the prompts once took the two keys after Escape for its
    sequence, so that a seat word typed after it lost its first letters,
    and an Enter or a Ctrl-C after it did nothing."""
    if byte == 0x1B:
        return _ESC_BEGUN, True
    if state == _ESC_BEGUN:
        if byte == ord("["):
            return _ESC_CSI, True
        if byte == ord("O"):
            return _ESC_SS3, True
        return 0, False  # Escape alone, or Alt and a key: the key is typed
    if state == _ESC_CSI:
        if 0x20 <= byte <= 0x3F:  # a parameter or intermediate byte
            return _ESC_CSI, True
        return 0, 0x40 <= byte <= 0x7E  # its final byte, or cut short
    return 0, 0x20 <= byte <= 0x7E  # SS3's one byte


def _env_value(value: object) -> str | None:
    """What the client sent (a terminal type, a variable) as a value the
    app's environment can hold, or None.  The client's strings may hold a
    NUL, which no environment can: the app could not start (a traceback in
    the host's log, and nothing said to the player)."""
    if not isinstance(value, str) or "\0" in value or len(value) > MAX_ENV_VALUE:
        return None
    return value


def _controlling_tty() -> None:
    """In the child: a new session whose controlling terminal is the pty."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    # A cut told before the app listens must not end it (the signal's default).
    if INPUT_CUT_SIGNAL is not None:
        signal.signal(INPUT_CUT_SIGNAL, signal.SIG_IGN)


def _set_size(fd: int, width: int, height: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
