"""The bounded queue between the network tasks and the application.

Policy (documented in docs/net.md):

* reliable ``Message`` events are admitted only while fewer than
  ``capacity`` are queued; a refused message stays unacknowledged inside its
  session and is offered again when the application makes room, so the
  peer's sender is throttled and nothing is lost;
* ``State`` events take one slot per session: a newer version replaces an
  older one still waiting in the queue (latest wins);
* ``Connected``/``Disconnected`` are always admitted; there are at most two
  per session and sessions are bounded by ``NetConfig.max_sessions``.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import Any

from net.errors import SessionClosed
from net.events import Connected, Disconnected, Event, Message, State


class _StateSlot:
    __slots__ = ("event",)

    def __init__(self, event: State) -> None:
        self.event = event


class EventQueue:
    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._items: deque[Event | _StateSlot] = deque()
        self._messages = 0
        self._state_slots: dict[int, _StateSlot] = {}
        self._nonempty = asyncio.Event()
        self._closed = False
        self.on_room: Callable[[], None] | None = None
        """Called after the application took a message, so sessions that were
        refused can offer theirs again."""

    def __len__(self) -> int:
        return len(self._items)

    def _append(self, item: Event | _StateSlot) -> None:
        self._items.append(item)
        self._nonempty.set()

    # --- producer side (DeliverySink) --------------------------------------

    def offer_message(self, session_id: int, value: Any) -> bool:
        if self._closed or self._messages >= self.capacity:
            return False
        self._messages += 1
        self._append(Message(session_id, value))
        return True

    def put_state(self, session_id: int, version: int, value: Any) -> None:
        event = State(session_id, version, value)
        slot = self._state_slots.get(session_id)
        if slot is not None:
            slot.event = event
        else:
            slot = self._state_slots[session_id] = _StateSlot(event)
            self._append(slot)

    def put(self, event: Connected | Disconnected) -> None:
        self._append(event)

    def close(self) -> None:
        """No more events will come: once drained, ``get`` raises."""
        self._closed = True
        self._nonempty.set()

    # --- consumer side ------------------------------------------------------

    def get_nowait(self) -> Event | None:
        if not self._items:
            return None
        item = self._items.popleft()
        if isinstance(item, _StateSlot):
            del self._state_slots[item.event.session_id]
            return item.event
        if isinstance(item, Message):
            self._messages -= 1
            if self.on_room is not None:
                self.on_room()
        return item

    async def get(self) -> Event:
        while True:
            event = self.get_nowait()
            if event is not None:
                return event
            if self._closed:
                raise SessionClosed("no more events: closed")
            self._nonempty.clear()
            await self._nonempty.wait()
