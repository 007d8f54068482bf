"""An opponent's one-line row at 40 columns says something whole: the name,
the hand, the up cards (all, or the first and how many more) and the down
cards, with no part cut off at the end ("up R7 …+2…", "▒▒▒…" were what it
showed)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from app_fakes import ScriptedClient
from app_helpers import screen_text, wait_for
from table_states import long_known, open_table, played_until, table_app
from text_fit import cut_text, hidden_cards, region_lines

from threeup_tui.app.text import card_label
from threeup_tui.app.widgets.opponent import OpponentInfo, OpponentPane, compact_line
from threeup_tui.app.widgets.opponent import row_style as style_alone
from threeup_tui.app.widgets.status_line import StatusLine
from threeup_tui.client import SeatSlot
from threeup_tui.rules import GameState, SeatInfo, View

BOTS = ["you", *(f"expert bot {n}" for n in range(1, 6))]


def no_known(state: GameState, view: View) -> bool:
    """Our turn, every opponent with three cards face up and none known."""
    return (
        view.my_turn
        and view.moves_played > 6
        and all(len(s.face_up) == 3 and not s.known for s in view.seats[1:])
    )


@pytest.mark.parametrize("want", [no_known, long_known], ids=["no-known", "long-known"])
async def test_a_row_at_40_columns_keeps_its_cards_whole(
    client: ScriptedClient, want: Callable[[GameState, View], bool]
) -> None:
    state = played_until(BOTS, want)
    app = table_app(client)
    async with app.run_test(size=(40, 15)) as pilot:
        screen = await open_table(pilot, client, state)
        rows = []
        for pane in screen.query(OpponentPane):
            data = pane.data
            assert data is not None
            info = data.info
            row = pane.render().plain
            rows.append(row)
            where = f"{row!r}\n{screen_text(app)}"
            assert data.name in row, where  # the name whole: no two bots read alike
            assert f"hand {info.hand_size}" in row, where
            # Nothing left out but the known cards, and a "…" of its own says so.
            if info.known and "known" not in row:
                assert row.rstrip().endswith("│…"), where
            else:
                assert not row.rstrip().endswith("…"), where
            # Bars without spaces: no row says "up" where the next does not.
            if " │ " not in row:
                assert "│up " not in row, where
            # Every up card, or the first ones and how many more: all accounted for.
            up = [card_label(c) for c in info.face_up]
            cut = row.split("│")[2].split()
            shown = [w for w in cut if not w.startswith("…+") and w != "up"]
            more = [int(w[2:]) for w in cut if w.startswith("…+")]
            assert shown == up[: len(shown)] and len(shown) + sum(more) == len(up), where
            assert "▒" * info.face_down_count in row, where
        assert len(rows) == 5


def test_tight_rows_all_leave_out_up_alike() -> None:
    """At 40 columns (37 cells a row) one bot's row read "up R6 R8 B9" and
    the next "G3 B3 BC+1": short cards kept the word the long ones lost.
    Rows whose bars lose their spaces all lose "up" with them."""
    rows = []
    for seat, face_up in ((1, ("R6", "R8", "B9")), (2, ("G3", "B3", "BC1"))):
        info = SeatInfo(seat, f"expert bot {seat}", 3, face_up, (True,) * 3, (), True, False)
        slot = SeatSlot(seat, info.name, "bot", True, "expert")
        rows.append(compact_line(OpponentInfo(info, info.name, slot, False, "play", None, 6), 37))
    plain = [row.plain for row in rows]
    assert "│R6 R8 B9│▒▒▒" in plain[0] and "│G3 B3 BC+1│▒▒▒" in plain[1], plain


def row_style(row: str) -> tuple[bool, bool, bool]:
    """How a row is written: with spaced bars, with the words "up" and "down"."""
    return (" │ " in row, "│ up " in row or "│up " in row, "│ down " in row or "│down " in row)


async def test_the_rows_of_one_table_share_one_style(client: ScriptedClient) -> None:
    """Rows were fitted one at a time: at one width a short name's row kept
    its spaced bars and "up" while a long name's row beside it lost them,
    and "down" came and went from row to row, and on bare rows a bot's
    "⚙".  Every row of a table now takes the tightest look any of them
    needs, at every width from 40 to 99 columns (the compact rows).  The
    presence words stay each row's own: they differ from seat to seat
    anyway."""
    names = ["you", "Bo", "Bartholomew Fitzwilliams", "Cy", "Dominique Florentina", "Ed"]
    state = played_until(names, no_known)
    app = table_app(client)
    mixed, seen = [], {}
    async with app.run_test(size=(99, 30)) as pilot:
        screen = await open_table(pilot, client, state)
        for width in range(99, 39, -1):
            await pilot.resize_terminal(width, 30)
            await pilot.pause()
            rows = [pane.render().plain for pane in screen.query(OpponentPane)]
            assert len(rows) == 5
            styles = {row_style(row) for row in rows}
            # Bare rows: a bot's "⚙" on one and not the next read as two kinds of seat.
            symbols = {"⚙" in row for row in rows if " │ " not in row}
            if len(styles) > 1 or len(symbols) > 1:
                mixed.append((width, rows))
            seen[width] = rows
    assert mixed == [], "\n".join(f"{w}: {rows}" for w, rows in mixed[:3])
    # The tightest look, and no tighter: at 60 columns the long names' rows
    # lose "down" and with them the others; the spaced bars and "up" stay.
    assert seen[60][0] == "  Bo ⚙ greedy bot │ hand 3 │ up R7 RC GC+2 │ ▒▒▒", seen[60]
    # At 58 the longest name's row loses its spaced bars and "up": all do.
    assert seen[58][0] == "  Bo ⚙ greedy bot│hand 3│R7 RC GC+2│▒▒▒", seen[58]


def rows_on_screen(app: object) -> list[str]:
    """The opponents' rows the screen shows, each as it reads."""
    screen = app.screen  # type: ignore[attr-defined]
    region = screen.query_one("#opponents").content_region
    return [line.strip() for line in region_lines(app, region)]  # type: ignore[arg-type]


