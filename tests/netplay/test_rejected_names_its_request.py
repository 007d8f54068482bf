"""A ``rejected`` says which request it refuses (protocol.md, "Which
request a `rejected` answers"): at a real table on loopback, the client's
refusal carries it.  The set-up took any refusal for its choice refused,
and a chat line refused brought its "Lay face up" back while the choice
was in flight; a second Enter sent the choice twice.  The table refuses
the second choice, and it changes nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

from netplay_support import make_client, make_table, start_host

from net import NetConfig
from threeup_tui.chatlimit import MAX_CHARS
from threeup_tui.client.events import ActionRejected, ViewChanged
from threeup_tui.netplay.client import NetClient
from threeup_tui.rules import View


async def _refusal(client: NetClient, timeout: float = 5.0) -> ActionRejected:
    async def run() -> ActionRejected:
        while True:
            event = await client.next_event()
            if isinstance(event, ActionRejected):
                return event

    return await asyncio.wait_for(run(), timeout)


async def _view(client: NetClient, laid: bool, timeout: float = 5.0) -> View:
    """The first set-up view whose own seat is (or is not yet) ``laid``."""

    async def run() -> View:
        while True:
            event = await client.next_event()
            if not isinstance(event, ViewChanged) or event.view.phase != "setup":
                continue
            me = event.view.me
            if me is not None and me.ready == laid:
                return event.view

    return await asyncio.wait_for(run(), timeout)


async def test_a_refusal_names_the_request_and_a_second_choice_changes_nothing(
    tmp_path: Path,
) -> None:
    table = make_table(tmp_path, players=2, seed=7)
    cy = table.seat_human("Cy")[0]  # seated, and choosing all along: the set-up waits
    host = await start_host(table, NetConfig())
    client = make_client(host.address, "Bo", tmp_path / "bo.json")
    try:
        await client.start()
        view = await _view(client, laid=False)
        bo = view.seat
        assert bo is not None and bo != cy
        client.choose_face_up(view.hand[:3])
        laid = await _view(client, laid=True)
        assert table.state is not None
        chosen = table.state.setup[bo]
        assert chosen is not None

        # The choice again (what a second Enter sent): refused as the set-up's.
        client.choose_face_up(laid.hand[:3])
        refused = await _refusal(client)
        assert refused.request == "setup", refused
        assert "has already chosen its face-up cards" in refused.reason, refused
        assert table.state.setup[bo] == chosen  # nothing changed
        assert table.state.setup[cy] is None

        # A chat line refused is the chat's, not the set-up's.
        client.chat("x" * (MAX_CHARS + 1))
        refused = await _refusal(client)
        assert refused.request == "chat", refused
        assert refused.reason.startswith("a chat line is at most"), refused
    finally:
        await client.close()
        await host.close()
