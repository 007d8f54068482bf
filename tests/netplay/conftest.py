"""Fixtures for the network-play tests: real UDP sockets on loopback only.

Seat tokens live in a per-test state directory (THREEUP_STATE_DIR), never in
the user's real one.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "state"
    path.mkdir()
    monkeypatch.setenv("THREEUP_STATE_DIR", str(path))
    yield path
