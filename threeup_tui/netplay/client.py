"""A :class:`TableClient` for a table across the network.

It keeps the session alive by itself: when the session ends without a word
(the host crashed, the network dropped) it reconnects with its seat token
and the host gives the seat back.  When the host ends the session itself
(a CLOSE: the table closed, or the seat was taken over from another
terminal) the client says why and stops: reconnecting then would only take
the seat back from the player's newer terminal, and back again.  The one
exception is a host stopped on purpose with its table kept (CLOSE_RESUMABLE:
in the middle of a game, between games, or in the lobby): ``--resume``
brings it back, so the client waits for it as after a crash.  Moves
carry the move count they were made at, so a re-sent move is applied at
most once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import Any

from net.client import Client
from net.config import NetConfig
from net.errors import (
    ConnectTimeout,
    NetError,
    PortClosed,
    Refused,
    SendQueueFull,
    SessionClosed,
)
from net.events import DisconnectCause, Disconnected, Message, State

from ..addresses import AddressError as AddressError
from ..addresses import parse_address as parse_address
from ..addresses import show_address
from ..client.base import TableClient
from ..client.events import (
    ActionRejected,
    ChatReceived,
    ConnectionChanged,
    GameNotSaved,
    GameSaved,
    Lobby,
    LobbyChanged,
    Notice,
    TurnClock,
    ViewChanged,
    Welcome,
)
from ..names import seated_as
from ..rules import Move, Options, View
from ..rules.state import MAX_PLAYERS
from ..table import TABLE_FULL, WRONG_CODE, is_table_full
from ..tasks import cancel_and_wait
from .tokens import KeptSeat, TokenStore, name_key, new_token
from .wire import (
    CLOSE_RESUMABLE,
    REFUSED_FOR_NOW,
    REQUESTS,
    ViewDecoder,
    WireError,
    chat_numbers,
    clock_from_wire,
    is_claim,
    lobby_from_wire,
    make_hello,
    played_from_wire,
    request,
)

log = logging.getLogger("threeup.client")

# A card game sends little, so retransmissions may back off slowly: a lost
# move is re-sent within 0.4 s however many times it was lost before.
CLIENT_NET = NetConfig(idle_timeout=5.0, connect_timeout=8.0, max_rto=0.4, ack_delay=0.01)
RECONNECT_MAX_DELAY = 2.0
# A move or set-up that could not go (the send queue was full, or the session
# was being replaced) is tried again this often until it goes: no event comes
# when acks make room.
RESEND_EVERY = 0.05
BUSY = "the connection is busy"  # the send queue is full
NOT_CONNECTED = "not connected"  # between sessions: the link lost, or the host stopped


# A sit-down refused as "the table is full" after the spectator saw a seat
# open: it went to someone else while the request was on its way.  A table
# begins its game only with every seat taken, and takes no newcomers after:
# nothing here promises a seat later.
SEAT_TAKEN_FIRST = "the last open seat was taken first"

# The table's "wrong room code" to a player who gave none, and to one coming
# back by itself with the code it was let in with.
NO_CODE_GIVEN = "the table asks for a room code, and none was given"
# Short enough to be said whole at 40 columns, in the status line of the
# result box ("✖ the room code has changed: join" / "again with the new one").
CODE_CHANGED = "the room code has changed: join again with the new one"

HOST_GONE = "the host is gone (nothing listens at its port)"
HOST_RESTARTED = "the host no longer knows this connection (it restarted)"


class TableRefused(ConnectionRefusedError):
    """The table refused the hello, saying ``reason`` (its REFUSE's words)."""

    def __init__(self, words: str, reason: str) -> None:
        super().__init__(words)
        self.reason = reason


class RefusedForNow(TableRefused):
    """The table refused for the moment (REFUSED_FOR_NOW: no room, or this
    address must wait): a client coming back to its seat keeps trying."""


class NetClient(TableClient):
    def __init__(
        self,
        host: str,
        port: int,
        name: str,
        code: str | None = None,
        watch: bool = False,
        tokens: TokenStore | None = None,
        config: NetConfig = CLIENT_NET,
        token: str | None = None,
        bot: str | None = None,
    ) -> None:
        """``token``: the seat token to use, kept by the caller (the SSH door
        passes its player's); without it the token comes from ``tokens``
        (the user's state directory by default) and is kept there."""
        super().__init__()
        self.host = host
        self.port = port
        self.name = name
        self.code = code
        self.watch = watch
        self.config = config
        # The seat tokens kept per table and name: a spectator has one too,
        # for the seat it may sit down on (sit_down), as a joining player.
        self._tokens = None if token is not None else (tokens or TokenStore())
        self._seat_token = token  # the caller's (the SSH door's), for this one identity
        self._token = token  # the token the hellos send
        self._sit_task: asyncio.Task[None] | None = None  # sit_down's attempt, while it runs
        # The names this account sat under at this very table (its table id,
        # not only its address), with the seats their tokens hold: read when
        # a spectator's session is accepted, and again when a seat goes away.
        self._kept_seats: tuple[KeptSeat, ...] = ()
        self._absent: frozenset[int] = frozenset()  # the people's seats not connected, last lobby
        self.table_id: str | None = None  # from the host's ACCEPT
        self._claim: int | None = None  # the seat's claim number this session holds
        self.bot = bot  # a network bot's level: the lobby shows it as a bot
        self.seat: int | None = None
        self.view: View | None = None
        self._views = ViewDecoder()
        self._lobby_raw: Any = None
        self._lobby: Lobby | None = None  # the newest lobby, as decoded
        self._client: Client | None = None
        self._task: asyncio.Task[None] | None = None
        self._last_move: dict[str, Any] | None = None
        # This game's face-up choice, until its set-up is over; after a
        # reconnect it is sent again if the table has not got it.
        self._last_setup: dict[str, Any] | None = None
        self._setup_hand: tuple[str, ...] = ()  # the hand that choice was made from
        self._setup_unsure = False
        self._waiting: dict[str, Any] | None = None  # a move or set-up not sent yet
        self._resend_task: asyncio.Task[None] | None = None
        self._closing = False
        self._clock_raw: Any = None
        self._chat_shown = 0  # the number of the newest chat line passed on
        self.reconnects = 0
        # Messages and snapshots from the host dropped as malformed (a
        # hostile host's, or a newer one's shapes): each is logged too.
        self.malformed = 0
        self.closed_by_host: str | None = None  # the host closed the table, saying why
        self._ended: str | None = None  # why this session is closed for good
        # The host stopped to be resumed, until connected again: nothing goes
        # until someone resumes it, which may be hours, not "a moment".
        self._host_stopped = False

    @property
    def address(self) -> str:
        """The key of this table's seat tokens (TokenStore): kept as it was."""
        return f"{self.host}:{self.port}"

    @property
    def address_words(self) -> str:
        """The address in words: an IPv6 one in brackets, "[::1]:47823",
        not "::1:47823", where the port cannot be told from the address."""
        return show_address(self.host, self.port)

    @property
    def hello(self) -> dict[str, Any]:
        if self._token is None:
            # A spectator's token means nothing (protocol.md): a fresh one,
            # never a seat's, which a watching hello would send for nothing.
            self._token = new_token() if self.watch else self._token_to_sit(self.name)
        hello = make_hello(self.name, self.code, self._token, self.watch)
        if self.bot is not None:
            hello["bot"] = self.bot  # the lobby shows this seat as a bot of that level
        if self._claim is not None:
            # Coming back by itself: if another terminal took the seat since,
            # the host refuses this one rather than take the seat back.
            hello["claim"] = self._claim
        return hello

    def _token_to_sit(self, name: str) -> str:
        """The token a hello asking for a seat under ``name`` sends: the
        caller's, else the one kept for ``name`` at this table, else a new one."""
        if self._seat_token is not None:
            return self._seat_token
        kept = self._tokens.token_for(self.address, name) if self._tokens else None
        return kept or new_token()

    def _seat_under_another_name(self, reason: str, name: str) -> str:
        """Words for a full table's refusal when this account sat at this
        table under another name: a seat is kept per name, so a player who
        comes back under a new one (or a typo) is a newcomer, and should know
        why.  Nothing for other refusals: they are not about the name."""
        # A full table's is the one refusal where the name matters, as a seat
        # is kept per table and name; after any other ("wrong room code") a
        # word about names would send the player after the wrong fix.
        if self._tokens is None or not is_table_full(reason):
            return ""
        names = self._tokens.names_at(self.address)
        if not names or name_key(name) in map(name_key, names):
            return ""
        return f" (you sat at this table as {names[-1]}: join as {names[-1]} for that seat)"

    def table_identity(self) -> str | None:
        return self.table_id

    @property
    def rtt(self) -> float | None:
        """The session's smoothed round trip (None until measured)."""
        client = self._client
        return None if client is None else client.rtt

    async def start(self) -> None:
        """Connect; raises ConnectionError with the host's reason on refusal."""
        await self._connect()
        self._emit(ConnectionChanged("connected", self.address_words))
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _connect(self) -> None:
        hello = self.hello
        client = await self._handshake(hello)
        if self._another_table(client):
            # The host came back as another table (not a resume): this
            # client's seat is gone with the old one.
            await client.close("bye")
            raise ConnectionRefusedError(f"another table now runs at {self.address_words}")
        self._adopt(client, hello)

    async def _handshake(self, hello: dict[str, Any]) -> Client:
        """A session opened with ``hello``; ConnectionError in words if none
        is (TableRefused, with the table's reason, when it refused)."""
        try:
            return await Client.connect(self.host, self.port, hello, self.config)
        except Refused as err:
            words = self._seat_under_another_name(err.reason, str(hello.get("name", "")))
            # This account's own seat, under the name it sat with, is the
            # fix: the table's "join from the computer that sat" would mislead.
            said = TABLE_FULL if words else err.reason
            reason = f"the table refused: {said}{words}"
            if err.reason == WRONG_CODE and not self.code:
                # None was given: "wrong" sent the player looking for a typo
                # (the host's lobby shows its join command, without the code).
                reason = NO_CODE_GIVEN
            elif err.reason == WRONG_CODE and self.table_id is not None:
                # Coming back by itself with the code this table took: the
                # host resumed it with another (--resume --code).  The player
                # typed nothing, and their seat waits for the new one.
                reason = CODE_CHANGED
            if err.reason in REFUSED_FOR_NOW:
                raise RefusedForNow(reason, err.reason) from None
            raise TableRefused(reason, err.reason) from None
        except ConnectTimeout:
            raise ConnectionError(f"no table answers at {self.address_words}") from None
        except PortClosed:
            raise ConnectionError(
                f"nothing listens at {self.address_words}: no table there (is that its port?)"
            ) from None
        except OSError as err:
            reason = err.strerror or str(err)
            raise ConnectionError(f"cannot reach {self.address_words}: {reason}") from None

    def _another_table(self, client: Client) -> bool:
        """Whether ``client``'s session is with another table than this
        client's (its ACCEPT names another table id)."""
        return self.table_id is not None and _table_id(client) != self.table_id

    def _adopt(self, client: Client, hello: dict[str, Any]) -> None:
        """Make ``client``'s new session this client's own: its seat, its
        claim, the seat's token kept; emits Welcome."""
        accept = _accept(client)
        table_id = self.table_id = _table_id(client)
        self.seat = _seat(client)
        claim = accept.get("claim")
        self._claim = claim if is_claim(claim) and self.seat is not None else None
        self._client = client
        told = None
        if self._tokens is not None and table_id is not None and self.seat is not None:
            told = self._tokens.remember(
                self.address, self.name, table_id, hello["token"], self.seat
            )
        self._read_kept_seats()
        table = accept.get("table")
        self._emit(Welcome(self.seat, False, table if isinstance(table, str) else ""))
        if told is not None:
            self._emit(Notice(told))

    def _read_kept_seats(self) -> None:
        """A spectator's: the seats this account keeps tokens for at this
        table.  Read when its session begins and when a seat goes away, not
        at every look at the footer: a seat can wait for this spectator only
        once it is away, and the account may have sat there from another
        terminal since this one began to watch."""
        self._kept_seats = ()
        if self._tokens is not None and self.table_id is not None and self.seat is None:
            self._kept_seats = tuple(self._tokens.seats_kept(self.address, self.table_id))

    async def close(self) -> None:
        self._closing = True
        await cancel_and_wait(self._resend_task)
        await cancel_and_wait(self._sit_task)
        await cancel_and_wait(self._task)
        if self._client is not None:
            await self._client.close("bye")
        self._emit(ConnectionChanged("closed", "left the table"))

    # ------------------------------------------------------------ receiving
    async def _run(self) -> None:
        while not self._closing:
            client = self._client
            assert client is not None
            try:
                event = await client.next_event()
            except SessionClosed:
                event = None
            if isinstance(event, Disconnected):
                # The host's goodbye: its "closed" message, or the CLOSE's
                # reason.  A session that ends any other way after the message
                # (its CLOSE lost, then silence) ends as the message said.
                goodbye, self.closed_by_host = self.closed_by_host, None
                stopped: str | None = None  # the stop's words, when --resume may bring it back
                if event.cause == DisconnectCause.PEER_CLOSED:
                    goodbye = goodbye or event.reason or "the host closed the table"
                    stopped = _resumable(goodbye) or _resumable(event.reason)
                else:
                    stopped = _resumable(goodbye)
                if goodbye is not None and not stopped:
                    # On purpose (the table closed, or another session took
                    # the seat): reconnecting would be wrong.
                    self.closed_by_host = self._ended = goodbye
                    self._emit(ConnectionChanged("closed", goodbye))
                    return
                self._host_stopped = bool(stopped)
                if stopped:
                    # Said in full where it stays (a banner cuts it at 80
                    # columns), in the table's voice: nothing else is coming.
                    # A spectator has no seat to wait, and waits to watch on.
                    waits = "you watch on when it does" if self.watch else "this seat waits for it"
                    self._emit(ChatReceived(None, "table", f"{stopped}; {waits}"))
                # Stopped, to be resumed: wait for it as for a crash.
                if not await self._reconnect(stopped or _lost(event)):
                    return
                continue
            if event is None:
                if not await self._reconnect("connection lost"):
                    return
                continue
            try:
                if isinstance(event, State):
                    self._on_state(event.payload)
                elif isinstance(event, Message):
                    self._on_message(event.payload)
            except (WireError, RecursionError) as err:
                # RecursionError: a value nested about 1,000 deep (msgpack
                # allows 1,024) that str() or repr() met on its way.
                self.malformed += 1
                log.warning("dropped a malformed message from the host: %s", err)

    async def _reconnect(self, reason: str) -> bool:
        self._emit(ConnectionChanged("reconnecting", reason))
        delay = 0.1
        while not self._closing:
            with contextlib.suppress(Exception):
                await self._client.close() if self._client is not None else None
            try:
                await self._connect()
            except RefusedForNow as err:
                # No room for the moment (a stale session of ours may hold
                # it until the host's idle time-out), or this address must
                # wait: the seat is still ours, so keep knocking.
                if str(err) != reason:
                    reason = str(err)
                    self._emit(ConnectionChanged("reconnecting", reason))
                await asyncio.sleep(delay)
                delay = min(delay * 2, RECONNECT_MAX_DELAY)
                continue
            except ConnectionRefusedError as err:
                self._ended = str(err)
                self._emit(ConnectionChanged("closed", self._ended))
                return False
            except (ConnectionError, NetError, OSError):
                await asyncio.sleep(delay)
                delay = min(delay * 2, RECONNECT_MAX_DELAY)
                continue
            self.reconnects += 1
            self._host_stopped = False
            self._emit(ConnectionChanged("connected", f"{self.address_words} (reconnected)"))
            if self._last_move is not None:
                self._send(self._last_move)  # stale on the host if it was applied
            # A choice sent into the old session may have been lost with it
            # (the host stopped, or the link died before it was acked): the
            # first view says whether the table has it.
            self._setup_unsure = self._last_setup is not None
            return True
        return False

    def _on_state(self, payload: Any) -> None:
        if not isinstance(payload, dict):
            raise WireError("a snapshot is a map")
        lobby = payload.get("lobby")
        if lobby is not None and lobby != self._lobby_raw:
            # Every snapshot carries the lobby; it changes rarely in a game.
            changed = self._lobby = lobby_from_wire(lobby)
            self._lobby_raw = lobby
            absent = frozenset(
                slot.seat for slot in changed.seats if slot.kind == "human" and not slot.connected
            )
            if self.watch and absent - self._absent:
                self._read_kept_seats()  # before the screens look for a seat to offer
            self._absent = absent
            self._emit(LobbyChanged(changed))
        view = payload.get("view")
        if view is not None:
            self.view = self._views.decode(view)
            self._keep_setup_choice(self.view)
            self._emit(ViewChanged(self.view))
        clock = payload.get("clock")
        if clock is not None or clock != self._clock_raw:
            # Every snapshot carries the clock as it stood when sent, and each
            # one re-times the countdown: two in a row may carry the same
            # value (the next action's clock starts full again), so an equal
            # value is no reason to keep counting down from the first.
            self._clock_raw = clock
            self._emit(TurnClock(*clock_from_wire(clock)))

    def _keep_setup_choice(self, view: View) -> None:
        """Every view: the set-up choice is forgotten once its set-up is over;
        the first view after a reconnect sends it again if the table shows
        this seat not ready in the same set-up (the choice was lost with the
        old session)."""
        if view.phase != "setup":
            self._last_setup = None  # that set-up is over
        unsure, self._setup_unsure = self._setup_unsure, False
        chosen = self._last_setup
        me = view.seat
        if (
            unsure
            and chosen is not None
            and me is not None
            and not view.seats[me].ready
            and view.hand == self._setup_hand  # this set-up's, not a later game's
        ):
            self._send(chosen)

    def _on_chat(self, payload: dict[Any, Any]) -> None:
        """A chat line, unless it is one this client has shown already: each
        (re)connect brings the table's recent lines again, marked old."""
        seat, number = chat_numbers(payload)
        old = payload.get("old") is True
        if old and number and number <= self._chat_shown:
            return
        self._chat_shown = max(self._chat_shown, number)
        self._emit(
            ChatReceived(
                seat,
                str(payload.get("name", "")),
                str(payload.get("text", "")),
                spectator=payload.get("watcher") is True,
                number=number,
                old=old,
            )
        )

    def _on_message(self, payload: Any) -> None:
        if not isinstance(payload, dict):
            raise WireError("a message is a map")
        kind = payload.get("t")
        if kind == "chat":
            self._on_chat(payload)
        elif kind == "notice":
            self._emit(Notice(str(payload.get("text", ""))))
        elif kind == "closed":
            self.closed_by_host = str(payload.get("reason", "the host closed the table"))
        elif kind == "rejected":
            answers = payload.get("re")  # absent from an older host: None, not known
            request = answers if isinstance(answers, str) and answers in REQUESTS else None
            self._emit(ActionRejected(str(payload.get("reason", "refused")), request))
        elif kind == "saved":
            self._emit(GameSaved(str(payload.get("path", ""))))
        elif kind == "played":
            self._emit(played_from_wire(payload))

    # ------------------------------------------------------------ sending
    def _send(self, message: dict[str, Any]) -> None:
        if self._ended is not None:
            # Closed for good (the seat taken over from another terminal, the
            # table closed, the seat refused): no reconnect will come, so
            # nothing may be promised to go "as soon as it can".
            self._emit(Notice(f"not sent: {self._ended}"))
            return
        turn = message.get("t") in ("move", "setup")
        told = self._waiting is not None
        if turn:
            # A newer move or set-up takes the place of one still waiting,
            # whether or not it goes at once: the older, sent after it, would
            # be stale (and a second set-up is refused: a refusal the player
            # would see for nothing they did).
            self._waiting = None
        why = self._try_send(message)
        if why is None:
            return
        if turn:
            # The player's turn must not be lost: it waits, and goes as soon
            # as it can.
            if not told:
                self._emit(Notice(f"your move waits ({why}): it goes as soon as it can"))
            self._waiting = message
            if self._resend_task is None or self._resend_task.done():
                self._resend_task = asyncio.get_running_loop().create_task(self._resend())
        else:
            # Chat and table requests are the player's to repeat: say so (a
            # notice, not a refusal: nothing was refused, and the set-up
            # screen takes a refusal as its own).
            if self._host_stopped and why == NOT_CONNECTED:
                self._emit(Notice("not sent: the host stopped; try again once it is back"))
            else:
                self._emit(Notice(f"not sent ({why}): try again in a moment"))

    def _try_send(self, message: dict[str, Any]) -> str | None:
        """Send ``message``; why it could not go yet, or None (sent, or
        refused for good: too large, which trying again cannot mend)."""
        client = self._client
        try:
            if client is None:
                raise SessionClosed(NOT_CONNECTED)
            client.send(message)
        except SendQueueFull:
            return BUSY
        except SessionClosed:
            return NOT_CONNECTED
        except NetError as err:
            log.warning("not sent (%s): %s", err, message.get("t"))
        if message is self._waiting:
            self._waiting = None
        return None

    async def _resend(self) -> None:
        # Until it goes, or the connection is closed for good (the receiving
        # task ends then: the host closed the table, or refused the seat).
        while not self._closing and self._waiting is not None and self._connection_open():
            await asyncio.sleep(RESEND_EVERY)
            waiting = self._waiting
            if waiting is not None:
                self._try_send(waiting)

    def _connection_open(self) -> bool:
        return self._task is not None and not self._task.done()

    def choose_face_up(self, cards: Sequence[str]) -> None:
        self._last_setup = request("setup", cards=list(cards))
        self._setup_hand = self.view.hand if self.view is not None else ()
        self._send(self._last_setup)

    def submit(self, move: Move) -> None:
        at = self.view.moves_played if self.view is not None else 0
        self._last_move = request("move", at=at, move=move.to_json())
        self._send(self._last_move)

    def chat(self, text: str) -> None:
        self._send(request("chat", text=text))

    def here(self) -> None:
        self._send(request("here"))

    def add_bot(self, level: str) -> None:
        self._send(request("add_bot", level=level))

    def remove_seat(self, seat: int) -> None:
        self._send(request("remove", seat=seat))

    def set_options(self, options: Options) -> None:
        self._send(request("options", options=options.to_json()))

    def start_game(self) -> None:
        self._send(request("start"))

    def rematch(self) -> None:
        self._send(request("rematch"))

    def save_record(self, path: str) -> None:
        self._emit(GameNotSaved("the host keeps the game record; ask them for it"))

    # ------------------------------------------------------------ sitting down
    @property
    def may_sit_down(self) -> bool:
        """A spectator whose session is up, and not asking for a seat already."""
        asking = self._sit_task is not None and not self._sit_task.done()
        return self.watch and not asking and not self._closing and self._connection_open()

    def kept_seat(self, lobby: Lobby) -> str | None:
        """The name of a seat that waits for this spectator: a person's seat,
        nobody playing it from a terminal now, the seat a token this account
        keeps at this table was given (the number kept with it; by its
        name, for a token kept without one).  The name is what sit_down
        finds the token by; the table goes by the token, and gives that
        token's seat or none."""
        kept = self._kept_waiting(lobby)
        return kept.name if kept is not None else None

    def kept_seat_number(self, lobby: Lobby) -> int | None:
        """The number of the seat :meth:`kept_seat` names, where the token
        was kept with it (None for one kept without a number, or no seat):
        two seats of that name may be away, and only the token tells which
        is this account's."""
        kept = self._kept_waiting(lobby)
        return kept.seat if kept is not None else None

    def _kept_waiting(self, lobby: Lobby) -> KeptSeat | None:
        if not self.watch:
            return None
        for kept in self._kept_seats:
            if kept.seat is None:
                # Kept by a threeup that did not note the seat: the seat of that name.
                waiting = [s for s in lobby.seats if name_key(s.name) == name_key(kept.name)]
            elif kept.seat < len(lobby.seats) and seated_as(lobby.seats[kept.seat].name, kept.name):
                # The token's own seat, though the host told the name apart
                # ("Ann (2)"): seat 1's Ann, away, is another account's.
                waiting = [lobby.seats[kept.seat]]
            else:
                waiting = []
            if any(slot.kind == "human" and not slot.connected for slot in waiting):
                return kept
        return None

    def sit_down(self, name: str | None = None) -> None:
        """Ask the table for a seat as a player joining it does: a new
        session whose hello asks for a seat under ``name`` (this client's
        name if None), with the seat token kept for that name at this table.
        The table makes every check it makes of a join (room code, rate
        limits, names, one live session per seat).  A seat given, the
        spectator's session is closed and this client plays the seat (a
        Welcome with it); refused, it watches on, told why in a Notice (a
        refusal of a request, ActionRejected, is about a move: the table
        screen takes it back at its next view, and so a game that began as
        the last seat went took it back at once)."""
        if not self.may_sit_down:
            why = "you have a seat already" if not self.watch else "you cannot ask for one now"
            self._emit(Notice(f"no seat asked for: {why}"))
            return
        lobby = self._lobby
        seen_open = (
            lobby is not None
            and not lobby.started
            and any(slot.kind == "open" for slot in lobby.seats)
        )
        self._sit_task = asyncio.get_running_loop().create_task(
            self._sit(name or self.name, seen_open)
        )

    async def _sit(self, name: str, seen_open: bool = False) -> None:
        """``seen_open``: a seat was open, the game not begun, in the lobby
        this spectator last had when it asked."""
        hello = make_hello(name, self.code, self._token_to_sit(name), False)
        try:
            client = await self._handshake(hello)
        except TableRefused as err:
            why = err.reason
            # (Short words: the status line holds them in one line at 80 columns;
            # a spectator sees the lobby, which says the game has begun.)
            if is_table_full(why):
                why = TABLE_FULL
            if why == TABLE_FULL and any(
                name_key(name) == name_key(kept.name) for kept in self._kept_seats
            ):
                # Asked for the seat kept under this name (the table screen's
                # s): "the table is full" would not say why that seat is not
                # this player's.  The table knew no seat by the token kept.
                why = f"{name}'s seat is kept for another token"
            elif why == TABLE_FULL and seen_open:
                # The seat this player saw open went to another first (and a
                # dedicated host's game begins with it): "the table is full",
                # read as the game's first view comes, said nothing of the
                # seat they had just seen.
                why = SEAT_TAKEN_FIRST
            self._emit(Notice(f"no seat for you: {why}; you watch on"))
            return
        except (ConnectionError, NetError) as err:  # no answer, nothing listening
            self._emit(Notice(f"no seat for you: {err}; you watch on"))
            return
        seated = False
        try:
            if self._closing or self._ended is not None:
                return  # the app left, or the table closed, while the table answered
            if _seat(client) is None or self._another_table(client):
                # Not a seat at this table after all: nothing to take.
                self._emit(Notice("no seat for you: the table gave none; you watch on"))
                return
            # The seat is this client's: the spectator's session gives way.
            await cancel_and_wait(self._task)
            if self._closing:
                return
            watching, self._client = self._client, None
            self.name, self.watch, self._token = name, False, hello["token"]
            self._adopt(client, hello)
            seated = True
            self._emit(ConnectionChanged("connected", self.address_words))
            self._task = asyncio.get_running_loop().create_task(self._run())
            if watching is not None:
                with contextlib.suppress(NetError, OSError):
                    await watching.close("bye")
        finally:
            if not seated:
                with contextlib.suppress(NetError, OSError):
                    await client.close("bye")


def _accept(client: Client) -> dict[Any, Any]:
    payload = client.accept_payload
    return payload if isinstance(payload, dict) else {}


def _table_id(client: Client) -> str | None:
    """The table id the host's ACCEPT named (None: an older host's)."""
    table_id = _accept(client).get("table_id")
    return table_id if isinstance(table_id, str) and table_id else None


def _seat(client: Client) -> int | None:
    """The seat the host's ACCEPT gave (None: a spectator's session)."""
    seat = _accept(client).get("seat")
    # A seat no table has (a hostile host's 10**18) is no seat.
    return seat if type(seat) is int and 0 <= seat < MAX_PLAYERS else None


def _lost(event: Disconnected) -> str:
    """Why the link to the host was lost, in the table's words."""
    if event.cause == DisconnectCause.UNREACHABLE:
        return HOST_GONE  # its port refuses our datagrams: a crash sends no CLOSE
    if event.cause == DisconnectCause.RESET:
        return HOST_RESTARTED  # a resumed host knows no session of before
    return event.reason


def _resumable(reason: str | None) -> str | None:
    """``reason`` if it is a host's stop that ``--resume`` may bring back
    (the client then waits for the table), else None."""
    return reason if reason in CLOSE_RESUMABLE else None