async def test_a_short_table_shows_the_rows_it_has_lines_for_and_names_the_rest(
    client: ScriptedClient,
) -> None:
    """Under 20 lines the opponents' rows had two lines: at 40x15 two of
    five showed, over two blank lines, and nothing said three more were
    scrolled away.  They take the lines your cards leave: all five at
    40x15; at 44x14 three, and a line names the two out of sight (the
    first ones, once the list is scrolled to its end)."""
    state = played_until(BOTS, no_known)
    app = table_app(client)
    async with app.run_test(size=(40, 15)) as pilot:
        await open_table(pilot, client, state)
        await pilot.pause()
        rows = rows_on_screen(app)
        assert [row.split("│")[0].strip(" ⚙") for row in rows] == BOTS[1:], screen_text(app)
        assert "Hand" in screen_text(app) and hidden_cards(app) == []
        assert cut_text(app) == []

        await pilot.resize_terminal(44, 14)
        await pilot.pause()
        await pilot.pause()
        rows = rows_on_screen(app)
        assert len(rows) == 3 and rows[0].startswith("expert bot 1"), screen_text(app)
        note = app.screen.query_one("#opponents-more")
        assert note.render().plain == "+2 more: expert bot 4, expert bot 5", screen_text(app)
        assert "Hand" in screen_text(app) and hidden_cards(app) == []
        assert cut_text(app) == []

        app.screen.query_one("#opponents").scroll_end(animate=False)
        await pilot.pause()
        await pilot.pause()
        assert rows_on_screen(app)[-1].startswith("expert bot 5"), screen_text(app)
        assert note.render().plain == "+2 more: expert bot 1, expert bot 2", screen_text(app)


async def test_a_short_table_shares_its_lines_with_a_two_line_notice(
    client: ScriptedClient,
) -> None:
    """A notice too long for one line takes two on the status line.  On a
    short table the rows were fitted only on a resize and on a game
    update: at 40x15 the notice took the hand's line (the hand was gone
    while it showed), and the rows took no notice of it closing.  Now the
    rows give the notice a line, and take it back as the notice goes."""
    state = played_until(BOTS, no_known)
    app = table_app(client)
    async with app.run_test(size=(40, 15)) as pilot:
        await open_table(pilot, client, state)
        await pilot.pause()
        assert len(rows_on_screen(app)) == 5, screen_text(app)
        line = app.screen.query_one(StatusLine)
        app.notify("a notice long enough to need two lines of the status line", timeout=1)
        await wait_for(pilot, lambda: line.size.height == 2, what="a two-line notice")
        await pilot.pause()
        await pilot.pause()
        assert hidden_cards(app) == [] and "Hand" in screen_text(app), screen_text(app)
        note = app.screen.query_one("#opponents-more")
        assert note.display and "+2 more" in note.render().plain, screen_text(app)
        await wait_for(pilot, lambda: line.size.height == 1, what="the notice closing")
        await pilot.pause()
        await pilot.pause()
        rows = rows_on_screen(app)
        assert len(rows) == 5 and all(rows) and not note.display, screen_text(app)


def test_a_rows_style_comes_from_its_widths_never_from_its_letters() -> None:
    """The style a row takes (what the rows of the table share) was read
    back from the drawn line: a part starting "down " meant the down cards
    kept their word.  A name is anyone's to choose, and "Bo│down 2" read
    as a row that kept "down" where it had lost it, so the other rows kept
    theirs and the table's rows differed.  The fitting says which forms it
    chose: a name of the same width gives the same style."""
    info = SeatInfo(1, "x", 3, ("R7", "GC", "B9"), (True, True, True), (), True, False)
    for width in range(24, 61):
        styles = set()
        for name in ("Bo│down 2", "Bo_down_2"):
            data = OpponentInfo(replace(info, name=name), name, None, False, "play", None, 4)
            styles.add(style_alone(data, width))
        assert len(styles) == 1, (width, styles)


@pytest.mark.parametrize("connected, word", [(False, "left"), (True, "away")])
def test_a_row_at_40_columns_says_why_a_bot_plays_a_persons_seat(
    connected: bool, word: str
) -> None:
    """At 40 columns (37 cells a row) "Ann ◐ │ hand 5 │ up R6 R8 B9 │ ▒▒▒"
    kept its spaced bars and lost the word: Ann who left read as Ann away.
    The bars lose their spaces (and "up") before that word goes."""
    info = SeatInfo(1, "Ann", 5, ("R6", "R8", "B9"), (True,) * 3, (), True, False)
    slot = SeatSlot(1, "Ann", "human", connected, "greedy")
    data = OpponentInfo(info, "Ann", slot, False, "play", None, 4)
    row = compact_line(data, 37).plain
    assert f"Ann ◐ {word}│hand 5│R6 R8 B9│" in row, row
    assert style_alone(data, 37).way == 1, row  # the other rows take the bare bars too
