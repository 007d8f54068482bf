"""The pieces the table is drawn with: fitting text, card art, move words,
checkboxes in plain text."""

from __future__ import annotations

import pytest
from app_fakes import ScriptedClient, ScriptedLauncher
from app_helpers import screen_text, wait_for
from app_states import lobby_for
from hypothesis import given
from hypothesis import strategies as st
from textual.content import Content

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.screens.lobby import LobbyScreen
from threeup_tui.app.text import cards_forms, clamp_rows, fit_parts
from threeup_tui.app.widgets.card_art import CARD_H, CARD_W, STRIP_W, back_lines, face_lines
from threeup_tui.app.widgets.card_row import fan_columns
from threeup_tui.app.widgets.move_log import ExtraCount, move_words
from threeup_tui.app.widgets.status import display_turn
from threeup_tui.app.widgets.tickbox import TickBox
from threeup_tui.client import LobbyChanged, Welcome
from threeup_tui.rules import LogEntry, View
from threeup_tui.rules.cards import CODES

WORD = st.text(alphabet="abcdefgh", min_size=1, max_size=9)


@given(
    parts=st.lists(st.lists(WORD, min_size=1, max_size=3), min_size=1, max_size=5),
    width=st.integers(1, 60),
)
def test_fitted_text_fits_and_is_cut_only_with_an_ellipsis(
    parts: list[list[str]], width: int
) -> None:
    forms = [sorted({f for f in p}, key=len, reverse=True) for p in parts]
    line = fit_parts([[Content(f) for f in p] for p in forms], width).plain
    assert len(line) <= max(width, 1)
    chosen = line.split(" · ")
    cut = line.endswith("…")
    for i, piece in enumerate(chosen):
        whole = piece in forms[i] if i < len(forms) else False
        # Every part is one of its forms, but for the last one, cut with "…".
        assert whole or (cut and i == len(chosen) - 1), (forms, width, line)


def test_fitting_prefers_long_forms_and_shortens_in_order() -> None:
    parts = [
        [Content("AAAA")],
        [Content("bbbbbb"), Content("bb")],
        [Content("cccccc"), Content("c")],
    ]
    assert fit_parts(parts, 30).plain == "AAAA · bbbbbb · cccccc"
    assert fit_parts(parts, 18).plain == "AAAA · bbbbbb · c"  # the last part first
    assert fit_parts(parts, 18, order=[1]).plain == "AAAA · bb · cccccc"
    # Past the shortest forms, whole parts go, then whole words: never a
    # word cut inside ("AAAA · b…" before; the banner's "may draw" became "ma…").
    assert fit_parts(parts, 6).plain == "AAAA…"
    assert fit_parts(parts, 11).plain == "AAAA · bb…"
    assert fit_parts([[Content("the host stopped in the middle")]], 24).plain == (
        "the host stopped in the…"
    )
    assert fit_parts([[Content("Konstantinova")]], 8).plain == "Konstan…"  # one word: no other way


def test_a_run_of_cards_cut_short_counts_the_rest() -> None:
    forms = [f.plain for f in cards_forms(("G1", "G2", "B2", "R3"), "known")]
    # "…+1", never "+1" alone: after "up R1 B1" that read like a Clear +1.
    assert forms == ["known G1 G2 B2 R3", "known G1 G2 B2 …+1", "known G1 G2 …+2", "known G1 …+3"]


def test_clamped_rows_end_with_an_ellipsis() -> None:
    text = clamp_rows(Content("one two three four five six seven"), 10, 2).plain
    assert text.split("\n")[0] == "one two"
    assert len(text.split("\n")) == 2 and text.endswith("…")
    assert clamp_rows(Content("short"), 10, 2).plain == "short"


@pytest.mark.parametrize("code", CODES)
def test_every_card_face_is_a_card_sized_box(code: str) -> None:
    for border in ("plain", "cursor", "selected"):
        rows = face_lines(code, border, "✓" if border == "selected" else "")
        assert len(rows) == CARD_H and {r.cell_length for r in rows} == {CARD_W}
    strip = face_lines(code, strip=True)
    assert {r.cell_length for r in strip} == {STRIP_W}
    label = code[0] + code[1:].replace("C1", "C+1").replace("C2", "C+2")
    assert label in strip[0].plain  # a covered card still says which it is


def test_backs_and_fans_have_their_sizes() -> None:
    assert {r.cell_length for r in back_lines("20")} == {CARD_W}
    assert "20" in back_lines("20")[2].plain
    assert fan_columns(70, 5) == 5
    assert fan_columns(29, 20) * STRIP_W - STRIP_W + CARD_W <= 29
    assert fan_columns(70, 30) == 10  # three even lines of ten


def entry(seat: int, kind: str, *cards: str, flip_failed: bool = False) -> LogEntry:
    cleared = bool(cards) and cards[-1][1:] in ("C", "C1", "C2")
    return LogEntry(seat, kind, cards, cleared, 0, 0, False, flip_failed)


