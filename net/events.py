"""Events handed to the application by ``Server`` and ``Client``."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

Address = tuple[str, int]


class DisconnectCause(Enum):
    PEER_CLOSED = "peer_closed"
    """The peer sent CLOSE; ``Disconnected.reason`` is its reason text."""
    IDLE_TIMEOUT = "idle_timeout"
    """Nothing valid arrived for ``NetConfig.idle_timeout`` seconds."""
    LOCAL_CLOSE = "local_close"
    """This side ended the session (``close_session``/``close``)."""
    REPLACED = "replaced"
    """Server only: a new handshake from the same address superseded it
    (the client restarted on the same port)."""
    RESET = "reset"
    """Client only: the server answered RESET, it has no such session (it
    restarted, so never heard of it, or ended it and the CLOSE was lost).
    Sooner than ``IDLE_TIMEOUT``."""
    UNREACHABLE = "unreachable"
    """Client only: the server's port refused our datagrams (ICMP port
    unreachable, ``PORT_CLOSED_AFTER`` times with nothing received in
    between): no process listens there now, so the session it held is gone
    (a server that crashed sends no CLOSE).  Sooner than ``IDLE_TIMEOUT``."""


@dataclass(frozen=True)
class Connected:
    """Server only: a handshake was accepted."""

    session_id: int
    address: Address
    hello: Any
    """The client's hello payload, as passed to ``authorize``."""


@dataclass(frozen=True)
class Message:
    """A reliable, in-order application message."""

    session_id: int
    payload: Any


@dataclass(frozen=True)
class State:
    """The newest state snapshot; versions only ever increase."""

    session_id: int
    version: int
    payload: Any


@dataclass(frozen=True)
class Disconnected:
    session_id: int
    cause: DisconnectCause
    reason: str
    heard: bool = True
    """Whether a session datagram from the peer ever arrived (on a server:
    after its ACCEPT).  A client whose every ACCEPT was lost never sends one."""


Event = Connected | Message | State | Disconnected
