"""Sans-IO pieces tested without sockets: two SessionCores talking through a
simulated lossy, duplicating, reordering network on a virtual clock, plus
the small helpers (RTT, token bucket, cookies, amplification, queue)."""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from net import NetConfig, NetStats
from net.codec import decode, encode, encode_frame, encode_message
from net.eventqueue import EventQueue
from net.events import Connected, DisconnectCause, Disconnected, Message, State
from net.handshake import AmplificationLedger, CookieJar, ReplayGuard
from net.packets import (
    MAX_DATAGRAM,
    AckBlock,
    DataFrame,
    SessionPacket,
    StateFrame,
)
from net.ratelimit import AddressRateLimiter, LruTable, TokenBucket
from net.reliability import ReliableReceiver, RttEstimator
from net.session import IDLE_GRACE, SessionCore


@dataclass
class ListSink:
    """A DeliverySink whose application takes at most ``capacity`` messages
    before it has to be drained by the test."""

    capacity: int = 10**9
    messages: list[Any] = field(default_factory=list)
    pending: int = 0
    states: list[tuple[int, Any]] = field(default_factory=list)

    def offer_message(self, session_id: int, value: Any) -> bool:
        if self.pending >= self.capacity:
            return False
        self.pending += 1
        self.messages.append(value)
        return True

    def put_state(self, session_id: int, version: int, value: Any) -> None:
        self.states.append((version, value))


@dataclass
class Peer:
    core: SessionCore
    sink: ListSink
    stats: NetStats


class SimulatedLink:
    """Two sessions and a network with loss, duplication and jittered delay
    (jitter reorders), all on a virtual clock."""

    def __init__(
        self,
        seed: int,
        loss: float = 0.0,
        duplicate: float = 0.0,
        delay: float = 0.01,
        jitter: float = 0.0,
        config: NetConfig | None = None,
        capacity: int = 10**9,
    ) -> None:
        self.rng = random.Random(seed)
        self.loss, self.duplicate, self.delay, self.jitter = loss, duplicate, delay, jitter
        self.config = config or NetConfig()
        self.now = 0.0
        self.peers = [self._peer(capacity) for _ in range(2)]
        self._wire: list[tuple[float, int, int, bytes]] = []
        self._counter = 0
        self.sent: list[list[bytes]] = [[], []]

    def _peer(self, capacity: int) -> Peer:
        stats = NetStats()
        core = SessionCore(
            7,
            ("sim", 1),
            self.config,
            stats,
            self.now,
            peer_window=self.config.window_frames,
            peer_max_message=self.config.max_message_size,
        )
        return Peer(core, ListSink(capacity), stats)

    def step(self) -> None:
        more = False
        for index, peer in enumerate(self.peers):
            datagrams, peer_more = peer.core.poll_transmit(self.now, 32)
            more |= peer_more
            for datagram in datagrams:
                assert len(datagram) <= MAX_DATAGRAM
                self.sent[index].append(datagram)
                if self.rng.random() < self.loss:
                    continue
                copies = 2 if self.rng.random() < self.duplicate else 1
                for _ in range(copies):
                    arrival = self.now + self.delay + self.rng.uniform(0, self.jitter)
                    self._counter += 1
                    heapq.heappush(self._wire, (arrival, self._counter, 1 - index, datagram))
        candidates = [peer.core.next_deadline(self.now) for peer in self.peers]
        if self._wire:
            candidates.append(self._wire[0][0])
        self.now = self.now if more else max(self.now, min(candidates))
        while self._wire and self._wire[0][0] <= self.now:
            _, _, target, datagram = heapq.heappop(self._wire)
            packet = decode(datagram)
            assert isinstance(packet, SessionPacket)
            peer = self.peers[target]
            assert peer.core.on_packet(packet, self.now, peer.sink)

    def run_until(self, done: Any, limit: float = 120.0) -> None:
        for _ in range(1_000_000):
            if done():
                return
            assert self.now < limit, "simulation did not converge"
            for peer in self.peers:
                assert not peer.core.expired(self.now)
            self.step()
        raise AssertionError("too many steps")


