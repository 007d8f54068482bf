"""How the app gets a :class:`TableClient`: a game against bots, hosting a
table, or joining one.  The app only ever sees the client interface.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .client.base import TableClient
from .client.local import LocalClient, bot_game
from .rules import Options
from .table import Table, TableConfig


@dataclass(frozen=True)
class HostSettings:
    players: int = 4
    bots: int = 0
    bot_level: str = "greedy"
    code: str | None = None
    name: str = "host"
    options: Options = field(default_factory=Options)
    seed: int | None = None
    port: int | None = None
    bind: str = "0.0.0.0"


@dataclass(frozen=True)
class JoinSettings:
    address: str
    name: str = "player"
    code: str | None = None
    watch: bool = False


class Launcher:
    """Makes started clients.  Tests and the SSH front door pass their own."""

    bot_delay: float = 0.6

    async def local_game(
        self, players: int = 4, bot_level: str = "greedy", seed: int | None = None,
        name: str = "you",
    ) -> TableClient:
        """A started game of one person against bots."""
        client = bot_game(players, bot_level, seed, name, self.bot_delay)
        await client.start()
        return client

    async def host(self, settings: HostSettings) -> TableClient:
        """A table this process hosts, with the host in seat 1."""
        table = Table(
            TableConfig(
                players=settings.players,
                options=settings.options,
                code=settings.code,
                seed=settings.seed,
                bot_level=settings.bot_level,
                table_name=f"{settings.name}'s table",
                bot_delay=self.bot_delay,
            )
        )
        client = LocalClient(table, settings.name)
        await client.start()
        for _ in range(settings.bots):
            table.add_bot(None, settings.bot_level)
        return client

    async def join(self, settings: JoinSettings) -> TableClient:
        raise ConnectionError("network play is not available in this build yet")
