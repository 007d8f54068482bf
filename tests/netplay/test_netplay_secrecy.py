"""Secrecy on the wire: every datagram the host sends during whole games is
decoded (net's codec, state fragments and message frames reassembled), and
no seat or spectator is ever sent a card it may not see at that moment.

Two independent checks per delivered view:

* it is exactly ``view_to_wire(seat_view(state, seat))`` for a state the
  game passed through (recorded by an audit listener on the table);
* every card-bearing field equals the matching *public or own* part of the
  raw game state at that moment (own hand, face-up cards, pile, cleared,
  the known lists, the log of played/flipped cards): never a face-down
  card, another seat's unknown hand cards, the draw pile, or another seat's
  face-up choice before everyone has chosen (D2).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack
from netplay_support import (
    ClientLog,
    Tap,
    make_client,
    make_table,
    play_bot,
    run_table,
    start_host,
    stop_runner,
    table_record,
    verify_record,
)

from net import NetConfig
from threeup_tui.client.events import Event, ViewChanged
from threeup_tui.netplay.wire import WIRE_LOG, view_to_wire
from threeup_tui.rules import Phase, seat_view
from threeup_tui.rules.cards import N_KINDS
from threeup_tui.rules.state import M_FLIP, M_PLAY
from threeup_tui.table import Table

VIEW_KEYS = {
    "seat", "phase", "options", "names", "seats", "hand", "pile", "draw", "cleared", "to_act",
    "extra", "draw_open", "turn", "legal", "pickup_reason", "draw_reason", "winner", "places",
    "stalemate", "moves", "log",
}  # fmt: skip


def kinds_of(counts: list[int]) -> list[int]:
    return sorted(k for k in range(N_KINDS) for _ in range(counts[k]))


@dataclass(frozen=True)
class Snapshot:
    """The raw (secret) game state at one moment."""

    phase: Phase
    hand: list[list[int]]
    up: list[list[int]]
    known: list[list[int]]
    down: list[list[int]]
    pile: list[int]
    cleared: list[int]
    draw: list[int]
    history: list[tuple[Any, ...]]


class Audit:
    """Subscribed to the table before anyone joins: sees every state."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.snapshots: dict[tuple[Any, ...], Snapshot] = {}
        self.wire_views: dict[int | None, set[bytes]] = {}
        table.subscribe("secrecy-audit", None, self._on_event)

    @staticmethod
    def key(phase: str, moves: int, ready: tuple[bool, ...]) -> tuple[Any, ...]:
        return (phase, moves, ready) if phase == "setup" else (phase, moves)

    def _on_event(self, event: Event) -> None:
        if not isinstance(event, ViewChanged):
            return
        state = self.table.state
        assert state is not None
        ready = tuple(choice is not None for choice in state.setup)
        phase = {Phase.SETUP: "setup", Phase.PLAY: "play", Phase.OVER: "over"}[state.phase]
        self.snapshots[self.key(phase, len(state.history), ready)] = Snapshot(
            phase=state.phase,
            hand=[list(h) for h in state.hand],
            up=[list(u) for u in state.up],
            known=[list(k) for k in state.known],
            down=[list(d) for d in state.down],
            pile=list(state.pile),
            cleared=list(state.cleared),
            draw=list(state.deck[state.draw_pos :]),
            history=list(state.history),
        )
        for seat in [*range(state.n), None]:
            wire = view_to_wire(seat_view(state, seat))
            self.wire_views.setdefault(seat, set()).add(msgpack.packb(wire))

    def snapshot_for(self, wire: dict[str, Any]) -> Snapshot:
        ready = tuple(bool(s[4]) for s in wire["seats"])
        return self.snapshots[self.key(wire["phase"], wire["moves"], ready)]