@pytest.mark.parametrize("seed", range(4))
def test_lossy_duplicating_reordering_network_delivers_everything_once_in_order(
    seed: int,
) -> None:
    link = SimulatedLink(seed, loss=0.3, duplicate=0.1, delay=0.01, jitter=0.02)
    rng = random.Random(seed)
    # Mixed sizes: tiny messages share datagrams, big ones are fragmented.
    sizes = [rng.choice([1, 10, 100, 900, 3000, 9000]) for _ in range(400)]
    expected = [{"n": n, "pad": "p" * size} for n, size in enumerate(sizes)]
    for message in expected:
        link.peers[0].core.send_message(message)
        link.peers[1].core.send_message(message)
    link.run_until(
        lambda: (
            all(len(p.sink.messages) == len(expected) for p in link.peers)
            and all(p.core.flushed for p in link.peers)
        )
    )
    for peer in link.peers:
        assert peer.sink.messages == expected
        assert peer.stats.dropped["duplicate"] > 0
    assert sum(p.stats.retransmissions for p in link.peers) > 0


@settings(max_examples=25, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    loss=st.floats(0.0, 0.4),
    duplicate=st.floats(0.0, 0.3),
    jitter=st.floats(0.0, 0.1),
    sizes=st.lists(st.sampled_from([0, 5, 900, 1500, 4000]), min_size=1, max_size=40),
    states=st.integers(0, 5),
)
def test_any_lossy_network_delivers_every_message_once_in_order_and_the_last_state(
    seed: int,
    loss: float,
    duplicate: float,
    jitter: float,
    sizes: list[int],
    states: int,
) -> None:
    """Whatever is lost, duplicated or reordered, both streams converge: no
    frame is left without a timer that resends it (the probe rule leaves
    most frames' own timers idle). Up to 40% loss each way: at 50% a
    session now and then hears nothing for the whole idle time-out, and
    ends, as it should."""
    link = SimulatedLink(seed, loss=loss, duplicate=duplicate, jitter=jitter)
    expected = [{"n": n, "pad": "p" * size} for n, size in enumerate(sizes)]
    for n, message in enumerate(expected):
        link.peers[n % 2].core.send_message(message)
        if n < states:
            link.peers[0].core.set_state({"v": n, "pad": "s" * 2000})
    link.run_until(lambda: all(p.core.flushed for p in link.peers), limit=600.0)
    assert link.peers[1].sink.messages == expected[0::2]
    assert link.peers[0].sink.messages == expected[1::2]
    if states:
        assert link.peers[1].sink.states[-1][1]["v"] == min(states, len(sizes)) - 1


def test_full_application_queue_throttles_the_sender_without_losing_anything() -> None:
    config = NetConfig(window_frames=64)
    link = SimulatedLink(1, loss=0.1, config=config, capacity=5)
    receiver = link.peers[1]
    for n in range(300):
        link.peers[0].core.send_message(n)
    while len(receiver.sink.messages) < 300:
        link.run_until(
            lambda: (
                receiver.sink.pending == receiver.sink.capacity
                or len(receiver.sink.messages) == 300
            )
        )
        assert receiver.core.undelivered_frames <= config.window_frames
        # The application takes everything queued, making room again.
        receiver.sink.pending = 0
        receiver.core.deliver(receiver.sink, link.now)
    assert receiver.sink.messages == list(range(300))


def test_state_channel_never_resends_a_superseded_version() -> None:
    link = SimulatedLink(2, loss=0.5, delay=0.02)
    sender, receiver = link.peers
    big = {"blob": "s" * 10_000}
    assert sender.core.set_state({"v": 1, **big}) == 1
    link.step()  # version 1 goes out (some of it is lost)
    mark = len(link.sent[0])
    assert sender.core.set_state({"v": 2, **big}) == 2
    link.run_until(lambda: sender.core.flushed)
    for datagram in link.sent[0][mark:]:
        packet = decode(datagram)
        assert isinstance(packet, SessionPacket)
        assert all(f.version == 2 for f in packet.frames if isinstance(f, StateFrame))
    versions = [version for version, _ in receiver.sink.states]
    assert versions == sorted(set(versions)) and versions[-1] == 2
    assert receiver.sink.states[-1][1]["v"] == 2


