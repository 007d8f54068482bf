"""Secrecy on the wire across a reconnect and a rematch, and in the turn
timer's words.

``test_netplay_secrecy`` checks every view a host sends during one game.
Here one table plays two games (the second starts by itself after the
first, ``rematch_after``), one player drops out in the middle of the first
game and comes back with its token (a new session, whose first snapshot
is the game as it stands), and a spectator watches from the lobby on.
Every datagram the host sends is decoded and reassembled, and:

* every view is checked card by card against the game it belongs to (the
  lobby's game number tells the two games apart) with ``check_view``:
  the own hand, the face-up cards (none of another seat's before everyone
  has chosen, D2), the known cards, the pile, the cleared cards, the log;
* no lobby, ACCEPT payload or message (chat and system lines, notices,
  refusals) names a card at all: card codes are searched for in every
  string they carry.

A second table runs a turn timer for a player who never acts: the only
words naming cards must be the timer's notices to that player's own
session (the face-up cards its bot laid, the cards it played).
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import msgpack
from netplay_support import Tap, make_client, run_table, start_host, stop_runner, table_record
from test_netplay_secrecy import Audit, check_view

from net import NetConfig
from threeup_tui.bots import make_bot
from threeup_tui.client import TableClient
from threeup_tui.client.botseat import BotSeat
from threeup_tui.client.events import Event, ViewChanged
from threeup_tui.netplay.client import NetClient
from threeup_tui.rules import Record, View
from threeup_tui.table import Table, TableConfig

CARD_CODE = re.compile(r"\b[RGB](?:10|[1-9]|C[12]?)\b")
DROP_AT = 24  # the move of the first game at which one player's link goes


class GamesAudit(Audit):
    """``Audit`` with the game number in every key: two games pass through
    the same phases and move counts."""

    def __init__(self, table: Table) -> None:
        self.game = 0  # the game a key is made for: the table's, or a payload's
        super().__init__(table)

    def key(self, phase: str, moves: int, ready: tuple[bool, ...]) -> tuple[Any, ...]:
        return (self.game, *super().key(phase, moves, ready))

    def _on_event(self, event: Event) -> None:
        self.game = self.table.game_number
        super()._on_event(event)

    def snapshot_for_payload(self, payload: dict[str, Any]) -> Any:
        self.game = payload["lobby"]["game"]
        return self.snapshot_for(payload["view"])


class Games:
    """Counts the games a client has seen end."""

    def __init__(self) -> None:
        self.over = 0
        self.last_phase = ""

    def saw(self, view: View) -> None:
        if view.phase == "over" and self.last_phase != "over":
            self.over += 1
        self.last_phase = view.phase


async def drive(client: TableClient, seed: int, games: Games, stop: Any) -> None:
    """Play ``client``'s seat with a greedy bot (a spectator just watches)
    until ``stop(view)``."""
    seat = BotSeat(client, make_bot("greedy", seed))
    while True:
        event = await client.next_event()
        if isinstance(event, ViewChanged):
            games.saw(event.view)
            if stop(event.view):
                return
            seat.on_view(event.view)


def strings_in(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in strings_in(k) + strings_in(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in strings_in(v)]
    return []


def played_by(record: Record, seat: int) -> list[str]:
    return [c for m in record.moves if m.seat == seat and m.kind == "play" for c in m.cards]


def cards_named(value: Any) -> list[str]:
    return [code for text in strings_in(value) for code in CARD_CODE.findall(text)]


async def served_table(config: TableConfig) -> tuple[Table, GamesAudit, Tap, Any, Any]:
    """``config``'s table with a greedy bot, audited, served on loopback
    with every datagram tapped, its bots running: (table, audit, tap, host,
    runner)."""
    table = Table(config)
    table.add_bot(None, "greedy")
    audit = GamesAudit(table)
    tap = Tap()
    host = await start_host(table, NetConfig(), tap=tap)
    runner = await run_table(table)
    return table, audit, tap, host, runner


async def test_no_datagram_leaks_a_card_across_a_reconnect_and_a_rematch(tmp_path: Path) -> None:
    config = TableConfig(
        players=3,
        seed=77,
        auto_start=True,
        journal=tmp_path / "party.json",
        takeover_after=600.0,  # the dropped seat waits for its player
        rematch_after=0.2,
        games=2,
    )
    table, audit, tap, host, runner = await served_table(config)
    clients: list[NetClient] = []

    def client(name: str, watch: bool = False) -> NetClient:
        made = make_client(host.address, name, tmp_path / f"{name}.json", watch=watch)
        clients.append(made)
        return made

    async def dropping_player() -> None:
        ann, games = client("ann"), Games()
        await ann.start()
        await drive(ann, 1, games, lambda v: v.phase == "play" and v.moves_played >= DROP_AT)
        await ann.close()  # the link goes; the seat waits (takeover_after)
        again = client("ann")  # the same token file: the same seat
        await again.start()
        await drive(again, 1, games, lambda v: games.over == 2)

    async def steady(name: str, seed: int, watch: bool = False) -> None:
        games = Games()
        started = client(name, watch)
        await started.start()
        await drive(started, seed, games, lambda v: games.over == 2)

    try:
        await asyncio.wait_for(
            asyncio.gather(dropping_player(), steady("bob", 2), steady("eve", 3, watch=True)),
            timeout=60,
        )
    finally:
        for made in clients:
            await made.close()
        await stop_runner(runner)
        await host.close()

    assert table.game_number == 2
    sessions = tap.sessions()
    assert len(sessions) == 4  # ann twice, bob, the spectator
    checked = {1: 0, 2: 0}
    for cap in sessions.values():
        assert cap.incomplete_states == 0
        assert not cards_named(cap.accepted), cap.accepted
        for payload in cap.states.values():
            assert not cards_named(payload["lobby"]), "a card in a lobby"
            if payload["view"] is None:
                continue
            snapshot = audit.snapshot_for_payload(payload)
            check_view(payload["view"], cap.seat, snapshot)
            assert msgpack.packb(payload["view"]) in audit.wire_views[cap.seat]
            checked[payload["lobby"]["game"]] += 1
        for message in cap.messages:
            assert not cards_named(message), f"a card named in {message}"
    assert min(checked.values()) >= 100  # both whole games, every session
    # The session that came back got the first game as it stood, and played on.
    seats = [c.seat for c in sessions.values()]
    ann = [c for c in sessions.values() if c.seat is not None and seats.count(c.seat) == 2]
    assert len(ann) == 2  # in the order they began
    back = [p["view"] for p in ann[1].states.values() if p["view"] is not None]
    assert back[0]["phase"] == "play" and back[0]["moves"] >= DROP_AT
    assert any(p["lobby"]["game"] == 2 for p in ann[1].states.values())


async def watch_only(client: TableClient, games: Games) -> None:
    """A seat whose player is here but never acts: the turn timer's bot does."""
    while games.over == 0:
        event = await client.next_event()
        if isinstance(event, ViewChanged):
            games.saw(event.view)


