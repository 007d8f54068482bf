"""Scrolling panes scroll with ↑ ↓ PgUp PgDn Home End without Tab first, and
the replay steps with its own keys whatever is focused; at the table, Tab
brings the focus to the moves or the chat, which then scroll with them."""

from __future__ import annotations

import contextlib
import re
import tempfile

import pytest
from app_fakes import ScriptedClient
from app_helpers import fast_launcher, screen_text, send_at_once, wait_for
from rich.cells import cell_len
from table_states import hand_empty, open_table, played_until, table_app
from text_fit import footer_keys
from textual.binding import Binding
from textual.pilot import Pilot
from textual.widgets import Button, Input, Static

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.rules_text import BUILTIN_RULES, KEYS_HELP
from threeup_tui.app.scenes import demo_record, scenes
from threeup_tui.app.screens.confirm import ConfirmScreen
from threeup_tui.app.screens.game_over import GameOverScreen, RecordPathInput
from threeup_tui.app.screens.help import HelpScreen
from threeup_tui.app.screens.lobby import LobbyScreen
from threeup_tui.app.screens.replay import ReplayScreen
from threeup_tui.app.screens.setup import SetupScreen
from threeup_tui.app.screens.start import StartScreen
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.app.widgets.move_log import MoveLog
from threeup_tui.bots import GreedyBot
from threeup_tui.client import ActionRejected, ViewChanged
from threeup_tui.rules import Move, seat_view

LONG_RULES = BUILTIN_RULES + "".join(f"\n\n## More {i}\n\nline {i} of the rules" for i in range(40))


@pytest.mark.parametrize("tab", ["rules", "keys"])
async def test_help_pages_scroll_at_once(tab: str) -> None:
    app = create_app(fast_launcher(), StartSpec(), rules_text=LONG_RULES)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
        app.show_help(tab)
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen) and app.screen.is_mounted)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        page = screen.page()
        if page.max_scroll_y == 0:
            pytest.skip("the page fits: nothing to scroll")
        await pilot.press("pagedown")
        await wait_for(pilot, lambda: page.scroll_y > 0, what="PgDn to scroll")
        await pilot.press("end")
        await wait_for(pilot, lambda: page.scroll_y == page.max_scroll_y, what="End")
        await pilot.press("home")
        await wait_for(pilot, lambda: page.scroll_y == 0, what="Home")
        await pilot.press("down", "down")
        await wait_for(pilot, lambda: page.scroll_y > 0, what="↓")
        await pilot.press("up", "up")
        await wait_for(pilot, lambda: page.scroll_y == 0, what="↑")
        # Focus elsewhere (the tabs): the keys still scroll the page.
        await pilot.press("shift+tab")
        await pilot.press("pagedown")
        await wait_for(pilot, lambda: page.scroll_y > 0, what="PgDn with the tabs focused")


async def test_the_other_tab_scrolls_too() -> None:
    app = create_app(fast_launcher(), StartSpec(), rules_text=LONG_RULES)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
        app.show_help("keys")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen) and app.screen.is_mounted)
        await pilot.press("r")  # to the rules tab
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        await pilot.pause()
        page = screen.page()
        assert page.id == "rules-page" and page.max_scroll_y > 0
        await pilot.press("pagedown")
        await wait_for(pilot, lambda: page.scroll_y > 0, what="PgDn on the rules tab")


async def replay_shown(pilot: Pilot[int]) -> ReplayScreen:
    """The replay viewer, once it is on the screen."""
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.is_mounted)
    screen = app.screen
    assert isinstance(screen, ReplayScreen)
    return screen


