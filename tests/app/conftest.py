"""Fixtures of the app tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_fakes import ScriptedClient


@pytest.fixture(autouse=True)
def in_an_empty_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each app test runs where no file is: the game-over box offers the first
    record name no file has, and a record a test saves lands here."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def client() -> ScriptedClient:
    return ScriptedClient()
