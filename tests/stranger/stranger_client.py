"""A threeup client written from ``docs/protocol.md`` alone.

It keeps the document honest: nothing here comes from ``net/`` or
``threeup_tui/``, only the standard library and ``msgpack``. It was
written before any of the project's code was read; where the document
then left something open, the document was mended rather than the
client taught what the code does.

Part 1 (sessions): ``Session`` does the handshake, reliable messages,
acks, retransmission, heartbeats, the state channel and the close.
Part 2 (the game): ``Stranger`` sits down, chooses its face-up cards,
plays the lowest legal action, chats and says goodbye.
"""

from __future__ import annotations

import random
import secrets
import socket
import struct
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import msgpack

# Part 1, "Wire format".
VERSION = 1
DATAGRAM = 1200
HELLO, CHALLENGE, ECHO, ACCEPT, REFUSE, SESSION, CLOSE, RESET = range(1, 9)
DATA_FRAME, STATE_FRAME = 0, 1
CHUNK = 1024

# Part 1, "Timers and limits": this client's own choices.
RECV_WINDOW = 128
MAX_MESSAGE = 65_536
HANDSHAKE_RETRY = 0.1
MAX_RTO = 0.4
MIN_RTO = 0.05
HEARTBEAT = 1.0
IDLE_TIMEOUT = 5.0
CONNECT_TIMEOUT = 5.0
CLOSE_COPIES = 2


class Refused(Exception):
    """The server answered REFUSE (Part 2, "Joining")."""


class SessionEnded(Exception):
    """The session ended: CLOSE, RESET or the idle time-out."""

    def __init__(self, why: str, reason: str = "") -> None:
        super().__init__(f"{why}: {reason}" if reason else why)
        self.why = why
        self.reason = reason


def _unpack(data: bytes, limit: int) -> Any:
    """Unpack with the datagram's rules (Part 1, "Wire format")."""
    return msgpack.unpackb(
        data,
        raw=False,
        strict_map_key=True,
        max_str_len=limit,
        max_bin_len=limit,
        max_array_len=max(256, limit),
        max_map_len=max(64, limit),
        max_ext_len=0,
    )


def padded(fields: list[Any]) -> bytes:
    """One HELLO/ECHO of exactly 1200 bytes: ``fields`` then a bin16 padding."""
    body = b"".join(msgpack.packb(value) for value in fields)
    header: bytes = msgpack.packb([None] * (len(fields) + 1))[: -(len(fields) + 1)]
    pad = DATAGRAM - len(header) - len(body) - 3
    if pad < 0:
        raise ValueError("hello too large for one datagram")
    return header + body + b"\xc5" + struct.pack(">H", pad) + bytes(pad)


