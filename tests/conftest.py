"""Suite-wide safety.

- Nothing a test starts may announce on a real network: hosts started
  without an explicit announce address read THREEUP_ANNOUNCE; tests that
  exercise discovery pass 127.255.255.255 explicitly.
- Nothing a test runs may write the user's real directories: every test
  gets its own state, config and data directories, set in the environment
  so that the subprocesses it starts use them too.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ["THREEUP_ANNOUNCE"] = "off"

DIRS = {"THREEUP_STATE_DIR": "state", "THREEUP_CONFIG_DIR": "config", "THREEUP_DATA_DIR": "data"}


@pytest.fixture(autouse=True)
def own_directories(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> dict[str, Path]:
    """THREEUP_STATE_DIR, _CONFIG_DIR and _DATA_DIR in a fresh temporary
    directory for this test; no test runs as a confined guest unless it says so."""
    base = tmp_path_factory.mktemp("threeup-dirs")
    paths = {name: base / leaf for name, leaf in DIRS.items()}
    for name, path in paths.items():
        monkeypatch.setenv(name, str(path))
    monkeypatch.delenv("THREEUP_GUEST", raising=False)
    return paths
