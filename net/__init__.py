"""Reliable datagram sessions over UDP (asyncio-dgram + msgpack).

Game-agnostic: a ``Server`` accepts ``Client`` sessions after a
cookie-validated handshake and an application ``authorize`` callback; each
session carries reliable ordered messages and a latest-wins state channel.
See docs/net.md for the API and the wire format.
"""

from net.client import Client
from net.config import NetConfig
from net.errors import (
    ConnectTimeout,
    MessageTooLarge,
    NetError,
    PortClosed,
    Refused,
    SendQueueFull,
    SessionClosed,
    UnknownSession,
)
from net.events import Address, Connected, DisconnectCause, Disconnected, Event, Message, State
from net.impair import Impairment, ImpairmentProxy
from net.packets import MAX_DATAGRAM, PROTOCOL_VERSION
from net.server import SERVER_FULL, Accept, Authorize, Refuse, Server
from net.stats import NetStats

__all__ = [
    "MAX_DATAGRAM",
    "PROTOCOL_VERSION",
    "SERVER_FULL",
    "Accept",
    "Address",
    "Authorize",
    "Client",
    "ConnectTimeout",
    "Connected",
    "DisconnectCause",
    "Disconnected",
    "Event",
    "Impairment",
    "ImpairmentProxy",
    "Message",
    "MessageTooLarge",
    "NetConfig",
    "NetError",
    "NetStats",
    "PortClosed",
    "Refuse",
    "Refused",
    "SendQueueFull",
    "Server",
    "SessionClosed",
    "State",
    "UnknownSession",
]