def bitmap(bits: Iterator[int]) -> bytes:
    """Bit i at byte i // 8, least significant bit first, as short as can be."""
    out = bytearray()
    for bit in bits:
        while len(out) <= bit // 8:
            out.append(0)
        out[bit // 8] |= 1 << (bit % 8)
    return bytes(out)


def bits_of(raw: bytes) -> Iterator[int]:
    for i, byte in enumerate(raw):
        for b in range(8):
            if byte >> b & 1:
                yield i * 8 + b


@dataclass
class _Outgoing:
    frame: list[Any]
    sent_at: float
    rto: float


@dataclass
class Session:
    """One client session with a threeup host (Part 1)."""

    host: str
    port: int
    loss: float = 0.0  # a share of datagrams this side drops, each way (a lossy link)
    # Frames this side loses on the way in, by their content (a test's link
    # that loses exactly those): the frame is neither taken nor acknowledged.
    lose_frame: Callable[[list[Any]], bool] | None = None
    rng: random.Random = field(default_factory=random.Random)
    sock: socket.socket = field(init=False)
    server: tuple[str, int] = field(init=False)
    session_id: int = 0
    accept: Any = None
    # Sending.
    next_send_seq: int = 0
    peer_window: int = 1
    peer_next_seq: int = 0
    max_send: int = MAX_MESSAGE
    unacked: dict[int, _Outgoing] = field(default_factory=dict)
    waiting: list[list[Any]] = field(default_factory=list)
    last_sent: float = 0.0
    # Receiving.
    recv_next_seq: int = 0
    held: dict[int, tuple[bool, bytes]] = field(default_factory=dict)
    run: list[bytes] = field(default_factory=list)
    state_done: int = 0
    assembling: int = 0
    fragments: dict[int, bytes] = field(default_factory=dict)
    last_heard: float = 0.0
    ack_owed: bool = False
    malformed: int = 0
    resent: int = 0  # data frames sent again after their timer ran out

    def __post_init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.server = (self.host, self.port)

    # -- handshake -------------------------------------------------------

    def connect(self, hello: dict[str, Any]) -> Any:
        """HELLO → CHALLENGE → ECHO → ACCEPT; returns the ACCEPT payload."""
        nonce = secrets.randbits(64)
        start = time.monotonic()
        hello_dgram = padded([HELLO, VERSION, nonce, RECV_WINDOW, MAX_MESSAGE, hello])
        echo_dgram: bytes | None = None
        retry = HANDSHAKE_RETRY
        while time.monotonic() - start < CONNECT_TIMEOUT:
            self._sendto(echo_dgram or hello_dgram)
            deadline = time.monotonic() + retry
            retry = min(retry * 2, MAX_RTO)
            while (left := deadline - time.monotonic()) > 0:
                got = self._recv(left)
                if got is None:
                    break
                msg, addr = got
                if len(msg) < 2 or msg[1] != nonce:
                    continue
                if msg[0] == CHALLENGE and len(msg) == 4:
                    # The session lives where the server answers from.
                    self.server = addr
                    _, _, cookie_time, cookie_mac = msg
                    echo = [ECHO, VERSION, nonce, RECV_WINDOW, MAX_MESSAGE, hello]
                    echo_dgram = padded([*echo, cookie_time, cookie_mac])
                    self._sendto(echo_dgram)
                elif msg[0] == ACCEPT and len(msg) == 6:
                    _, _, self.session_id, self.peer_window, peer_max, payload = msg
                    self.max_send = min(MAX_MESSAGE, peer_max, self.peer_window * CHUNK)
                    self.accept = payload
                    self.last_heard = time.monotonic()
                    self._send_session([])  # optional: the server's first RTT sample
                    return payload
                elif msg[0] == REFUSE and len(msg) == 3:
                    raise Refused(msg[2])
        raise TimeoutError("no ACCEPT within the connect time-out")

    def _sendto(self, dgram: bytes) -> None:
        if self.rng.random() >= self.loss:
            self.sock.sendto(dgram, self.server)

    def _recv(self, timeout: float) -> tuple[list[Any], tuple[str, int]] | None:
        self.sock.settimeout(max(timeout, 0.0))  # 0.0: do not block
        try:
            data, addr = self.sock.recvfrom(65_536)
        except (TimeoutError, BlockingIOError):
            return None
        if len(data) > DATAGRAM or self.rng.random() < self.loss:
            return None
        try:
            msg = _unpack(data, DATAGRAM)
        except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError):
            return None
        if not isinstance(msg, list) or not msg or not isinstance(msg[0], int):
            return None
        return msg, addr

    # -- sending ---------------------------------------------------------

    def _ack(self) -> list[Any]:
        sack = bitmap(iter(sorted(seq - self.recv_next_seq for seq in self.held)))
        version = self.assembling or self.state_done
        bits = bitmap(iter(sorted(self.fragments))) if self.assembling else b""
        return [self.recv_next_seq, sack, self.state_done, version, bits]

    def _send_session(self, frames: list[list[Any]]) -> None:
        dgram = msgpack.packb([SESSION, self.session_id, self._ack(), frames])
        self._sendto(dgram)
        self.last_sent = time.monotonic()
        self.ack_owed = False

    def send(self, message: Any) -> None:
        """Send one reliable message, cut into ≤ 1024-byte data frames."""
        data = msgpack.packb(message)
        if len(data) > self.max_send:
            raise ValueError("message larger than the session allows")
        chunks = [data[i : i + CHUNK] for i in range(0, len(data), CHUNK)]
        for i, chunk in enumerate(chunks):
            self.waiting.append([DATA_FRAME, self.next_send_seq, i == len(chunks) - 1, chunk])
            self.next_send_seq += 1
        self._flush()

    def _flush(self) -> None:
        now = time.monotonic()
        frames = []
        while self.waiting and self.waiting[0][1] < self.peer_next_seq + self.peer_window:
            frame = self.waiting.pop(0)
            self.unacked[frame[1]] = _Outgoing(frame, now, MIN_RTO * 4)
            frames.append(frame)
        if frames:
            self._send_session(frames)

    def _retransmit(self) -> None:
        """When the oldest unacknowledged frame's timer runs out, it alone is
        resent (a probe: a time-out says nothing of which frames were lost)."""
        if not self.unacked:
            return
        oldest = self.unacked[min(self.unacked)]
        now = time.monotonic()
        if now - oldest.sent_at >= oldest.rto:
            oldest.sent_at, oldest.rto = now, min(oldest.rto * 2, MAX_RTO)
            self.resent += 1
            self._send_session([oldest.frame])

    # -- receiving -------------------------------------------------------

    def poll(self, timeout: float) -> list[tuple[str, Any]]:
        """Wait up to ``timeout`` s; returns ``("message"|"state", value)`` events."""
        events: list[tuple[str, Any]] = []
        deadline = time.monotonic() + timeout
        while True:
            got = self._recv(min(0.02, max(deadline - time.monotonic(), 0.0)))
            while got is not None:  # read everything waiting before judging anything
                msg, addr = got
                if addr == self.server:
                    events.extend(self._on_datagram(msg))
                got = self._recv(0.0)
            now = time.monotonic()
            if self.ack_owed:
                self._send_session([])
            self._retransmit()
            if now - self.last_sent >= HEARTBEAT:
                self._send_session([])
            if now - self.last_heard > IDLE_TIMEOUT:
                raise SessionEnded("IDLE_TIMEOUT")
            if events or now >= deadline:
                return events

    def _on_datagram(self, msg: list[Any]) -> list[tuple[str, Any]]:
        kind = msg[0]
        if len(msg) < 2 or msg[1] != self.session_id:
            return []
        if kind == CLOSE and len(msg) == 3:
            raise SessionEnded("PEER_CLOSED", msg[2])
        if kind == RESET and len(msg) == 2:
            raise SessionEnded("RESET")
        if kind != SESSION or len(msg) != 4:
            return []
        self.last_heard = time.monotonic()
        _, _, ack, frames = msg
        if self.lose_frame is not None:
            frames = [frame for frame in frames if not self.lose_frame(frame)]
        self._on_ack(ack)
        events: list[tuple[str, Any]] = []
        for frame in frames:
            if frame[0] == DATA_FRAME:
                events.extend(self._on_data(frame[1], frame[2], frame[3]))
            elif frame[0] == STATE_FRAME:
                events.extend(self._on_state(frame[1], frame[2], frame[3], frame[4]))
        if frames:
            self.ack_owed = True
        return events

    def _on_ack(self, ack: list[Any]) -> None:
        next_seq, sack = ack[0], ack[1]
        self.peer_next_seq = max(self.peer_next_seq, next_seq)
        for seq in [s for s in self.unacked if s < next_seq]:
            del self.unacked[seq]
        for bit in bits_of(sack):
            self.unacked.pop(next_seq + bit, None)
        self._flush()

    def _on_data(self, seq: int, last: bool, chunk: bytes) -> list[tuple[str, Any]]:
        if seq < self.recv_next_seq:
            return []
        self.held[seq] = (last, chunk)
        events: list[tuple[str, Any]] = []
        # In-order chunks of an unfinished message count in next_seq at once: the
        # document allows it (SESSION ack), the reference receiver sacks them.
        while self.recv_next_seq in self.held:
            last, chunk = self.held.pop(self.recv_next_seq)
            self.recv_next_seq += 1
            self.run.append(chunk)
            if last:
                data = b"".join(self.run)
                self.run = []
                try:
                    events.append(("message", _unpack(data, min(len(data), MAX_MESSAGE))))
                except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError):
                    self.malformed += 1
        return events

    def _on_state(
        self, version: int, index: int, count: int, chunk: bytes
    ) -> list[tuple[str, Any]]:
        if version <= self.state_done or version < self.assembling:
            return []
        if version > self.assembling:
            self.assembling, self.fragments = version, {}
        self.fragments[index] = chunk
        if len(self.fragments) < count:
            return []
        data = b"".join(self.fragments[i] for i in range(count))
        self.state_done, self.assembling, self.fragments = version, 0, {}
        try:
            return [("state", _unpack(data, min(len(data), MAX_MESSAGE)))]
        except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError):
            self.malformed += 1
            return []

    # -- close -------------------------------------------------------------

    def close(self, reason: str, linger: float = 1.0) -> None:
        """Wait up to ``linger`` for our data to be acked, then CLOSE (twice)."""
        deadline = time.monotonic() + linger
        while (self.unacked or self.waiting) and time.monotonic() < deadline:
            try:
                self.poll(0.05)
            except SessionEnded:
                break
        for _ in range(CLOSE_COPIES):
            self._sendto(msgpack.packb([CLOSE, self.session_id, reason]))
        self.sock.close()


