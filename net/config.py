"""Tunable knobs of the net layer, gathered in one frozen dataclass.

Protocol constants that both peers must agree on live in ``net.packets``;
everything here is a local policy choice and may differ between peers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from net.packets import MAX_CHUNK, MAX_MESSAGE_SIZE, MAX_WINDOW


@dataclass(frozen=True)
class NetConfig:
    """Timeouts, rates and limits for a ``Server`` or a ``Client``.

    All durations are in seconds, sizes in bytes.
    """

    # --- session liveness -------------------------------------------------
    idle_timeout: float = 10.0
    """A session that has received nothing valid for this long ends with
    ``DisconnectCause.IDLE_TIMEOUT``."""
    heartbeat_interval: float = 1.0
    """Send an (empty) session datagram when nothing was sent for this long,
    so an idle but healthy peer never times out."""
    close_linger: float = 1.0
    """How long a graceful close waits for unacknowledged data before it
    sends CLOSE anyway."""
    close_copies: int = 2
    """CLOSE is not retransmitted; sending a couple of copies makes a clean
    close survive moderate loss (the idle timeout covers the rest)."""

    # --- retransmission ---------------------------------------------------
    initial_rto: float = 0.05
    """Retransmission timeout used before any RTT sample exists."""
    min_rto: float = 0.05
    max_rto: float = 1.0
    """Exponential back-off of a frame's retransmissions is capped here."""
    ack_delay: float = 0.005
    """Acknowledgements are delayed this long so several frames share one."""
    window_frames: int = 128
    """Receive window in frames, advertised to the peer in the handshake;
    also bounds this side's reassembly buffer."""
    max_burst_datagrams: int = 32
    """At most this many datagrams leave for one session before the sender
    yields to the event loop (keeps a big burst from starving receivers)."""

    # --- handshake ----------------------------------------------------------
    connect_timeout: float = 5.0
    handshake_initial_retry: float = 0.1
    """First HELLO/ECHO retry delay; doubles up to ``max_rto``."""
    cookie_lifetime: float = 30.0
    amplification_factor: float = 3.0
    """Before an address is validated the server sends it at most this many
    times the bytes it received from it (QUIC's rule uses 3)."""

    # --- sizes and queues ---------------------------------------------------
    max_message_size: int = MAX_MESSAGE_SIZE
    """Largest encoded application message or state snapshot accepted (and
    sent); the effective limit of a session is the smaller of both peers'."""
    max_send_queue_bytes: int = 1 << 20
    """``send`` raises ``SendQueueFull`` once a session holds this many bytes
    that the peer has not acknowledged yet."""
    max_pending_events: int = 1024
    """Reliable messages waiting for the application; beyond this the
    receiver stops acknowledging (back-pressure), nothing is dropped."""
    socket_buffer_bytes: int = 1 << 20
    """Requested SO_RCVBUF/SO_SNDBUF (best effort; the OS may cap it)."""

    # --- server-only protection ---------------------------------------------
    max_sessions: int = 1024
    rate_limit_per_second: float = 200.0
    rate_limit_burst: float = 400.0
    max_tracked_addresses: int = 4096
    """Bound on the per-address tables (rate limiter, amplification ledger,
    replay guard); the least recently seen address is forgotten first."""

    def __post_init__(self) -> None:
        positive = {
            "idle_timeout": self.idle_timeout,
            "heartbeat_interval": self.heartbeat_interval,
            "initial_rto": self.initial_rto,
            "min_rto": self.min_rto,
            "max_rto": self.max_rto,
            "connect_timeout": self.connect_timeout,
            "handshake_initial_retry": self.handshake_initial_retry,
            "cookie_lifetime": self.cookie_lifetime,
            "amplification_factor": self.amplification_factor,
            "rate_limit_per_second": self.rate_limit_per_second,
            "rate_limit_burst": self.rate_limit_burst,
        }
        for name, value in positive.items():
            if not value > 0:
                raise ValueError(f"NetConfig.{name} must be > 0, got {value!r}")
        non_negative = {"close_linger": self.close_linger, "ack_delay": self.ack_delay}
        for name, value in non_negative.items():
            if not value >= 0:
                raise ValueError(f"NetConfig.{name} must be >= 0, got {value!r}")
        at_least_one = {
            "close_copies": self.close_copies,
            "max_burst_datagrams": self.max_burst_datagrams,
            "max_send_queue_bytes": self.max_send_queue_bytes,
            "max_pending_events": self.max_pending_events,
            "socket_buffer_bytes": self.socket_buffer_bytes,
            "max_sessions": self.max_sessions,
            "max_tracked_addresses": self.max_tracked_addresses,
        }
        for name, value in at_least_one.items():
            if value < 1:
                raise ValueError(f"NetConfig.{name} must be >= 1, got {value!r}")
        if self.min_rto > self.max_rto:
            raise ValueError("NetConfig.min_rto must not exceed max_rto")
        if self.heartbeat_interval >= self.idle_timeout:
            raise ValueError("NetConfig.heartbeat_interval must be < idle_timeout")
        if not 1 <= self.max_message_size <= MAX_MESSAGE_SIZE:
            raise ValueError(f"NetConfig.max_message_size must be in 1..{MAX_MESSAGE_SIZE}")
        # A whole message must fit in the receive window, otherwise the
        # receiver could never reassemble it.
        needed = math.ceil(self.max_message_size / MAX_CHUNK)
        if not needed <= self.window_frames <= MAX_WINDOW:
            raise ValueError(f"NetConfig.window_frames must be in {needed}..{MAX_WINDOW}")