def test_state_receiver_only_delivers_newer_versions() -> None:
    link = SimulatedLink(3, loss=0.2, duplicate=0.2, jitter=0.05)
    sender, receiver = link.peers
    for version in range(1, 40):
        sender.core.set_state({"v": version})
        for _ in range(3):
            link.step()
    link.run_until(lambda: sender.core.flushed)
    versions = [version for version, _ in receiver.sink.states]
    assert versions == sorted(set(versions))
    assert versions[-1] == 39
    assert all(value == {"v": version} for version, value in receiver.sink.states)


def test_an_ack_for_something_never_sent_is_rejected() -> None:
    link = SimulatedLink(0)
    core = link.peers[0].core
    core.send_message("one")
    link.step()
    bogus = [
        AckBlock(5, b"", 0, 0, b""),  # cumulative beyond what was sent
        AckBlock(0, b"\x02", 0, 0, b""),  # SACK of frame 1, never sent
        AckBlock(0, b"", 3, 0, b""),  # state version never set
    ]
    for ack in bogus:
        assert not core.on_packet(SessionPacket(7, ack, ()), link.now, ListSink())
    assert core.on_packet(SessionPacket(7, AckBlock(1, b"", 0, 0, b""), ()), link.now, ListSink())
    assert core.flushed


def test_receiver_drops_an_oversized_message_and_carries_on() -> None:
    drops: list[str] = []
    receiver = ReliableReceiver(window=128, max_message_size=2048, drop=drops.append)
    for seq in range(3):  # a 3 KiB message from a peer ignoring our limit
        receiver.on_frame(DataFrame(seq, seq == 2, b"x" * 1024))
    receiver.on_frame(DataFrame(3, True, encode_message("next")))
    received: list[Any] = []

    def take(value: Any) -> bool:
        received.append(value)
        return True

    assert receiver.deliver(take) == (True, False)
    assert received == ["next"]
    assert drops == ["message_too_large"]
    receiver.on_frame(DataFrame(1, True, b"x"))
    receiver.on_frame(DataFrame(500, True, b"x"))
    assert drops[1:] == ["duplicate", "out_of_window"]


def test_receiver_reports_held_frames_in_its_sack() -> None:
    receiver = ReliableReceiver(window=128, max_message_size=65536, drop=lambda reason: None)
    receiver.on_frame(DataFrame(0, True, encode_message(1)))
    receiver.on_frame(DataFrame(2, True, encode_message(3)))
    receiver.on_frame(DataFrame(9, True, encode_message(10)))
    # The application refuses: nothing is acknowledged cumulatively.
    assert receiver.deliver(lambda value: False) == (False, True)
    assert receiver.next_seq == 0
    assert receiver.sack() == bytes([0b101, 0b10])


def test_rtt_estimator_bounds_and_backoff() -> None:
    rtt = RttEstimator(initial_rto=0.05, min_rto=0.05, max_rto=1.0, ack_delay=0.005)
    assert rtt.rto() == 0.05
    rtt.sample(0.2)
    assert 0.2 < rtt.rto() <= 1.0
    assert rtt.backoff(10) == 1.0
    rtt.sample(0.0001)
    for _ in range(50):
        rtt.sample(0.0001)
    assert rtt.rto() == 0.05