# -- Part 2: the game -----------------------------------------------------

RANK_NAMES = {11: "C", 12: "C1", 13: "C2"}
FLIP, PICKUP, DRAW = 112, 120, 121


def rank_of(kind: int) -> int:
    return kind % 13 + 1


def card_code(kind: int) -> str:
    """A VIEW's kind (0-38) as a request's card code ("G7", "BC1")."""
    rank = rank_of(kind)
    return "RGB"[kind // 13] + RANK_NAMES.get(rank, str(rank))


def choose_move(view: dict[str, Any]) -> dict[str, Any]:
    """The simplest rule: the lowest legal play, else a flip, a draw, a pick-up."""
    seat, legal = view["seat"], sorted(view["legal"])
    plays = [a for a in legal if a < FLIP]
    if plays:
        rank, count = divmod(plays[0], 8)
        # The current source: the hand, or the face-up cards once it is empty.
        source = view["hand"] or view["seats"][seat][1]
        codes = [card_code(k) for k in source if rank_of(k) == rank][:count]
        return {"seat": seat, "play": codes}
    flips = [a for a in legal if FLIP <= a < PICKUP]
    if flips:
        return {"seat": seat, "flip": flips[0] - FLIP}
    if DRAW in legal:
        return {"seat": seat, "draw": True}
    return {"seat": seat, "pickup": True}


@dataclass
class GameLog:
    """What the stranger saw and did, for the test to judge."""

    seat: int | None = None
    accept: Any = None
    snapshots: list[dict[str, Any]] = field(default_factory=list)
    messages: list[dict[str, Any]] = field(default_factory=list)
    moves_sent: int = 0
    ended: str = ""
    resent: int = 0
    first_move_at: float | None = None

    @property
    def views(self) -> list[dict[str, Any]]:
        return [s["view"] for s in self.snapshots if s.get("view") is not None]

    def of_kind(self, t: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m.get("t") == t]


class Stranger:
    """Plays one seat: face-up choice, then a move whenever it is to act."""

    def __init__(self, session: Session, log: GameLog) -> None:
        self.session, self.log = session, log
        self.setup_sent = False
        self.acted_at = -1  # the `moves` of the last view a move was sent for
        self.started = time.monotonic()

    def on_view(self, view: dict[str, Any]) -> None:
        seat = self.log.seat
        assert seat is not None
        ready = view["seats"][seat][4]
        if view["phase"] == "setup" and not ready and not self.setup_sent:
            # The hand is sorted by rank: its last three go face up.
            self.session.send({"t": "setup", "cards": [card_code(k) for k in view["hand"][-3:]]})
            self.setup_sent = True
        mine = view["phase"] == "play" and view["to_act"] == seat and view["legal"]
        if mine and view["moves"] != self.acted_at:
            self.acted_at = view["moves"]
            self.session.send({"t": "move", "at": self.acted_at, "move": choose_move(view)})
            self.log.moves_sent += 1
            if self.log.first_move_at is None:
                self.log.first_move_at = time.monotonic() - self.started


def sit_down(
    host: str,
    port: int,
    name: str = "stranger",
    token: str | None = None,
    claim: int | None = None,
    loss: float = 0.0,
) -> tuple[Session, GameLog]:
    """A seat: a newcomer's with a fresh token, or, given the token and the
    claim of its last ACCEPT, the seat of a client coming back by itself."""
    session = Session(host, port, loss=loss, rng=random.Random(7))
    hello = {"game": "threeup", "v": 1, "name": name, "code": None, "watch": False}
    hello["token"] = token or secrets.token_hex(16)
    if claim is not None:
        hello["claim"] = claim
    log = GameLog(accept=session.connect(hello))
    log.seat = log.accept["seat"]
    return session, log


def play_game(
    host: str,
    port: int,
    name: str = "stranger",
    chat: str = "hello",
    limit: float = 60.0,
    loss: float = 0.0,
) -> GameLog:
    """Sit down, play one game to its end with the simplest rule, chat, leave."""
    session, log = sit_down(host, port, name, loss=loss)
    session.send({"t": "chat", "text": chat})
    return play(session, log, limit)


def play(session: Session, log: GameLog, limit: float = 60.0, moves: int | None = None) -> GameLog:
    """Play until the game is over (then chat and leave), the host ends the
    session, or ``moves`` moves have been sent (the session is left open)."""
    player = Stranger(session, log)
    try:
        return _play(session, player, log, limit, moves)
    finally:
        log.resent = session.resent


def _play(
    session: Session, player: Stranger, log: GameLog, limit: float, moves: int | None
) -> GameLog:
    try:
        while time.monotonic() - player.started < limit:
            for kind, value in session.poll(0.5):
                if kind == "message":
                    log.messages.append(value)
                    continue
                log.snapshots.append(value)
                view = value.get("view")
                if view is not None and view["phase"] == "over":
                    session.send({"t": "chat", "text": "good game"})
                    session.close("goodbye")
                    log.ended = "over"
                    return log
                if view is not None:
                    player.on_view(view)
                if moves is not None and log.moves_sent >= moves:
                    log.ended = "paused"
                    return log
    except SessionEnded as ended:
        log.ended = str(ended)
        return log
    session.close("gave up")
    log.ended = "time limit"
    return log


def join_as_spectator(host: str, port: int, name: str = "watcher") -> tuple[Session, GameLog]:
    """A spectator's session (no seat: the public view only), connected."""
    session = Session(host, port)
    hello = {"game": "threeup", "v": 1, "name": name, "code": None}
    log = GameLog(accept=session.connect(hello | {"token": secrets.token_hex(16), "watch": True}))
    return session, log


def watch(session: Session, log: GameLog, limit: float = 60.0) -> GameLog:
    """Take in everything a spectator is sent until the host ends the session."""
    started = time.monotonic()
    try:
        while time.monotonic() - started < limit:
            for kind, value in session.poll(0.5):
                (log.messages if kind == "message" else log.snapshots).append(value)
    except SessionEnded as ended:
        log.ended = str(ended)
        return log
    session.close("gave up")
    log.ended = "time limit"
    return log


if __name__ == "__main__":
    import sys

    result = play_game(sys.argv[1], int(sys.argv[2]))
    print(result.ended, result.moves_sent, len(result.snapshots), result.of_kind("rejected"))