async def test_a_six_player_replay_steps_with_its_keys_at_80x24() -> None:
    record = demo_record(players=6, seed=1)
    total = len(record.moves)
    app = create_app(fast_launcher(), StartSpec(mode="replay", record=record, record_name="sim6"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await replay_shown(pilot)
        seats = screen.query_one("#replay-seats")
        assert seats.max_scroll_y > 0  # six seats do not fit: the pane scrolls
        for _ in range(3):
            await pilot.press("tab")  # whatever takes the focus, the keys step
            await pilot.press("pagedown")
        assert screen.index == 30 and f"move 30 of {total}" in screen_text(app)
        await pilot.press("end")
        assert screen.index == total
        await pilot.press("pageup", "home")
        assert screen.index == 0
        await pilot.press("right")
        assert screen.index == 1
        await pilot.press("down", "down", "down")
        await wait_for(pilot, lambda: seats.scroll_y > 0, what="↓ to scroll the seats")
        assert screen.index == 1


async def test_a_line_typed_at_once_after_c_goes_to_the_chat_not_to_the_cards(
    client: ScriptedClient,
) -> None:
    """Keys that arrive together (a fast typist, a paste) after `c`: every
    letter lands in the chat line; none plays (p), picks up (u) or leaves (q)."""
    state = played_until(["you", "bot"], lambda s, v: v.my_turn and len(v.hand) >= 3)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, client, state)
        await pilot.press("space")  # a card selected: `p` would play it
        text = "quick pup, flip it"
        send_at_once(app, ["c", *text])
        chat_input = screen.query_one("#chat-input", Input)
        await wait_for(pilot, lambda: len(chat_input.value) == len(text) or client.requests)
        assert chat_input.value == text, (app.focused, client.requests, app.screen)
        assert app.screen is screen, "a letter opened another screen"
        assert not [r for r in client.requests if r[0] != "chat"], client.requests
        await pilot.press("enter")
        await wait_for(pilot, lambda: ("chat", text) in client.requests)


async def test_two_lines_sent_in_one_burst_stay_two_lines(client: ScriptedClient) -> None:
    """`c a1 Enter c b2 Enter` arriving together once gave "a1" and "a1cb2":
    the keys after Enter were typed on after the sent line."""
    state = played_until(["you", "bot"], lambda s, v: v.my_turn and len(v.hand) >= 3)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, client, state)
        send_at_once(app, ["c", "a", "1", "enter", "b", "2", "enter", "escape"])
        await wait_for(pilot, lambda: len(client.requests) >= 2)
        await pilot.pause(0.2)
        assert client.requests == [("chat", "a1"), ("chat", "b2")]
        assert app.focused is None and app.screen is screen  # back at the cards
        # Esc gives a line up: nothing is sent, and the keys are the table's again.
        await pilot.press("c", "x")
        assert "esc Back to the table" in screen_text(app).splitlines()[-1]  # the way out
        await pilot.press("escape")
        assert app.focused is None and client.requests == [("chat", "a1"), ("chat", "b2")]
        await pilot.press("c")
        assert screen.query_one("#chat-input", Input).value == "x"  # kept for later
        # A burst into a line already open, with a correction in it; Enter
        # on an empty line goes back to the cards.
        send_at_once(app, ["y", "z", "backspace", "!", "enter", "o", "k", "enter", "enter"])
        await wait_for(pilot, lambda: len(client.requests) >= 4)
        await pilot.pause(0.2)
        assert client.requests[2:] == [("chat", "xy!"), ("chat", "ok")]
        assert app.focused is None


async def test_keys_typed_on_after_a_chat_line_is_sent_are_words_not_moves(
    client: ScriptedClient,
) -> None:
    """`c hello Enter wp`: Enter once gave the keys back to the table, and the
    `p` of a second line played the card under the cursor.  The chat stays
    open after a line is sent; only Esc (or Enter on an empty line) leaves."""
    state = played_until(["you", "bot"], lambda s, v: v.my_turn and len(v.hand) >= 3)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, client, state)
        await pilot.press("c", *"hello", "enter", "w", "p", "u", "space", "d")
        await wait_for(pilot, lambda: bool(client.requests))
        await pilot.pause(0.2)
        assert client.requests == [("chat", "hello")]  # no play, pick-up or draw
        assert screen.query_one("#chat-input", Input).value == "wpu d"
        await pilot.press("escape", "u")
        await wait_for(pilot, lambda: len(client.requests) == 2)
        assert client.requests[1][0] == "submit"  # back at the cards: keys are moves again


