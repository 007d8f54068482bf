"""Whole games between real processes on loopback: ``threeup host --headless``
and ``threeup join --bot`` clients; a client process and a host process killed
(SIGKILL) mid-game and restarted."""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
import signal
import socket
import threading
import time
from pathlib import Path

import pytest
from netplay_support import (
    LOOPBACK,
    THREEUP,
    Proc,
    free_udp_port,
    load_record_file,
    read_moves,
    spawn,
    start_bot_process,
    start_host_process,
    verify_cli,
    wait_for_moves,
)

from net.codec import decode, encode
from net.packets import HelloPacket, RefusePacket
from threeup_tui.bots import make_bot
from threeup_tui.netplay.tokens import TokenStore
from threeup_tui.rules import Phase, seat_view
from threeup_tui.table import Hosting, Table, TableConfig, open_table


def _stop(procs: list[Proc]) -> None:
    for proc in procs:
        proc.kill()


def _wait_stalled(record: Path, quiet: float, timeout: float) -> int:
    """The journal's move count once it stopped growing for ``quiet`` s."""
    deadline = time.monotonic() + timeout
    last = -1
    since = time.monotonic()
    while time.monotonic() < deadline:
        moves = read_moves(record)
        count = -1 if moves is None else len(moves)
        if count != last:
            last, since = count, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return count
        time.sleep(0.02)
    raise AssertionError("the game never stalled")


@pytest.mark.parametrize(
    ("players", "bots", "seed"),
    [(2, 0, 11), (3, 1, 12), (4, 2, 13), (4, 0, 14)],
)
def test_headless_host_and_bot_clients_play_a_whole_game(
    tmp_path: Path, players: int, bots: int, seed: int
) -> None:
    record = tmp_path / "game.json"
    host = start_host_process(tmp_path, players=players, bots=bots, seed=seed, record=record)
    names = [f"netbot{i}" for i in range(players - bots)]
    clients = [
        start_bot_process(tmp_path, host.port, name, tmp_path / f"state-{name}") for name in names
    ]
    try:
        assert host.wait(60) == 0, host.stderr()
        for client in clients:
            assert client.wait(30) == 0, client.stderr()
    finally:
        _stop([host, *clients])
    verdict = verify_cli(record)
    assert verdict["ok"] is True and verdict["finished"] is True, verdict
    assert verdict["moves"] > 0
    rec = load_record_file(record)
    assert len(rec.players) == players
    assert sorted(p for p in rec.players if p.startswith("netbot")) == names
    for name in names:
        seat = rec.players.index(name)
        assert any(m.seat == seat for m in rec.moves), f"{name} never moved"


