"""The host: a :class:`Table` served over ``net`` to seats and spectators.

Each session is a seat (or a spectator).  The host checks every request's
shape (``wire``), checks that the session may make it (its seat, the
host's controls), and lets the table and the engine decide the rest.  Each
session's state channel carries a snapshot of exactly what its seat may see.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from net.config import NetConfig
from net.errors import SendQueueFull, SessionClosed
from net.events import Connected, Disconnected, Message
from net.events import Event as NetEvent
from net.server import Accept, Refuse, Server

from ..addresses import DEFAULT_GAME_PORT
from ..client.events import (
    ActionRejected,
    ChatReceived,
    Event,
    GameSaved,
    Lobby,
    LobbyChanged,
    Notice,
    TurnClock,
    ViewChanged,
)
from ..table import Table, TableError, clean_name
from ..tasks import cancel_and_wait
from .wire import (
    WireError,
    clock_to_wire,
    hello_bot,
    lobby_to_wire,
    parse_hello,
    parse_request,
    view_to_wire,
)

log = logging.getLogger("threeup.host")

DEFAULT_PORT = DEFAULT_GAME_PORT  # the port a table listens on unless told otherwise

# Snapshots are small and few: keep the retransmission back-off short so a
# view lost several times over still arrives within about a second.
HOST_NET = NetConfig(max_rto=0.4, ack_delay=0.01)


@dataclass
class _Peer:
    session_id: int
    seat: int | None  # None: a spectator
    name: str
    lobby: dict[str, Any] | None = None
    view: dict[str, Any] | None = None
    clock: tuple[int, float] | None = None  # (seat, time.monotonic() it runs out)
    dirty: bool = False


@dataclass
class HostStats:
    rejected_requests: int = 0
    malformed_requests: int = 0
    stale_moves: int = 0
    chat_refused: int = 0  # chat lines refused (too long, too many, spectators muted)
    messages_dropped: int = 0  # not sent: the peer's send queue was full
    refused_hellos: dict[str, int] = field(default_factory=dict)


class NetHost:
    """Serves ``table`` on a UDP port until :meth:`close`."""

    def __init__(self, table: Table, server: Server) -> None:
        self.table = table
        self.server = server
        self.peers: dict[int, _Peer] = {}
        self.stats = HostStats()
        self._pending: dict[tuple[str, int], tuple[int | None, str]] = {}
        self._task: asyncio.Task[None] | None = None
        self._flush_scheduled = False
        # The table hands one view object to every spectator (and one lobby
        # to every guest): convert each object once, not once per session.
        self._wire_cache: dict[int, tuple[object, dict[str, Any]]] = {}

    @classmethod
    async def start(
        cls,
        table: Table,
        bind: str = "0.0.0.0",
        port: int = DEFAULT_PORT,
        config: NetConfig | None = None,
    ) -> NetHost:
        holder: list[NetHost] = []

        def authorize(address: tuple[str, int], hello: Any) -> Accept | Refuse:
            return holder[0]._authorize(address, hello)

        server = await Server.start(bind, port, authorize, config or HOST_NET)
        host = cls(table, server)
        holder.append(host)
        host._task = asyncio.get_running_loop().create_task(host._serve())
        return host

    @property
    def address(self) -> tuple[str, int]:
        address: tuple[str, int] = self.server.address
        return address

    async def close(self, reason: str | None = None) -> None:
        """Stop serving.  With ``reason`` the table is closed for good: every
        session is told (a ``closed`` message, then CLOSE with the same
        reason) and clients do not reconnect."""
        if reason is not None:
            for peer in list(self.peers.values()):
                self._send(peer, {"t": "closed", "reason": reason})
        await cancel_and_wait(self._task)
        for key in list(self.peers):
            self.table.unsubscribe(("peer", key))
        await self.server.close(reason)

    # ------------------------------------------------------------ handshake
    def _refuse(self, why: str) -> Refuse:
        self.stats.refused_hellos[why] = self.stats.refused_hellos.get(why, 0) + 1
        return Refuse(why)

    def _authorize(self, address: tuple[str, int], hello: Any) -> Accept | Refuse:
        try:
            name, code, token, watch = parse_hello(hello)
        except WireError as err:
            return self._refuse(str(err))
        try:
            self.table.check_code(code)
        except TableError as err:
            return self._refuse(str(err))
        if watch:
            seat: int | None = None
        else:
            try:
                seat, token = self.table.seat_human(name, token)
            except TableError as err:
                return self._refuse(str(err))
        if seat is not None:
            self.table.set_network_bot(seat, hello_bot(hello))
        self._pending[address] = (seat, clean_name(name, "watcher"))
        return Accept({"seat": seat, "token": token, "table": self.table.config.table_name})

    # ------------------------------------------------------------ events
    async def _serve(self) -> None:
        while True:
            event = await self.server.next_event()
            try:
                self._handle(event)
            except Exception:  # one bad event must never stop the table
                log.exception("error handling %r", event)
            if self._flush_scheduled:
                # The request's whole table change is done: send the views now
                # rather than one loop turn later (the scheduled flush finds
                # nothing left to send).
                self._flush()

    def _handle(self, event: NetEvent) -> None:
        if isinstance(event, Connected):
            seat, name = self._pending.pop(event.address, (None, "watcher"))
            peer = _Peer(event.session_id, seat, name)
            self.peers[event.session_id] = peer
            self.table.subscribe(("peer", event.session_id), seat, self._listener(peer))
        elif isinstance(event, Message):
            sender = self.peers.get(event.session_id)
            if sender is not None:
                self._request(sender, event.payload)
        elif isinstance(event, Disconnected):
            gone = self.peers.pop(event.session_id, None)
            if gone is None:
                return
            self.table.unsubscribe(("peer", event.session_id))
            if gone.seat is not None and not any(p.seat == gone.seat for p in self.peers.values()):
                self.table.disconnect(gone.seat)

    def _request(self, peer: _Peer, payload: Any) -> None:
        try:
            kind, arg = parse_request(payload)
        except WireError:
            self.stats.malformed_requests += 1
            return
        table = self.table
        seat = peer.seat
        try:
            if kind == "move" and seat is not None:
                at = arg[0]
                state = table.state
                if state is not None and at != len(state.history):
                    # Made on an older view (a re-send after a reconnect, or
                    # a race with a take-over bot): applying it could apply
                    # it twice.  The client's new view shows what happened.
                    # (Nor is it a sign of the player: clients re-send alone.)
                    self.stats.stale_moves += 1
                    return
            if seat is not None:
                table.seat_active(seat)  # any request: the player is here
            if kind == "chat":
                try:
                    table.chat(seat, arg, ("session", peer.session_id), peer.name)
                except TableError as err:
                    self.stats.chat_refused += 1
                    self._send(peer, {"t": "rejected", "reason": str(err)})
                return
            if seat is None:
                raise TableError("spectators watch; they do not play")
            if kind == "setup":
                table.choose_face_up(seat, arg)
            elif kind == "move":
                table.submit(seat, arg[1])
            elif kind == "add_bot":
                table.add_bot(seat, arg)
            elif kind == "remove":
                table.remove_seat(seat, arg)
            elif kind == "options":
                table.set_options(seat, arg)
            elif kind == "start":
                table.start(seat)
            elif kind == "rematch":
                table.rematch(seat)
            elif kind == "save":
                raise TableError("the host keeps the game record")
        except TableError as err:
            self.stats.rejected_requests += 1
            self._send(peer, {"t": "rejected", "reason": str(err)})

    # ------------------------------------------------------------ outgoing
    def _listener(self, peer: _Peer) -> Callable[[Event], None]:
        def on_event(event: Event) -> None:
            if isinstance(event, LobbyChanged):
                peer.lobby = self._wire(event.lobby, lobby_to_wire)
                self._mark(peer)
            elif isinstance(event, ViewChanged):
                peer.view = self._wire(event.view, view_to_wire)
                self._mark(peer)
            elif isinstance(event, TurnClock):
                if event.seat is None or event.remaining is None:
                    peer.clock = None
                else:
                    peer.clock = (event.seat, time.monotonic() + event.remaining)
                self._mark(peer)
            elif isinstance(event, ChatReceived):
                line = {"t": "chat", "seat": event.seat, "name": event.name, "text": event.text}
                if event.spectator:
                    line["watcher"] = True
                self._send(peer, line)
            elif isinstance(event, Notice):
                self._send(peer, {"t": "notice", "text": event.text})
            elif isinstance(event, ActionRejected):
                self._send(peer, {"t": "rejected", "reason": event.reason})
            elif isinstance(event, GameSaved):
                self._send(peer, {"t": "saved", "path": event.path})

        return on_event

    def _wire(self, value: Any, convert: Callable[[Any], dict[str, Any]]) -> dict[str, Any]:
        kind = 0 if isinstance(value, Lobby) else 1
        cached = self._wire_cache.get(kind)
        if cached is not None and cached[0] is value:
            return cached[1]
        wire = convert(value)
        self._wire_cache[kind] = (value, wire)
        return wire

    def _send(self, peer: _Peer, message: dict[str, Any]) -> None:
        if peer.session_id in self.peers:
            # The session may end before its Disconnected event is handled:
            # a message for it then has nobody to go to.
            try:
                self.server.send(peer.session_id, message)
            except SessionClosed:
                pass
            except SendQueueFull:
                # A peer that does not read (a flooder ignoring its
                # refusals) loses messages; it can never hold the host up.
                self.stats.messages_dropped += 1

    def _mark(self, peer: _Peer) -> None:
        """Coalesce the lobby and view changes of one table change into one
        snapshot per session."""
        peer.dirty = True
        if not self._flush_scheduled:
            self._flush_scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_scheduled = False
        # Peers showing the same objects (every spectator; every guest's
        # lobby before the game) get one snapshot, serialised once.
        groups: dict[tuple[int, int, Any], list[int]] = {}
        payloads: dict[tuple[int, int, Any], dict[str, Any]] = {}
        now = time.monotonic()
        for peer in self.peers.values():
            if peer.dirty:
                peer.dirty = False
                clock = clock_to_wire(peer.clock, now)
                key = (id(peer.lobby), id(peer.view), None if clock is None else tuple(clock))
                if key not in groups:
                    groups[key] = []
                    payloads[key] = {"lobby": peer.lobby, "view": peer.view, "clock": clock}
                groups[key].append(peer.session_id)
        for key, session_ids in groups.items():
            self.server.set_state_many(session_ids, payloads[key])
