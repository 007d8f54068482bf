"""The host: a :class:`Table` served over ``net`` to seats and spectators.

Each session is a seat (or a spectator).  The host checks every request's
shape (``wire``), checks that the session may make it (its seat, the
host's controls), and lets the table and the engine decide the rest.  Each
session's state channel carries a snapshot of exactly what its seat may see.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from net.config import NetConfig
from net.errors import MessageTooLarge, NetError, SendQueueFull, SessionClosed
from net.events import Connected, Disconnected, Message, State
from net.events import Event as NetEvent
from net.server import Accept, Refuse, Server

from ..addresses import DEFAULT_BIND, DEFAULT_GAME_PORT, address_group, show_address
from ..client.events import (
    ActionRejected,
    ChatReceived,
    Event,
    GameSaved,
    GamesPlayed,
    Lobby,
    LobbyChanged,
    Notice,
    TurnClock,
    ViewChanged,
)
from ..guesses import Guesses
from ..table import Table, TableError, clean_name
from ..tasks import cancel_and_wait
from .wire import (
    CLOSE_REMOVED,
    CLOSE_TAKEN_OVER,
    TABLE_GUESSED,
    TOO_MANY_COMEBACKS,
    TOO_MANY_JOINS,
    TOO_MANY_WATCHERS,
    TOO_MANY_WATCHERS_HERE,
    TOO_MANY_WRONG_CODES,
    WireError,
    clock_to_wire,
    hello_bot,
    hello_claim,
    lobby_to_wire,
    parse_hello,
    parse_request,
    played_to_wire,
    view_to_wire,
)

log = logging.getLogger("threeup.host")

DEFAULT_PORT = DEFAULT_GAME_PORT  # the port a table listens on unless told otherwise

# Snapshots are small and few: keep the retransmission back-off short so a
# view lost several times over still arrives within about a second.
HOST_NET = NetConfig(max_rto=0.4, ack_delay=0.01)
# Room-code guessing: this many wrong codes from one sender (an address
# group) within the window, and that sender is refused until the window has
# passed; this many from all senders, and every hello but a seat token's is
# (a guesser with many networks: an IPv6 /48 holds 65,536 /64s).
WRONG_CODES_ALLOWED = 10
WRONG_CODES_AT_TABLE = 30
WRONG_CODE_WINDOW = 60.0
REFUSAL_LOG_EVERY = 30.0  # seconds between log lines for one address and reason
# Newcomers taking a seat, per sender (an address group) in the window.  In
# the lobby a seat whose player leaves opens again, and every sitting down
# and leaving is a line of the table's chat to everyone and a table file
# flushed to disk: one client joining and leaving in a loop sent every
# guest 545 lines a second, and fsync'd the table file as often.  A player
# coming back with a seat's token is never counted nor held up.
JOINS_ALLOWED = 12
JOIN_WINDOW = 60.0
# Sessions that take a seat back with its token, per seat in the same
# window.  Each coming and going is a line to everyone ("Ann is away from
# seat 2", "Ann came back to seat 2"), a snapshot to everyone, and the
# seat's claim flushed to disk: a player reconnecting in a loop sent the
# others 567 lines a second.  A client that really lost its link comes
# back after its idle time-out, a few times a minute at most.
COMEBACKS_ALLOWED = 12
# Spectators need no token: without a bound, one machine watching from 1,024
# ports fills the session layer (every further hello, a seated player's
# reconnect too, gets "server full"), and each of its sessions may hold a
# MiB of unacknowledged chat.  Seats always find room beside these.
MAX_WATCHERS = 256
MAX_WATCHERS_PER_IP = 16  # from one address other than this machine's own
WATCHER_QUEUE_BYTES = 64 * 1024  # a spectator's unacknowledged messages, at most

COUNTED_REASONS_SHOWN = 6  # the most frequent reasons a count line names
# A snapshot that changes only the lobby (someone began or stopped watching,
# say) goes to a session at most this often; a view or a clock goes at once.
# A client watching and leaving in a loop sent every other session 2,100
# snapshots a second (516 KiB/s each, every spectator included).
LOBBY_EVERY = 0.2

Address = tuple[str, int]


@dataclass
class _Peer:
    session_id: int
    seat: int | None  # None: a spectator
    name: str
    address: Address = ("", 0)
    token: str | None = None  # the seat's token when this session took it
    lobby: dict[str, Any] | None = None
    view: dict[str, Any] | None = None
    clock: tuple[int, float] | None = None  # (seat, time.monotonic() it runs out)
    dirty: bool = False
    urgent: bool = False  # the view or the clock changed: send at once
    flushed_at: float = -LOBBY_EVERY  # time.monotonic() of its last snapshot


@dataclass
class HostStats:
    rejected_requests: int = 0
    malformed_requests: int = 0
    stale_moves: int = 0
    chat_refused: int = 0  # chat lines refused (too long, too many, spectators muted)
    messages_dropped: int = 0  # not sent: the peer's send queue was full, or it takes less
    refused_hellos: dict[str, int] = field(default_factory=dict)


class NetHost:
    """Serves ``table`` on a UDP port until :meth:`close`."""

    def __init__(self, table: Table, server: Server) -> None:
        self.table = table
        self.server = server
        self.peers: dict[int, _Peer] = {}
        self.stats = HostStats()
        # Accepted, not yet connected: (seat, name, token, the seat's claim,
        # whether the player came back to their seat in a new session).
        self._pending: dict[Address, tuple[int | None, str, str, int | None, bool]] = {}
        # The claim of the last session of each seat that the host heard
        # from: an older one coming back by itself is refused (see
        # _claim_passed_on).
        self._live_claims: dict[int, int] = {}
        # Sessions not heard from yet (their ACCEPT may be lost): session id
        # -> (seat, claim).  A claim counts once its session is heard.
        self._unheard_claims: dict[int, tuple[int, int]] = {}
        # One live session per seat: the address of the session that holds
        # (or, accepted but not yet connected, is about to hold) each seat.
        self._seat_owner: dict[int, Address] = {}
        self._wrong_codes = Guesses(WRONG_CODE_WINDOW)
        self._joins = Guesses(JOIN_WINDOW)  # seats taken by newcomers, per sender
        self._comebacks = Guesses(JOIN_WINDOW)  # seats taken back, per seat token
        self._table_guessed_logged = False  # the host's log said the table is guessed at
        self._refusals_logged: dict[tuple[str, str], tuple[float, int]] = {}
        self._task: asyncio.Task[None] | None = None
        self._flush_scheduled = False
        self._held_flush: asyncio.TimerHandle | None = None  # lobby changes held back
        self._closed = False  # no snapshot goes out any more
        # The table hands one view object to every spectator (and one lobby
        # to every guest): convert each object once, not once per session.
        self._wire_cache: dict[int, tuple[object, dict[str, Any]]] = {}

    @classmethod
    async def start(
        cls,
        table: Table,
        bind: str = DEFAULT_BIND,
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

    @classmethod
    async def serve(cls, table: Table) -> NetHost:
        """Serve ``table`` where its hosting says (DEFAULT_PORT if none); a
        new table that cannot listen leaves no file (Table.abandon), so the
        same command given again once the port is free finds none."""
        hosting = table.hosting
        port = DEFAULT_PORT if hosting.port is None else hosting.port
        try:
            return await cls.start(table, hosting.bind, port)
        except BaseException:
            table.abandon()
            raise

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
        # Each session's going below changes the lobby for the others (one
        # fewer watching), whose snapshot, held back, went by a timer after
        # the server had closed: a SessionClosed traceback in the log.
        self._closed = True
        if self._held_flush is not None:
            self._held_flush.cancel()
        for key in list(self.peers):
            self.table.unsubscribe(("peer", key))
        await self.server.close(reason)

    def counts_words(self) -> str:
        """What this host has dropped, refused or not sent so far, counted, as
        one line for its log ("" if nothing): malformed and hostile traffic
        is dropped and counted, and the counts are for its operator to see."""
        parts = []
        dropped = self.server.stats.dropped
        if dropped:
            shown = dropped.most_common(COUNTED_REASONS_SHOWN)
            reasons = ", ".join(f"{reason} {n:,}" for reason, n in shown)
            more = ", …" if len(dropped) > len(shown) else ""
            parts.append(f"{sum(dropped.values()):,} dropped ({reasons}{more})")
        stats = self.stats
        for count, words in (
            (sum(stats.refused_hellos.values()), "hellos refused"),
            (stats.malformed_requests, "malformed requests"),
            (stats.rejected_requests, "requests refused by the rules"),
            (stats.stale_moves, "stale moves"),
            (stats.chat_refused, "chat lines refused"),
            (stats.messages_dropped, "messages not sent (a send queue full, or too large)"),
        ):
            if count:
                parts.append(f"{count:,} {words}")
        return "; ".join(parts)

    # ------------------------------------------------------------ handshake
    def _refuse(self, address: Address, why: str, kind: str | None = None) -> Refuse:
        """Refuse with ``why``; counted and logged by ``kind``, the reason
        without what the hello sent in it (its ``v``): a hello may choose
        that, and a new key per hello would grow the counts and the log
        without end."""
        kind = why if kind is None else kind
        self.stats.refused_hellos[kind] = self.stats.refused_hellos.get(kind, 0) + 1
        self._log_refusal(address, why, kind)
        return Refuse(why)

    def _log_refusal(self, address: Address, why: str, kind: str) -> None:
        """One line per address and kind of reason every REFUSAL_LOG_EVERY
        seconds (a flood of bad hellos must not flood the log, nor one sent
        from each address of an IPv6 network), never a code or token."""
        more = self._spaced(address, kind)
        if more is not None:
            log.info("refused a join from %s: %s%s", show_address(*address), why, more)

    def _spaced(self, address: Address, kind: str) -> str | None:
        """Whether a log line of ``kind`` about ``address`` may be written
        now: None if one was, for its sender, in the last REFUSAL_LOG_EVERY
        seconds (it is counted), else what to add to the line ("" or how
        many were left out since)."""
        now = time.monotonic()
        key = (address_group(address[0]), kind)
        last, quiet = self._refusals_logged.get(key, (-REFUSAL_LOG_EVERY, 0))
        if now - last < REFUSAL_LOG_EVERY:
            self._refusals_logged[key] = (last, quiet + 1)
            return None
        if len(self._refusals_logged) > 4096:
            self._refusals_logged.clear()
        self._refusals_logged[key] = (now, 0)
        return f" (and {quiet} more since the last line)" if quiet else ""

    def _guessing_refusal(self, guesser: str, token: str) -> str | None:
        """Why a hello from ``guesser`` may not try the room code now, or None."""
        if self._wrong_codes.of(guesser) >= WRONG_CODES_ALLOWED:
            return TOO_MANY_WRONG_CODES
        if self._wrong_codes.at_table() < WRONG_CODES_AT_TABLE:
            self._table_guessed_logged = False
            return None
        if not self._table_guessed_logged:
            self._table_guessed_logged = True
            log.warning(
                "%d wrong room codes in the last %g s from many senders: until they slow "
                "down, only players coming back to their seats may join",
                WRONG_CODES_AT_TABLE,
                WRONG_CODE_WINDOW,
            )
        # A returning player's token asks no guess: the seat is theirs.
        return None if self.table.seat_of_token(token) is not None else TABLE_GUESSED

    def _authorize(self, address: Address, hello: Any) -> Accept | Refuse:
        """Admit a hello, in this order: its shape (``parse_hello``: game,
        version, name, code, token, watch), the room code (with a lock-out
        for guessing), then a seat: the seat the token unlocks, taken over
        from any older session; else an open seat; else a refusal."""
        try:
            name, code, token, watch = parse_hello(hello)
        except WireError as err:
            return self._refuse(address, str(err), err.kind)
        guesser = address_group(address[0])
        guessing = self._guessing_refusal(guesser, token)
        if guessing is not None:
            return self._refuse(address, guessing)
        try:
            self.table.check_code(code)
        except TableError as err:
            self._wrong_codes.wrong(guesser)
            return self._refuse(address, str(err))
        if watch:
            crowded = self._watchers_crowded(address)
            if crowded is not None:
                return self._refuse(address, crowded)
            seat: int | None = None
            shown = clean_name(name, "watcher")
            returning = False
            # Spaced out per sender: one watching and leaving in a loop wrote
            # two lines a go, 2,000 a second.
            more = self._spaced(address, "spectator came")
            if more is not None:
                log.info("%s watches from %s%s", shown, show_address(*address), more)
        else:
            back = self.table.seat_of_token(token)
            if back is not None and self._claim_passed_on(back, hello):
                return self._refuse(address, CLOSE_TAKEN_OVER)
            if back is None and self._joins.of(guesser) >= JOINS_ALLOWED:
                return self._refuse(address, TOO_MANY_JOINS)
            if back is not None and self._comebacks.of(token) >= COMEBACKS_ALLOWED:
                return self._refuse(address, TOO_MANY_COMEBACKS)
            # A hello that names no claim is a new session (the player ran
            # `threeup join` again, or took their seat back with s), not a
            # client reconnecting by itself: the player is here.
            returning = back is not None and hello_claim(hello) is None
            try:
                seat, token = self.table.seat_human(name, token, acting=returning)
            except TableError as err:
                return self._refuse(address, str(err))
            if back is None:
                self._joins.note(guesser)
            else:
                self._comebacks.note(token)
                self._take_over(seat, address)
            self._seat_owner[seat] = address
            self.table.set_network_bot(seat, hello_bot(hello))
            shown = self.table.seats[seat].name
        claim = None if seat is None else self.table.seats[seat].claims
        self._pending[address] = (seat, shown, token, claim, returning)
        return Accept(
            {
                "seat": seat,
                "token": token,
                "table": self.table.config.table_name,
                "table_id": self.table.table_id,
                "claim": claim,
            },
            # A spectator is sent chat and lobby lines (its views go by the
            # state channel, which holds one): a small queue, so that 256
            # that never acknowledge hold 16 MiB, not 256.
            max_send_queue_bytes=WATCHER_QUEUE_BYTES if seat is None else None,
        )

    def _claim_passed_on(self, seat: int, hello: Any) -> bool:
        """Whether ``hello`` comes back by itself (it names the claim it held)
        to a seat that a newer session has taken and connected to since: the
        player went on in another terminal while this one was cut off (the
        host crashed, or the link), and its reconnect must not take the seat
        back from them.  A newer claim whose session the host never heard
        from does not count: it may be this very client's own attempt whose
        every ACCEPT was lost."""
        claim = hello_claim(hello)
        if claim is None:
            return False
        self._count_heard_claims(seat)
        return claim < self._live_claims.get(seat, 0)

    def _count_heard_claims(self, seat: int) -> None:
        """Count the claims of ``seat``'s live sessions that have been heard
        from since they were accepted."""
        for session_id, (held, _claim) in list(self._unheard_claims.items()):
            if held == seat:
                with contextlib.suppress(NetError):  # ended: its Disconnected says
                    if self.server.session_heard(session_id):
                        self._claim_heard(session_id)

    def _settle_claim(self, ended: Disconnected) -> None:
        """An ended session's claim counts if it was heard from; one that
        never was (its client never got the ACCEPT) never counts."""
        if ended.session_id in self._unheard_claims:
            if ended.heard:
                self._claim_heard(ended.session_id)
            else:
                del self._unheard_claims[ended.session_id]

    def _claim_heard(self, session_id: int) -> None:
        seat, claim = self._unheard_claims.pop(session_id)
        self._live_claims[seat] = max(self._live_claims.get(seat, 0), claim)

    def _watchers_crowded(self, address: Address) -> str | None:
        """Why one more spectator from ``address`` is refused, or None.  A
        session from this very address is not counted: the new one replaces
        it (the same client starting again)."""
        watching = [p.address for p in self.peers.values() if p.seat is None]
        watching += [a for a, (seat, *_) in self._pending.items() if seat is None]
        others = [a for a in watching if a != address]
        if len(others) >= MAX_WATCHERS:
            return TOO_MANY_WATCHERS
        group = address_group(address[0])
        if group == "loopback":
            # Everyone logged in to this machine shares the address, and so
            # does every guest of the SSH door: the bound in all holds.
            return None
        if sum(1 for a in others if address_group(a[0]) == group) >= MAX_WATCHERS_PER_IP:
            return TOO_MANY_WATCHERS_HERE
        return None

    def _take_over(self, seat: int, address: Address) -> None:
        """The seat's token came in a new session: that session gets the
        seat, and every older one is closed with a reason its player sees."""
        old = [peer for peer in self.peers.values() if peer.seat == seat]
        for peer in old:
            self._detach(peer, CLOSE_TAKEN_OVER)
        was = [show_address(*p.address) for p in old]
        pending = self._seat_owner.get(seat)
        if pending is not None and pending != address and not old:
            was.append(f"{show_address(*pending)} (still connecting)")
        if was:
            log.info(
                "seat %d (%s) taken over by a new session from %s; closed the session from %s",
                seat + 1, self.table.seats[seat].name, show_address(*address), ", ".join(was),
            )  # fmt: skip

    def _detach(self, peer: _Peer, reason: str) -> None:
        """Stop serving ``peer`` at once (its requests are ignored from now
        on) and close its session with ``reason``."""
        self.peers.pop(peer.session_id, None)
        self.table.unsubscribe(("peer", peer.session_id))
        with contextlib.suppress(NetError):
            self.server.close_session(peer.session_id, reason)

    # ------------------------------------------------------------ events
    async def _serve(self) -> None:
        while True:
            event = await self.server.next_event()
            try:
                self._handle(event)
                if self._flush_scheduled:
                    # The request's whole table change is done: send the views
                    # now rather than one loop turn later (the scheduled flush
                    # finds nothing left to send).
                    self._flush()
            except Exception:  # one bad event must never stop the table
                log.exception("error handling %r", event)

    def _handle(self, event: NetEvent) -> None:
        if isinstance(event, Connected):
            pending = self._pending.pop(event.address, (None, "watcher", "", None, False))
            seat, name, token, claim, returning = pending
            if seat is not None and self._seat_owner.get(seat) != event.address:
                # A newer session took the seat before this one was connected.
                with contextlib.suppress(NetError):
                    self.server.close_session(event.session_id, CLOSE_TAKEN_OVER)
                return
            peer = _Peer(event.session_id, seat, name, event.address, token)
            self.peers[event.session_id] = peer
            if seat is not None and claim is not None:
                self._unheard_claims[event.session_id] = (seat, claim)
            self.table.subscribe(("peer", event.session_id), seat, self._listener(peer))
            if returning and seat is not None:
                # Marked away, they were still left to the bot until a first
                # key: their turns played for them, and (a dedicated host's
                # next game waiting for no one away) a game begun without them.
                self.table.seat_active(seat)
        elif isinstance(event, Message):
            sender = self.peers.get(event.session_id)
            if sender is not None:
                self._request(sender, event.payload)
        elif isinstance(event, State):
            # The state channel is the host's (protocol.md): a client's
            # snapshot is nothing it may ask, and was dropped uncounted.
            self.stats.malformed_requests += 1
        elif isinstance(event, Disconnected):
            self._settle_claim(event)
            gone = self.peers.pop(event.session_id, None)
            if gone is None:
                return
            self.table.unsubscribe(("peer", event.session_id))
            seat = gone.seat
            if seat is None:
                more = self._spaced(gone.address, "spectator went")
                if more is not None:
                    log.info("%s stopped watching%s", gone.name, more)
            elif self._seat_owner.get(seat) == gone.address and not any(
                p.seat == seat for p in self.peers.values()
            ):
                del self._seat_owner[seat]
                self.table.disconnect(seat)

    def _request(self, peer: _Peer, payload: Any) -> None:
        try:
            kind, arg = parse_request(payload)
        except WireError:
            self.stats.malformed_requests += 1
            return
        table = self.table
        seat = peer.seat
        if seat is not None and not self._still_seated(peer):
            return  # removed from the table: the session is closing
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
            if kind == "here":
                return  # that was all it asked: a seat marked away is theirs again
            if kind == "chat":
                try:
                    table.chat(seat, arg, self._chat_speaker(peer), peer.name)
                except TableError as err:
                    self.stats.chat_refused += 1
                    self._send(peer, {"t": "rejected", "reason": str(err), "re": kind})
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
            # "re": which request this answers (a chat line refused brought
            # the set-up's "Lay face up" back, for a choice still in flight).
            self._send(peer, {"t": "rejected", "reason": str(err), "re": kind})

    @staticmethod
    def _chat_speaker(peer: _Peer) -> tuple[str, str]:
        """Whose chat allowance a spectator's line spends: its sender's
        (``address_group``), not its session's.  A spectator has no identity
        (its token means nothing): were the allowance its session's, one
        that left and watched again would have a fresh one at once, and a
        loop of them relayed 576 lines in 10 s to every player.  (A seat's
        allowance is its seat's; the table keys it so.)"""
        return ("sender", address_group(peer.address[0]))

    def _still_seated(self, peer: _Peer) -> bool:
        """The peer's seat is still the one its token took (the host may
        have removed the player in the lobby, and seated another there)."""
        assert peer.seat is not None
        return self.table.seat_of_token(peer.token) == peer.seat

    # ------------------------------------------------------------ outgoing
    def _listener(self, peer: _Peer) -> Callable[[Event], None]:
        def on_event(event: Event) -> None:
            if isinstance(event, LobbyChanged):
                if peer.seat is not None and not self._still_seated(peer):
                    if self.peers.get(peer.session_id) is peer:
                        log.info("%s was removed from seat %d", peer.name, peer.seat + 1)
                        asyncio.get_running_loop().call_soon(self._detach, peer, CLOSE_REMOVED)
                    return
                lobby = self._wire(event.lobby, lobby_to_wire)
                unchanged = lobby == peer.lobby
                peer.lobby = lobby  # the shared object even when equal: _flush groups by it
                if not unchanged:  # a table change this session is not shown: no snapshot
                    self._mark(peer)
            elif isinstance(event, ViewChanged):
                peer.view = self._wire(event.view, view_to_wire)
                self._mark(peer, urgent=True)
            elif isinstance(event, TurnClock):
                if event.seat is None or event.remaining is None:
                    peer.clock = None
                else:
                    peer.clock = (event.seat, time.monotonic() + event.remaining)
                self._mark(peer, urgent=True)
            elif isinstance(event, ChatReceived):
                line = {"t": "chat", "seat": event.seat, "name": event.name, "text": event.text}
                if event.spectator:
                    line["watcher"] = True
                if event.number:
                    line["n"] = event.number
                if event.old:
                    line["old"] = True
                self._send(peer, line)
            elif isinstance(event, Notice):
                self._send(peer, {"t": "notice", "text": event.text})
            elif isinstance(event, ActionRejected):
                refused = {"t": "rejected", "reason": event.reason}
                if event.request is not None:
                    refused["re"] = event.request
                self._send(peer, refused)
            elif isinstance(event, GameSaved):
                self._send(peer, {"t": "saved", "path": event.path})
            elif isinstance(event, GamesPlayed):
                self._send(peer, played_to_wire(event))

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
            except (SendQueueFull, MessageTooLarge):
                # A peer that does not read (a flooder ignoring its
                # refusals), or that asked in its handshake for messages
                # smaller than this one, loses messages; it can never hold
                # the host up.
                self.stats.messages_dropped += 1

    def _mark(self, peer: _Peer, urgent: bool = False) -> None:
        """Coalesce the lobby and view changes of one table change into one
        snapshot per session."""
        peer.dirty = True
        peer.urgent = peer.urgent or urgent
        if not self._flush_scheduled:
            self._flush_scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_scheduled = False
        if self._closed:
            return
        # Peers showing the same objects (every spectator; every guest's
        # lobby before the game) get one snapshot, serialised once.
        groups: dict[tuple[int, int, Any], list[int]] = {}
        payloads: dict[tuple[int, int, Any], dict[str, Any]] = {}
        now = time.monotonic()
        later = None  # the soonest a held-back lobby change may go
        for peer in self.peers.values():
            if peer.dirty and not peer.urgent and now - peer.flushed_at < LOBBY_EVERY:
                due = peer.flushed_at + LOBBY_EVERY - now
                later = due if later is None else min(later, due)
                continue
            if peer.dirty:
                peer.dirty = peer.urgent = False
                peer.flushed_at = now
                clock = clock_to_wire(peer.clock, now)
                key = (id(peer.lobby), id(peer.view), None if clock is None else tuple(clock))
                if key not in groups:
                    groups[key] = []
                    payloads[key] = {"lobby": peer.lobby, "view": peer.view, "clock": clock}
                groups[key].append(peer.session_id)
        for key, session_ids in groups.items():
            self.server.set_state_many(session_ids, payloads[key])
        if later is not None and self._held_flush is None:
            self._held_flush = asyncio.get_running_loop().call_later(later, self._flush_held)

    def _flush_held(self) -> None:
        self._held_flush = None
        self._flush()
