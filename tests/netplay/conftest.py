"""Fixtures for the network-play tests: real UDP sockets on loopback only.

Seat tokens live in a per-test state directory (THREEUP_STATE_DIR), never in
the user's real one.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

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
