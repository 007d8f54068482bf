"""A client written from docs/protocol.md alone plays a whole game at a real host.

The host is ``python -m threeup_tui host --headless`` in a subprocess on
127.0.0.1 (an ephemeral port), two greedy bots in the other seats; the
client is ``stranger_client.py``, which knows the protocol only from the
document: one plays a seat, one watches as a spectator to the host's
CLOSE. If the document and the host part ways, this test says so.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import msgpack
import pytest
from stranger_client import GameLog, join_as_spectator, play, play_game, sit_down, watch

DECK = 74
# Two of every code but RC2 (kind 12) and BC2 (kind 38): Part 2, "Card codes".
COPIES = {kind: 0 if kind in (12, 38) else 2 for kind in range(39)}
VIEW_KEYS = {
    "seat", "phase", "options", "names", "seats", "hand", "pile", "draw", "cleared",
    "to_act", "extra", "draw_open", "turn", "legal", "pickup_reason", "draw_reason",
    "winner", "places", "stalemate", "moves", "log",
}  # fmt: skip
# A name through every step of the document's cleaning (Part 2, "Names"):
# a mark after a space goes, NFC makes n + acute one letter, four marks of
# the five left stay on it, markup and BEL go, whitespace is made one space.
NAME_SENT = " \u0301Ann\u0301\u0301\u0301\u0301\u0301\u0301\t [bold]B\x07 "
NAME_SEATED = "An\u0144\u0301\u0301\u0301\u0301 B"
LISTENING = re.compile(r"listening on 127\.0\.0\.1:(\d+)")


HostStarter = Callable[..., tuple["subprocess.Popen[str]", int]]


@pytest.fixture
def start_host(tmp_path: Path) -> Iterator[HostStarter]:
    """Starts ``threeup host --headless`` with the given flags on 127.0.0.1
    and an ephemeral port; returns the process and its port."""
    procs: list[subprocess.Popen[str]] = []
    env = dict(os.environ, THREEUP_ANNOUNCE="off", HOME=str(tmp_path))
    for var in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        env[var] = str(tmp_path / var.lower())

    def start(*flags: str) -> tuple[subprocess.Popen[str], int]:
        args = ["--headless", "--bind", "127.0.0.1", "--port", "0", "--announce", "off"]
        if "--resume" in flags:  # a resumed table keeps its address, port and announcing
            args = ["--headless"]
        proc = subprocess.Popen(
            [sys.executable, "-m", "threeup_tui", "host", *args, *flags],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        procs.append(proc)
        port: list[int] = []
        found = threading.Event()

        def read_output() -> None:  # keeps the pipe drained for the host's whole life
            assert proc.stdout is not None
            for line in proc.stdout:
                if not port and (match := LISTENING.search(line)):
                    port.append(int(match.group(1)))
                    found.set()

        threading.Thread(target=read_output, daemon=True).start()
        assert found.wait(20), "the host never said where it listens"
        return proc, port[0]

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.fixture
def host_port(start_host: HostStarter) -> Iterator[int]:
    """A table of three: two greedy bots and one seat for the stranger."""
    proc, port = start_host("--players", "3", "--bots", "2", "--games", "1", "--seed", "7")
    yield port
    assert proc.wait(10) == 0  # --games 1: the host closes the table itself


def check_snapshot(snapshot: dict[str, Any], seat: int | None) -> None:
    """The snapshot shows this seat's hand (none for a spectator, seat None)
    and public facts only."""
    assert set(snapshot) == {"lobby", "view", "clock"}
    assert snapshot["lobby"]["code"] is None  # the room code goes to the host's seat only
    view = snapshot["view"]
    if view is None:
        return
    assert set(view) <= VIEW_KEYS, set(view) - VIEW_KEYS
    assert view["seat"] == seat
    # The hand is sorted by rank, then colour (R, G, B); the log holds the
    # last 6 moves, each [seat, kind, cards, cleared, picked_up, drawn, out, flip_failed].
    assert view["hand"] == sorted(view["hand"], key=lambda kind: (kind % 13, kind // 13))
    assert len(view["log"]) <= 6 and all(len(entry) == 8 for entry in view["log"])
    seats = view["seats"]
    assert len(view["hand"]) == (0 if seat is None else seats[seat][0])
    everyone_chose = all(s[4] for s in seats)
    shown: Counter[int] = Counter(view["hand"])
    for i, (hand_size, face_up, face_down, known, _ready, _out) in enumerate(seats):
        assert len(face_down) == 3 and set(face_down) <= {0, 1}, "face-down cards are bits"
        if view["phase"] == "setup" and not everyone_chose and i != seat:
            assert face_up == [], "D2: nobody sees another's choice before all have chosen"
            assert hand_size == 6, "nor how many cards left the hand"
        shown.update(face_up)
        if i == seat:
            assert not Counter(known) - Counter(view["hand"]), "own known ⊆ own hand"
        else:
            assert len(known) <= hand_size
            shown.update(known)
    shown.update(view["pile"] + view["cleared"])
    assert all(n <= COPIES[kind] for kind, n in shown.items()), "more copies than the deck"
    in_play = sum(s[0] + len(s[1]) + sum(s[2]) for s in seats)
    assert in_play + len(view["pile"]) + view["draw"] + len(view["cleared"]) == DECK


@pytest.mark.parametrize("loss", [0.0, 0.2], ids=["clean", "lossy"])
def test_a_stranger_plays_a_whole_game(host_port: int, loss: float) -> None:
    """On a lossy link (a fifth of the datagrams lost each way) the retries,
    acks and retransmissions the document describes carry the game too."""
    log: GameLog = play_game(
        "127.0.0.1", host_port, name=NAME_SENT, chat="hello from outside", loss=loss, limit=20
    )

    assert log.ended == "over", log.ended
    assert log.seat == 2 and log.accept["claim"] == 1
    assert log.of_kind("rejected") == []
    assert log.moves_sent > 0
    if loss:
        assert log.resent > 0, "the lossy link made the client retransmit"
    final = log.views[-1]
    assert final["phase"] == "over" and (final["winner"] is not None or final["stalemate"])
    assert log.views[0]["phase"] == "setup" and len(log.views[0]["hand"]) == 6
    for snapshot in log.snapshots:
        check_snapshot(snapshot, log.seat)
    moves = [view["moves"] for view in log.views]
    assert moves == sorted(moves), "snapshots superseded, never older than the last"
    assert log.of_kind("played") == []  # no game kept for the seat yet: no message at all
    assert log.snapshots[-1]["lobby"]["seats"][log.seat][0] == NAME_SEATED
    assert final["names"][log.seat] == NAME_SEATED
    own_lines = [m for m in log.of_kind("chat") if m["seat"] == log.seat]
    assert [m["text"] for m in own_lines] == ["hello from outside"]


def test_a_stranger_watches_a_whole_game_to_the_host_closing(host_port: int) -> None:
    """A spectator sees the public view only, and stays to the host's CLOSE."""
    session, watched = join_as_spectator("127.0.0.1", host_port)
    with ThreadPoolExecutor(1) as pool:
        watching = pool.submit(watch, session, watched, 20)
        played = play_game("127.0.0.1", host_port, limit=20)
        watched = watching.result(25)

    assert played.ended == "over"
    assert watched.accept["seat"] is None and watched.accept["claim"] is None
    closing = "PEER_CLOSED: the table has played its 1 game"
    assert watched.ended == closing
    assert watched.of_kind("closed") == [{"t": "closed", "reason": closing.split(": ", 1)[1]}]
    assert watched.views[-1]["phase"] == "over"
    for snapshot in watched.snapshots:
        check_snapshot(snapshot, None)
    assert all(view["legal"] == [] for view in watched.views)
    # No turn timer at this table: every snapshot shows something new.
    repeats = [a for a, b in zip(watched.snapshots, watched.snapshots[1:], strict=False) if a == b]
    assert repeats == [], "a snapshot that changes nothing"


