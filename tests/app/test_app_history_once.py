"""No path counts a network game twice in Your games: the game-over box
seen twice, a reconnect to it, the host's "played" result before or after
the view, twice, and every path again from a second app of the account.

Scripted events (the real app via ``run_test``, a real SQLite history in
the test's data directory): a table with an identity, as a network
client has one."""

from __future__ import annotations

from dataclasses import replace

import pytest
from app_fakes import ScriptedClient, ScriptedLauncher
from app_helpers import wait_for, writing
from app_states import dealt, lobby_for

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.bots import GreedyBot
from threeup_tui.client import (
    ConnectionChanged,
    Event,
    GameResult,
    GamesPlayed,
    LobbyChanged,
    ViewChanged,
    Welcome,
)
from threeup_tui.history import History, HistoryError
from threeup_tui.launcher import JoinSettings
from threeup_tui.rules import Phase, seat_view


class TableAtANetwork(ScriptedClient):
    def table_identity(self) -> str | None:
        return "table-aaaa"


def events() -> dict[str, Event]:
    state = dealt(["Ann", "me"], first=0, seed=5)
    during = seat_view(state, 1)
    bots = [GreedyBot(1), GreedyBot(2)]
    while state.phase != Phase.OVER:
        state.apply_move(bots[state.seat].choose_move(seat_view(state, state.seat)))
    public = seat_view(state, None)
    result = GameResult(1, public.names, (("human", None), ("human", None)), public.winner,
                        public.places, public.stalemate, public.moves_played, public.turn,
                        public.options.finish)  # fmt: skip
    return {
        "lobby": LobbyChanged(replace(lobby_for(["Ann", "me"], host_seat=0), game_number=1)),
        "play": ViewChanged(during),
        "over": ViewChanged(seat_view(state, 1)),
        "lost": ConnectionChanged("reconnecting", "connection lost"),
        "back": ConnectionChanged("connected", "127.0.0.1:1 (reconnected)"),
        "played": GamesPlayed((result,)),
    }


PATHS = {
    "played it, and the game-over box twice": ["play", "over", "over"],
    "a reconnect to the game-over box": ["over", "lost", "back", "lobby", "over"],
    "the host's result, then the box": ["played", "over"],
    "the box, then the host's result": ["play", "over", "played"],
    "the host's result twice": ["played", "lost", "back", "lobby", "played"],
}


def kept() -> int | None:
    try:
        return len(History().games())
    except HistoryError:
        return None  # a worker holds the file: look again


@pytest.mark.parametrize("path", PATHS)
async def test_no_path_counts_a_game_twice(path: str) -> None:
    script = events()
    for _app in range(2):  # the same again from a second app of the account
        client = TableAtANetwork()
        app = create_app(ScriptedLauncher(client), StartSpec("join", join=JoinSettings("h")))
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            client.emit(Welcome(1, False))
            client.emit(script["lobby"])
            for step in PATHS[path]:
                client.emit(script[step])
            await wait_for(pilot, lambda: kept() == 1, what="the game kept")
            await pilot.pause(0.3)
            await wait_for(
                pilot,
                lambda: not writing(pilot.app),
                what="the history written",
            )
            # Nor a second try refused by the file ("UNIQUE constraint failed").
            assert [n.message for n in app._notifications if "Your games" in n.message] == []
        assert kept() == 1, path
    (game,) = History().games()
    assert (game.table_id, game.game_number, game.my_seat) == ("table-aaaa", 1, 1)
