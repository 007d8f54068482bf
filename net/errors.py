"""Exceptions raised to the application by the net layer."""

from __future__ import annotations


class NetError(Exception):
    """Base class of every error the net layer raises on purpose."""


class Refused(NetError):
    """The server's ``authorize`` callback (or the server itself, e.g. when
    full or on a protocol version mismatch) turned the handshake down."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"connection refused: {reason}")
        self.reason = reason


class ConnectTimeout(NetError, TimeoutError):
    """No answer to the handshake within ``NetConfig.connect_timeout``."""


class PortClosed(NetError):
    """The server's address reported, by ICMP "port unreachable", that
    nothing listens at its port: the handshake gives up at once instead of
    waiting out ``NetConfig.connect_timeout``."""


class SessionClosed(NetError):
    """The session (or the whole endpoint) has ended; nothing more can be
    sent or received on it."""


class UnknownSession(SessionClosed, KeyError):
    """``Server.send``/``set_state``/``close_session`` got a session id that
    is not (or no longer) live."""

    def __str__(self) -> str:
        return Exception.__str__(self)


class MessageTooLarge(NetError, ValueError):
    """An encoded message or state exceeds the session's size limit."""


class SendQueueFull(NetError):
    """The session already holds ``NetConfig.max_send_queue_bytes`` of
    unacknowledged data; back off until the peer catches up."""
