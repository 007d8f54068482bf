"""The app in terminals of other kinds (a locale that is not UTF-8, 16
colours): the real app in tmux panes at 80x24."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from threeup_tui.app.glyphs import CONSOLE_CHARACTERS

from .conftest import Tmux

SGR = re.compile(r"\x1b\[([\d;]*)m|([^\x1b]+)")
CARD = re.compile(r"(?<![\w+])([RGB])(?:10|[1-9]|C\+?[12]?)(?![\w+])")
BASIC = {"R": "31", "G": "32", "B": "34"}  # the terminal's own red, green and blue


def test_the_app_draws_its_boxes_under_a_locale_that_is_not_utf8(tmux: Tmux) -> None:
    # PYTHONIOENCODING stands in for an installed ISO-8859-1 locale (this
    # machine has none): either way Python's stderr writes Latin-1.
    env = {"TERM": "xterm-256color", "LANG": "C.UTF-8", "PYTHONIOENCODING": "latin-1"}
    tmux.new("app", f"{sys.executable} -m threeup_tui; echo EXIT=$?; sleep 60", env=env)
    screen = tmux.wait_for("app", "Play against bots")
    assert "\\u" not in screen  # no box or card back written as an escape
    assert "▊ Play against bots" in screen  # the menu's frame, as drawn in UTF-8
    tmux.keys("app", "q")
    assert "EXIT=0" in tmux.wait_for("app", "EXIT=")


def test_keys_textual_cannot_read_do_not_end_the_app(tmux: Tmux) -> None:
    """Six keys (ESC [ 1 ; : u, which a door guest can type) made Textual's
    parser raise in the app's input thread: a traceback, and the app gone.
    The app drops them and reads on."""
    env = {"TERM": "xterm-256color", "LANG": "C.UTF-8"}
    tmux.new("app", f"{sys.executable} -m threeup_tui; echo EXIT=$?; sleep 60", env=env)
    tmux.wait_for("app", "Play against bots")
    for unreadable in (b"\x1b[1;:u", b"\x1b[1114112u"):
        tmux.keys("app", "-H", *(f"{byte:02x}" for byte in unreadable))  # as bytes
    # The app reads on past them: + makes the table one larger.  (Gone, it
    # showed a traceback and still exited 0: Textual catches the error.)
    tmux.wait_for("app", "You against 3 greedy bots")
    tmux.keys("app", "+")
    tmux.wait_for("app", "You against 4 greedy bots")
    tmux.keys("app", "q")
    assert "EXIT=0" in tmux.wait_for("app", "EXIT=")


def test_a_terminal_that_moves_no_cursor_is_told_so_in_one_line(tmux: Tmux) -> None:
    """TERM=dumb (Emacs's M-x shell, a serial line) cannot draw a screen;
    the app drew one all the same: escapes for every frame, keys read raw,
    and nothing said.  Now one line says why and what to do, before any
    screen (with one drawn, the app ran on and no EXIT came)."""
    tmux.new("dumb", f"env TERM=dumb {sys.executable} -m threeup_tui play; echo EXIT=$?; sleep 60")
    screen = tmux.wait_for("dumb", "EXIT=")
    assert "EXIT=2" in screen
    said = screen[: screen.index("EXIT=")].replace("\n", "")  # the pane wraps the line
    assert said.startswith("threeup play: TERM=dumb cannot draw the app"), screen
    assert "TERM=xterm-256color" in said and "--headless" in said


def hand_colours(line: str) -> dict[str, set[str]]:
    """The foreground each card's colour letter is drawn in on one line of
    a pane captured with its escapes: R, G, B to a set of SGR codes ("31",
    or "38;5;N" for one of 256 colours)."""
    seen: dict[str, set[str]] = {}
    colour = "39"
    for found in SGR.finditer(line):
        params, text = found.groups()
        if text is None:
            codes = (params or "0").split(";")
            i = 0
            while i < len(codes):
                code = codes[i]
                if code in ("0", "39"):
                    colour = "39"
                elif code in ("38", "48"):
                    if code == "38":
                        colour = ";".join(codes[i : i + 3])
                    i += 2 if codes[i + 1 : i + 2] == ["5"] else 4
                elif len(code) == 2 and code[0] in "39" and code[1] in "01234567":
                    colour = code
                i += 1
            continue
        for card in CARD.finditer(text):
            seen.setdefault(card.group(1), set()).add(colour)
    return seen


def test_a_terminal_of_16_colours_shows_the_cards_in_its_own_colours(
    tmux: Tmux, own_directories: dict[str, Path]
) -> None:
    """TERM=xterm (or the Linux console) has 16 colours.  The default theme's
    tints brought down to 16 made every card the same white; such a
    terminal starts in its own colours (not remembered: the same player may
    come back in a terminal of millions), red cards red, green green and
    blue blue.  A terminal of 256 colours keeps the default theme."""
    app = f"{sys.executable} -m threeup_tui play --players 2 --seed 5"
    for name, term in (("sixteen", "xterm"), ("many", "xterm-256color")):
        # In the command: tmux sets TERM for its panes over what -e gives.
        command = f"env TERM={term} COLORTERM= {app}; echo EXIT=$?; sleep 60"
        tmux.new(name, command, env={"LANG": "C.UTF-8"})
        tmux.wait_for(name, "Chosen 0/3")
        line = next(
            line
            for line in tmux.screen(name, escapes=True).splitlines()
            if re.sub(r"\x1b\[[\d;]*m", "", line).lstrip().startswith(("G", "R", "B"))
        )
        colours = hand_colours(line)
        assert colours, line
        if term == "xterm":
            assert colours == {k: {BASIC[k]} for k in colours}, repr(line)
        else:
            assert not set().union(*colours.values()) & set(BASIC.values()), repr(line)
        tmux.keys(name, "q")
        tmux.wait_for(name, "Leave this game?")  # the question, not the footer's "q Leave"
        tmux.keys(name, "y")
        tmux.wait_for(name, "Continue your game")  # the start screen: quit from there
        tmux.keys(name, "q")
        assert "EXIT=0" in tmux.wait_for(name, "EXIT=")
    settings = own_directories["THREEUP_CONFIG_DIR"] / "settings.toml"
    assert not settings.exists() or "theme" not in settings.read_text()


def test_the_linux_console_is_sent_only_glyphs_its_font_has(tmux: Tmux) -> None:
    """The console's font (CP437) has no tick, gear, rounded corner or
    Textual's eighth blocks: it showed a square for each, so the card chosen
    was not seen.  Under TERM=linux the app writes the console's own glyphs
    (threeup_tui.app.glyphs); under any other TERM exactly what it did."""
    app = f"{sys.executable} -m threeup_tui play --players 2 --seed 5"
    for name, term in (("console", "linux"), ("modern", "xterm-256color")):
        command = f"env TERM={term} COLORTERM= {app}; echo EXIT=$?; sleep 60"
        tmux.new(name, command, env={"LANG": "C.UTF-8"})
        tmux.wait_for(name, "Chosen 0/3")
        tmux.keys(name, "1")
        screen = tmux.wait_for(name, "Chosen 1/3")
        outside = {c for c in screen if c != "\n" and c not in CONSOLE_CHARACTERS}
        if term == "linux":
            assert not outside, sorted(outside)
            assert "*" in screen  # the chosen card's mark
        else:
            assert "✓" in screen and outside  # the modern terminal's glyphs, as before
        tmux.keys(name, "q")
        tmux.wait_for(name, "Leave this game?")  # the question, not the footer's "q Leave"
        tmux.keys(name, "y")
        tmux.wait_for(name, "Continue your game")
        tmux.keys(name, "q")
        assert "EXIT=0" in tmux.wait_for(name, "EXIT=")


@pytest.mark.parametrize(
    ("setting", "words"),
    [
        ("TEXTUAL_COLOR_SYSTEM=monochrome", "TEXTUAL_COLOR_SYSTEM='monochrome' is not a colour"),
        ("TEXTUAL_COLOR_SYSTEM=", "TEXTUAL_COLOR_SYSTEM='' is not a colour"),
        ("TEXTUAL_DRIVER=nowhere:Driver", "TEXTUAL_DRIVER='nowhere:Driver' names no Textual"),
        ("TEXTUAL_DRIVER=textual.app:App", "TEXTUAL_DRIVER='textual.app:App' names no Textual"),
    ],
)
def test_a_textual_setting_it_cannot_use_is_told_in_one_line(
    tmux: Tmux, setting: str, words: str
) -> None:
    """Textual hands TEXTUAL_COLOR_SYSTEM to Rich unchecked and imports
    TEXTUAL_DRIVER as given: a value neither knows ended the app in a
    traceback (KeyError: 'monochrome') before its first screen."""
    app = f"{sys.executable} -m threeup_tui"
    tmux.new("set", f"env TERM=xterm-256color '{setting}' {app}; echo EXIT=$?; sleep 60")
    screen = tmux.wait_for("set", "EXIT=")
    assert "EXIT=2" in screen, screen
    said = screen[: screen.index("EXIT=")].replace("\n", "")  # the pane wraps the line
    assert said.startswith(f"threeup: {words}"), screen
    assert "Traceback" not in screen and "unset it" in said