def test_token_bucket_and_bounded_address_table() -> None:
    bucket = TokenBucket(rate=10, burst=3, now=0.0)
    assert [bucket.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.take(0.1)  # one token refilled
    assert not bucket.take(0.1)
    limiter = AddressRateLimiter(rate=1, burst=1, max_addresses=2)
    assert limiter.allow(("a", 1), 0.0) and not limiter.allow(("a", 1), 0.0)
    table: LruTable[str, int] = LruTable(2)
    for key in "abc":
        table.setdefault(key, lambda: 1)
    assert "a" not in table and len(table) == 2


def test_cookies_bind_address_nonce_and_time() -> None:
    jar = CookieJar(lifetime=30.0, secret=b"k" * 32)
    stamp, mac = jar.mint(("127.0.0.1", 5000), 42, now=100.0)
    assert jar.check(("127.0.0.1", 5000), 42, stamp, mac, now=120.0) is None
    assert jar.check(("127.0.0.1", 5001), 42, stamp, mac, now=120.0) == "bad_cookie"
    assert jar.check(("127.0.0.1", 5000), 43, stamp, mac, now=120.0) == "bad_cookie"
    assert jar.check(("127.0.0.1", 5000), 42, stamp + 1, mac, now=120.0) == "bad_cookie"
    assert jar.check(("127.0.0.1", 5000), 42, stamp, bytes(16), now=120.0) == "bad_cookie"
    assert jar.check(("127.0.0.1", 5000), 42, stamp, mac, now=140.0) == "expired_cookie"
    assert jar.check(("127.0.0.1", 5000), 42, stamp, mac, now=50.0) == "expired_cookie"
    other = CookieJar(lifetime=30.0)
    assert other.check(("127.0.0.1", 5000), 42, stamp, mac, now=120.0) == "bad_cookie"


def test_amplification_ledger_allows_three_times_what_was_received() -> None:
    ledger = AmplificationLedger(factor=3.0, max_addresses=10)
    addr = ("127.0.0.1", 9)
    assert not ledger.try_spend(addr, 1)  # never heard from it
    ledger.on_received(addr, 100)
    assert ledger.try_spend(addr, 250)
    assert not ledger.try_spend(addr, 51)
    assert ledger.try_spend(addr, 50)
    assert ledger.usage(addr) == (100, 300)
    ledger.validate(addr)
    assert ledger.try_spend(addr, 10_000)


def test_replay_guard_forgets_after_the_cookie_lifetime() -> None:
    guard = ReplayGuard(lifetime=30.0, capacity=10)
    guard.remember(("h", 1), 5, now=0.0)
    assert guard.seen(("h", 1), 5, now=10.0)
    assert not guard.seen(("h", 1), 6, now=10.0)
    assert not guard.seen(("h", 1), 5, now=40.0)


def test_event_queue_bounds_messages_but_not_control_or_state() -> None:
    queue = EventQueue(capacity=2)
    woken: list[bool] = []
    queue.on_room = lambda: woken.append(True)
    assert queue.offer_message(1, "a") and queue.offer_message(1, "b")
    assert not queue.offer_message(1, "c")
    queue.put(Connected(2, ("h", 1), None))
    queue.put_state(1, 1, "old")
    queue.put_state(1, 2, "new")  # replaces the queued older version in place
    queue.put(Disconnected(1, DisconnectCause.PEER_CLOSED, "bye"))
    events = [queue.get_nowait() for _ in range(len(queue))]
    assert events == [
        Message(1, "a"),
        Message(1, "b"),
        Connected(2, ("h", 1), None),
        State(1, 2, "new"),
        Disconnected(1, DisconnectCause.PEER_CLOSED, "bye"),
    ]
    assert woken == [True, True]
    assert queue.offer_message(1, "c")


def test_frames_are_sized_to_fit_the_worst_case_datagram() -> None:
    worst_ack = AckBlock(2**62, b"\xff" * 32, 2**62, 2**62, b"\xff" * 8)
    frame = StateFrame(2**62, 63, 64, b"x" * 1024)
    packet = SessionPacket(2**64 - 1, worst_ack, (frame,))
    assert len(encode(packet)) <= MAX_DATAGRAM
    assert len(encode_frame(DataFrame(2**62, True, b"x" * 1024))) < len(encode_frame(frame))


def test_a_silent_peer_expires_only_after_what_waits_has_had_a_moment() -> None:
    """Past the idle time-out a session is given IDLE_GRACE to read what
    arrived while its process was stopped; anything read in it keeps it."""
    link = SimulatedLink(seed=1)
    core = link.peers[0].core
    idle = link.config.idle_timeout
    assert not core.expired(idle - 0.001)
    assert not core.expired(idle)  # silent: seen now, not yet judged
    assert core.next_deadline(idle) <= idle + IDLE_GRACE
    assert core.expired(idle + IDLE_GRACE)
    # A datagram read within the grace keeps the session.
    link = SimulatedLink(seed=2)
    quiet, talker = (peer.core for peer in link.peers)
    assert not quiet.expired(idle + 5.0)
    datagrams, _ = talker.poll_transmit(idle + 5.01, 1)  # its heartbeat
    packet = decode(datagrams[0])
    assert isinstance(packet, SessionPacket)
    assert quiet.on_packet(packet, idle + 5.02, link.peers[0].sink)
    assert not quiet.expired(idle + 5.0 + IDLE_GRACE)


def _frames_in(datagrams: list[bytes]) -> list[DataFrame | StateFrame]:
    frames: list[DataFrame | StateFrame] = []
    for datagram in datagrams:
        packet = decode(datagram)
        assert isinstance(packet, SessionPacket)
        frames.extend(packet.frames)
    return frames


def _lone_core(config: NetConfig | None = None) -> SessionCore:
    config = config or NetConfig()
    return SessionCore(
        7,
        ("sim", 1),
        config,
        NetStats(),
        0.0,
        peer_window=config.window_frames,
        peer_max_message=config.max_message_size,
    )


def test_a_timeout_resends_one_frame_of_each_channel_not_the_whole_flight() -> None:
    """A peer that acknowledges nothing (gone, or deaf on purpose) is sent one
    probe a back-off, not every frame again: 40 messages and a 10-fragment
    state cost 50 frames, then two a timeout until the idle time-out."""
    core = _lone_core()
    for n in range(40):
        core.send_message({"n": n, "pad": "p" * 900})
    core.set_state({"blob": "s" * 10_000})
    datagrams, more = core.poll_transmit(0.0, 1000)
    assert not more
    first = _frames_in(datagrams)
    assert len(first) == 50
    now = 0.0
    again: list[DataFrame | StateFrame] = []
    timeouts = 0
    while (now := core.next_deadline(now)) < 9.9:
        frames = _frames_in(core.poll_transmit(now, 1000)[0])
        if frames:
            timeouts += 1
            again.extend(frames)
    # Only the oldest frame of each channel is ever resent, once a timeout.
    assert {(type(f).__name__, getattr(f, "seq", getattr(f, "index", None))) for f in again} == {
        ("DataFrame", 0),
        ("StateFrame", 0),
    }
    assert len(again) == 2 * timeouts
    assert 5 <= timeouts <= 16  # back-off from 50 ms, doubling up to 1 s
    assert core.deaf(10.0)


def test_a_lost_flight_is_resent_at_once_when_its_probe_is_acknowledged() -> None:
    sender, receiver = _lone_core(), _lone_core()
    sink = ListSink()
    for n in range(10):
        sender.send_message({"n": n, "pad": "p" * 900})
    lost = _frames_in(sender.poll_transmit(0.0, 1000)[0])
    assert [f.seq for f in lost if isinstance(f, DataFrame)] == list(range(10))
    now = sender.next_deadline(0.0)
    probe = sender.poll_transmit(now, 1000)[0]
    assert [f.seq for f in _frames_in(probe) if isinstance(f, DataFrame)] == [0]
    for datagram in probe:
        packet = decode(datagram)
        assert isinstance(packet, SessionPacket)
        assert receiver.on_packet(packet, now + 0.01, sink)
    ack, _ = receiver.poll_transmit(now + 0.02, 1000)
    for datagram in ack:
        packet = decode(datagram)
        assert isinstance(packet, SessionPacket)
        assert sender.on_packet(packet, now + 0.03, ListSink())
    # Everything sent before the acknowledged probe is lost: all of it goes
    # now, without waiting for a timer of its own.
    assert sender.next_deadline(now + 0.03) <= now + 0.03
    resent = _frames_in(sender.poll_transmit(now + 0.03, 1000)[0])
    assert [f.seq for f in resent if isinstance(f, DataFrame)] == list(range(1, 10))


def test_a_heartbeat_goes_when_its_deadline_comes_however_the_sum_rounds() -> None:
    # 3.9645767525604403 + 1.0 - 3.9645767525604403 is just below 1.0: a
    # session that woke at its deadline sent nothing, and asked to be woken
    # at once, for ever (a virtual clock never moved on).
    core = _lone_core()
    core.last_sent = core.last_received = 3.9645767525604403
    now = core.next_deadline(core.last_sent)
    assert now - core.last_sent < core._config.heartbeat_interval
    datagrams, _ = core.poll_transmit(now, 32)
    assert len(datagrams) == 1
    assert core.next_deadline(now) > now
