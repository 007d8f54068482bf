"""Snapshots of every screen at 80x24 and 120x40 (pytest-textual-snapshot).

The scenes are fixed (seeded deals and bots, no bot delay, toasts and
cursor blink removed), so a changed picture means a changed screen.
Update after an intended change with ``--snapshot-update``.
"""

from __future__ import annotations

from typing import Any

import pytest

from threeup_tui.app.scenes import scenes

SIZES = [(80, 24), (120, 40)]
SCENES = {s.name: s for s in scenes()}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", list(SCENES))
def test_screen(snap_compare: Any, name: str, size: tuple[int, int]) -> None:
    scene = SCENES[name]
    assert snap_compare(scene.app(), terminal_size=size, run_before=scene.drive)
