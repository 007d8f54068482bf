"""Cards that look like cards at 100 columns and wider; the moves named."""

from __future__ import annotations

import pytest
from app_fakes import ScriptedClient
from app_helpers import wait_for
from table_states import open_table, played_until, someone_made_extras, table_app
from textual.widgets import Button

from threeup_tui.app.app import ThreeUpApp
from threeup_tui.app.text import rank_of_code
from threeup_tui.app.widgets.action_bar import ReasonBox
from threeup_tui.app.widgets.card import CardTile
from threeup_tui.app.widgets.card_row import CardRow
from threeup_tui.app.widgets.move_log import MoveLog
from threeup_tui.app.widgets.pile import PileView
from threeup_tui.client import ViewChanged
from threeup_tui.rules import View, seat_view
from threeup_tui.settings import SettingsFile


def lines_of(tile: CardTile) -> list[str]:
    return tile.render().plain.split("\n")


async def test_roomy_cards_are_bordered_with_a_large_rank(client: ScriptedClient) -> None:
    state = played_until(["you", "bot"], lambda s, v: v.my_turn)
    app = table_app(client)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_table(pilot, client, state)
        assert screen.has_class("-roomy")
        for tile in screen.query_one("#hand", CardRow).tiles:
            rows = lines_of(tile)
            assert len(rows) == 5 and tile.size == (9, 5)
            code = tile.spec.code
            assert code is not None
            label = code[0] + code[1:].replace("C1", "C+1").replace("C2", "C+2")
            assert rows[0].startswith("╭" + label) or rows[0][1:].startswith(label)
            assert rows[-1].rstrip("╯┛╝").endswith(label)  # mirrored at the bottom
            # The rank large: three lines of block glyphs inside the border.
            assert any(ch in "".join(rows[1:4]) for ch in "━┃╻╹┏┓┗┛┣┫")
        for slot, tile in enumerate(screen.query_one("#down", CardRow).tiles):
            rows = lines_of(tile)
            assert "▒" in rows[1] and str(slot + 1) in rows[2]  # a back, and its slot


async def test_small_terminals_keep_one_line_tiles(client: ScriptedClient) -> None:
    state = played_until(["you", "bot"], lambda s, v: v.my_turn)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, client, state)
        assert not screen.has_class("-roomy")
        for tile in screen.query_one("#hand", CardRow).tiles:
            assert tile.size.height == 1 and "\n" not in tile.render().plain


async def test_the_pile_is_fanned_with_the_run_on_top(client: ScriptedClient) -> None:
    state = played_until(
        ["you", "bot"], lambda s, v: v.my_turn and v.top_run == 2 and len(v.pile) >= 3
    )
    view = seat_view(state, 0)
    app = table_app(client)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_table(pilot, client, state)
        pile = screen.query_one(PileView)
        top = pile.render().plain.split("\n")[0]
        labels = [c[0] + c[1:].replace("C1", "C+1").replace("C2", "C+2") for c in view.pile[-3:]]
        # The top cards in order, left to right, each showing its label.
        at = [top.index(label) for label in labels]
        assert at == sorted(at), top
        rank = view.pile[-1][1:]
        assert f"two {rank}s: one more clears" in str(pile.border_title)
        assert pile.border_subtitle is not None
        assert str(pile.border_subtitle) == screen.query_one(MoveLog).last


async def test_an_unplayable_card_is_dimmed_and_says_why_under_the_cursor(
    client: ScriptedClient,
) -> None:
    def low_card(state: object, view: object) -> bool:
        v = view  # type: ignore[assignment]
        return bool(
            v.my_turn  # type: ignore[attr-defined]
            and v.pile  # type: ignore[attr-defined]
            and any(int(c[1:]) < v.top_rank for c in v.hand if c[1:].isdigit())  # type: ignore[attr-defined]
        )

    state = played_until(["you", "bot"], low_card)
    view = seat_view(state, 0)
    low = next(i for i, c in enumerate(view.hand) if c[1:].isdigit() and int(c[1:]) < view.top_rank)
    app = table_app(client)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_table(pilot, client, state)
        tile = screen.query_one("#hand", CardRow).tiles[low]
        assert tile.spec.dimmed and tile.has_class("-dimmed")
        assert "is lower than" in str(tile.tooltip)
        await pilot.press("home", *["right"] * low)
        reason = screen.query_one(ReasonBox).text
        assert "is lower than the" in reason and "on top" in reason
        # ⏎ would play that card: the button says no, and the reason says it once.
        assert screen.query_one("#play", Button).disabled
        assert "select" not in reason and "not allowed" not in reason


