"""Per-address token buckets and the bounded table they live in."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LruTable(Generic[K, V]):
    """A dict bounded to ``capacity`` entries that forgets the least recently
    used one first, so an attacker cycling through addresses costs memory
    proportional to ``capacity`` only."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def setdefault(self, key: K, factory: Callable[[], V]) -> V:
        value = self.get(key)
        if value is None:
            value = factory()
            self._items[key] = value
            if len(self._items) > self.capacity:
                self._items.popitem(last=False)
        return value

    def pop(self, key: K) -> V | None:
        return self._items.pop(key, None)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)


# Float time: a token that is due exactly now (a refill of 2 s at 0.5/s) may
# add up to 0.9999999999999999; it must not be refused for that.  Limits
# built on float clocks beside a bucket use the same slack.
ROUNDING = 1e-9


class TokenBucket:
    """Classic token bucket: ``rate`` tokens a second, at most ``burst``."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = now

    def level(self, now: float) -> float:
        """The tokens there are at ``now`` (refilled since the last take)."""
        return min(self.burst, self.tokens + max(0.0, now - self.stamp) * self.rate)

    def take(self, now: float, cost: float = 1.0) -> bool:
        self.tokens = self.level(now)
        self.stamp = now
        if self.tokens >= cost - ROUNDING:
            self.tokens -= cost
            return True
        return False


class AddressRateLimiter:
    """One token bucket per source address, in a bounded table."""

    def __init__(self, rate: float, burst: float, max_addresses: int) -> None:
        self._rate = rate
        self._burst = burst
        self._buckets: LruTable[tuple[str, int], TokenBucket] = LruTable(max_addresses)

    def allow(self, addr: tuple[str, int], now: float) -> bool:
        bucket = self._buckets.setdefault(addr, lambda: TokenBucket(self._rate, self._burst, now))
        return bucket.take(now)
