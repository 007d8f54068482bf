"""A scripted client and launcher: a table that says what a test wants."""

from __future__ import annotations

from collections.abc import Sequence

from threeup_tui.client import Event, TableClient
from threeup_tui.launcher import HostSettings, JoinSettings, Launcher
from threeup_tui.rules import Move, Options


class ScriptedClient(TableClient):
    """A client whose events the test emits, and which records every request."""

    rtt: float | None = None  # the link's round trip, as a test sets it

    def __init__(self) -> None:
        super().__init__()
        self.requests: list[tuple[str, object]] = []
        self.closed = False

    def emit(self, event: Event) -> None:
        self._emit(event)

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        self.closed = True

    def choose_face_up(self, cards: Sequence[str]) -> None:
        self.requests.append(("choose_face_up", tuple(cards)))

    def submit(self, move: Move) -> None:
        self.requests.append(("submit", move))

    def chat(self, text: str) -> None:
        self.requests.append(("chat", text))

    def add_bot(self, level: str) -> None:
        self.requests.append(("add_bot", level))

    def remove_seat(self, seat: int) -> None:
        self.requests.append(("remove_seat", seat))

    def set_options(self, options: Options) -> None:
        self.requests.append(("set_options", options))

    def start_game(self) -> None:
        self.requests.append(("start_game", None))

    def rematch(self) -> None:
        self.requests.append(("rematch", None))

    def here(self) -> None:
        self.requests.append(("here", None))

    def save_record(self, path: str) -> None:
        self.requests.append(("save_record", path))


class ScriptedLauncher(Launcher):
    """Every way to a table leads to the scripted client."""

    bot_delay = 0.0

    def __init__(self, client: ScriptedClient, join_error: str | None = None) -> None:
        super().__init__(announce_address="off")
        self.client = client
        self.join_error = join_error

    async def local_game(
        self,
        players: int = 4,
        bot_level: str = "greedy",
        seed: int | None = None,
        name: str = "you",
    ) -> TableClient:
        return self.client

    async def host(self, settings: HostSettings) -> TableClient:
        return self.client

    async def join(self, settings: JoinSettings) -> TableClient:
        if self.join_error is not None:
            raise ConnectionError(self.join_error)
        return self.client
