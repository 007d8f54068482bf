"""An app that ends has closed its table client first: Textual cancels the
app's workers as it ends without waiting for them, and the events worker's
close of its client (its goodbye to the host, its socket) was cut off with
the loop; the socket was closed only when collected, after the loop was
gone ("Exception ignored in DatagramStream.__del__", seen in the suite)."""

from __future__ import annotations

import signal
from pathlib import Path

from app_helpers import screen_text, wait_for
from netplay_support import LOOPBACK, start_host_process

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.screens.lobby import LobbyScreen
from threeup_tui.launcher import JoinSettings, Launcher


def udp_sockets_to(port: int) -> int:
    """This machine's UDP sockets connected to 127.0.0.1:``port`` (the
    client's: a host's socket is bound, not connected)."""
    remote = f"0100007F:{port:04X}"
    with open("/proc/net/udp", encoding="ascii") as table:
        return sum(1 for line in list(table)[1:] if line.split()[2] == remote)


async def test_an_app_that_ends_has_closed_its_client(tmp_path: Path) -> None:
    host = start_host_process(
        tmp_path, players=3, bots=1, seed=5, record=tmp_path / "table.json", games=None
    )
    try:
        app = create_app(
            Launcher(announce_address="off"),
            StartSpec(mode="join", join=JoinSettings(f"{LOOPBACK}:{host.port}", "Bob")),
        )
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, LobbyScreen),
                timeout=20,
                what=f"the lobby, not: {screen_text(app)}",
            )
            assert udp_sockets_to(host.port) == 1
            # A host that answers nothing now: the client's goodbye waits out
            # its linger (1 s) for an ack that never comes, then closes.
            host.popen.send_signal(signal.SIGSTOP)
        assert udp_sockets_to(host.port) == 0, "the app ended with its client still open"
    finally:
        host.popen.send_signal(signal.SIGCONT)
        host.kill()