async def test_a_chat_line_left_unsent_is_put_away_so_the_chat_never_looks_open(
    client: ScriptedClient,
) -> None:
    """`c ab Tab 6p`: Tab left the line with "ab" still showing in it, as if
    the chat were open, and the `6p` typed next played a card.  Left (Tab or
    Esc), the line is put away, and the box says how to take it up again."""
    state = played_until(["you", "bot"], lambda s, v: v.my_turn and len(v.hand) >= 3)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, client, state)
        box = screen.query_one("#chat-input", Input)
        await pilot.press("c", "a", "b", "tab")
        assert app.focused is not box
        assert box.value == "" and "c to go on: ab" in screen_text(app)
        await pilot.press("escape", "c")  # back at the cards, then into the chat
        assert app.focused is box and box.value == "ab" and box.cursor_position == 2
        await pilot.press("!", "escape")
        assert box.value == "" and "c to go on: ab!" in screen_text(app)
        await pilot.press("c", "enter")
        await wait_for(pilot, lambda: bool(client.requests))
        assert client.requests == [("chat", "ab!")]
        assert "c to chat, Enter to send" in screen_text(app)  # nothing put away now


async def test_leave_pressed_twice_at_once_asks_once(client: ScriptedClient) -> None:
    """`q q` in one burst asked twice before the question showed: a second
    copy of the question screen crashed the app."""
    state = played_until(["you", "bot"], lambda s, v: v.my_turn)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_table(pilot, client, state)
        send_at_once(app, ["q", "q", "?", "?"])
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.pause(0.3)
        assert sum(isinstance(s, ConfirmScreen) for s in app.screen_stack) == 1


async def test_the_chat_line_takes_what_fits_the_tables_width_limit(
    client: ScriptedClient,
) -> None:
    """The host shows at most 200 cells of a line (a wide character takes
    two): the line stops there as it is typed, so nothing is cut unseen."""
    state = played_until(["you", "bot"], lambda s, v: v.my_turn)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_table(pilot, client, state)
        await pilot.press("c")
        send_at_once(app, ["漢"] * 120)
        box = app.screen.query_one("#chat-input", Input)
        await wait_for(pilot, lambda: len(box.value) >= 100)
        await pilot.pause(0.3)
        assert box.value == "漢" * 100
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(client.requests))
        assert client.requests == [("chat", "漢" * 100)]


def moves_shown(app: object, log: MoveLog) -> str:
    """The words the moves box shows, in order, as one line."""
    region = log.content_region
    rows = screen_text(app).splitlines()[region.y : region.bottom]
    return " ".join(" ".join(row[region.x : region.right] for row in rows).split())


def words(line: str) -> str:
    return " ".join(line.split())


