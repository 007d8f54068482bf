"""The app while a bot thinks: keys are answered and the screen repainted
before the bot's decision arrives (the order of events, not durations).

The bots are gated: each decision waits for the test to open its gate, so
"before the decision" is certain.  If the thinking ran on the app's loop,
the key would wait for the bot and these tests would fail.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from thinking_bots import Gate, decision_key
from waiting import until

from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app
from threeup_tui.app.screens.setup import SetupScreen
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.bots import GreedyBot
from threeup_tui.bots import hint as hint_module
from threeup_tui.launcher import Launcher
from threeup_tui.rules import Move, View


class Timeline:
    """What happened, in order: keys pressed, frames painted (with what the
    screen showed), and the bot's decisions as the app received them."""

    def __init__(self, app: ThreeUpApp) -> None:
        self.app = app
        self.events: list[tuple[str, Any]] = []
        display = app._display

        def painted(screen: Any, renderable: Any) -> None:
            if renderable is not None:
                self.events.append(("frame", self.shown()))
            display(screen, renderable)

        app._display = painted  # type: ignore[method-assign]

    def shown(self) -> Any:
        screen = self.app.screen
        if isinstance(screen, TableScreen):
            return ("cursor", screen.cursor, tuple(sorted(screen.selected)))
        if isinstance(screen, SetupScreen):
            return ("picked", tuple(sorted(screen.selected)))
        return None

    def mark(self, what: str, detail: Any = None) -> None:
        self.events.append((what, detail))

    def index(self, what: str, detail: Any = None) -> int:
        return next(i for i, e in enumerate(self.events) if e[0] == what and e[1] == detail)

    def first_frame_after(self, start: int, showing: Any) -> int:
        return next(
            i
            for i, e in enumerate(self.events)
            if i > start and e[0] == "frame" and e[1] == showing
        )


def view_of(app: ThreeUpApp) -> View | None:
    session = app.session
    return None if session is None else session.view


def moved_past(app: ThreeUpApp, moves: int) -> Callable[[], bool]:
    def moved() -> bool:
        view = view_of(app)
        return view is not None and view.moves_played > moves

    return moved


async def play_until_to_act(pilot: Pilot[int], app: ThreeUpApp, gate: Gate, seat: int) -> View:
    """Play on until ``seat`` is to act, at the table: we move as greedy
    would, and the bot (seat 2) is let through its gates."""
    while True:
        await until(
            lambda: (
                (v := view_of(app)) is not None
                and v.phase == "play"
                and isinstance(app.screen, TableScreen)
                and app.screen.is_mounted
            ),
            "the game",
        )
        view = view_of(app)
        session = app.session
        assert view is not None and session is not None
        if view.to_act == seat != view.seat:
            return view  # the bot's turn: it thinks now
        if view.to_act == seat:
            # Ours in sight, as a player sees it before a key acts on it: a key
            # typed before the turn was painted asks no hint (the table's guard).
            turn = app.screen
            assert isinstance(turn, TableScreen)
            await until(lambda s=turn: s.shown_at is not None, "our turn in sight")
            return view
        if view.to_act == 1:
            gate.open(decision_key(1, view.moves_played))
        else:
            session.client.submit(GreedyBot(3).choose_move(view))
        await until(moved_past(app, view.moves_played), "the next move")


def play_app() -> ThreeUpApp:
    launcher = Launcher(announce_address="off")
    launcher.bot_delay = 0
    return create_app(launcher, StartSpec(mode="play", players=2, bot_level="gated", seed=21))


async def test_keys_and_repaints_go_on_while_a_bot_thinks(gate: Gate) -> None:
    app = play_app()
    timeline = Timeline(app)
    async with app.run_test(size=(80, 24)) as pilot:
        # Set-up: the bot (seat 2) thinks about its face-up cards while we pick ours.
        await until(lambda: isinstance(app.screen, SetupScreen), "the set-up screen")
        await gate.until_thinking("1-setup")
        timeline.mark("key", "1")
        await pilot.press("1")
        await until(lambda: ("frame", ("picked", (0,))) in timeline.events, "a repaint")
        assert not gate.decided("1-setup")
        gate.open("1-setup")
        await pilot.press("2", "3", "enter")

        # The game: let the bot think about a move of its own.
        view = await play_until_to_act(pilot, app, gate, 1)
        moves = view.moves_played
        key = decision_key(1, moves)
        await gate.until_thinking(key)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        before = timeline.shown()
        timeline.mark("key", "right")
        await pilot.press("right")
        after = ("cursor", screen.cursor, before[2])
        assert after != before
        pressed = timeline.index("key", "right")
        await until(
            lambda: any(e == ("frame", after) for e in timeline.events[pressed:]),
            "the repaint of the cursor",
        )
        assert not gate.decided(key)
        assert view_of(app).moves_played == moves  # type: ignore[union-attr]
        gate.open(key)
        await until(moved_past(app, moves), "the bot's move")
        timeline.mark("bot moved")
        assert timeline.first_frame_after(pressed, after) < timeline.index("bot moved")


async def test_the_hint_is_thought_out_off_the_ui_loop(
    gate: Gate, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hint asks a thinking bot; the screen stays live until it answers."""
    monkeypatch.setattr(hint_module, "HINT_LEVELS", ("gated",))
    app = play_app()
    timeline = Timeline(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: isinstance(app.screen, SetupScreen), "the set-up screen")
        gate.open("1-setup")
        await pilot.press("1", "2", "3", "enter")
        view = await play_until_to_act(pilot, app, gate, 0)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        key = decision_key(0, view.moves_played)
        await pilot.press("h")
        await gate.until_thinking(key)  # the hint's bot thinks for us...
        before = timeline.shown()
        timeline.mark("key", "right")
        await pilot.press("right")  # ...and the screen still answers
        after = ("cursor", screen.cursor, before[2])
        assert after != before
        pressed = timeline.index("key", "right")
        await until(
            lambda: any(e == ("frame", after) for e in timeline.events[pressed:]),
            "the repaint of the cursor",
        )
        assert not gate.decided(key) and not screen.selected
        gate.open(key)
        expected = GreedyBot(0).choose_move(view)  # the gated bot plays as greedy does
        assert expected.kind == "play"
        await until(lambda: screen.selected, "the hint")
        hand = [str(card) for card in screen.zone_cards(view)]
        assert sorted(hand[i] for i in screen.selected) == sorted(expected.cards)


async def test_enter_right_after_h_makes_the_hinted_move_when_it_comes(
    gate: Gate, monkeypatch: pytest.MonkeyPatch
) -> None:
    """h then Enter at once (faster than the hint can be thought out):
    Enter waits for the hint, then makes exactly that move."""
    monkeypatch.setattr(hint_module, "HINT_LEVELS", ("gated",))
    app = play_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: isinstance(app.screen, SetupScreen), "the set-up screen")
        gate.open("1-setup")
        await pilot.press("1", "2", "3", "enter")
        view = await play_until_to_act(pilot, app, gate, 0)
        session = app.session
        assert session is not None
        client = session.client
        sent: list[Move] = []
        submit = client.submit

        def recording(move: Move) -> None:
            sent.append(move)
            submit(move)

        client.submit = recording  # type: ignore[method-assign]
        key = decision_key(0, view.moves_played)
        await pilot.press("h", "enter")
        await gate.until_thinking(key)
        assert sent == []  # Enter made no move of its own meanwhile
        gate.open(key)
        await until(moved_past(app, view.moves_played), "the hinted move")
        assert sent == [GreedyBot(0).choose_move(view)]  # the gated bot plays as greedy does