def test_a_stranger_comes_back_to_its_seat_after_a_stop_and_a_resume(
    start_host: HostStarter, tmp_path: Path
) -> None:
    """Part 2, "Table lifecycle" 8 and "Resuming": a host stopped in a game
    says it may resume; the client comes back by itself with its token and
    claim, to the same port, and plays the game to its end."""
    record = str(tmp_path / "game.json")
    flags = ("--players", "2", "--bots", "1", "--games", "1", "--seed", "7", "--record", record)
    first, port = start_host(*flags)
    session, log = sit_down("127.0.0.1", port)
    assert play(session, log, limit=20, moves=3).ended == "paused"
    first.send_signal(signal.SIGTERM)
    watch(session, log, limit=10)
    assert first.wait(10) == 130

    stopped = "the host stopped in the middle of the game: it may resume the table"
    assert log.of_kind("closed") == [{"t": "closed", "reason": stopped}]
    assert log.ended == f"PEER_CLOSED: {stopped}"
    seen = log.views[-1]["moves"]

    second, again = start_host("--resume", record)
    assert again == port  # the same port: clients coming back by themselves find it
    token, claim = log.accept["token"], log.accept["claim"]
    session, back = sit_down("127.0.0.1", port, token=token, claim=claim)
    assert back.seat == log.seat and back.accept["table_id"] == log.accept["table_id"]
    assert back.accept["claim"] == claim + 1
    assert play(session, back, limit=20).ended == "over"
    assert back.views[0]["phase"] == "play" and back.views[0]["moves"] >= seen
    assert back.of_kind("rejected") == []
    for snapshot in back.snapshots:
        check_snapshot(snapshot, back.seat)
    assert second.wait(10) == 0


