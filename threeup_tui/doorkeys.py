"""What a guest of the SSH door may make the host do with its keys.

The door runs each guest's app on the host's machine, and the app turns
every key it reads into a Textual event: about 0.2 ms of a CPU each.  Sent
all at once (a paste into a terminal that does not bracket it, a log file
fed to ``ssh -tt``, a client that just writes), 100 KB were 100 000 events:
21 s of a CPU core for one line of chat that is cut to 200 characters, and
the guest's seat dropped while its app was busy.  The door passes each
session's input through a :class:`KeyBudget` before its prompts or its app
see it:

- at most ``KEYS_BURST`` keys at once and ``KEYS_PER_SECOND`` after that;
  a key is one byte of text, or one whole escape sequence (an arrow, a
  mouse report, a terminal's answer), or a bracketed paste; what is over
  the budget is dropped, and counted;
- a bracketed paste passes at most ``MAX_PASTE`` bytes of its text, and its
  end always follows its beginning (the app would take every later key for
  pasted text);
- nothing is cut in the middle: a dropped escape sequence goes whole (the
  app would read the rest of it as keys), and a character of several bytes
  too (the app reads UTF-8, and half a character ended it).

Once nothing may pass, the rest of what came is dropped in bulk (only its
last escape sequence, which may go on in the next read, is looked at), so
a flood costs the door little more than reading it.

Window changes are no keys, but each one makes the app draw its whole
screen again (a tenth of a second of a CPU at 120 x 40, a quarter at the
door's largest): a client sending a hundred a second kept the app and the
host at a CPU core between them.  A :class:`ResizeBudget` passes a few at
once and then about one a second, a large window costing more; a change
over the budget waits, and only the latest waiting one is passed, so the
size a player settles on is always the one drawn.

The size of a guest's app is the door's to give (its window, within the
door's bounds), and the app takes a size from its input too: a terminal's
own report of its size (``ESC [ 48 ; rows ; columns ; … t``, "in-band
window resize"), typed as keys, drew the app at whatever size it said
(4000 x 3000: a frame of 37 MB, 200 MB of the host's memory), past the
door's bounds and its budget of window changes; and a terminal that
answers it can send such reports (``ESC [ ? 2048 ; n $ y``) made the app
ignore the window changes the door passes.  :class:`SizeReports` takes
both out of a guest's keys; a key that only begins as a report does (Ctrl+0
in the kitty keyboard protocol) goes on.
"""

from __future__ import annotations

from net.ratelimit import ROUNDING, TokenBucket

KEYS_BURST = 1000  # a chat line pasted unbracketed (200 cells: a few hundred bytes) passes
KEYS_PER_SECOND = 200  # after it: fast typing and key repeat need a tenth of it
MAX_PASTE = 4096  # bytes of one bracketed paste (a chat line is at most 200 cells)
MAX_SEQUENCE = 32  # bytes of an escape sequence; Textual's parser gives up there too

RESIZE_BURST = 4.0  # window changes passed at once: a window dragged to its size
RESIZES_PER_SECOND = 1.0  # after them, about one a second
CELLS_PER_RESIZE = 125_000  # a window of more cells costs more (1000 x 500: the whole burst)

ESC = 0x1B
PASTE_START = b"\x1b[200~"
PASTE_END = b"\x1b[201~"

_TEXT, _ESC, _CSI, _SS3, _X10, _PASTE = range(6)


def _continues(byte: int) -> bool:
    """A UTF-8 continuation byte: part of the character begun before it."""
    return byte & 0xC0 == 0x80


def _whole(text: bytes, at: int) -> int:
    """``at``, moved back to where a character begins: a cut there leaves no
    half character on either side."""
    while 0 < at < len(text) and _continues(text[at]):
        at -= 1
    return at