async def test_tab_reaches_the_moves_and_the_keys_scroll_them(client: ScriptedClient) -> None:
    """The Keys help says "Tab: into the moves or the chat: then ↑ ↓ PgUp PgDn
    Home End scroll it"; at 80x24 Tab went round the opponents, the chat and
    its line, never the moves, and the older moves could not be seen."""
    state = played_until(["you", "bot"], lambda s, v: v.my_turn)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, client, state)
        bots = [GreedyBot(0), GreedyBot(1)]

        async def play(moves: int) -> None:
            for _ in range(moves):
                state.apply_move(bots[state.seat].choose_move(seat_view(state, state.seat)))
                client.emit(ViewChanged(seat_view(state, 0)))
            await wait_for(pilot, lambda: log._seen == state.moves_played, what="the moves")

        log = screen.query_one(MoveLog)
        await play(35)  # a game well under way: more moves than the box holds
        assert not state.over
        lines = list(log.lines)
        newest = moves_shown(app, log)
        assert newest.endswith(words(lines[-1])) and not newest.startswith(words(lines[0]))
        for key in ("tab", "shift+tab"):
            screen.set_focus(None)
            for _ in range(4):  # the opponents, the moves, the chat, its line
                await pilot.press(key)
                if app.focused is log:
                    break
            assert app.focused is log, f"{key} never reached the moves"
        await pilot.press("home")
        assert moves_shown(app, log).startswith(words(lines[0]))  # the oldest kept, on top
        assert "newer ↓" in screen_text(app)  # and the box says newer ones are below
        await pilot.press("end")
        assert moves_shown(app, log) == newest and "newer ↓" not in screen_text(app)
        await pilot.press("up")
        assert log.back == 1 and moves_shown(app, log).endswith(words(lines[-2]))
        await pilot.press("pageup")
        assert log.back > 2
        await pilot.press("pagedown", "down")
        assert log.back == 0 and moves_shown(app, log) == newest
        # Read back, a new move does not move what is being read.
        await pilot.press("pageup")
        reading = moves_shown(app, log)
        await play(1)
        assert moves_shown(app, log) == reading
        await pilot.press("end")
        assert moves_shown(app, log).endswith(words(log.lines[-1]))
        # Tabbed away, the box follows the game again.
        await pilot.press("pageup")
        assert log.back > 0
        await pilot.press("tab")
        assert app.focused is not log and log.back == 0
        assert moves_shown(app, log).endswith(words(log.lines[-1]))


async def test_a_chat_line_the_table_refuses_for_too_many_lines_is_given_back(
    client: ScriptedClient,
) -> None:
    """Refused ("too many chat lines: ...; wait 2 s"), the line was gone: it
    is the writer's again, to send once the wait is over."""
    state = played_until(["you", "bot"], lambda s, v: v.my_turn)
    app = table_app(client)
    refusal = "too many chat lines: at most 3 back to back; wait 2 s"
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, client, state)
        box = screen.query_one("#chat-input", Input)
        await pilot.press("c", *"hey", "enter")
        client.emit(ActionRejected(refusal))
        await wait_for(pilot, lambda: box.value == "hey", what="the line given back")
        assert app.focused is box and box.cursor_position == 3
        await pilot.press("enter", "escape")  # sent again; then back to the cards
        client.emit(ActionRejected(refusal))
        await wait_for(pilot, lambda: "c to go on: hey" in screen_text(app), what="put away")
        assert client.requests == [("chat", "hey"), ("chat", "hey")]
        client.emit(ActionRejected("B3 (blue 3) is lower than the 5 on top"))  # not a chat's
        await pilot.pause(0.1)
        assert box.draft == "hey" and box.value == ""


KEYED_BUTTON = re.compile(r"^(?P<words>.+) \((?P<key>\w)\)$")  # "Remove (x)"


@pytest.mark.parametrize("name", ["lobby", "game-over", "replay", "stats", "host", "join", "keys"])
async def test_one_wording_for_one_key_on_every_screen(name: str) -> None:
    """The key bar said "x Remove seat" and "s Start" beside the buttons
    "Remove (x)" and "Start the game (s)", "esc See the table" beside
    "Table (t)", and the replay's "← Back" where every other screen's
    "esc Back" leaves it.  A button that names its key is in the footer in
    the same words, and "Back" is Esc's alone."""
    scene = next(s for s in scenes() if s.name == name)
    app = scene.app()
    with tempfile.TemporaryDirectory() as empty, contextlib.chdir(empty):
        async with app.run_test(size=(80, 24)) as pilot:
            await scene.drive(pilot)
            footer = [key.strip() for key in footer_keys(app)]
            for button in app.screen.query(Button):
                keyed = KEYED_BUTTON.match(str(button.label))
                if keyed and button.display:
                    assert f"{keyed['key']} {keyed['words']}" in footer, (button.label, footer)
            backs = [key for key in footer if key.endswith(" Back")]
            assert all(key == "esc Back" for key in backs), footer