def test_refusals_come_back_one_per_refused_request_in_order(start_host: HostStarter) -> None:
    """Part 2, "Which request a `rejected` answers": requests sent in one
    flight are taken in order; each refused one gets one `rejected`, in
    that order; one carried out (a chat line) or dropped (malformed) gets
    none."""
    _, port = start_host("--players", "3", "--bots", "2")
    session, log = sit_down("127.0.0.1", port)
    requests: list[dict[str, Any]] = [
        {"t": "setup", "cards": ["X9", "R1", "R2"]},
        {"t": "nonsense"},
        {"t": "chat", "text": "x" * 401},
        {"t": "chat", "text": "taken"},
        {"t": "add_bot", "level": "greedy"},
    ]
    for request in requests:
        session.send(request)
    for _ in range(10):  # 2 s: the answers, and the relayed line
        for kind, value in session.poll(0.2):
            (log.messages if kind == "message" else log.snapshots).append(value)
    session.close("goodbye")

    assert [m["reason"] for m in log.of_kind("rejected")] == [
        "not a card code: 'X9'",
        "a chat line is at most 400 characters and 1,000 bytes of UTF-8",
        "only the host can change the table",
    ]
    # And each names the kind of request it answers.
    assert [m.get("re") for m in log.of_kind("rejected")] == ["setup", "chat", "add_bot"]
    own = [m["text"] for m in log.of_kind("chat") if m["seat"] == log.seat and not m.get("old")]
    assert own == ["taken"]


def test_a_spectator_reading_to_the_close_has_the_last_snapshot(host_port: int) -> None:
    """Part 1, "Close", and Part 2, "Messages and snapshots": a `closed`
    message may overtake the last snapshot, and the CLOSE waits for that
    snapshot's ack. The spectator's link loses the game-over snapshot until
    the `closed` message is in; reading on to the CLOSE, it still gets it."""
    session, watched = join_as_spectator("127.0.0.1", host_port)
    lost: list[int] = []

    def lose_game_over_until_closed(frame: list[Any]) -> bool:
        if frame[0] != 1 or watched.of_kind("closed"):
            return False
        _, _, index, count, chunk = frame
        assert count == 1, "a three-seat snapshot fits one fragment"
        view = msgpack.unpackb(chunk)["view"]
        if view is None or view["phase"] != "over":
            return False
        lost.append(index)
        return True

    session.lose_frame = lose_game_over_until_closed
    with ThreadPoolExecutor(1) as pool:
        watching = pool.submit(watch, session, watched, 20)
        played = play_game("127.0.0.1", host_port, limit=20)
        watched = watching.result(25)

    assert played.ended == "over"
    assert lost, "the game-over snapshot was lost at least once"
    closing = "the table has played its 1 game"
    assert watched.of_kind("closed") == [{"t": "closed", "reason": closing}]
    assert watched.ended == f"PEER_CLOSED: {closing}"
    assert watched.views[-1]["phase"] == "over", "the CLOSE came before the last snapshot"