def test_extra_discards_are_counted_from_the_public_moves() -> None:
    count = ExtraCount()
    moves = [
        entry(1, "play", "GC2"),
        entry(1, "draw"),
        entry(1, "play", "R5"),
        entry(1, "play", "BC1"),  # a Clear +1 as an extra: one more owed (D9)
        entry(1, "play", "R7"),
        entry(0, "play", "R8"),
        entry(0, "play", "R9"),
    ]
    labels = [count.label(m) for m in moves]
    assert labels == ["", "", "extra 1 of 2", "extra 2 of 2", "extra 3 of 3", "", ""]


def test_a_pick_up_ends_the_extras_owed() -> None:
    count = ExtraCount()
    labels = [
        count.label(m)
        for m in (entry(1, "play", "GC2"), entry(1, "pickup"), entry(0, "play", "R2"))
    ]
    assert labels == ["", "", ""]


def test_a_move_in_words() -> None:
    names = ("you", "Bob")
    assert move_words(entry(1, "play", "GC2"), names) == (
        "Bob played GC+2: pile cleared, 2 extra discards"
    )
    assert move_words(entry(1, "play", "R5"), names, "extra 1 of 2") == (
        "extra 1 of 2: Bob played R5"
    )
    assert move_words(entry(7, "play", "R5"), names).startswith("seat 8 played")  # 1-based


def test_the_turn_people_read() -> None:
    from threeup_tui.rules import GameState, Options, seat_view

    state = GameState.new(["a", "b"], Options(first=0), seed=1)
    assert display_turn(seat_view(state, 0)) == 1


async def test_an_unchecked_box_shows_no_mark(
    client: ScriptedClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = create_app(ScriptedLauncher(client), StartSpec(mode="host"))
    async with app.run_test(size=(100, 30)) as pilot:
        client.emit(Welcome(0, True))
        client.emit(LobbyChanged(lobby_for(["you", "bot"], started=False)))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.is_mounted)
        box = app.screen.query_one("#voluntary", TickBox)
        assert not box.value
        assert "▐ ▌" in screen_text(app) and "▐X▌" not in screen_text(app)
        box.value = True
        await pilot.pause()
        assert "▐X▌" in screen_text(app)


async def test_the_move_log_shows_only_whole_moves(client: ScriptedClient) -> None:
    from table_states import open_table, played_until, table_app

    from threeup_tui.app.widgets.move_log import MoveLog
    from threeup_tui.bots import GreedyBot
    from threeup_tui.client import ViewChanged
    from threeup_tui.rules import seat_view

    state = played_until(["you", "Bob"], lambda s, v: v.my_turn and len(s.history) > 10)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, client, state)
        log = screen.query_one(MoveLog)
        width = log.content_region.width
        for _ in range(40):  # move after move: the log's box cuts no move in two
            if state.over:
                break
            state.apply_move(GreedyBot(1).choose_move(seat_view(state, state.seat)))
            client.emit(ViewChanged(seat_view(state, 0)))
            await wait_for(pilot, lambda: log._seen == len(state.history))
            shown = log.render().plain.split("\n")
            whole: list[str] = []
            for line in reversed(log.lines):
                lines = [w.plain for w in Content(line).wrap(width)]
                if len(whole) + len(lines) > len(shown):
                    break
                whole[:0] = lines
            assert whole == shown, (whole, shown)


async def test_the_move_log_says_you_are_out_of_cards(client: ScriptedClient) -> None:
    """The app's own player is "you": its winning move reads "you are out of
    cards", not "you is"; anyone else "is"."""
    from app_states import dealt
    from table_states import open_table, table_app

    from threeup_tui.app.widgets.move_log import MoveLog
    from threeup_tui.bots import GreedyBot
    from threeup_tui.client import ViewChanged
    from threeup_tui.rules import Move, seat_view

    names = ["you", "Bob"]
    for seed in range(60):  # a greedy game seat 0 wins, and its moves
        state = dealt(names, seed=seed)
        moves: list[Move] = []
        while not state.over:
            moves.append(GreedyBot(state.seat).choose_move(seat_view(state, state.seat)))
            state.apply_move(moves[-1])
        if state.winner == 0:
            break
    state = dealt(names, seed=seed)
    for move in moves[:-1]:
        state.apply_move(move)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, client, state)
        log = screen.query_one(MoveLog)
        state.apply_move(moves[-1])  # the winning move
        client.emit(ViewChanged(seat_view(state, 0)))
        await wait_for(pilot, lambda: log._seen == len(state.history))
        assert log.lines[-1].endswith("; you are out of cards"), log.lines[-1]
    bob_out = LogEntry(1, "play", ("R5",), False, 0, 0, True, False)
    assert move_words(bob_out, tuple(names)) == "Bob played R5; Bob is out of cards"


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """The WCAG contrast ratio of two colours: 1 (the same) to 21 (black on white)."""

    def luminance(rgb: tuple[int, int, int]) -> float:
        parts = [v / 255 for v in rgb]
        r, g, b = (p / 12.92 if p <= 0.03928 else ((p + 0.055) / 1.055) ** 2.4 for p in parts)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def corner_contrast(app: object, widget: object) -> float:
    """How far the top-left corner of ``widget``'s frame stands out from
    the background it is drawn on."""
    region = widget.region  # type: ignore[attr-defined]
    strip = app.screen._compositor.render_strips()[region.y]  # type: ignore[attr-defined]
    (text, style, _), *_ = list(strip.crop(region.x, region.x + 1))
    assert text in "╭┌╔┏" and style is not None and style.bgcolor is not None
    return contrast(tuple(style.color.get_truecolor()), tuple(style.bgcolor.get_truecolor()))


