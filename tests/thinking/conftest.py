"""Fixtures of the off-loop thinking tests: gated bots and a pool per test.

Every pool a test starts is closed after it, so no worker outlives its test.
Nothing here is imported by the workers: they import thinking_bots only.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from thinking_bots import FailingBot, Gate, GatedBot

from threeup_tui.bots import BOT_LEVELS
from threeup_tui.bots.pool import ThinkPool, set_shared_pool


@pytest.fixture
def pool() -> Iterator[ThinkPool]:
    """A fresh pool, also the process's shared one for the test; closed after it."""
    pool = ThinkPool()
    old = set_shared_pool(pool)
    try:
        yield pool
    finally:
        pool.close()
        set_shared_pool(old)


@pytest.fixture
def gate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pool: ThinkPool) -> Gate:
    """Bots at the ``gated`` (and ``failing``) levels, and the gated bots' gate."""
    gate = Gate(tmp_path / "gate")
    monkeypatch.setitem(BOT_LEVELS, "gated", GatedBot)
    monkeypatch.setitem(BOT_LEVELS, "failing", FailingBot)
    monkeypatch.setattr(GatedBot, "gate_dir", gate.path)
    return gate


@pytest.fixture(autouse=True)
def state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Seat tokens in a directory of the test's own."""
    path = tmp_path / "state"
    path.mkdir()
    monkeypatch.setenv("THREEUP_STATE_DIR", str(path))
    return path
