"""What the host's lobby tells friends to type, for a table on IPv6 and IPv4.

A table listens on ``::`` (IPv6 and IPv4) by default: "threeup join
HOST:PORT" is right for IPv4 and a name, but an IPv6 address written so is
no address (``fd00::5:5000`` even reads as another IPv6 address), and a
door given ``--ssh-port 0`` listens on IPv4 alone.  The real app, on a
scripted client, at 80x24.
"""

from __future__ import annotations

import dataclasses
import shlex

import pytest
from app_fakes import ScriptedClient, ScriptedLauncher
from app_helpers import screen_text, wait_for, words_shown
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
    # Whole, on a line of its own at 80x24: not cut, not wrapped; quoted, as
    # zsh takes unquoted brackets for a pattern ("no matches found").
    assert "IPv6: threeup join '[HOST]:49851'" in text
    assert "[::" not in text  # every address, however spelt, is this machine's HOST


async def test_a_table_on_ipv4_alone_says_nothing_of_ipv6() -> None:
    text = await lobby_text(("0.0.0.0", 47823), ("0.0.0.0", 2222))
    assert "Join: threeup join HOST:47823" in text and "ssh -p 2222 HOST" in text
    assert "IPv6" not in text and "IPv4" not in text


async def test_a_table_on_one_ipv6_address_shows_it_in_brackets() -> None:
    text = await lobby_text(("fd00::5", 5000), ("fd00::5", 2222))
    assert "Join: threeup join '[fd00::5]:5000'" in text and "ssh -p 2222 fd00::5" in text
    assert "IPv6:" not in text  # the address is real: nothing to explain


async def test_an_ssh_door_on_ipv4_alone_beside_a_table_on_both_says_so() -> None:
    """`--ssh-port 0` on every address: one free port, IPv4 only."""
    text = await lobby_text(("::", 47823), ("0.0.0.0", 40123))
    assert "SSH, nothing to install: ssh -p 40123 HOST" in text
    assert "(the SSH door listens on IPv4 only)" in text
    both = await lobby_text(("::", 47823), ("::", 2222))  # a door on each family
    assert "ssh -p 2222 HOST" in both and "IPv4 only" not in both


def join_command(text: str) -> str:
    """The join command shown whole on one line of the lobby's column."""
    (line,) = [row for row in text.splitlines() if "threeup join" in row]
    return line.split("│")[0].strip().removeprefix("Join:").strip()


@pytest.mark.parametrize("code", ["pizza", "pizza night", "-x", "it's"])
async def test_the_join_line_gives_the_room_code_as_the_shell_and_join_read_it(code: str) -> None:
    """A friend who copied "threeup join HOST:PORT" (the code was on the line
    above) was refused: the table asks for a room code.  The command is
    whole, its code quoted for the shell, and ``join`` reads that code."""
    from threeup_tui.cli import build_parser

    client = ScriptedClient()
    client.address = ("0.0.0.0", 47823)  # type: ignore[attr-defined]
    app = create_app(ScriptedLauncher(client), StartSpec(mode="host"))
    lobby = lobby_for(["you", "bot"], started=False)
    async with app.run_test(size=(80, 24)) as pilot:
        client.emit(Welcome(0, True))
        client.emit(LobbyChanged(dataclasses.replace(lobby, code=code, code_required=True)))
        await wait_for(pilot, lambda: "threeup join" in screen_text(app))
        command = join_command(screen_text(app))
    words = shlex.split(command)
    assert words[:3] == ["threeup", "join", "HOST:47823"], command
    args = build_parser().parse_args(words[1:])
    assert args.code == code, command


@pytest.mark.parametrize("size", [(80, 24), (40, 15)])
async def test_a_hosted_tables_lobby_shows_a_join_command_that_gives_its_code(
    size: tuple[int, int],
) -> None:
    """A real table hosted from the app on loopback, with a room code.  At
    80x24 the command is whole on one line (under its label: beside it, it
    did not fit); at 40x15 nothing holds it, and it wraps between its
    words, "--code pizza" kept together."""
    from threeup_tui.app.widgets.fitted import FittedText
    from threeup_tui.launcher import HostedClient, HostSettings, Launcher

    launcher = Launcher(announce_address="off")
    settings = HostSettings(players=2, name="Ann", port=0, bind="127.0.0.1", code="pizza")
    app = create_app(launcher, StartSpec(mode="host", host=settings))
    async with app.run_test(size=size) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, LobbyScreen) and "threeup join" in screen_text(app),
            20,
            "the lobby",
        )
        client = app.session.client if app.session is not None else None
        assert isinstance(client, HostedClient) and client.address is not None
        said = f"threeup join 127.0.0.1:{client.address[1]} --code pizza"
        text = screen_text(app)
        title = words_shown(app, app.screen.query_one("#lobby-title", FittedText))
        assert f"Join: {said}" in title, title
        # Each row of the column, without the chat beside it nor its scroll bar.
        rows = [row.split("│")[0].strip(" ▁▂▃▄▅▆▇█") for row in text.splitlines()]
        if size == (80, 24):
            assert said in rows, text
        else:
            assert "--code pizza" in rows, text
        await pilot.press("q")
