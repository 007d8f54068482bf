"""Helpers shared by the network-play tests and benchmarks/network.py.

Everything here talks to loopback only (127.0.0.1): hosts are started with
``--announce off`` (subprocesses) or without an announcer (in-process).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from net import Accept, Client, Message, NetConfig, Refuse, SendQueueFull, Server, State
from net.codec import Rejected, decode, decode_message
from net.packets import AcceptPacket, DataFrame, SessionPacket, StateFrame
from threeup_tui.bots import make_bot
from threeup_tui.client.events import ActionRejected, ConnectionChanged, ViewChanged
from threeup_tui.netplay.client import NetClient
from threeup_tui.netplay.host import HOST_NET, NetHost
from threeup_tui.netplay.tokens import TokenStore
from threeup_tui.netplay.wire import make_hello, view_from_wire, view_to_wire
from threeup_tui.rules import (
    Move,
    Phase,
    Record,
    View,
    parse_record,
    record_of,
    seat_view,
    verify,
)
from threeup_tui.rules.record import start_state
from threeup_tui.table import Table, TableConfig, TableRunner

LOOPBACK = "127.0.0.1"
# The interpreter running the tests: whatever virtual environment installed
# the project (the README's .venv, CI's own), never a path guessed here.
PYTHON = Path(sys.executable)
THREEUP = Path(sys.executable).with_name("threeup")


# ----------------------------------------------------------------------------- subprocesses


def free_udp_port() -> int:
    """A UDP port on loopback that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.bind((LOOPBACK, 0))
        return int(sock.getsockname()[1])


def child_env(state_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["THREEUP_STATE_DIR"] = str(state_dir)
    env["PYTHONUNBUFFERED"] = "1"
    return env


@dataclass
class Proc:
    popen: subprocess.Popen[bytes]
    stderr_path: Path
    port: int = 0

    def stderr(self) -> str:
        try:
            return self.stderr_path.read_text(errors="replace")
        except OSError:
            return ""

    def kill(self) -> None:
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGKILL)
            self.popen.wait(10)

    def wait(self, timeout: float) -> int:
        try:
            return self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(
                f"{self.popen.args!r} still running after {timeout} s; stderr:\n{self.stderr()}"
            ) from None


def spawn(args: list[str], workdir: Path, err_path: Path, state_dir: Path) -> Proc:
    """A threeup process with its own state directory, stderr kept in a file."""
    with err_path.open("wb") as err:
        popen = subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
            env=child_env(state_dir),
            cwd=workdir,
        )
    return Proc(popen, err_path)


def start_host_process(
    workdir: Path,
    *,
    players: int,
    bots: int,
    seed: int,
    record: Path,
    port: int = 0,
    takeover_after: float | None = None,
    resume: Path | None = None,
    code: str | None = None,
    tag: str = "host",
    games: int | None = 1,
    extra: tuple[str, ...] = (),
    bind: str | None = LOOPBACK,
) -> Proc:
    """``threeup host --headless`` on loopback, announcing nothing; waits for
    the "listening" line and parses the port from it.  ``games``: the host
    exits after that many games (None: it hosts until stopped).  With
    ``resume``: only ``--resume FILE`` (the table file holds the rest, the
    number of games too), plus ``extra``.  ``bind`` None: no ``--bind``
    (the default, every address; send to loopback addresses only)."""
    if resume is not None:
        args = [str(THREEUP), "host", "--headless", "--resume", str(resume), *extra]
    else:
        args = [
            str(THREEUP), "host", "--headless", "--port", str(port),
            *(() if bind is None else ("--bind", bind)),
            "--players", str(players), "--bots", str(bots), "--seed", str(seed),
            "--record", str(record), "--announce", "off", *extra,
        ]  # fmt: skip
        if games is not None:
            args += ["--games", str(games)]
        if takeover_after is not None:
            args += ["--takeover-after", str(takeover_after)]
        if code is not None:
            args += ["--code", code]
    proc = spawn(args, workdir, workdir / f"{tag}.stderr", workdir / f"{tag}-state")
    popen = proc.popen
    deadline = time.monotonic() + 20
    marker = "threeup host listening on "  # then IP:PORT, or [IPv6]:PORT
    while time.monotonic() < deadline:
        text = proc.stderr()
        for line in text.splitlines():
            if line.startswith(marker):
                proc.port = int(line.rpartition(":")[2].strip())
                return proc
        if popen.poll() is not None:
            raise AssertionError(f"host exited with {popen.returncode}:\n{text}")
        time.sleep(0.02)
    proc.kill()
    raise AssertionError(f"host did not report its port:\n{proc.stderr()}")