def test_client_process_killed_mid_game_gets_its_seat_back(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    host = start_host_process(
        tmp_path, players=3, bots=1, seed=21, record=record, takeover_after=600
    )
    alice_state, bob_state = tmp_path / "state-alice", tmp_path / "state-bob"
    alice = start_bot_process(tmp_path, host.port, "alice", alice_state)
    bob = start_bot_process(tmp_path, host.port, "bob", bob_state)
    procs = [host, alice, bob]
    try:
        wait_for_moves(record, 3, 30, alive=procs)
        alice.kill()
        token_before = json.loads((alice_state / "seats.json").read_text())
        # Nobody plays for alice (the take-over is 10 minutes away): the
        # game stops at her turn.
        stalled = _wait_stalled(record, quiet=0.6, timeout=20)
        assert host.popen.poll() is None, host.stderr()
        alice_again = start_bot_process(tmp_path, host.port, "alice", alice_state)
        procs.append(alice_again)
        assert host.wait(60) == 0, host.stderr()
        assert alice_again.wait(30) == 0, alice_again.stderr()
        assert bob.wait(30) == 0, bob.stderr()
    finally:
        _stop(procs)
    assert json.loads((alice_state / "seats.json").read_text()) == token_before
    verdict = verify_cli(record)
    assert verdict["ok"] is True and verdict["finished"] is True, verdict
    rec = load_record_file(record)
    seat = rec.players.index("alice")
    assert len(rec.moves) > stalled
    # The game waited for alice's seat, and the restarted alice played it.
    assert rec.moves[stalled].seat == seat
    # The seat still belongs to alice's kept token.
    table = json.loads(record.with_name(record.name + ".table").read_text())
    kept = [token for t in token_before["tables"].values() for token in t["names"].values()]
    assert table["seats"][seat]["token"] in kept


@pytest.mark.parametrize("stop", ["killed", "stopped", "hung up"])
def test_host_process_killed_mid_game_resumes_with_no_move_lost(tmp_path: Path, stop: str) -> None:
    """`threeup host --headless --resume FILE`, and nothing else: the table
    comes back on the port it had (port 0 picked it at random), still asks
    for its room code, gives the players their seats back, and the game
    ends with a record that verifies.  The host's log says who came and
    went, and never shows the code or a token.  A host stopped on purpose
    (Ctrl-C) in the middle of a game tells its players to wait for it, and
    they come back as after a crash (they once took its goodbye as final,
    and the resumed table's bots played the game out without them)."""
    record = tmp_path / "game.json"
    host = start_host_process(
        tmp_path, players=3, bots=1, seed=31, record=record, takeover_after=600, code="pizza"
    )
    port = host.port
    alice = start_bot_process(tmp_path, port, "alice", tmp_path / "state-alice", code="pizza")
    bob = start_bot_process(tmp_path, port, "bob", tmp_path / "state-bob", code="pizza")
    procs = [host, alice, bob]
    try:
        wait_for_moves(record, 6, 30, alive=procs)
        if stop == "killed":
            host.kill()
        else:
            # Ctrl-C, or SIGHUP (its terminal closed, its SSH session dropped),
            # which once ended it on the spot, its players told nothing.
            host.popen.send_signal(signal.SIGINT if stop == "stopped" else signal.SIGHUP)
            assert host.wait(30) == 130, host.stderr()
            # The line it leaves is a command that works as given.
            assert f"`threeup host --headless --resume {record}` brings it back" in host.stderr()
        before = read_moves(record)
        assert before is not None and len(before) >= 6
        shutil.copy(record, tmp_path / "journal-at-kill.json")
        time.sleep(0.3)
        for waiting in (alice, bob):  # for the host to come back
            assert waiting.popen.poll() is None, waiting.stderr()
            # Held while eve knocks: back at once, they would play the game
            # out in a moment, and the resumed table (one game) would be gone
            # before eve's second try had started.
            waiting.popen.send_signal(signal.SIGSTOP)
        # --resume alone: the port, the code, the seats and every setting come back.
        resumed = start_host_process(
            tmp_path, players=3, bots=1, seed=31, record=record, resume=record,
            tag="host-resumed",
        )  # fmt: skip
        procs.append(resumed)
        assert resumed.port == port
        for code in ("wrong", None):  # the resumed table still asks for its code
            eve = start_bot_process(tmp_path, port, "eve", tmp_path / "state-eve", code=code)
            procs.append(eve)
            assert eve.wait(30) == 1
            said = "wrong room code" if code else "asks for a room code, and none was given"
            assert said in eve.stderr()
        for waiting in (alice, bob):
            waiting.popen.send_signal(signal.SIGCONT)
        assert resumed.wait(90) == 0, resumed.stderr()
        assert alice.wait(30) == 0, alice.stderr()
        assert bob.wait(30) == 0, bob.stderr()
    finally:
        _stop(procs)
    verdict = verify_cli(record)
    assert verdict["ok"] is True and verdict["finished"] is True, verdict
    after = read_moves(record)
    assert after is not None
    assert after[: len(before)] == before, "the resumed game lost or changed a move"
    assert len(after) > len(before)
    rec = load_record_file(record)
    for name in ("alice", "bob"):
        seat = rec.players.index(name)
        assert any(m.seat == seat for m in rec.moves[len(before) :]), f"{name} never came back"
    # The log: joins, returns and refusals, 1-based seats, no secret.
    logs = host.stderr() + resumed.stderr()
    table = json.loads(record.with_name(record.name + ".table").read_text())
    assert "alice sat down at seat" in logs and "alice came back to seat" in logs
    assert "refused a join from 127.0.0.1" in logs and "wrong room code" in logs
    assert "pizza" not in logs
    assert not any(s["token"] and s["token"] in logs for s in table["seats"])


def test_a_headless_host_logs_what_it_dropped_and_counted(tmp_path: Path) -> None:
    """Malformed traffic is dropped and counted, and the operator sees the
    counts: the host's log says them when it stops (and every ten minutes
    while they change)."""
    record = tmp_path / "game.json"
    host = start_host_process(tmp_path, players=2, bots=1, seed=5, record=record, games=None)
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            for junk in (b"\x00", b"not a threeup datagram", b"\xff" * 40):
                sock.sendto(junk, (LOOPBACK, host.port))
        time.sleep(0.5)
        host.popen.send_signal(signal.SIGINT)
        assert host.wait(20) == 0, host.stderr()
    finally:
        _stop([host])
    lines = [line for line in host.stderr().splitlines() if "counted: " in line]
    assert len(lines) == 1, host.stderr()
    assert "3 dropped (" in lines[0], lines[0]


async def test_the_count_line_comes_back_only_when_the_counts_change(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from threeup_tui.netplay import run

    said = iter(["", "3 dropped (undecodable 3)", "3 dropped (undecodable 3)", "4 dropped (x 4)"])

    class Counting:
        asked = 0

        def counts_words(self) -> str:
            self.asked += 1
            return next(said, "4 dropped (x 4)")

    monkeypatch.setattr(run, "COUNTS_LOG_EVERY", 0.001)
    caplog.set_level(logging.INFO, logger="threeup")
    counting = Counting()
    task = asyncio.ensure_future(run.log_counts(counting))  # type: ignore[arg-type]
    for _ in range(1000):  # up to 10 s: asked past the last change, however busy the machine
        if counting.asked > 5:
            break
        await asyncio.sleep(0.01)
    task.cancel()
    assert counting.asked > 5, counting.asked
    lines = [r.getMessage() for r in caplog.records if "counted so far" in r.getMessage()]
    assert lines == [
        "counted so far: 3 dropped (undecodable 3)",
        "counted so far: 4 dropped (x 4)",
    ]


def test_a_hostile_hosts_refusal_reaches_the_terminal_without_escapes(tmp_path: Path) -> None:
    """A REFUSE's reason is the host's text: `threeup join --bot` printed it
    raw, so whoever answered the address could write escape sequences to
    the joiner's terminal (retitle it, clear it, colour a fake prompt).
    What it prints is cleaned, as the app and the bot's other lines are."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind((LOOPBACK, 0))
    sock.settimeout(0.1)
    port = sock.getsockname()[1]
    reason = "\x1b]0;owned\x07\x1b[2J\x1b[31mrun this\x1b[0m"
    stop = threading.Event()

    def refuse_everyone() -> None:
        while not stop.is_set():
            try:
                data, addr = sock.recvfrom(2048)
            except TimeoutError:
                continue
            packet = decode(data)
            if isinstance(packet, HelloPacket):
                sock.sendto(encode(RefusePacket(packet.nonce, reason)), addr)

    thread = threading.Thread(target=refuse_everyone)
    thread.start()
    bot = start_bot_process(tmp_path, port, "joiner", tmp_path / "state")
    try:
        assert bot.wait(20) == 1
        err = bot.stderr()
        assert "threeup join: the table refused: ]0;owned" in err and "run this" in err
        assert "\x1b" not in err and "\x07" not in err
    finally:
        bot.kill()
        stop.set()
        thread.join()
        sock.close()


def _play_to_the_end(table: Table, seat: int) -> None:
    """Play ``table``'s game to its end in this process, ``seat`` by a greedy bot."""
    bot = make_bot("greedy", 3)
    state = table.state
    while state is not None and not state.over:
        if table.step_bot():
            continue
        view = seat_view(state, seat)
        if state.phase == Phase.SETUP:
            table.choose_face_up(seat, bot.choose_face_up(view))
        else:
            table.submit(seat, bot.choose_move(view))


def test_a_host_stopped_at_the_end_of_its_last_game_closes_the_table_on_resume(
    tmp_path: Path,
) -> None:
    """A headless host killed after the last move of its last game (--games
    1), before it closed the table: its journal holds the finished game.
    Resumed, it waits for its player to come back (an app notices a crash
    only after its idle time-out) and closes the table as the host would
    have: it once waited for ever, and its players with it."""
    record = tmp_path / "game.json"
    port = free_udp_port()
    table = open_table(TableConfig(players=2, seed=41, journal=record, games=1), bots=1)
    table.hosting = Hosting(bind=LOOPBACK, port=port, announce="off")
    alice_state = tmp_path / "state-alice"
    token = "a" * 32
    TokenStore(alice_state / "seats.json").remember(
        f"{LOOPBACK}:{port}", "alice", table.table_id, token
    )
    seat, _ = table.seat_human("alice", token)
    table.start(None)
    table.disconnect(seat)  # the crash: nobody is connected
    _play_to_the_end(table, seat)
    assert table.state is not None and table.state.over
    resumed = start_host_process(
        tmp_path, players=2, bots=1, seed=41, record=record, resume=record, tag="resumed"
    )
    procs = [resumed]
    try:
        time.sleep(1.5)  # alice's app has not noticed the crash yet
        alice = start_bot_process(tmp_path, port, "alice", alice_state)
        procs.append(alice)
        assert resumed.wait(20) == 0, resumed.stderr()
        assert alice.wait(20) == 0, alice.stderr()
    finally:
        _stop(procs)
    # The first run kept the game's record as it ended: the resume tells of
    # the game it comes back after, not of a game over again.
    assert "resumed after game 1 (" in resumed.stderr()
    assert "game 1 over:" not in resumed.stderr()
    assert "alice came back to seat" in resumed.stderr()
    assert "the table has played its 1 game" in alice.stderr()
    verdict = verify_cli(record)
    assert verdict["ok"] is True and verdict["finished"] is True, verdict


def test_a_hang_up_stops_a_host_cleanly_unless_it_runs_under_nohup() -> None:
    """SIGHUP stops a headless host or a joined bot as Ctrl-C does; one
    started under `nohup` asked to ignore it, and does."""
    from threeup_tui.netplay.run import stop_signals

    assert signal.SIGHUP in stop_signals()
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as nohup leaves it
    try:
        assert stop_signals() == (signal.SIGINT, signal.SIGTERM)
    finally:
        signal.signal(signal.SIGHUP, before)


def test_a_resumed_table_whose_port_is_taken_says_which_port_and_what_to_do(
    tmp_path: Path,
) -> None:
    """A resumed table listens on the port its table file keeps, which the
    operator never typed: `threeup host --headless --resume FILE` said only
    "cannot listen: Address already in use".  The line names the port, where
    it came from and the flag that moves the table; the files stay."""
    record = tmp_path / "game.json"
    host = start_host_process(tmp_path, players=2, bots=0, seed=3, record=record)
    port = host.port
    host.kill()  # SIGKILL in the lobby: the table file keeps the port
    table_file = tmp_path / "game.json.table"
    kept = table_file.read_bytes()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as holder:
        holder.bind((LOOPBACK, port))  # another program took the port meanwhile
        resumed = spawn(
            [str(THREEUP), "host", "--headless", "--resume", str(record)],
            tmp_path, tmp_path / "resumed.stderr", tmp_path / "host-state",
        )  # fmt: skip
        assert resumed.wait(30) == 2
    err = resumed.stderr().strip()
    assert len(err.splitlines()) == 1, err
    assert err == (
        f"threeup host: cannot listen on 127.0.0.1:{port} (UDP), the port its table file "
        "keeps: Address already in use (another table on this computer?); --port PORT "
        f"moves the table (players who come back by themselves look at {port})"
    )
    assert table_file.read_bytes() == kept  # nothing lost: the resume can be tried again


def _wait_for_line(proc: Proc, text: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while text not in proc.stderr():
        if time.monotonic() > deadline:
            raise AssertionError(f"no {text!r} in the log:\n{proc.stderr()}")
        time.sleep(0.05)


def test_a_bot_client_stopped_long_enough_to_be_marked_away_takes_its_seat_back(
    tmp_path: Path,
) -> None:
    """A ``join --bot`` process stopped (SIGSTOP) at a table with a turn
    timer: its turns time out, the table marks the seat away and lets its
    stand-in play it.  Let go again (SIGCONT), the bot is its own player and
    says it is here: the seat is its own again, and the table, a table of
    bots alone, plays its next game.  (It used to stay away for good: the
    stand-in took every turn before the bot saw one, and the table waited
    for ever for somebody to come back.)"""
    record = tmp_path / "game.json"
    host = start_host_process(
        tmp_path, players=2, bots=1, seed=31, record=record, games=2, extra=("--turn-time", "1")
    )
    bot = start_bot_process(tmp_path, host.port, "netbot", tmp_path / "state-netbot")
    try:
        wait_for_moves(record, 3, 30, alive=[host, bot])
        bot.popen.send_signal(signal.SIGSTOP)
        try:
            _wait_for_line(host, "netbot is away: ", 30)
        finally:
            bot.popen.send_signal(signal.SIGCONT)
        _wait_for_line(host, "netbot came back; the bot hands the seat over", 30)
        assert host.wait(60) == 0, host.stderr()
        assert bot.wait(30) == 0, bot.stderr()
    finally:
        _stop([host, bot])
    assert "game 2 over" in host.stderr()
