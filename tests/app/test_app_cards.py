"""Cards that look like cards at 100 columns and wider; the moves named."""

from __future__ import annotations

from app_fakes import ScriptedClient
from app_helpers import wait_for
from table_states import open_table, played_until, someone_made_extras, table_app

from threeup_tui.app.widgets.action_bar import ReasonBox
from threeup_tui.app.widgets.card import CardTile
from threeup_tui.app.widgets.card_row import CardRow
from threeup_tui.app.widgets.move_log import MoveLog
from threeup_tui.app.widgets.pile import PileView
from threeup_tui.client import ViewChanged
from threeup_tui.rules import seat_view
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