def _fitting(text: bytes, room: float) -> int:
    """How much of ``text`` fits in ``room`` bytes, in whole characters (its
    last one may go on in the next read: all of it must fit)."""
    fits = min(len(text), int(room + ROUNDING))
    if fits == len(text) and fits + _owed(text) > room + ROUNDING:
        fits -= 1  # the last character does not fit whole
    return _whole(text, fits)


def _owed(text: bytes) -> int:
    """The bytes the last character of ``text`` still lacks (it goes on in
    the next read)."""
    for back in range(1, min(4, len(text)) + 1):
        byte = text[-back]
        if not _continues(byte):
            length = 2 if 0xC0 <= byte < 0xE0 else 3 if 0xE0 <= byte < 0xF0 else 4
            return max(length - back, 0) if byte >= 0xC0 else 0
    return 0


class KeyBudget:
    """One session's input, as much of it as its keys' budget lets through.

    ``feed`` takes what the client sent and returns what may go on;
    ``dropped`` counts the bytes it kept back, in all."""

    def __init__(
        self,
        now: float,
        burst: float = KEYS_BURST,
        per_second: float = KEYS_PER_SECOND,
        max_paste: int = MAX_PASTE,
    ) -> None:
        self.bucket = TokenBucket(per_second, burst, now)
        self.max_paste = max_paste
        self.dropped = 0
        self._state = _TEXT
        self._keep = True  # the fate of the key being read
        self._owed = 0  # bytes of its last character still to come, which share its fate
        self._sequence = bytearray()  # the escape sequence being read
        self._mouse_left = 0  # bytes an old-style mouse report (ESC [ M b x y) has to come
        self._paste_kept = True  # a paste's beginning went on: so does its end
        self._paste_left = 0  # bytes of text the paste may still pass
        self._held = b""  # a paste's last bytes, which may begin its end marker

    def feed(self, data: bytes, now: float) -> bytes:
        out = bytearray()
        i = 0
        while i < len(data):
            if self._state == _PASTE:
                data, i = self._paste(data, i, out), 0
            elif self._state != _TEXT:
                i = self._escape(data, i, out)
            elif self._owed and _continues(data[i]):
                self._owed -= 1
                self._pass(data[i : i + 1], out)
                i += 1
            elif self.bucket.level(now) < 1 - ROUNDING:
                i = self._skip(data, i)
            elif data[i] == ESC:
                self._begin_sequence(self.bucket.take(now))
                self._pass(b"\x1b", out)
                i += 1
            else:
                i = self._text(data, i, now, out)
        return bytes(out)

    def _pass(self, part: bytes, out: bytearray) -> None:
        """Bytes of the key being read, which share its fate."""
        if self._keep:
            out += part
        else:
            self.dropped += len(part)

    def _begin_sequence(self, keep: bool) -> None:
        self._keep = keep
        self._owed = 0
        self._sequence = bytearray(b"\x1b")
        self._state = _ESC

    def _text(self, data: bytes, i: int, now: float, out: bytearray) -> int:
        """Keys of text up to the next escape sequence: as many as the budget
        has, never half a character."""
        end = data.find(b"\x1b", i)
        run = data[i : len(data) if end < 0 else end]
        room = _fitting(run, self.bucket.level(now))
        self._keep = room == len(run)
        self._owed = _owed(run)
        self.bucket.take(now, room + self._owed if self._keep else room)
        out += run[:room]
        self.dropped += len(run) - room
        return i + len(run)

    def _skip(self, data: bytes, i: int) -> int:
        """Nothing may pass now: everything up to the last escape sequence
        (which may go on in the next read) is dropped unread, or up to a
        paste's beginning, whose text and end must be told from keys."""
        paste = data.find(PASTE_START, i)
        last = data.rfind(b"\x1b", i)
        end = paste if paste >= 0 else last if last >= 0 else len(data)
        self._keep, self._owed = False, 0
        if end == i:  # an escape sequence begins here: read, and dropped
            self._begin_sequence(False)
            end += 1
        self.dropped += end - i
        return end

    def _escape(self, data: bytes, i: int, out: bytearray) -> int:
        """One more byte of an escape sequence; where the next byte is read."""
        byte = data[i]
        if byte == ESC:  # a new key begins (as in Textual's parser): this one has ended
            self._state = _TEXT
            return i
        state = self._state
        if state == _ESC:
            if byte == ord("["):
                self._state = _CSI
            elif byte == ord("O"):
                self._state = _SS3
            else:  # Alt and a key (of several bytes, perhaps: they go with it)
                self._state = _TEXT
                self._owed = _owed(bytes([byte]))
        elif state == _CSI:
            if 0x40 <= byte <= 0x7E:  # its final byte
                self._state = _TEXT
                ended = self._sequence + bytes([byte])
                if ended == b"\x1b[M":
                    self._state, self._mouse_left = _X10, 3
                elif ended == PASTE_START:
                    self._state = _PASTE
                    self._paste_kept = self._keep
                    self._paste_left = self.max_paste if self._keep else 0
                    self._held = b""
            elif not 0x20 <= byte <= 0x3F or len(self._sequence) >= MAX_SEQUENCE:
                # Not part of one: the sequence ended before it, and it is a key.
                self._state = _TEXT
                return i
        elif state == _SS3:
            self._state = _TEXT
        elif state == _X10:
            self._mouse_left -= 1
            if not self._mouse_left:
                self._state = _TEXT
        self._sequence.append(byte)
        self._pass(data[i : i + 1], out)
        return i + 1

    def _paste(self, data: bytes, i: int, out: bytearray) -> bytes:
        """A paste's text up to its end marker, and the marker; what is left
        of ``data`` after them (nothing, if the paste goes on)."""
        rest = self._held + data[i:]
        end = rest.find(PASTE_END)
        if end < 0:
            held = next(
                (n for n in range(len(PASTE_END) - 1, 0, -1) if rest.endswith(PASTE_END[:n])), 0
            )
            self._held = rest[len(rest) - held :]
            self._paste_text(rest[: len(rest) - held], out)
            return b""
        self._paste_text(rest[:end], out)
        self._keep, self._owed = self._paste_kept, 0
        self._pass(PASTE_END, out)
        self._state = _TEXT
        self._held = b""
        return rest[end + len(PASTE_END) :]

    def _paste_text(self, text: bytes, out: bytearray) -> None:
        """Pasted text, up to the paste's bytes: never half a character."""
        start = 0
        while start < len(text) and self._owed and _continues(text[start]):
            self._owed -= 1
            start += 1
        self._pass(text[:start], out)
        text = text[start:]
        if not text:
            return
        room = _fitting(text, self._paste_left)
        self._keep = room == len(text)
        self._owed = _owed(text)
        self._paste_left = self._paste_left - room - self._owed if self._keep else 0
        out += text[:room]
        self.dropped += len(text) - room


