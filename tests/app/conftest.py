"""Fixtures of the app tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_fakes import ScriptedClient

from threeup_tui.client.local import LocalClient


@pytest.fixture(autouse=True)
def in_an_empty_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each app test runs where no file is: the game-over box offers the first
    record name no file has, and a record a test saves lands here."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def client() -> ScriptedClient:
    return ScriptedClient()


@pytest.fixture
def bots_table_with_chat(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scenes' games against bots (set-up, game over) as a table that
    people share: with its chat.  A game against bots has none (nobody
    reads it); the tests that use this check the chat, the scene is their
    stage."""
    monkeypatch.setattr(LocalClient, "alone", property(lambda self: False))