async def test_the_turn_timers_words_name_cards_only_to_their_own_seat(tmp_path: Path) -> None:
    """The turn timer's stand-in tells its player what it did: the face-up
    cards it laid (while the others are still choosing, D2) and the cards
    it played.  Those words must go to that seat's session alone."""
    config = TableConfig(
        players=3,
        seed=91,
        auto_start=True,
        journal=tmp_path / "party.json",
        turn_time=0.4,
        takeover_after=600.0,
        games=1,
    )
    table, audit, tap, host, runner = await served_table(config)
    idle = make_client(host.address, "ida", tmp_path / "ida.json")
    bob = make_client(host.address, "bob", tmp_path / "bob.json")
    eve = make_client(host.address, "eve", tmp_path / "eve.json", watch=True)
    games = {name: Games() for name in ("ida", "bob", "eve")}
    try:
        for made in (idle, bob, eve):
            await made.start()
        await asyncio.wait_for(
            asyncio.gather(
                watch_only(idle, games["ida"]),
                drive(bob, 2, games["bob"], lambda v: games["bob"].over == 1),
                drive(eve, 3, games["eve"], lambda v: games["eve"].over == 1),
            ),
            timeout=60,
        )
    finally:
        for made in (idle, bob, eve):
            await made.close()
        await stop_runner(runner)
        await host.close()

    record = table_record(table)
    ida = idle.seat
    assert ida is not None
    named_to_ida = 0
    for cap in tap.sessions().values():
        for payload in cap.states.values():
            if payload["view"] is not None:
                check_view(payload["view"], cap.seat, audit.snapshot_for_payload(payload))
        for message in cap.messages:
            codes = cards_named(message)
            if not codes:
                continue
            # A slow machine may time bob out too: any seat's own words are fine.
            seat = cap.seat
            assert seat is not None and message["t"] == "notice", f"{message} sent to {seat}"
            played = played_by(record, seat)
            own = sorted(codes) == sorted(record.setup[seat]) or all(c in played for c in codes)
            assert own, f"{message} sent to seat {seat}"
            named_to_ida += seat == ida
    assert named_to_ida >= 2  # the face-up cards laid, and at least one play