async def test_the_frames_of_moves_chat_and_opponents_show_in_every_theme(
    client: ScriptedClient,
) -> None:
    """In the light themes the frames around the moves, the chat and (on
    roomy terminals) each opponent were drawn a shade from white on a light
    background: the boxes all but vanished."""
    from table_states import open_table, played_until, table_app

    state = played_until(["you", "Bob", "Cy"], lambda s, v: v.my_turn)
    app = table_app(client)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_table(pilot, client, state)
        assert screen.has_class("-roomy")
        framed = [screen.query_one("#moves"), screen.query_one("#chat"), *screen.query(".opponent")]
        themes = [name for name, theme in app.available_themes.items() if not theme.ansi]
        assert "textual-light" in themes and "textual-dark" in themes
        for theme in themes:
            app.theme = theme
            await pilot.pause()
            for widget in framed:
                # Quiet, but there: the dark themes' frames stand at 1.9 to 3.3
                # (the light ones, lighter than their background, at 1.0 to 1.3).
                seen = corner_contrast(app, widget)
                assert seen >= 1.5, (theme, widget.id, seen)


# xterm's own palette (what "red" means on a terminal nobody has set up), and
# a dark terminal's default text and background: ansi-dark is the theme a
# terminal of 16 colours starts in.
XTERM_16 = [
    (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0),
    (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
    (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0),
    (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
]  # fmt: skip
DARK_TERMINAL = ((229, 229, 229), (0, 0, 0))  # its default text, its default background


def terminal_rgb(color: object, default: tuple[int, int, int]) -> tuple[int, int, int]:
    """What a dark xterm shows for a colour the app sends it."""
    if color is None or color.is_default:  # type: ignore[attr-defined]
        return default
    number = color.number  # type: ignore[attr-defined]
    if number is not None and number < 16:
        return XTERM_16[number]
    return tuple(color.get_truecolor())  # type: ignore[attr-defined,return-value]


def faint_words(app: object) -> list[tuple[str, float]]:
    """Words (runs with a letter or a digit) on the screen drawn at a
    contrast under 2 on a dark xterm: each with its contrast."""
    faint = []
    for strip in app.screen._compositor.render_strips():  # type: ignore[attr-defined]
        for text, style, _ in strip:
            if style is None or not any(ch.isalnum() for ch in text):
                continue
            fg = terminal_rgb(style.color, DARK_TERMINAL[0])
            bg = terminal_rgb(style.bgcolor, DARK_TERMINAL[1])
            seen = contrast(fg, bg)
            if seen < 2.0:
                faint.append((text.strip(), round(seen, 2)))
    return faint


@pytest.mark.parametrize(
    "name", ["start-continue", "lobby", "join", "setup", "table", "game-over", "replay"]
)
async def test_in_the_terminals_own_colours_every_word_can_be_read(name: str) -> None:
    """ansi-dark draws in the terminal's own colours (a terminal of 16
    colours starts in it), which cannot be blended or worked out: the
    theme's text is the terminal's default, light on a dark terminal.  On
    the lobby's highlighted row, white on white ("(host, you)", "● here");
    the YOUR TURN bar white on yellow; the result bar white on green; the
    replay's seat to act, green cards on green.  Every word stands at 2 or
    more on xterm's own palette (its blue on black is 2.2)."""
    from threeup_tui.app.scenes import scene

    shown = scene(name)
    app = shown.app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = "ansi-dark"
        await shown.drive(pilot)
        await pilot.pause()
        assert faint_words(app) == []


async def test_in_the_terminals_own_colours_the_opponent_to_act_keeps_its_cards(
    client: ScriptedClient,
) -> None:
    """The row of the opponent whose turn it is lay on the accent's muted
    colour, which in the terminal's own colours is the accent, green: that
    opponent's green cards vanished into it, and its name was white on green."""
    from table_states import open_table, played_until, table_app

    def bob_to_act_with_green(state: object, view: View) -> bool:
        return view.to_act == 1 and any(c[0] == "G" for c in view.seats[1].face_up)

    state = played_until(["you", "Bob", "Cy"], bob_to_act_with_green)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = "ansi-dark"
        screen = await open_table(pilot, client, state)
        assert screen.query(".opponent.-to-act")
        assert faint_words(app) == []
