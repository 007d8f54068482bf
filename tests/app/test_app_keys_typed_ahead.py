"""Keys typed before the player's turn was in sight, handled once it came.

A key is read from the terminal when it is typed (Key.time), and handled
when the loop gets to it: typed during a bot's turn, it may be handled
after the view that makes it the player's turn, before that view is
painted.  It must not play on a pile the player has not seen.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from app_helpers import (
    MAX_MOVES,
    app_of,
    lay_by_keys,
    play_by_keys,
    view_of,
    wait_for,
    wait_for_turn,
)
from textual import events
from textual.pilot import Pilot

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.app.text import rank_of_code
from threeup_tui.bots import GreedyBot
from threeup_tui.launcher import Launcher
from threeup_tui.rules import View

BOT_DELAY = 0.2  # the bot's turn lasts long enough to type a key during it


def playable_number(view: View, screen: TableScreen) -> int | None:
    """A number key that selects cards the player may play now, if any."""
    for code in screen.zone_cards(view):
        if (
            code is not None
            and rank_of_code(code) <= 10
            and rank_of_code(code) in view.playable_ranks()
        ):
            return rank_of_code(code)
    return None


def played_past(pilot: Pilot[int], moves: int) -> Callable[[], bool]:
    return lambda: view_of(pilot).moves_played > moves


def type_at_the_next_turn(
    app: Any, screen: TableScreen, typed_at: float
) -> tuple[list[View], list[events.Key]]:
    """A number of a card playable then, and Enter, typed ``typed_at`` (Key.time)
    and handled as the view that makes it the player's turn is shown, before
    its frame: the view they came at, and the keys (none: no such card)."""
    sync = screen.sync
    turns: list[View] = []
    keys: list[events.Key] = []

    def keys_handled_late(*args: Any, **kwargs: Any) -> None:
        sync(*args, **kwargs)
        now = screen._view()
        if turns or now is None or not now.my_turn:
            return
        number = playable_number(now, screen)
        if number is None:
            return
        turns.append(now)
        for name in (str(number % 10), "enter"):
            key = events.Key(name, "\r" if name == "enter" else name)
            key.time = typed_at
            keys.append(key)
            app.post_message(key)

    screen.sync = keys_handled_late  # type: ignore[method-assign]
    return turns, keys


async def test_enter_typed_during_the_bots_turn_plays_nothing_on_the_turn_it_did_not_see() -> None:
    """ "7 Enter" typed while the bot played, read then and handled once the
    view making it the player's turn had come but before it was painted:
    the 7s were played on a pile the player had not seen.  The selection
    typed ahead stands (it is the player's own hand, unchanged by the bot);
    the Enter plays nothing, and an Enter typed at the turn in sight plays."""
    launcher = Launcher()
    launcher.bot_delay = BOT_DELAY
    app = create_app(launcher, StartSpec(mode="play", players=2, seed=16))
    async with app.run_test(size=(80, 24)) as pilot:
        await lay_by_keys(pilot, GreedyBot(0))
        bot = GreedyBot(1)
        acted_at = -1
        for _ in range(MAX_MOVES):
            assert await wait_for_turn(pilot, acted_at) == "turn", "the game ended first"
            screen = app.screen
            assert isinstance(screen, TableScreen)
            acted_at = view_of(pilot).moves_played
            await play_by_keys(pilot, bot.choose_move(view_of(pilot)))
            await wait_for(pilot, played_past(pilot, acted_at), what="our move")
            if view_of(pilot).my_turn or view_of(pilot).phase != "play":
                continue  # an extra discard owed (or the end): no bot's turn to type in
            # The keys are typed now, as the bot plays.
            turns, keys = type_at_the_next_turn(app, screen, time.monotonic())
            await wait_for_turn(pilot, acted_at)
            del screen.sync  # the class's again
            if turns:
                break
        else:
            raise AssertionError("no turn had a card to select")
        turn = turns[0]
        # Handled: sent on to the screen, and back up to the bindings.
        await wait_for(pilot, lambda: all(k.is_forwarded for k in keys), what="the keys")
        await pilot.pause()
        assert view_of(pilot).moves_played == turn.moves_played, "a move on a pile unseen"
        assert view_of(pilot).my_turn
        # Typed before the turn's first frame (the test's premise).
        assert screen.shown_at is not None and keys[-1].time < screen.shown_at
        assert screen.selected, "the number typed ahead selects, as it would have"
        number = rank_of_code(str(screen.zone_cards(turn)[min(screen.selected)]))
        # Typed at the turn in sight, Enter plays the cards selected.
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: view_of(pilot).moves_played > turn.moves_played, what="the move"
        )
        now = view_of(pilot)  # the log holds the last moves: ours, and the bot's since?
        played = now.log[len(now.log) - (now.moves_played - turn.moves_played)]
        assert played.seat == turn.seat and played.kind == "play", played
        assert {rank_of_code(c) for c in played.cards} == {number}
        await app_of(pilot).action_quit()
