"""Names keep their letters: one cleaning for names over UDP and over SSH."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len

from threeup_tui.names import MAX_NAME_CELLS, clean_name, distinct_name
from threeup_tui.table import Table, TableConfig


def test_every_letter_is_kept() -> None:
    for name in ("山田", "田中", "Zoë", "Ærøskøbing", "Ann-Marie O'Neil", "ab", "[42]", "[Ann]"):
        assert clean_name(name, "x") == name
    # "[b]" is a markup tag (bold), and goes; the two names stay two.
    assert clean_name("a[b]", "x") == "a" != clean_name("ab", "x")


def test_control_format_characters_and_markup_go() -> None:
    assert clean_name("\x1b[31mEve\x07", "x") == "[31mEve"  # ESC and BEL gone, letters kept
    assert clean_name("Bob\u202e\u200bby", "x") == "Bobby"  # a bidi override, a zero-width space
    assert clean_name("[bold red]Eve[/bold red]", "x") == "Eve"
    assert clean_name("[link=http://x]Eve[/]", "x") == "Eve"
    assert clean_name("[b[i]]x", "x") == "x"  # a tag left by removing another goes too
    assert clean_name("  Ann \n\t Lee  ", "x") == "Ann Lee"
    assert clean_name("\x00\x1b", "fallback") == "fallback"
    assert clean_name(42, "fallback") == "fallback"


def test_names_are_cut_by_display_width_never_inside_a_character() -> None:
    wide = clean_name("山" * 20, "x")
    assert wide == "山" * 12 and cell_len(wide) == 24
    assert clean_name("a" + "山" * 12, "x") == "a" + "山" * 11  # 23 cells: the next needs 2
    accented = clean_name("e\u0301" * 30, "x")  # decomposed: NFC makes each one character
    assert accented == "é" * 24
    combining = clean_name("x" * 23 + "y\u0302\u0323", "x")  # marks stay with their letter
    nfd = unicodedata.normalize
    assert nfd("NFD", combining)[23:] == nfd("NFD", "y\u0302\u0323")


def test_marks_that_follow_no_letter_and_piles_of_marks_go() -> None:
    """An SSH door helper seated a name of combining marks alone: it showed
    as nothing in the lobby.  A mark after a space, or before any letter,
    bends whatever stands before it on screen; hundreds on one letter pile
    up across the rows above it."""
    assert clean_name("\u0301\u0308\u0323", "player") == "player"
    assert clean_name("\u0301Ann \u0308Lee", "x") == "Ann Lee"
    piled = clean_name("Z" + "\u0336\u0337\u0338" * 100, "x")
    assert piled == "Z\u0336\u0337\u0338\u0336" and cell_len(piled) == 1
    # Real names keep their marks: Hindi and Thai write vowels and tones so.
    for name in ("क्षितिज", "ที่นี่", "Nguyễn"):
        assert clean_name(name, "x") == name


def test_characters_that_draw_nothing_go_from_names_and_chat() -> None:
    """A player who sat as three HANGUL FILLERs (letters that draw nothing)
    showed as a blank name, and each chat line naming them pushed the chat
    box's right border off the row in tmux (which draws a filler 2 cells
    wide, where the app counts 0).  Such characters go, like zero-width ones;
    real Hangul stays."""
    fillers = "\u3164\u3164\u3164"
    assert clean_name(fillers, "player") == "player"
    assert clean_name("Ann\u3164\u115f\u1160\uffa0\u034f", "x") == "Ann"
    assert clean_name("한국", "x") == "한국"
    table = Table(TableConfig(players=2))
    seat, _ = table.seat_human(fillers + "Eve", "e" * 32)
    assert table.seats[seat].name == "Eve"
    table.chat(seat, f"hi {fillers} there\ufe0f\U000e0100")
    assert table.chat_log[-1].text == "hi there"
    assert all(cell_len(ch) > 0 for ch in table.chat_log[-1].text)


def test_emoji_skin_tone_modifiers_go_from_names_and_chat() -> None:
    """A spectator's chat line "skin 👍🏽👍🏿👋🏻 end|" lost its end and the
    chat box's right border in ann's app under tmux, which draws each
    modifier beside its emoji (2 cells more each) where the app counts none.
    The modifiers go; the emoji stay."""
    assert clean_name("Ann👍🏽", "x") == "Ann👍"
    assert clean_name("🏿", "player") == "player"
    table = Table(TableConfig(players=2))
    seat, _ = table.seat_human("Eve", "e" * 32)
    table.chat(seat, "skin 👍🏽👍🏿👋🏻 end|")
    assert table.chat_log[-1].text == "skin 👍👍👋 end|"


def test_two_players_with_one_name_are_told_apart() -> None:
    assert distinct_name("Ann", ["Bob"]) == "Ann"
    assert distinct_name("Ann", ["Ann"]) == "Ann (2)"
    assert distinct_name("ann", ["Ann", "Ann (2)"]) == "ann (3)"
    long = "山" * 12
    shown = distinct_name(long, [long])
    assert shown.endswith(" (2)") and cell_len(shown) <= MAX_NAME_CELLS


def test_the_table_seats_two_anns_as_two_players() -> None:
    table = Table(TableConfig(players=3))
    first, _ = table.seat_human("Ann", "a" * 32)
    second, _ = table.seat_human("Ann", "b" * 32)
    third, _ = table.seat_human("山田", "c" * 32)
    assert [s.name for s in table.seats] == ["Ann", "Ann (2)", "山田"]
    # The token, not the name, gives a seat back.
    assert table.seat_of_token("a" * 32) == first and table.seat_of_token("b" * 32) == second
    assert table.seat_of_token("d" * 32) is None and third == 2


def test_a_bot_added_after_a_player_with_its_name_is_told_apart() -> None:
    """A bot is a newcomer too: a player who sat as "random bot 2" is not
    read as the bot the host adds at seat 2 next.  (Found by
    tests/seats/test_table_stateful.py: both seats read "random bot 2".)"""
    table = Table(TableConfig(players=3))
    table.seat_human("random bot 2", "a" * 32)
    table.add_bot(None, "random")
    table.add_bot(None, "greedy")
    assert [s.name for s in table.seats] == ["random bot 2", "random bot 2 (2)", "greedy bot 3"]


@given(st.text(max_size=80))
def test_any_text_becomes_a_safe_short_name(text: str) -> None:
    name = clean_name(text, "fallback")
    assert name
    assert cell_len(name) <= MAX_NAME_CELLS
    assert all(ch == " " or unicodedata.category(ch)[0] != "C" for ch in name)
    assert name == name.strip() and "  " not in name
    assert clean_name(name, "fallback") == name  # cleaning a clean name changes nothing
