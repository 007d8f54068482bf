"""Keys the terminal sends that Textual cannot read are dropped, not fatal.

Textual's own parser, fed what a door guest can type: some extended-key
sequences made it raise in the app's input thread, and the app ended with
a traceback (threeup_tui/app/keyparser.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from textual import events
from textual._xterm_parser import XTermParser

from threeup_tui.app.app import create_app

# Each made Textual 8's parser raise (ValueError from int() or chr()).
UNREADABLE = [
    "\x1b[1;:u",  # a colon where the modifiers go
    "\x1b[:1u",
    "\x1b[1:2;1u",
    "\x1b[1114112u",  # a code point past U+10FFFF
    "\x1b[97;1;99999999u",  # text past U+10FFFF
    "\x1b[8564085812S",  # OverflowError
]


def keys_read(text: str) -> list[str]:
    parser = XTermParser()
    read = list(parser.feed(text)) + list(parser.feed(""))
    return [event.key for event in read if isinstance(event, events.Key)]


def test_the_app_drops_keys_textual_cannot_read_and_reads_on() -> None:
    create_app()  # the app guards Textual's parser as it is made
    for sequence in UNREADABLE:
        assert keys_read(sequence + "q") == ["q"], sequence
    # Keys it can read are read as before: Ctrl+0 and 0 in the kitty protocol.
    assert keys_read("\x1b[48;5u") == ["ctrl+0"]
    assert keys_read("\x1b[97u") == ["a"]


@given(
    st.sampled_from(["\x1b[", "\x1b[48;", "\x1b[<", "\x1b[?"]),
    st.text(alphabet="0123456789;:", max_size=14),
    st.sampled_from(list("uABCDEFHPQRS~t")),
)
def test_no_escape_sequence_a_guest_types_ends_the_app(start: str, body: str, end: str) -> None:
    create_app()
    keys_read(start + body + end + "q")  # raises nothing
