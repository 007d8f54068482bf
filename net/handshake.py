"""Server-side handshake helpers: stateless cookies, the anti-amplification
ledger and the replay guard for handshake nonces."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from net.events import Address
from net.packets import COOKIE_MAC_SIZE
from net.ratelimit import LruTable


class CookieJar:
    """Mints and checks the CHALLENGE cookie.

    The cookie is (coarse time, HMAC(secret, address, nonce, time)); the
    server keeps no per-client state until the cookie comes back, and a
    client can only echo a cookie that was sent to the address it claims.
    The secret is random per server process, so cookies die with it.
    """

    def __init__(self, lifetime: float, secret: bytes | None = None) -> None:
        self._lifetime = lifetime
        self._secret = secret if secret is not None else secrets.token_bytes(32)

    def _mac(self, addr: Address, nonce: int, stamp: int) -> bytes:
        message = f"threeup-net-cookie|{addr[0]}|{addr[1]}|{nonce}|{stamp}".encode()
        return hmac.new(self._secret, message, hashlib.sha256).digest()[:COOKIE_MAC_SIZE]

    def mint(self, addr: Address, nonce: int, now: float) -> tuple[int, bytes]:
        stamp = int(now)
        return stamp, self._mac(addr, nonce, stamp)

    def check(self, addr: Address, nonce: int, stamp: int, mac: bytes, now: float) -> str | None:
        """None if valid, else the drop reason (``bad_cookie`` or
        ``expired_cookie``)."""
        if not hmac.compare_digest(mac, self._mac(addr, nonce, stamp)):
            return "bad_cookie"
        # int() truncates, so a fresh cookie may look up to 1 s old.
        if not 0 <= now - stamp <= self._lifetime + 1:
            return "expired_cookie"
        return None


@dataclass
class _Budget:
    received: int = 0
    sent: int = 0
    validated: bool = False


class AmplificationLedger:
    """Byte accounting for addresses that have not proven they receive what
    we send (QUIC, RFC 9000 section 8): until then we send an address at most
    ``factor`` times what it sent us. An address forgotten by the bounded
    table starts again at zero credit, so eviction can only make us stricter.
    """

    def __init__(self, factor: float, max_addresses: int) -> None:
        self._factor = factor
        self._budgets: LruTable[Address, _Budget] = LruTable(max_addresses)

    def on_received(self, addr: Address, size: int) -> None:
        self._budgets.setdefault(addr, _Budget).received += size

    def validate(self, addr: Address) -> None:
        self._budgets.setdefault(addr, _Budget).validated = True

    def try_spend(self, addr: Address, size: int) -> bool:
        """Reserve ``size`` bytes of sending to ``addr`` if the rule allows."""
        budget = self._budgets.get(addr)
        if budget is None:
            return False
        if budget.validated:
            return True
        if budget.sent + size > self._factor * budget.received:
            return False
        budget.sent += size
        return True

    def usage(self, addr: Address) -> tuple[int, int]:
        """(bytes received, bytes sent) while unvalidated; for tests."""
        budget = self._budgets.get(addr)
        return (0, 0) if budget is None else (budget.received, budget.sent)


class ReplayGuard:
    """Remembers (address, nonce) pairs whose handshake already produced a
    session, for as long as their cookie could still be valid, so a replayed
    ECHO cannot resurrect a closed session."""

    def __init__(self, lifetime: float, capacity: int) -> None:
        self._lifetime = lifetime
        self._seen: LruTable[tuple[Address, int], float] = LruTable(capacity)

    def remember(self, addr: Address, nonce: int, now: float) -> None:
        self._seen.setdefault((addr, nonce), lambda: now)

    def seen(self, addr: Address, nonce: int, now: float) -> bool:
        stamp = self._seen.get((addr, nonce))
        return stamp is not None and now - stamp <= self._lifetime + 1