def uncoloured(app: ThreeUpApp, tile: CardTile) -> list[tuple[str, bool, bool, bool, bool]]:
    """How ``tile`` looks without colour (NO_COLOR, a monochrome screen):
    each character it shows, with the attributes the terminal is sent for it
    (bold, dim, underline, reverse), colours left out."""
    region = tile.region
    attributes = ("bold", "dim", "underline", "reverse")
    cells = []
    for strip in app.screen._compositor.render_strips()[region.y : region.bottom]:
        for text, style, _ in strip.crop(region.x, region.right):
            looks = [bool(style and getattr(style, a)) for a in attributes]
            cells += [(ch, *looks) for ch in text]
    return cells  # type: ignore[return-value]


def label_looks(app: ThreeUpApp, tile: CardTile) -> set[tuple[bool, bool, bool, bool]]:
    """The attributes the tile's letters and digits are drawn with."""
    return {tuple(cell[1:]) for cell in uncoloured(app, tile) if cell[0].isalnum()}  # type: ignore[misc]


def playable_and_not(state: object, view: View) -> bool:
    """Our turn, from the hand, with a card to play and a number too low to."""
    ranks = view.playable_ranks()
    digits = [int(c[1:]) for c in view.hand if c[1:].isdigit()]
    return (
        view.my_turn
        and view.source == "hand"
        and any(d in ranks for d in digits)
        and any(d not in ranks for d in digits)
    )


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_cursor_shows_without_colour_on_a_selected_card(
    client: ScriptedClient, size: tuple[int, int]
) -> None:
    """The cursor on a selected card looked just like a selected card
    elsewhere but for a background colour: under NO_COLOR, or in 16 colours,
    the player lost the cursor as soon as a card was selected (and on roomy
    terminals, in every colour too: both had the selection's border)."""
    state = played_until(["you", "bot"], playable_and_not)
    view = seat_view(state, 0)
    ranks = view.playable_ranks()
    card = next(i for i, c in enumerate(view.hand) if c[1:].isdigit() and int(c[1:]) in ranks)
    app = table_app(client)
    async with app.run_test(size=size) as pilot:
        screen = await open_table(pilot, client, state)
        tile = screen.query_one("#hand", CardRow).tiles[card]
        await pilot.press("home", *["right"] * card, "space")
        assert tile.spec.selected and tile.spec.cursor
        under_cursor = uncoloured(app, tile)
        await pilot.press("left" if card else "right")
        assert tile.spec.selected and not tile.spec.cursor
        assert uncoloured(app, tile) != under_cursor


async def test_the_cursor_keeps_a_card_that_cannot_be_played_dimmed(
    client: ScriptedClient,
) -> None:
    """Under the cursor, a card too low to play lost its dimming and looked
    just like a playable card: without colour, exactly like one."""
    state = played_until(["you", "bot"], playable_and_not)
    view = seat_view(state, 0)
    ranks = view.playable_ranks()
    digits = {i: int(c[1:]) for i, c in enumerate(view.hand) if c[1:].isdigit()}
    low = next(i for i, d in digits.items() if d not in ranks)
    good = next(i for i, d in digits.items() if d in ranks)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, client, state)
        tiles = screen.query_one("#hand", CardRow).tiles
        await pilot.press("home", *["right"] * low)
        assert tiles[low].spec.cursor and tiles[low].spec.dimmed
        low_looks = label_looks(app, tiles[low])
        await pilot.press("home", *["right"] * good)
        assert tiles[good].spec.cursor and tiles[good].spec.playable
        assert label_looks(app, tiles[good]) != low_looks


def label_contrast(app: ThreeUpApp, tile: CardTile) -> float:
    """The contrast (1 to 21) of a roomy card's label, written in its top
    border, with the background it is drawn on."""
    from test_app_looks import contrast

    region = tile.region
    strip = app.screen._compositor.render_strips()[region.y]
    seen = []
    for text, style, _ in strip.crop(region.x, region.right):
        if any(ch.isalnum() for ch in text):
            assert style is not None and style.color and style.bgcolor
            fg, bg = style.color.get_truecolor(), style.bgcolor.get_truecolor()
            seen.append(contrast(tuple(fg), tuple(bg)))
    assert seen
    return min(seen)


