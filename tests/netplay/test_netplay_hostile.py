"""A bad actor who speaks the protocol, against a real host on loopback.

Not random junk (test_netplay_fuzz.py does that): valid sessions used the
way an attacker would, by sessions that come and go to shed what the host
keeps about them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from pathlib import Path
from typing import Any

import pytest
from netplay_support import LOOPBACK, RawSeat, make_table, start_host

from net import Client, Message, NetConfig, Refused, State
from threeup_tui.netplay.host import COMEBACKS_ALLOWED, JOINS_ALLOWED, LOBBY_EVERY
from threeup_tui.netplay.wire import (
    REFUSED_FOR_NOW,
    TOO_MANY_COMEBACKS,
    TOO_MANY_JOINS,
    make_hello,
)

SPECTATOR_NET = NetConfig(idle_timeout=30.0)


async def _answers(client: Client, count: int) -> list[dict[str, Any]]:
    """The next ``count`` answers to this client's own chat lines: its line
    relayed back (taken) or a ``rejected`` (refused)."""
    got: list[dict[str, Any]] = []
    while len(got) < count:
        event = await client.next_event()
        payload = event.payload if isinstance(event, Message) else None
        if not isinstance(payload, dict) or payload.get("old"):
            continue
        if payload.get("t") == "rejected" or (
            payload.get("t") == "chat" and payload.get("watcher")
        ):
            got.append(payload)
    return got


async def test_a_spectator_cannot_shed_its_chat_allowance_by_coming_back(
    tmp_path: Path,
) -> None:
    """A spectator's chat allowance was its session's: one that sent its 3
    lines, left and watched again (a new session, from a new port) had 3
    more, at once, and so on: 576 lines reached a player in 10 s where the
    protocol promises at most 5.  Spectators have no identity a new session
    could not shed, so the allowance is their sender's (every loopback
    address is one): whatever one sender sends, the others hear at most the
    limit."""
    table = make_table(tmp_path, players=2, seed=71)
    host = await start_host(table)
    player = await RawSeat.join(host, "player")
    sessions, lines_each = 5, 3
    started = time.monotonic()
    answers: list[dict[str, Any]] = []
    try:
        for n in range(sessions):
            hello = make_hello(f"spam{n}", None, secrets.token_hex(16), True)
            spectator = await Client.connect(LOOPBACK, host.address[1], hello, SPECTATOR_NET)
            try:
                for i in range(lines_each):
                    spectator.send({"t": "chat", "text": f"line {n}.{i}"})
                answers += await asyncio.wait_for(_answers(spectator, lines_each), 10)
            finally:
                await spectator.close()
        elapsed = time.monotonic() - started
        taken = [a for a in answers if a["t"] == "chat"]
        refused = [a for a in answers if a["t"] == "rejected"]
        # 3 back to back, then one line every 2 s, and never 5 in any 10 s.
        allowed = min(3 + int(elapsed / 2), 5 * (1 + int(elapsed / 10)))
        assert len(taken) <= allowed, (elapsed, [a["text"] for a in taken])
        assert refused and all(a["reason"].startswith("too many chat lines") for a in refused)
        assert host.stats.chat_refused == len(refused)

        # The player heard exactly the lines that were taken.
        def heard() -> list[Any]:
            return [m for m in player.messages if m.get("t") == "chat" and m.get("watcher")]

        for _ in range(100):
            if len(heard()) >= len(taken):
                break
            with contextlib.suppress(TimeoutError):
                player._take(await asyncio.wait_for(player.client.next_event(), 0.05))
        assert [m["text"] for m in heard()] == [a["text"] for a in taken]
    finally:
        await player.client.close()
        await host.close()


async def test_a_newcomer_cannot_sit_down_and_leave_without_end(tmp_path: Path) -> None:
    """In the lobby a seat whose player leaves opens again, and each sitting
    down and leaving is a line of the table's chat to every guest and a
    table file flushed to disk.  One client joining and leaving in a loop
    sent the other guests 545 lines a second (and fsync'd the table file as
    often).  A sender takes at most JOINS_ALLOWED seats a minute as a
    newcomer; a player coming back with a seat's token, and a spectator,
    are not held up."""
    table = make_table(tmp_path, players=4, seed=72)
    host = await start_host(table)
    player = await RawSeat.join(host, "player")
    token = table.seats[player.seat].token
    try:
        for n in range(JOINS_ALLOWED - 1):  # the player's own join was one
            hello = make_hello(f"churn{n}", None, secrets.token_hex(16), False)
            churn = await Client.connect(LOOPBACK, host.address[1], hello, SPECTATOR_NET)
            assert churn.accept_payload["seat"] is not None
            await churn.close()
        hello = make_hello("churn again", None, secrets.token_hex(16), False)
        with pytest.raises(Refused) as refused:
            await Client.connect(LOOPBACK, host.address[1], hello, SPECTATOR_NET)
        assert refused.value.reason == TOO_MANY_JOINS
        assert TOO_MANY_JOINS in REFUSED_FOR_NOW
        assert [s.kind for s in table.seats].count("human") == 1  # the player alone
        # The player, coming back with its token, and a spectator still may.
        back = make_hello("player", None, token or "", False)
        again = await Client.connect(LOOPBACK, host.address[1], back, SPECTATOR_NET)
        assert again.accept_payload["seat"] == player.seat
        await again.close()
        watch = make_hello("watcher", None, secrets.token_hex(16), True)
        watcher = await Client.connect(LOOPBACK, host.address[1], watch, SPECTATOR_NET)
        assert watcher.accept_payload["seat"] is None
        await watcher.close()
    finally:
        await player.client.close()
        await host.close()


async def test_watching_and_leaving_in_a_loop_floods_nobody(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Each spectator who comes or goes changes the lobby's count of
    watchers, and each change was a snapshot to every session and a line
    in the host's log: one client watching and leaving in a loop sent every
    other session 2,100 snapshots (516 KiB) a second and wrote 2,100 log
    lines a second.  A change of the lobby alone goes to a session at most
    every LOBBY_EVERY seconds (the last one always arrives), and the log
    says it at most once per sender every 30 s, with a count."""
    caplog.set_level(logging.INFO, logger="threeup.host")
    table = make_table(tmp_path, players=3, seed=73)
    host = await start_host(table)
    player = await RawSeat.join(host, "player")
    cycles = 60
    try:
        await asyncio.sleep(0.3)
        while True:  # what came before the churn
            try:
                player._take(await asyncio.wait_for(player.client.next_event(), 0.1))
            except TimeoutError:
                break
        states_before = player.client.stats.states_delivered
        started = time.monotonic()
        for n in range(cycles):
            hello = make_hello(f"w{n}", None, secrets.token_hex(16), True)
            spectator = await Client.connect(LOOPBACK, host.address[1], hello, SPECTATOR_NET)
            await spectator.close()
        elapsed = time.monotonic() - started
        lobby: dict[str, Any] = {}
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and lobby.get("watching") != 0:
            with contextlib.suppress(TimeoutError):
                event = await asyncio.wait_for(player.client.next_event(), 0.1)
                if isinstance(event, State):
                    lobby = event.payload["lobby"]
        assert lobby.get("watching") == 0  # the last change arrived
        snapshots = player.client.stats.states_delivered - states_before
        assert snapshots <= 2 + (elapsed + 1) / LOBBY_EVERY, (snapshots, elapsed)
        assert snapshots < cycles  # one for each coming and going, unbounded
        lines = [r.getMessage() for r in caplog.records if "watch" in r.getMessage()]
        assert len(lines) <= 2 * (1 + int(elapsed / 30)), lines
    finally:
        await player.client.close()
        await host.close()