def check_view(wire: dict[str, Any], seat: int | None, snap: Snapshot) -> None:
    """Every card in ``wire`` is one ``seat`` may see in ``snap``."""
    assert set(wire) == VIEW_KEYS, sorted(wire)
    assert wire["seat"] == seat
    n = len(snap.hand)
    in_setup = snap.phase == Phase.SETUP
    own = kinds_of(snap.hand[seat]) if seat is not None else []
    assert sorted(wire["hand"]) == own, "a hand that is not the viewer's own"
    assert len(wire["seats"]) == n
    for other, (hand_size, face_up, face_down, known, ready, out) in enumerate(wire["seats"]):
        assert type(hand_size) is int and type(ready) is bool and type(out) is bool
        if in_setup and other != seat:
            assert face_up == [], "another seat's face-up choice before everyone chose (D2)"
        else:
            assert sorted(face_up) == kinds_of(snap.up[other])
        assert face_down == [int(card >= 0) for card in snap.down[other]], "face-down identity"
        assert sorted(known) == kinds_of(snap.known[other])
        # Known cards are really in that hand: public knowledge, not a leak.
        held = Counter(kinds_of(snap.hand[other]))
        assert not Counter(known) - held
    assert wire["pile"] == snap.pile
    assert wire["cleared"] == snap.cleared
    assert type(wire["draw"]) is int and wire["draw"] == len(snap.draw)
    log = wire["log"]
    assert len(log) <= WIRE_LOG
    history = snap.history[len(snap.history) - len(log) :] if log else []
    for entry, (mover, mtype, arg, _effects, detail) in zip(log, history, strict=True):
        if mtype == M_PLAY:
            public = list(arg)
        elif mtype == M_FLIP:
            public = [detail & 0xFF]  # the card turned over, seen by everyone
        else:
            public = []
        assert entry[0] == mover and entry[2] == public, (entry, mover, mtype, arg)
    if seat is None or wire["to_act"] != seat:
        assert wire["legal"] == [] and wire["pickup_reason"] is None
        assert wire["draw_reason"] is None
    for text in (wire["pickup_reason"], wire["draw_reason"], *wire["names"]):
        assert text is None or type(text) is str


async def _game_with_tap(
    tmp_path: Path, players: int, bots: int, spectators: int, seed: int
) -> None:
    code = "open sesame"
    table = make_table(tmp_path, players, seed, bots, code=code)
    audit = Audit(table)
    tap = Tap()
    host = await start_host(table, NetConfig(), tap=tap)
    runner = await run_table(table)
    clients = []
    logs = []
    try:
        for i in range(players - bots + spectators):
            watch = i >= players - bots
            name = f"watcher{i}" if watch else f"player{i}"
            clients.append(
                make_client(host.address, name, tmp_path / f"tok{i}.json", watch=watch, code=code)
            )
            logs.append(ClientLog(name))
        await asyncio.wait_for(
            asyncio.gather(
                *(
                    play_bot(c, log, seed=seed + i)
                    for i, (c, log) in enumerate(zip(clients, logs, strict=True))
                )
            ),
            timeout=30,
        )
        verify_record(table_record(table))
        tokens = {i: seat.token for i, seat in enumerate(table.seats) if seat.token}
    finally:
        for client in clients:
            await client.close()
        await stop_runner(runner)
        await host.close()

    sessions = tap.sessions()
    by_seat = {cap.seat: cap for cap in sessions.values() if cap.accepted is not None}
    assert len(sessions) == len(clients)
    assert sorted(s for s in by_seat if s is not None) == sorted(tokens)
    checked = 0
    for cap in sessions.values():
        assert cap.accepted is not None, "a session without an ACCEPT"
        seat = cap.seat
        assert cap.states, "a session that never got a snapshot"
        assert cap.incomplete_states == 0
        for payload in cap.states.values():
            assert set(payload) == {"lobby", "view", "clock"}
            assert payload["clock"] is None  # no turn timer at this table
            lobby = payload["lobby"]
            assert lobby["code"] is None, "the room code went to someone not the host"
            assert lobby["code_required"] is True
            wire = payload["view"]
            if wire is None:
                continue
            assert msgpack.packb(wire) in audit.wire_views[seat], "a view the game never had"
            check_view(wire, seat, audit.snapshot_for(wire))
            checked += 1
        for message in cap.messages:
            assert isinstance(message, dict) and message.get("t") in {"chat", "rejected", "saved"}
    assert checked >= 2 * len(table_record(table).moves) // players
    # A seat's token only ever travels to that seat's own session.
    address_of = {cap.seat: cap.address for cap in sessions.values()}
    for seat, token in tokens.items():
        for address, data in tap.sent:
            if token.encode() in data:
                assert address == address_of[seat], f"seat {seat}'s token sent to {address}"


async def test_no_datagram_leaks_a_hidden_card_four_seats_two_spectators(tmp_path: Path) -> None:
    await _game_with_tap(tmp_path, players=4, bots=1, spectators=2, seed=404)


async def test_no_datagram_leaks_a_hidden_card_two_seats_one_spectator(tmp_path: Path) -> None:
    await _game_with_tap(tmp_path, players=2, bots=0, spectators=1, seed=202)


async def test_no_datagram_leaks_a_hidden_card_six_seats(tmp_path: Path) -> None:
    await _game_with_tap(tmp_path, players=6, bots=3, spectators=1, seed=606)