async def test_a_selected_roomy_card_keeps_its_label_readable_in_every_theme(
    client: ScriptedClient,
) -> None:
    """A roomy card that is selected, or under the cursor, has its border
    (and the label in it, "B8") drawn in the theme's accent on the accent's
    muted background: in textual-light that was a contrast of 1.2, the
    card's name all but gone, and under 2 in atom-one-dark, catppuccin-latte
    and rose-pine-dawn."""

    def two_to_play(state: object, view: View) -> bool:
        ranks = view.playable_ranks()
        return view.my_turn and sum(rank_of_code(c) in ranks for c in view.hand) >= 2

    state = played_until(["you", "bot"], two_to_play)
    view = seat_view(state, 0)
    first, second = [
        i for i, c in enumerate(view.hand) if rank_of_code(c) in view.playable_ranks()
    ][:2]
    app = table_app(client)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_table(pilot, client, state)
        await pilot.press("home", *["right"] * first, "space", *["right"] * (second - first))
        tiles = screen.query_one("#hand", CardRow).tiles
        selected, cursor = tiles[first], tiles[second]
        assert selected.spec.selected and not selected.spec.cursor and cursor.spec.cursor
        for theme in [key for key, t in app.available_themes.items() if not t.ansi]:
            app.theme = theme
            await pilot.pause()
            for tile in (selected, cursor):
                assert label_contrast(app, tile) >= 2.5, (theme, tile.spec)


async def next_view(client: ScriptedClient, state: object, pilot: object) -> None:
    from threeup_tui.bots import GreedyBot

    seat = state.seat  # type: ignore[attr-defined]
    state.apply_move(GreedyBot(1).choose_move(seat_view(state, seat)))  # type: ignore[attr-defined]
    client.emit(ViewChanged(seat_view(state, 0)))  # type: ignore[arg-type]


def lands(state: object, view: object) -> bool:
    """The bot is to act and its move will put cards on the pile."""
    from threeup_tui.bots import GreedyBot

    v = seat_view(state, 1)  # type: ignore[arg-type]
    if v.to_act != 1:
        return False
    move = GreedyBot(1).choose_move(v)
    return move.kind == "play" and move.cards[-1][1:] not in ("C", "C1", "C2") and len(v.pile) < 1


async def test_a_card_landing_on_the_pile_is_highlighted_for_a_moment(
    client: ScriptedClient,
) -> None:
    state = played_until(["you", "bot"], lands)
    app = table_app(client)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_table(pilot, client, state)
        pile = screen.query_one(PileView)
        await next_view(client, state, pilot)
        await wait_for(pilot, lambda: pile.has_class("-landed"), what="the highlight")
        assert pile.landed >= 1
        await wait_for(pilot, lambda: not pile.has_class("-landed"), timeout=3, what="its end")


async def test_the_piles_title_stays_readable_when_cleared_or_landed_on(
    client: ScriptedClient,
) -> None:
    """On a roomy terminal the pile's title takes its frame's colour: the
    warning colour once the pile is cleared ("✦ CLEARED ✦ by you"), the
    accent while cards land on it. In the light themes that title faded
    to a contrast of 1.5 (textual-light, atom-one-light)."""
    from test_app_home import words_contrast

    from threeup_tui.app.scenes import scene

    cleared = scene("table-2p")
    app = cleared.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await cleared.drive(pilot)
        assert app.screen.query_one(PileView).has_class("-cleared")
        for theme in [key for key, t in app.available_themes.items() if not t.ansi]:
            app.theme = theme
            await pilot.pause()
            assert words_contrast(app, "CLEARED") >= 3, theme
    state = played_until(["you", "bot"], lands)
    app = table_app(client)
    async with app.run_test(size=(120, 40)) as pilot:
        app.theme = "textual-light"
        screen = await open_table(pilot, client, state)
        pile = screen.query_one(PileView)
        await next_view(client, state, pilot)
        await wait_for(pilot, lambda: pile.has_class("-landed"), what="the highlight")
        assert words_contrast(app, "Pile") >= 3


