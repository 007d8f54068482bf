"""The app's first seconds at a table: the start screen says what it is
doing while a table is set, and takes no second table meanwhile.

Real apps (``run_test``) at 80x24, real tables with real bots, a real pool
of thinking workers; the launcher only waits at a gate before it deals, as
the first expert table waits for its worker processes.
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any

from app_helpers import fast_launcher, screen_text, wait_for, wait_for_setup
from test_app_kept_game import on_start_screen
from textual import events
from textual.widgets import Input

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.messages import PlayRequested
from threeup_tui.app.screens.join import JoinScreen
from threeup_tui.app.screens.setup import SetupScreen
from threeup_tui.app.screens.start import StartScreen
from threeup_tui.bots.pool import ThinkPool, set_shared_pool
from threeup_tui.client.base import TableClient
from threeup_tui.launcher import Launcher
from threeup_tui.settings import SettingsFile


class GatedLauncher(Launcher):
    """Deals a real game against bots once ``gate`` opens; counts the asking."""

    bot_delay = 0.0
    discover = None  # type: ignore[assignment]  # the join form listens for no table

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.asked = 0

    async def local_game(self, *args: Any, **kwargs: Any) -> TableClient:
        self.asked += 1
        await self.gate.wait()
        return await super().local_game(*args, **kwargs)


def start_settings(level: str) -> SettingsFile:
    settings = SettingsFile()
    settings.change(bot_level=level)
    return settings


async def test_enter_says_dealing_at_once_and_a_second_enter_starts_no_second_table() -> None:
    launcher = GatedLauncher()
    app = create_app(launcher, StartSpec(name="me"), settings=start_settings("greedy"))
    heard: list[str] = []
    app.notify = lambda message, *a, **k: heard.append(message)  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        start = await on_start_screen(pilot)
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Dealing…" in screen_text(app), what="Dealing…")
        # The keys under the menu wait too: the table being set has 3 greedy bots.
        await pilot.press("enter", "b", "minus", "enter")
        await pilot.pause()
        assert "me against 3 greedy bots" in screen_text(app)
        launcher.gate.set()
        await wait_for_setup(pilot)
        await asyncio.sleep(0.2)
        assert launcher.asked == 1, "a second table was asked for"
        assert not [h for h in heard if "Leave the current table" in h], heard
        assert app.session is not None and len(app.session.view.names) == 4  # type: ignore[union-attr]
        # Back on the start screen, its keys are there again.
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("y")
        await wait_for(pilot, lambda: app.screen is start, what="the start screen")
        assert start.starting is None and "+ / - players" in screen_text(app)
        await app.action_quit()


async def test_the_first_expert_table_says_the_bots_are_waking() -> None:
    """With no thinking worker running yet, the words say why it takes a
    moment: ``threeup play --bot-level expert``, straight in (from the menu,
    the start screen showing expert bots has started their worker)."""
    pool = ThinkPool()  # a pool with no worker started
    old = set_shared_pool(pool)
    try:
        launcher = GatedLauncher()
        spec = StartSpec(mode="play", bot_level="expert", name="me")
        app = create_app(launcher, spec, settings=start_settings("expert"))
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(
                pilot, lambda: "Waking the expert bots…" in screen_text(app), what="the words"
            )
            await app.action_quit()
    finally:
        pool.close()
        set_shared_pool(old)


def test_only_thinking_bots_with_no_worker_running_are_woken() -> None:
    pool = ThinkPool(workers=1)
    old = set_shared_pool(pool)
    launcher = Launcher()
    try:
        assert launcher.bots_to_wake("expert")
        assert not launcher.bots_to_wake("greedy") and not launcher.bots_to_wake("random")
        pool.warm()
        assert not launcher.bots_to_wake("expert")
    finally:
        pool.close()
        set_shared_pool(old)


async def test_a_join_asked_for_while_dealing_is_refused_in_words_and_esc_keeps_the_game() -> None:
    """The palette's Join a table, opened while the start screen deals: the
    join is refused on the form, in words (the form said it was joining,
    for ever), and Esc then goes back to the game being dealt."""
    launcher = GatedLauncher()
    app = create_app(launcher, StartSpec(name="me"), settings=start_settings("greedy"))
    async with app.run_test(size=(80, 24)) as pilot:
        await on_start_screen(pilot)
        await pilot.press("enter")
        await wait_for(pilot, lambda: launcher.asked == 1, what="the dealing")
        app.open_join_form()
        await wait_for(pilot, lambda: isinstance(app.screen, JoinScreen), what="the join form")
        app.screen.query_one("#join-address", Input).value = "127.0.0.1:49579"
        app.screen.query_one("#join-address", Input).focus()
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: "start screen: leave it first" in " ".join(screen_text(app).split())
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), what="the start screen")
        launcher.gate.set()
        await wait_for_setup(pilot)
        await app.action_quit()


async def test_esc_on_a_form_still_joining_leaves_the_game_dealt_meanwhile_alone() -> None:
    """A join left waiting (on a host that never answers), then the
    palette's Play against bots: Esc on the form stopped that game as if it
    were the join, and the start screen said "Dealing…" for ever."""
    launcher = GatedLauncher()
    app = create_app(launcher, StartSpec(name="me"), settings=start_settings("greedy"))
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as silent:
        silent.bind(("127.0.0.1", 0))
        async with app.run_test(size=(80, 24)) as pilot:
            start = await on_start_screen(pilot)
            app.open_join_form()
            await wait_for(pilot, lambda: isinstance(app.screen, JoinScreen), what="the join form")
            form = app.screen
            assert isinstance(form, JoinScreen)
            form.query_one("#join-address", Input).value = f"127.0.0.1:{silent.getsockname()[1]}"
            form.query_one("#join-address", Input).focus()
            await pilot.press("enter")
            await wait_for(pilot, lambda: form.joining is not None, what="the joining")
            # What the palette's entry does.
            app.play_requested(PlayRequested(start.players, start.bot_level))
            await wait_for(pilot, lambda: launcher.asked == 1, what="the dealing")
            await pilot.press("escape")
            await wait_for(pilot, lambda: "Stopped joining." in screen_text(app))
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is start, what="the start screen")
            launcher.gate.set()
            await wait_for_setup(pilot)
            await app.action_quit()


async def test_a_table_being_set_that_is_cancelled_clears_the_start_screen_words() -> None:
    launcher = GatedLauncher()
    app = create_app(launcher, StartSpec(name="me"), settings=start_settings("greedy"))
    async with app.run_test(size=(80, 24)) as pilot:
        start = await on_start_screen(pilot)
        await pilot.press("enter")
        await wait_for(pilot, lambda: launcher.asked == 1, what="the dealing")
        app.workers.cancel_group(app, "launch")
        await wait_for(pilot, lambda: start.starting is None, what="the words cleared")
        assert "Dealing…" not in screen_text(app)
        await pilot.press("enter")  # and the start screen deals again
        await wait_for(pilot, lambda: launcher.asked == 2, what="a second dealing")
        launcher.gate.set()
        await wait_for_setup(pilot)
        await app.action_quit()


async def test_enter_typed_twice_on_the_start_screen_lays_no_cards_unseen() -> None:
    """Enter twice fast on "Play against bots": the second Enter, read while
    the app was busy building the set-up, was handled there once it stood,
    and the player saw "Choose 3 cards (you have 0)" before any card, as if
    they had laid nothing."""
    app = create_app(fast_launcher(), StartSpec(name="me"), settings=start_settings("greedy"))
    heard: list[str] = []
    app.notify = lambda message, *a, **k: heard.append(message)  # type: ignore[method-assign]
    keys: list[events.Key] = []
    push = app.push_screen

    def push_then_the_second_key(screen: Any, *args: Any, **kwargs: Any) -> Any:
        pushed = push(screen, *args, **kwargs)
        if isinstance(screen, SetupScreen):
            app.post_message(keys[1])
        return pushed

    app.push_screen = push_then_the_second_key  # type: ignore[method-assign,assignment]
    async with app.run_test(size=(80, 24)) as pilot:
        await on_start_screen(pilot)
        # Both keys read from the terminal at once (Key.time is when), at the
        # start screen in sight, the second handled as the loop gets to it:
        # once the set-up is pushed.
        keys[:] = [events.Key("enter", "\r"), events.Key("enter", "\r")]
        first, second = keys
        app.post_message(first)
        setup = await wait_for_setup(pilot)
        # Handled by the set-up (sent on to it, and back up to the bindings).
        await wait_for(pilot, lambda: second.is_forwarded, what="the second Enter")
        await pilot.pause()
        assert not [h for h in heard if "Choose 3 cards" in h], heard
        # An Enter typed at the cards in sight, with nothing chosen, is told.
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Choose 3 cards (you have 0)" in heard, what="the warning")
        await pilot.press("1", "2", "3", "enter")
        await wait_for(pilot, lambda: setup.sent, what="the cards laid")
        await app.action_quit()
