"""What the host's lobby tells friends to type, for a table on IPv6 and IPv4.

A table listens on ``::`` (IPv6 and IPv4) by default: "threeup join
HOST:PORT" is right for IPv4 and a name, but an IPv6 address written so is
no address (``fd00::5:5000`` even reads as another IPv6 address), and a
door given ``--ssh-port 0`` listens on IPv4 alone.  The real app, on a
scripted client, at 80x24.
"""

from __future__ import annotations

import pytest
from app_fakes import ScriptedClient, ScriptedLauncher
from app_helpers import screen_text, wait_for
from app_states import lobby_for

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.screens.lobby import LobbyScreen
from threeup_tui.client import LobbyChanged, Welcome


async def lobby_text(address: tuple[str, int], ssh: tuple[str, int] | None = None) -> str:
    client = ScriptedClient()
    client.address = address  # type: ignore[attr-defined]
    client.ssh_address = ssh  # type: ignore[attr-defined]
    app = create_app(ScriptedLauncher(client), StartSpec(mode="host"))
    async with app.run_test(size=(80, 24)) as pilot:
        client.emit(Welcome(0, True))
        client.emit(LobbyChanged(lobby_for(["you", "bot", "bot 2"], started=False)))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await wait_for(pilot, lambda: "threeup join" in screen_text(app))
        return screen_text(app)


@pytest.mark.parametrize("every", ["::", "::0"])
async def test_a_table_on_ipv6_and_ipv4_says_how_an_ipv6_friend_writes_it(every: str) -> None:
    text = await lobby_text((every, 49851))
    assert "Join: threeup join HOST:49851" in text
    # Whole, on a line of its own at 80x24: not cut, not wrapped.
    assert "IPv6: threeup join [HOST]:49851" in text
    assert "[::" not in text  # every address, however spelt, is this machine's HOST


async def test_a_table_on_ipv4_alone_says_nothing_of_ipv6() -> None:
    text = await lobby_text(("0.0.0.0", 47823), ("0.0.0.0", 2222))
    assert "Join: threeup join HOST:47823" in text and "ssh -p 2222 HOST" in text
    assert "IPv6" not in text and "IPv4" not in text


async def test_a_table_on_one_ipv6_address_shows_it_in_brackets() -> None:
    text = await lobby_text(("fd00::5", 5000), ("fd00::5", 2222))
    assert "Join: threeup join [fd00::5]:5000" in text and "ssh -p 2222 fd00::5" in text
    assert "IPv6:" not in text  # the address is real: nothing to explain


async def test_an_ssh_door_on_ipv4_alone_beside_a_table_on_both_says_so() -> None:
    """`--ssh-port 0` on every address: one free port, IPv4 only."""
    text = await lobby_text(("::", 47823), ("0.0.0.0", 40123))
    assert "SSH, nothing to install: ssh -p 40123 HOST" in text
    assert "(the SSH door listens on IPv4 only)" in text
    both = await lobby_text(("::", 47823), ("::", 2222))  # a door on each family
    assert "ssh -p 2222 HOST" in both and "IPv4 only" not in both
