"""Game states found by playing: the moments the table's tests look at."""

from __future__ import annotations

import itertools
from collections.abc import Callable

from app_fakes import ScriptedClient, ScriptedLauncher
from app_helpers import wait_for
from app_states import dealt, seat_events
from textual.pilot import Pilot

from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.bots import Bot, GreedyBot, RandomBot
from threeup_tui.client import ConnectionChanged, Lobby, LobbyChanged
from threeup_tui.rules import GameState, View, seat_view


def greedy_bots(seed: int, seat: int) -> Bot:
    return GreedyBot(seat)


def random_bots(seed: int, seat: int) -> Bot:
    """Random bots play moves greedy ones never do (a Clear +2 as the last card)."""
    return RandomBot(seed * 10 + seat)


def played_until(
    names: list[str],
    want: Callable[[GameState, View], bool],
    seeds: range = range(60),
    limit: int = 800,
    bot: Callable[[int, int], Bot] = greedy_bots,
) -> GameState:
    """The first state (``bot(seed, seat)`` at every seat, seat 0 first)
    where ``want(state, seat 0's view)`` holds."""
    for seed in seeds:
        state = dealt(names, first=0, seed=seed)
        bots = [bot(seed, s) for s in range(len(names))]
        for _ in range(limit):
            if state.over:
                break
            if want(state, seat_view(state, 0)):
                return state
            seat = state.seat
            state.apply_move(bots[seat].choose_move(seat_view(state, seat)))
    raise AssertionError("no such state in the seeds tried")


def extra_and_draw(state: GameState, view: View) -> bool:
    """Our turn, extra discards owed and the early draw open."""
    return view.my_turn and view.extra_discards > 0 and view.can_draw()


def long_known(state: GameState, view: View) -> bool:
    """Our turn, and an opponent holds 12 or more known cards."""
    return view.my_turn and any(len(s.known) >= 12 for s in view.seats[1:])


def hand_empty(source: str) -> Callable[[GameState, View], bool]:
    def want(state: GameState, view: View) -> bool:
        return view.my_turn and not view.hand and view.source == source

    return want


def someone_made_extras(state: GameState, view: View) -> bool:
    """An opponent's Clear +1 / +2 and an extra discard after it, in the log."""
    log = view.log
    for a, b in itertools.pairwise(log):
        if (
            a.seat != 0
            and a.kind == "play"
            and a.cards[-1][1:] in ("C1", "C2")
            and b.seat == a.seat
            and b.kind in ("play", "flip")
        ):
            return True
    return False


async def open_table(
    pilot: Pilot[int],
    client: ScriptedClient,
    state: GameState,
    seat: int | None = 0,
    is_host: bool = True,
    lobby: Lobby | None = None,
) -> TableScreen:
    """The table screen showing ``state`` to ``seat`` (None: a spectator)."""
    for event in seat_events(state, seat, is_host):
        if lobby is not None and isinstance(event, LobbyChanged):
            event = LobbyChanged(lobby)
        client.emit(event)  # type: ignore[arg-type]
    client.emit(ConnectionChanged("connected"))
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.is_mounted)
    screen = app.screen
    assert isinstance(screen, TableScreen)
    await pilot.pause()
    return screen


def table_app(client: ScriptedClient) -> ThreeUpApp:
    return create_app(ScriptedLauncher(client), StartSpec(mode="play"))