class ResizeBudget:
    """One session's window changes: ``offer`` each as it comes, ``due``
    says when the latest may reach the app, ``take`` hands it over."""

    def __init__(self, now: float) -> None:
        self.bucket = TokenBucket(RESIZES_PER_SECOND, RESIZE_BURST, now)
        self.pending: tuple[int, int] | None = None  # the latest size not passed yet

    def offer(self, width: int, height: int) -> None:
        self.pending = (width, height)

    def _cost(self) -> float:
        width, height = self.pending or (0, 0)
        return min(max(1.0, width * height / CELLS_PER_RESIZE), RESIZE_BURST)

    def due(self, now: float) -> float | None:
        """Seconds until the waiting size may pass (0: now); None if none waits."""
        if self.pending is None:
            return None
        short = self._cost() - self.bucket.level(now)
        return max(short, 0.0) / self.bucket.rate

    def take(self, now: float) -> tuple[int, int] | None:
        """The waiting size, paid for, if the budget has room for it now."""
        if self.pending is None or not self.bucket.take(now, self._cost()):
            return None
        size, self.pending = self.pending, None
        return size


# What Textual's parser reads as a terminal's report of its size, ESC [ 48 ;
# rows ; columns ; pixel rows ; pixel columns t, and as its answer that it
# sends such reports (mode 2048), ESC [ ? 2048 ; n $ y.  A key may begin as a
# report does (ESC [ 48 ; 5 u is Ctrl+0 in the kitty protocol the app asks
# for): a sequence is held until it is a report, or cannot be one.
SIZE_REPORT = b"\x1b[48;"
SIZE_REPORTS_ANSWER = b"\x1b[?2048;"
SIZE_REPORT_FIELDS = 4
LONGEST_REPORT = MAX_SEQUENCE + 1  # bytes; Textual gives up on longer sequences
# What a report dropped becomes: a sequence that Textual reads whole whatever
# it was reading (the terminal's "focus in", which the app does not heed).
# Dropped for nothing, a report cut into a sequence the app was still reading
# joined its two halves into one: ESC [ 48 ; 1 ; 1 ; 1 ; 1, a report, and t.
REPORT_DROPPED = b"\x1b[I"


