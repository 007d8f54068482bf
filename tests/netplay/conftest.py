"""Fixtures for the network-play tests: real UDP sockets on loopback only.

Seat tokens live in a per-test state directory (THREEUP_STATE_DIR), never in
the user's real one.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from netplay_support import LOOPBACK, make_client

from net import Accept, Connected, NetConfig, Server
from net.testing import next_event_of
from threeup_tui.netplay.client import NetClient

# The app's test helpers (reading the screen as text, waiting on the app)
# serve the tests here that run the app against a real table.
_APP_TESTS = str(Path(__file__).resolve().parent.parent / "app")
if _APP_TESTS not in sys.path:
    sys.path.append(_APP_TESTS)


@pytest.fixture(autouse=True)
def state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "state"
    path.mkdir()
    monkeypatch.setenv("THREEUP_STATE_DIR", str(path))
    yield path


@pytest.fixture
async def hostile_host(tmp_path: Path) -> AsyncIterator[tuple[Server, int, NetClient]]:
    """A bare session server standing in for a hostile host (it sends what
    a test makes it send), its session id, and a real client connected."""

    def authorize(address: tuple[str, int], hello: Any) -> Accept:
        return Accept({"seat": None, "token": hello["token"], "table": "t", "table_id": "x" * 16})

    server = await Server.start(LOOPBACK, 0, authorize, NetConfig())
    client = make_client(server.address, "ann", tmp_path / "a.json", watch=True)
    try:
        await client.start()
        session_id = (await next_event_of(server.next_event, Connected)).session_id
        yield server, session_id, client
    finally:
        await client.close()
        await server.close()