def start_bot_process(
    workdir: Path, port: int, name: str, state_dir: Path, level: str = "greedy",
    code: str | None = None, at: str | None = None,
) -> Proc:  # fmt: skip
    """``threeup join --bot`` at ``at`` (as typed: "[::1]:5000"), else
    at 127.0.0.1:``port``."""
    address = f"{LOOPBACK}:{port}" if at is None else at
    args = [str(THREEUP), "join", address, "--bot", level, "--name", name]
    if code is not None:
        args += ["--code", code]
    proc = spawn(args, workdir, workdir / f"bot-{name}-{time.monotonic_ns()}.stderr", state_dir)
    proc.port = port
    return proc


def verify_cli(record: Path) -> dict[str, Any]:
    """``threeup verify FILE --json`` as a dict."""
    out = subprocess.run(
        [str(THREEUP), "verify", str(record), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0, (out.returncode, out.stdout, out.stderr)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def read_moves(record: Path) -> list[dict[str, Any]] | None:
    """The moves of a journal, or None while it is not (yet) readable."""
    try:
        data = json.loads(record.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    moves = data.get("moves") if isinstance(data, dict) else None
    return moves if isinstance(moves, list) else None


def wait_for_moves(record: Path, count: int, timeout: float, alive: Iterable[Proc] = ()) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        moves = read_moves(record)
        if moves is not None and len(moves) >= count:
            return len(moves)
        for proc in alive:
            if proc.popen.poll() is not None:
                raise AssertionError(f"{proc.popen.args!r} exited early:\n{proc.stderr()}")
        time.sleep(0.005)
    raise AssertionError(f"the journal {record} never reached {count} moves")


# ----------------------------------------------------------------------------- in-process


async def start_host(
    table: Table,
    config: NetConfig | None = None,
    tap: Callable[[tuple[str, int], bytes], None] | None = None,
) -> NetHost:
    """``NetHost.start`` on loopback, optionally with a datagram tap on its
    server (NetHost.start takes no tap, so this wires it the same way)."""
    if tap is None:
        return await NetHost.start(table, LOOPBACK, 0, config or HOST_NET)
    holder: list[NetHost] = []

    def authorize(address: tuple[str, int], hello: Any) -> Accept | Refuse:
        return holder[0]._authorize(address, hello)

    server = await Server.start(LOOPBACK, 0, authorize, config or HOST_NET, on_datagram_sent=tap)
    host = NetHost(table, server)
    holder.append(host)
    host._task = asyncio.get_running_loop().create_task(host._serve())
    return host


def make_table(
    tmp: Path, players: int, seed: int, bots: int = 0, *, code: str | None = None,
    takeover_after: float = 600.0,
) -> Table:  # fmt: skip
    table = Table(
        TableConfig(
            players=players,
            seed=seed,
            auto_start=True,
            journal=tmp / f"journal-{seed}.json",
            takeover_after=takeover_after,
            code=code,
        )
    )
    for _ in range(bots):
        table.add_bot(None, "greedy")
    return table


@dataclass
class ClientLog:
    """What one bot client saw and did."""

    name: str
    seat: int | None = None
    views: list[View] = field(default_factory=list)
    submitted: list[tuple[int, Move]] = field(default_factory=list)
    face_up: list[str] | None = None
    rejected: list[str] = field(default_factory=list)
    connection: list[ConnectionChanged] = field(default_factory=list)
    submit_times: dict[int, float] = field(default_factory=dict)
    acted_at: int = -1


def make_client(
    address: tuple[str, int], name: str, tokens: Path, *, watch: bool = False,
    code: str | None = None, config: NetConfig | None = None,
) -> NetClient:  # fmt: skip
    kwargs: dict[str, Any] = {}
    if config is not None:
        kwargs["config"] = config
    return NetClient(
        address[0], address[1], name, code, watch=watch, tokens=TokenStore(tokens), **kwargs
    )


async def play_bot(
    client: NetClient,
    log: ClientLog,
    level: str = "greedy",
    seed: int | None = None,
    *,
    started: bool = False,
    until: Callable[[View], bool] | None = None,
    bot: Any = None,
    after_submit: Callable[[View], None] | None = None,
) -> ClientLog:
    """Play like ``threeup join --bot`` (run.py ``_bot_client``) until the
    game is over, recording every view and every move sent.  With ``until``,
    stop without acting at the first own turn whose view satisfies it (call
    again with ``started=True`` to go on from the current view)."""
    bot = bot or make_bot(level, seed)
    if not started:
        await client.start()
    log.seat = client.seat

    def act(view: View) -> bool:
        """Act on ``view``; True to stop here."""
        if view.phase == "over":
            return True
        if view.seat is None:
            return False
        if view.phase == "setup" and not view.seats[view.seat].ready:
            if log.face_up is None:
                log.face_up = list(bot.choose_face_up(view))
                client.choose_face_up(log.face_up)
        elif view.my_turn and log.acted_at != view.moves_played:
            if until is not None and until(view):
                return True
            log.acted_at = view.moves_played
            move = bot.choose_move(view)
            assert client.view is not None and client.view.moves_played == view.moves_played
            log.submit_times[view.moves_played] = time.perf_counter()
            client.submit(move)
            log.submitted.append((view.moves_played, move))
            if after_submit is not None:
                after_submit(view)
        return False

    if started and client.view is not None and act(client.view):
        return log
    while True:
        event = await client.next_event()
        if isinstance(event, ConnectionChanged):
            log.connection.append(event)
            if event.state == "closed":
                raise AssertionError(f"{log.name}: connection closed: {event.detail}")
            continue
        if isinstance(event, ActionRejected):
            log.rejected.append(event.reason)
            log.acted_at = -1
            continue
        if isinstance(event, ViewChanged):
            log.views.append(event.view)
            if act(event.view):
                return log


async def run_table(table: Table) -> TableRunner:
    runner = TableRunner(table)
    runner.start()
    return runner


async def stop_runner(runner: TableRunner) -> None:
    """Stop a TableRunner without ever hanging the test suite.

    Before 3f457d3, ``TableRunner.stop()`` could hang for ever on Python 3.11
    (its loop's ``asyncio.wait_for`` swallowed a cancellation that coincided
    with a table change; test_netplay_lifecycle.py pins that down).  Teardown
    cancels until the task is really gone, so a regression fails that test
    instead of freezing the whole suite.
    """
    task = runner._task
    if task is None:
        return
    for _ in range(100):
        task.cancel()
        done, _pending = await asyncio.wait({task}, timeout=0.05)
        if done:
            break
    runner._task = None


def table_record(table: Table) -> Record:
    assert table.state is not None
    return record_of(table.state)


def normalized(move: Move) -> Move:
    return Move(move.seat, move.kind, tuple(sorted(move.cards)), move.slot)


def expected_views(record: Record) -> dict[int | None, list[View]]:
    """For every seat (and a spectator): the view after each prefix of the
    record's moves, as it looks after a trip over the wire."""
    state = start_state(record)
    seats: list[int | None] = [*range(len(record.players)), None]
    out: dict[int | None, list[View]] = {s: [] for s in seats}
    for index in range(len(record.moves) + 1):
        for s in seats:
            out[s].append(view_from_wire(view_to_wire(seat_view(state, s))))
        if index < len(record.moves):
            state.apply_move(record.moves[index])
    return out


def check_client_against_record(
    log: ClientLog, record: Record, expected: dict[int | None, list[View]]
) -> None:
    """The record matches everything the client saw and did."""
    assert log.views, f"{log.name} saw no view"
    final = log.views[-1]
    assert final.phase == "over"
    assert final.moves_played == len(record.moves)
    played = [v for v in log.views if v.phase != "setup"]
    counts = [v.moves_played for v in played]
    assert counts == sorted(counts), f"{log.name}: views went backwards: {counts}"
    for view in played:
        want = expected[log.seat][view.moves_played]
        assert view == want, f"{log.name}: view at {view.moves_played} differs from the record"
    # Every move this client sent appears exactly once, where it was sent.
    assert not log.rejected, f"{log.name}: rejected {log.rejected}"
    ats = [at for at, _ in log.submitted]
    assert len(ats) == len(set(ats)), f"{log.name}: sent twice at {ats}"
    if log.seat is not None:
        mine = [i for i, m in enumerate(record.moves) if m.seat == log.seat]
        assert ats == mine, f"{log.name}: sent at {ats}, record has seat moves at {mine}"
        for at, move in log.submitted:
            assert normalized(record.moves[at]) == normalized(move), (at, move, record.moves[at])
        setup = record.setup[log.seat]
        assert log.face_up is not None and sorted(setup) == sorted(log.face_up)


def verify_record(record: Record) -> None:
    verdict = verify(record.to_json())
    assert verdict.ok, verdict
    assert verdict.finished, verdict


def load_record_file(path: Path) -> Record:
    return parse_record(json.loads(path.read_text(encoding="utf-8")))


# ----------------------------------------------------------------------------- raw seats

RAW_SEAT_NET = NetConfig(idle_timeout=30.0)


class RawSeat:
    """A seat played through a bare ``net.Client`` (the wire protocol by
    hand, as a hostile or foreign client would), capturing what it sends."""

    def __init__(self, client: Client, captured: list[bytes]) -> None:
        self.client = client
        self.captured = captured
        payload = client.accept_payload
        self.seat: int = payload["seat"]
        self.view: View | None = None
        self.messages: list[Any] = []
        self.bot = make_bot("greedy", 7)
        self._acted = -1

    @classmethod
    async def join(
        cls, host: NetHost, name: str, token: str | None = None, config: NetConfig = RAW_SEAT_NET
    ) -> RawSeat:
        captured: list[bytes] = []
        hello = make_hello(name, None, token or secrets.token_hex(16), False)
        client = await Client.connect(
            *host.address, hello, config, on_datagram_sent=lambda _a, d: captured.append(d)
        )
        return cls(client, captured)

    async def pump(self, until: Any, timeout: float = 20.0) -> View:
        """Play (setup and moves) until ``until(view)`` holds for a view
        where this seat is to act, or the game is over."""

        async def run() -> View:
            while True:
                view = self.view
                if view is not None:
                    if view.phase == "over" or (view.my_turn and until(view)):
                        return view
                    if not self._act(view):
                        # This seat's own chat flood filled its send queue:
                        # send the request again once acks have made room,
                        # as any client must (no event need come to wake us).
                        with contextlib.suppress(TimeoutError):
                            self._take(await asyncio.wait_for(self.client.next_event(), 0.02))
                        continue
                self._take(await self.client.next_event())

        return await asyncio.wait_for(run(), timeout)

    def _take(self, event: Any) -> None:
        if isinstance(event, Message):
            self.messages.append(event.payload)
        elif isinstance(event, State) and event.payload.get("view") is not None:
            self.view = view_from_wire(event.payload["view"])

    def _act(self, view: View) -> bool:
        """Send what ``view`` asks of this seat; False when the send queue
        was full and nothing was sent (it is sent again on the next call)."""
        try:
            if view.phase == "setup" and not view.seats[self.seat].ready and self._acted != -2:
                cards = list(self.bot.choose_face_up(view))
                self.client.send({"t": "setup", "cards": cards})
                self._acted = -2
            elif view.my_turn and self._acted != view.moves_played:
                move = self.bot.choose_move(view)
                self.client.send({"t": "move", "at": view.moves_played, "move": move.to_json()})
                self._acted = view.moves_played
        except SendQueueFull:
            return False
        return True

    async def wait_message(self, kind: str, timeout: float = 5.0) -> dict[str, Any]:
        async def run() -> dict[str, Any]:
            for i, message in enumerate(self.messages):
                if isinstance(message, dict) and message.get("t") == kind:
                    return self.messages.pop(i)  # type: ignore[no-any-return]
            while True:
                event = await self.client.next_event()
                payload = event.payload if isinstance(event, Message) else None
                if isinstance(payload, dict) and payload.get("t") == kind:
                    return payload
                self._take(event)

        return await asyncio.wait_for(run(), timeout)


async def pump_until_one_is_to_act(
    first: RawSeat, second: RawSeat, until: Callable[[View], bool]
) -> tuple[RawSeat, RawSeat]:
    """Play both raw seats until one is to act on a view where ``until``
    holds; (that seat, the other one), the other stopped where it was."""
    pumps = {asyncio.ensure_future(s.pump(until)): s for s in (first, second)}
    done, pending = await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    mover = pumps[done.pop()]
    return mover, second if mover is first else first


def fingerprint(table: Table) -> Any:
    state = table.state
    assert state is not None
    return (
        len(state.history),
        state.seat,
        state.phase,
        [list(h) for h in state.hand],
        [list(u) for u in state.up],
        [list(d) for d in state.down],
        [list(k) for k in state.known],
        list(state.pile),
        list(state.cleared),
        state.draw_pos,
        record_of(state).to_json(),
        [(s.kind, s.token, s.connected) for s in table.seats],
    )


# ----------------------------------------------------------------------------- tap decoding


@dataclass
class SessionCapture:
    """Everything one session's datagrams carried, reassembled."""

    session_id: int
    address: tuple[str, int] | None = None
    seat: int | None = None
    accepted: Any = None
    states: dict[int, Any] = field(default_factory=dict)  # version -> payload
    incomplete_states: int = 0
    messages: list[Any] = field(default_factory=list)
    _state_parts: dict[int, dict[int, bytes]] = field(default_factory=dict)
    _state_counts: dict[int, int] = field(default_factory=dict)
    _data: dict[int, DataFrame] = field(default_factory=dict)
    _next_seq: int = 0
    raw: list[bytes] = field(default_factory=list)

    def add_frame(self, frame: DataFrame | StateFrame) -> None:
        if isinstance(frame, StateFrame):
            if frame.version in self.states:
                return
            parts = self._state_parts.setdefault(frame.version, {})
            self._state_counts[frame.version] = frame.count
            parts[frame.index] = frame.chunk
            if len(parts) == frame.count:
                data = b"".join(parts[i] for i in range(frame.count))
                self.states[frame.version] = decode_message(data)
                del self._state_parts[frame.version]
            return
        self._data.setdefault(frame.seq, frame)
        while True:
            end = self._next_seq
            while end in self._data and not self._data[end].last:
                end += 1
            if end not in self._data:
                return
            data = b"".join(self._data.pop(s).chunk for s in range(self._next_seq, end + 1))
            self.messages.append(decode_message(data))
            self._next_seq = end + 1

    def finish(self) -> None:
        self.incomplete_states = len(self._state_parts)


class Tap:
    """``on_datagram_sent`` hook: keeps every datagram a server sent."""

    def __init__(self) -> None:
        self.sent: list[tuple[tuple[str, int], bytes]] = []

    def __call__(self, addr: tuple[str, int], data: bytes) -> None:
        self.sent.append((addr, bytes(data)))

    def sessions(self) -> dict[int, SessionCapture]:
        """Decode and reassemble everything sent, per session id; the seat
        comes from the host's ACCEPT payload."""
        out: dict[int, SessionCapture] = {}
        for addr, data in self.sent:
            packet = decode(data)
            assert not isinstance(packet, Rejected), f"the host sent a bad datagram: {packet}"
            if isinstance(packet, AcceptPacket):
                cap = out.setdefault(packet.session_id, SessionCapture(packet.session_id))
                cap.address = addr
                cap.accepted = packet.payload
                cap.seat = packet.payload.get("seat") if isinstance(packet.payload, dict) else None
                cap.raw.append(data)
            elif isinstance(packet, SessionPacket):
                cap = out.setdefault(packet.session_id, SessionCapture(packet.session_id))
                assert cap.address in (None, addr), "one session id sent to two addresses"
                cap.address = addr
                cap.raw.append(data)
                for frame in packet.frames:
                    cap.add_frame(frame)
        for cap in out.values():
            cap.finish()
        return out


@contextlib.contextmanager
def deadline_guard(seconds: float) -> Any:
    start = time.monotonic()
    yield
    elapsed = time.monotonic() - start
    assert elapsed < seconds, f"took {elapsed:.1f} s, budget {seconds} s"


def python_executable() -> str:
    return sys.executable


def play_out_as_bots(table: Table) -> None:
    """Every seat plays as a greedy bot would (people included), to the end."""
    state = table.state
    assert state is not None
    bot = make_bot("greedy", 3)
    while state.phase != Phase.OVER:
        if table.step_bot():
            continue
        if state.phase == Phase.SETUP:
            for i in range(len(table.seats)):
                if state.setup[i] is None:
                    table.choose_face_up(i, bot.choose_face_up(seat_view(state, i)))
        else:
            table.submit(state.seat, bot.choose_move(seat_view(state, state.seat)))