def _report_state(held: bytes) -> bool | None:
    """Whether ``held`` (an escape sequence) is a whole report (True), may
    go on to be one (None), or cannot be one (False)."""
    if len(held) > LONGEST_REPORT:
        return False
    for beginning in (SIZE_REPORT, SIZE_REPORTS_ANSWER):
        if len(held) <= len(beginning):
            if beginning.startswith(held):
                return None
            continue
        if not held.startswith(beginning):
            continue
        rest = held[len(beginning) :]
        if beginning == SIZE_REPORTS_ANSWER:
            if b"$y".startswith(rest[1:]) and rest[:1].isdigit():
                return True if rest[1:] == b"$y" else None
            return False
        if b":" in rest:
            # Sub-parameters, which Textual takes with anything after them:
            # no key looks so, and nothing of it need reach the app.
            return True
        whole = rest.endswith(b"t")
        fields = (rest[:-1] if whole else rest).split(b";")
        if whole:
            return len(fields) == SIZE_REPORT_FIELDS and all(f.isdigit() for f in fields)
        goes_on = fields[-1].isdigit() or not fields[-1]
        if len(fields) <= SIZE_REPORT_FIELDS and goes_on and all(f.isdigit() for f in fields[:-1]):
            return None
        return False
    return False


class SizeReports:
    """A guest's keys without a terminal's report of its size, or its answer
    that it sends them.  ``feed`` takes keys as they come (a report may be
    split between two reads) and returns the keys that may go on; ``dropped``
    counts the reports taken out."""

    def __init__(self) -> None:
        self._held = bytearray()  # an escape sequence that may be a report
        self._esc_sent = False  # its ESC went on already (a lone ESC: the Escape key)
        self.dropped = 0

    def feed(self, data: bytes) -> bytes:
        out = bytearray()
        at = 0
        while at < len(data):
            if not self._held:
                esc = data.find(b"\x1b", at)
                out += data[at : len(data) if esc < 0 else esc]
                if esc < 0:
                    break
                self._held.append(ESC)
                at = esc + 1
                continue
            self._held.append(data[at])
            state = _report_state(bytes(self._held))
            if state is None:
                at += 1
            elif state:
                self.dropped += 1
                out += REPORT_DROPPED
                self._held.clear()
                self._esc_sent = False
                at += 1
            else:  # no report: what was held goes on, and the byte is read again
                self._held.pop()
                out += self._held[1:] if self._esc_sent else self._held
                self._held.clear()
                self._esc_sent = False
        if self._held == b"\x1b" and not self._esc_sent:
            # The Escape key must not wait for the next key: should a report
            # follow it, the rest is dropped, and the app reads an Escape.
            out += self._held
            self._esc_sent = True
        return bytes(out)
