"""Counters that make the net layer observable (tests, benchmarks, logs)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class NetStats:
    """Running totals for one ``Server`` or ``Client``.

    ``dropped`` maps a reason to the number of datagrams (or frames, for
    frame-level reasons such as ``duplicate``) discarded for it; a missing
    key reads as 0. Reasons currently used:

    datagram level: ``oversize``, ``undecodable``, ``malformed``,
    ``unknown_type``, ``rate_limited``, ``unexpected_type``,
    ``unknown_session``, ``ended_session`` (late traffic for a session
    that just ended, e.g. the second CLOSE copy), ``wrong_address``, ``hello_too_small``,
    ``bad_cookie``, ``expired_cookie``, ``replayed_handshake``,
    ``amplification_limit``, ``bad_ack``, ``stray_handshake``, ``internal_error``;
    frame level: ``duplicate``, ``out_of_window``, ``stale_state``,
    ``inconsistent_state``, ``message_too_large``, ``malformed_message``;
    local: ``control_queue_full``, ``send_oversize``, ``send_failed``,
    ``undelivered_at_close``, ``too_large_for_peer`` (a ``set_state_many``
    snapshot larger than one peer takes: that session went without).

    ``send_errors`` counts exceptions met while sending, by exception class
    name (e.g. ``ConnectionRefusedError`` for a queued ICMP error).
    """

    datagrams_sent: int = 0
    bytes_sent: int = 0
    datagrams_received: int = 0
    bytes_received: int = 0
    retransmissions: int = 0
    resent_after_error: int = 0
    resets_sent: int = 0  # server: RESETs answering traffic for no live session
    messages_sent: int = 0
    messages_delivered: int = 0
    states_sent: int = 0
    states_delivered: int = 0
    sessions_accepted: int = 0
    sessions_refused: int = 0
    sessions_ended: int = 0
    receive_errors: Counter[str] = field(default_factory=Counter)
    send_errors: Counter[str] = field(default_factory=Counter)
    dropped: Counter[str] = field(default_factory=Counter)

    def drop(self, reason: str, count: int = 1) -> None:
        self.dropped[reason] += count

    @property
    def total_dropped(self) -> int:
        return sum(self.dropped.values())
