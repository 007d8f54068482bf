"""The Linux console (TERM=linux): every screen, as the console is sent it,
holds only characters its font shows (threeup_tui.app.glyphs).

The console's font is the kernel's CP437 one: a tick, a gear, a rounded
corner or one of Textual's eighth blocks showed as a square there, so a
player could not see which card was selected or which seat a bot plays.
The fallbacks are applied where the app writes to its terminal (the real
driver: tests/e2e/test_app_terminals.py); here, on what every screen draws.
"""

from __future__ import annotations

import pytest
from app_helpers import screen_text
from rich.cells import cell_len

from threeup_tui.app.glyphs import (
    CONSOLE_CHARACTERS,
    FALLBACKS,
    console_driver,
    for_the_console,
    on_the_console,
)
from threeup_tui.app.scenes import WIDE_GUEST, WIDE_HELLO, WIDE_HOST, scenes
from threeup_tui.app.widgets.card_art import BORDERS

SCENES = {s.name: s for s in scenes()}


def missing(text: str) -> set[str]:
    return {c for c in text if c != "\n" and c not in CONSOLE_CHARACTERS}


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", list(SCENES))
async def test_every_screen_draws_only_what_the_console_shows(
    name: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TERM", "linux")
    scene = SCENES[name]
    app = scene.app()
    async with app.run_test(size=size) as pilot:
        await scene.drive(pilot)
        drawn = screen_text(app)
    shown = for_the_console(drawn)
    # What players type is theirs (王小明's name, a "👋"): the console shows
    # its own square for what its font lacks.  The app's own marks must be there.
    theirs = set(WIDE_HOST + WIDE_GUEST + WIDE_HELLO) if name == "lobby-wide" else set()
    assert not missing(shown) - theirs, (name, sorted(missing(shown) - theirs))
    assert len(shown) == len(drawn)  # one character for one: nothing moves
    if name in ("table", "setup"):  # a card chosen: the tick's stand-in shows it
        assert "✓" in drawn and "*" in shown
    if name in ("lobby", "table"):  # a bot's seat keeps its mark
        assert "⚙" in drawn and "#" in shown


def test_each_fallback_is_in_the_console_font_and_as_wide() -> None:
    for glyph, instead in FALLBACKS.items():
        assert glyph not in CONSOLE_CHARACTERS, glyph  # else it needs none
        assert len(instead) == 1 and instead in CONSOLE_CHARACTERS, glyph
        assert cell_len(glyph) == cell_len(instead) == 1, glyph


def test_the_three_card_frames_stay_three_on_the_console() -> None:
    """Plain, under the cursor, selected: heavy lines all double made the
    cursor's frame the selection's, and the cursor on a selected card was lost."""
    frames = {kind: for_the_console(chars) for kind, chars in BORDERS.items()}
    assert len(set(frames.values())) == 3, frames
    for kind, chars in frames.items():
        assert not missing(chars), kind


def test_only_the_console_is_drawn_for() -> None:
    for term in ("linux", "linux-16color", " Linux "):
        assert on_the_console(term), term
    for term in ("xterm", "xterm-256color", "screen", "tmux-256color", "", "vt100", "dumb"):
        assert not on_the_console(term), term


def test_the_console_driver_writes_fallbacks_and_leaves_escapes() -> None:
    written: list[str] = []

    class Recorder:
        def __init__(self, *args: object, **kwargs: object) -> None:
            pass

        def write(self, data: str) -> None:
            written.append(data)

    driver = console_driver(Recorder)()  # type: ignore[arg-type]
    driver.write("\x1b[1;31m✓ ⚙ ╭─╮ ▔▁ R7\x1b[0m")
    assert written == ["\x1b[1;31m* # ┌─┐ ▀▄ R7\x1b[0m"]
