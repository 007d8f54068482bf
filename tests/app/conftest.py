"""Fixtures of the app tests."""

from __future__ import annotations

import pytest
from app_fakes import ScriptedClient


@pytest.fixture
def client() -> ScriptedClient:
    return ScriptedClient()