async def test_no_highlight_when_animation_is_off(client: ScriptedClient) -> None:
    SettingsFile().change(animation=False)  # the player's real settings file
    state = played_until(["you", "bot"], lands)
    app = table_app(client)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_table(pilot, client, state)
        pile = screen.query_one(PileView)
        moves = state.moves_played if hasattr(state, "moves_played") else len(state.history)
        await next_view(client, state, pilot)
        await wait_for(pilot, lambda: pile.state is not None and pile.state.moves_played > moves)
        assert not pile.has_class("-landed") and pile.landed == 0


async def test_no_highlight_over_a_slow_link(client: ScriptedClient) -> None:
    state = played_until(["you", "bot"], lands)
    client.rtt = 0.6
    app = table_app(client)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_table(pilot, client, state)
        pile = screen.query_one(PileView)
        moves = len(state.history)
        await next_view(client, state, pilot)
        await wait_for(pilot, lambda: pile.state is not None and pile.state.moves_played > moves)
        assert not pile.has_class("-landed")


async def test_a_big_hand_is_fanned_and_a_covered_card_is_clicked(
    client: ScriptedClient,
) -> None:
    state = played_until(["you", "bot"], lambda s, v: v.my_turn and len(v.hand) >= 12)
    view = seat_view(state, 0)
    app = table_app(client)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_table(pilot, client, state)
        row = screen.query_one("#hand", CardRow)
        assert row.fanned
        strips = [t for t in row.tiles if t.strip]
        assert strips and all(t.size.width == 5 for t in strips)
        tile = strips[1]
        assert (tile.spec.code or "")[0] in tile.render().plain.split("\n")[0]
        await pilot.click(f"#hand-{tile.index}", offset=(2, 2))
        assert tile.index in screen.selected
        assert len(view.hand) == len(row.tiles)


async def test_an_opponents_extra_discards_are_labelled(client: ScriptedClient) -> None:
    state = played_until(["you", "bot"], someone_made_extras, limit=1500)
    app = table_app(client)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_table(pilot, client, state)
        lines = list(screen.query_one(MoveLog).lines)
        assert any(line.startswith("extra 1 of ") and "bot played" in line for line in lines), lines


@pytest.mark.parametrize("theme", ["ansi-dark", "ansi-light"])
async def test_in_the_terminals_own_colours_cards_keep_the_terminals_background(
    client: ScriptedClient, theme: str
) -> None:
    """The ANSI themes use the terminal's own palette (a terminal of 16
    colours starts in one), whose colours cannot be blended: the muted green
    behind a playable card, and the accent behind the cursor, were the full
    green, and a red or blue card on it could hardly be read.  Every card is
    drawn in its own red, green or blue on the terminal's background; the
    cursor and the playable cards still look unlike the others."""
    state = played_until(["you", "bot"], playable_and_not)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = theme
        screen = await open_table(pilot, client, state)
        tiles = screen.query_one("#hand", CardRow).tiles
        for tile in tiles:
            for text, style in tile_cells(app, tile):
                if not text.strip():
                    continue
                assert style is not None and style.color is not None, tile.spec
                letter = next(ch for ch in text if ch in "RGB")
                assert style.color.number == {"R": 1, "G": 2, "B": 4}[letter], (text, style)
                assert style.bgcolor is None or style.bgcolor.is_default, (text, style)
        good = next(i for i, t in enumerate(tiles) if t.spec.playable)
        low = next(i for i, t in enumerate(tiles) if t.spec.dimmed)
        await pilot.press("home", *["right"] * good)
        good_cursor, low_alone = label_looks(app, tiles[good]), label_looks(app, tiles[low])
        await pilot.press("home", *["right"] * low)
        good_alone, low_cursor = label_looks(app, tiles[good]), label_looks(app, tiles[low])
        assert good_alone != low_alone  # playable or not, without a colour for it
        assert good_cursor != good_alone and low_cursor != low_alone  # the cursor


def tile_cells(app: ThreeUpApp, tile: CardTile) -> list[tuple[str, object]]:
    """The runs of text a one-line tile is drawn as, each with its style."""
    strip = app.screen._compositor.render_strips()[tile.region.y]
    return [(text, style) for text, style, _ in strip.crop(tile.region.x, tile.region.right)]