async def test_a_player_cannot_leave_and_come_back_without_end(tmp_path: Path) -> None:
    """A seated player's every leaving and coming back is a line to
    everyone ("is away from seat 2", "came back to seat 2"), a snapshot to
    everyone and the seat's claim flushed to disk.  A player reconnecting
    with its token in a loop sent the others 567 lines a second.  A seat is
    taken back at most COMEBACKS_ALLOWED times a minute; the next is
    refused for now, and its player's client keeps trying."""
    table = make_table(tmp_path, players=2, seed=74)
    host = await start_host(table)
    player = await RawSeat.join(host, "player")
    token = secrets.token_hex(16)
    hello = make_hello("churner", None, token, False)
    churner = await Client.connect(LOOPBACK, host.address[1], hello, SPECTATOR_NET)
    seat = churner.accept_payload["seat"]
    try:
        for _ in range(COMEBACKS_ALLOWED):
            await churner.close()
            churner = await Client.connect(LOOPBACK, host.address[1], hello, SPECTATOR_NET)
            assert churner.accept_payload["seat"] == seat
        await churner.close()
        with pytest.raises(Refused) as refused:
            await Client.connect(LOOPBACK, host.address[1], hello, SPECTATOR_NET)
        assert refused.value.reason == TOO_MANY_COMEBACKS
        assert TOO_MANY_COMEBACKS in REFUSED_FOR_NOW
        assert table.seats[seat].token == token  # the seat is still the churner's
        # What the player heard of it: a line for each coming and going.
        await asyncio.sleep(0.3)
        with contextlib.suppress(TimeoutError):
            while True:
                player._take(await asyncio.wait_for(player.client.next_event(), 0.1))
        lines = [
            m for m in player.messages if m.get("t") == "chat" and "churner" in m.get("text", "")
        ]
        assert len(lines) <= 2 * (COMEBACKS_ALLOWED + 1), [m["text"] for m in lines]
    finally:
        await player.client.close()
        await host.close()