# How the keys page writes a key the bindings name otherwise.
WRITTEN = {
    "left": "←",
    "right": "→",
    "home": "Home",
    "end": "End",
    "enter": "⏎",
    "escape": "Esc",
    "question_mark": "?",
    "f1": "F1",
    "up": "↑",
    "down": "↓",
    "pageup": "PgUp",
    "pagedown": "PgDn",
    "delete": "Delete",
    "equals_sign": "`=`",
    "plus": "`+`",
    "minus": "`-`",
}


def test_the_keys_page_lists_every_key_of_the_table() -> None:
    """The table's Home and End (to the first and last card) worked but were
    on no page: every key the table answers is in the keys page's table."""
    rows = [line.split("|")[1] for line in KEYS_HELP.splitlines() if line.startswith("| ")]
    listed = " ".join(rows)
    for binding in TableScreen.BINDINGS:
        assert isinstance(binding, Binding)
        for key in binding.key.split(","):
            written = "1 … 9, 0" if key.isdigit() else WRITTEN.get(key, key)
            assert written in listed, f"{key} ({binding.action}) is not on the keys page"


async def test_f1_opens_the_help_as_question_mark_does(client: ScriptedClient) -> None:
    """F1, the key for help in most programs, did nothing anywhere: a
    newcomer pressed it on the start screen and at the table and saw no
    change.  It opens what ? opens (the rules from the start screen, the
    keys page at the table), and the keys page says so."""
    app = create_app(fast_launcher(), StartSpec())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), what="F1 at the start")
    state = played_until(["you", "bot"], lambda s, v: v.my_turn and len(v.hand) >= 3)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_table(pilot, client, state)
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), what="F1 at the table")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen) and help_screen.tab == "keys"
        assert not client.requests, "F1 made a move"
    assert "| ? or F1 | this help |" in KEYS_HELP


async def test_the_help_key_opens_the_keys_page_over_a_replay() -> None:
    """In `threeup replay FILE` ? and F1 did nothing (at 40x15 the footer
    shows four keys of twelve, and ↑ ↓ for the other seats none): they open
    the keys page, whose replay paragraph names them all, and Esc comes
    back to the same move."""
    record = demo_record(players=6, seed=1)
    app = create_app(fast_launcher(), StartSpec(mode="replay", record=record, record_name="g"))
    async with app.run_test(size=(40, 15)) as pilot:
        replay_screen = await replay_shown(pilot)
        await pilot.press("right", "right")
        for key in ("question_mark", "f1"):
            await pilot.press(key)
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), what=key)
            help_screen = app.screen
            assert isinstance(help_screen, HelpScreen) and help_screen.tab == "keys"
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is replay_screen, what="back to the replay")
        assert replay_screen.index == 2
    assert "? (or F1) shows this page" in keys_paragraph("Help and replay")


def keys_paragraph(title: str) -> str:
    """The keys page's paragraph that begins with **title.**"""
    paragraphs = KEYS_HELP.split("\n\n")
    return next(p for p in paragraphs if p.startswith(f"**{title}.**")).replace("\n", " ")


