"""Game states and views made directly with the engine, for scripted clients."""

from __future__ import annotations

from threeup_tui.bots import GreedyBot
from threeup_tui.client import Lobby, LobbyChanged, SeatSlot, ViewChanged, Welcome
from threeup_tui.rules import GameState, Options, View, seat_view

HOSTILE = "[bold red]x[/]\x1b[2J\x07evil"
HOSTILE_SHOWN = "[bold red]x[/][2Jevil"  # control characters gone, markup kept literal


def dealt(names: list[str], first: int = 0, seed: int = 1, **options: object) -> GameState:
    """A game past its set-up: every seat laid the greedy bot's face-up choice."""
    state = GameState.new(names, Options(first=first, **options), seed=seed)  # type: ignore[arg-type]
    for seat in range(len(names)):
        state.choose_face_up_codes(
            seat, GreedyBot(seat).choose_face_up(seat_view(state, seat, log_length=0))
        )
    return state


def lobby_for(names: list[str], host_seat: int = 0, started: bool = True) -> Lobby:
    seats = tuple(
        SeatSlot(
            i,
            name,
            "human" if i == host_seat else "bot",
            i == host_seat,
            None if i == host_seat else "greedy",
        )
        for i, name in enumerate(names)
    )
    return Lobby(seats, Options(), False, None, started, host_seat, "test table")


def seat_events(state: GameState, seat: int | None, is_host: bool = True) -> list[object]:
    """What a table sends a client sitting at ``seat``."""
    view: View = seat_view(state, seat)
    return [
        Welcome(seat, is_host, "test table"),
        LobbyChanged(lobby_for(list(state.names))),
        ViewChanged(view),
    ]
