"""The host's log names an IPv6 sender as one address: ``[::1]:PORT``.

A table on ``::`` (the default) hears IPv6 guests, and its log said
"refused a join from ::1:58410": the port read as the address's last
group.  Real sockets on loopback, a host bound to every address.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
from netplay_support import make_client, make_table

from net.testing import NO_IPV6_LOOPBACK, has_ipv6_loopback
from threeup_tui.netplay.host import NetHost

needs_ipv6 = pytest.mark.skipif(not has_ipv6_loopback(), reason=NO_IPV6_LOOPBACK)
SIX = r"\[::1\]:\d+"  # an IPv6 loopback sender, as the log must write it


@needs_ipv6
async def test_an_ipv6_guest_is_logged_in_brackets(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    table = make_table(tmp_path, players=3, seed=41, code="sesame")
    host = await NetHost.start(table, "::", 0)
    port = host.address[1]
    clients = []
    try:
        with caplog.at_level(logging.INFO, logger="threeup.host"):
            wrong = make_client(("::1", port), "eve", tmp_path / "eve.json", code="nope")
            with pytest.raises(ConnectionRefusedError):
                await wrong.start()
            for name, watch in (("six", False), ("six", False), ("ida", True)):
                # The second "six" (the same tokens) takes the first's seat over.
                client = make_client(
                    ("::1", port), name, tmp_path / f"{name}.json", code="sesame", watch=watch
                )
                await client.start()
                clients.append(client)
        lines = [r.getMessage() for r in caplog.records]
    finally:
        for client in clients:
            await client.close()
        await host.close()
    said = "\n".join(lines)
    assert re.search(rf"refused a join from {SIX}: wrong room code", said), said
    taken = rf"taken over by a new session from {SIX}; closed the session from {SIX}"
    assert re.search(taken, said), said
    assert re.search(rf"ida watches from {SIX}", said), said