@pytest.mark.parametrize(
    ("screen", "paragraph", "as_at_the_table"),
    [
        # c, ? and q mean at the set-up what they mean at the table, whose
        # list on the keys page explains them.
        (SetupScreen, "Set-up", {"c", "question_mark", "f1", "q"}),
        (ReplayScreen, "Help and replay", set()),
        # The start screen, the lobby and the result box had no words on
        # the keys page: their + - n (said under the menu), the lobby's a x s
        # and the box's r s b t were found only in their footers, which
        # drop keys below 80 columns.
        (StartScreen, "Start screen", {"question_mark", "f1"}),
        (LobbyScreen, "Lobby", {"c", "question_mark", "f1", "q"}),
        (GameOverScreen, "Game over", {"c", "q"}),
        # The record's name box: its ⏎ saves, and the page did not say so.
        (RecordPathInput, "Game over", set()),
    ],
)
def test_the_keys_page_names_every_key_of_the_other_screens(
    screen: type, paragraph: str, as_at_the_table: set[str]
) -> None:
    """The set-up's ← →, space and Esc (clear the choice) and the replay's
    h l and Esc q worked but were on no page and hidden from the footer (or
    shown only as "esc Back"): every key those screens answer is named in
    their paragraph of the keys page (a letter as `x`), or is one the
    table's list already explains."""
    words = keys_paragraph(paragraph)
    for binding in screen.BINDINGS:
        assert isinstance(binding, Binding)
        for key in binding.key.split(","):
            if key in as_at_the_table:
                continue
            if key.isdigit():
                written = "1-6"
            elif len(key) == 1:
                written = f"`{key}`"
            else:
                written = WRITTEN.get(key, key)
            assert written in words, f"{key} ({binding.action}) is not in {paragraph!r}"


async def test_the_keys_page_says_what_space_does_with_face_down_cards(
    client: ScriptedClient,
) -> None:
    """With only face-down cards left, 1-3 go to a card and space (or ⏎)
    flips it; the keys page said space "selects / deselects" and the digits
    "select every card of that number", which is not what they do then."""
    state = played_until(["you", "bot"], hand_empty("face-down"))
    me = seat_view(state, 0).seats[0]
    slot = max(i for i, there in enumerate(me.face_down) if there)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_table(pilot, client, state)
        await pilot.press(str(slot + 1))
        assert not client.requests, "a digit only goes to the card"
        await pilot.press("space")
        assert client.requests == [("submit", Move.flip(0, slot))]
    assert "**Face-down cards.**" in KEYS_HELP, "no paragraph on face-down cards"
    words = keys_paragraph("Face-down cards")
    assert "1-3 go to one of them" in words and "space or ⏎ flips it" in words, words
    space = next(line for line in KEYS_HELP.splitlines() if line.startswith("| space |"))
    assert "flip" in space, space


async def test_no_row_of_the_keys_page_wraps_at_80_columns() -> None:
    """At 80x24 the keys table squeezed its columns to fit its longest rows:
    "Home End", "1 … 9, 0" and "f then 1-3" broke in two, and space, s, c
    and Tab each ran onto a second line. Every row reads on one line now,
    and none is cut with "…" instead."""
    app = create_app(fast_launcher(), StartSpec())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
        app.show_help("keys")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen) and app.screen.is_mounted)
        await pilot.pause()
        cells = list(app.screen.query("#keys-md MarkdownTableCellContents").results(Static))
        rows = [line for line in KEYS_HELP.splitlines() if line.startswith("| ")]
        assert len(cells) == 2 * (len(rows) - 1), "a row of the table not found"
        wrapped = [
            str(cell.content)
            for cell in cells
            if cell.region.height != 1 or cell.content_region.width < cell_len(str(cell.content))
        ]
        assert not wrapped, f"rows on more than one line at 80 columns: {wrapped}"


async def test_the_palettes_keys_open_the_keys_page_and_esc_closes_it() -> None:
    """The palette's "Keys" opened Textual's key panel: it listed Textual's
    own tab and copy keys beside ours, and Esc did not close it.  It opens
    the help's Keys page now, which Esc closes; and its "Quit" no longer
    says "as soon as possible" (in a game it asks first)."""
    app = create_app(fast_launcher(), StartSpec(), rules_text=LONG_RULES)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
        said = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert "as soon as possible" not in said["Quit"]
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "CommandPalette")
        await pilot.press(*"keys")
        await wait_for(pilot, lambda: "Every key" in screen_text(app), what="the Keys entry")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen) and app.screen.is_mounted)
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        await wait_for(pilot, lambda: "at the table" in screen_text(app), what="the Keys page")
        assert not app.screen.query("HelpPanel")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), what="Esc to close it")
