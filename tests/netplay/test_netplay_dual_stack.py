"""A table listens on IPv6 and IPv4 unless told otherwise; a table kept
with a bind keeps it.

Real processes (``threeup host --headless``, ``threeup join --bot``) on
loopback: a host bound to every address is sent to at ``::1`` and
``127.0.0.1`` only, and announces nothing.
"""

from __future__ import annotations

import argparse
import json
import logging
import socket
import time
from pathlib import Path

import pytest
from netplay_support import (
    LOOPBACK,
    Proc,
    free_udp_port,
    load_record_file,
    make_client,
    make_table,
    start_bot_process,
    start_host_process,
)

from net.testing import NO_IPV6_LOOPBACK, has_ipv6_loopback
from threeup_tui.addresses import reached_here, ssh_door_address, ssh_door_bind
from threeup_tui.hostargs import new_hosting, resume_overrides
from threeup_tui.launcher import HostedClient, HostSettings, Launcher
from threeup_tui.netplay.host import NetHost
from threeup_tui.table import Hosting, TableConfig, open_table
from threeup_tui.tablefile import table_file_path

needs_ipv6 = pytest.mark.skipif(not has_ipv6_loopback(), reason=NO_IPV6_LOOPBACK)


def stop(procs: list[Proc]) -> None:
    for proc in procs:
        proc.kill()


def free_tcp_port() -> int:
    """A TCP port free a moment ago on IPv4 and IPv6 loopback alike."""
    with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(("::", 0))
        return int(sock.getsockname()[1])


def ssh_banner(host: str, port: int) -> bytes:
    """The first line a TCP server at ``host:port`` sends."""
    deadline = time.monotonic() + 10
    while True:
        try:
            with socket.create_connection((host, port), timeout=5) as conn:
                return conn.recv(64)
        except ConnectionRefusedError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


@needs_ipv6
def test_a_table_hosted_without_bind_is_joined_at_its_ipv6_and_ipv4_addresses(
    tmp_path: Path,
) -> None:
    """`threeup join [::1]:PORT` was never answered by a host left to its
    default (0.0.0.0): only `--bind ::` listened on IPv6.  Its SSH door
    takes both too."""
    record = tmp_path / "game.json"
    door = free_tcp_port()
    host = start_host_process(
        tmp_path, players=2, bots=0, seed=21, record=record, bind=None,
        extra=("--ssh-port", str(door)),
    )  # fmt: skip
    procs = [host]
    try:
        assert f"threeup host listening on [::]:{host.port}" in host.stderr()
        assert ssh_banner("::1", door).startswith(b"SSH-2.0-")
        assert ssh_banner(LOOPBACK, door).startswith(b"SSH-2.0-")
        for name, at in (("six", f"[::1]:{host.port}"), ("four", f"{LOOPBACK}:{host.port}")):
            procs.append(start_bot_process(tmp_path, host.port, name, tmp_path / name, at=at))
        assert host.wait(60) == 0, host.stderr()
        for bot in procs[1:]:
            assert bot.wait(30) == 0, bot.stderr()
    finally:
        stop(procs)
    assert sorted(load_record_file(record).players) == ["four", "six"]
    hosting = json.loads(table_file_path(record).read_text())["hosting"]
    assert hosting["bind"] == "::"  # a resume listens where this table did


@needs_ipv6
def test_a_table_kept_with_0_0_0_0_resumes_on_ipv4_alone(tmp_path: Path) -> None:
    """0.0.0.0 was the default before: a table file holding it is a table
    that listened on IPv4 alone, and it comes back so."""
    record = tmp_path / "game.json"
    port = free_udp_port()
    table = open_table(TableConfig(players=2, seed=5, journal=record, games=1), bots=1)
    table.hosting = Hosting(bind="0.0.0.0", port=port, announce="off")
    table.save_table_file()
    resumed = start_host_process(
        tmp_path, players=2, bots=1, seed=5, record=record, resume=record, tag="resumed"
    )
    procs = [resumed]
    try:
        assert f"threeup host listening on 0.0.0.0:{port}" in resumed.stderr()
        six = start_bot_process(tmp_path, port, "six", tmp_path / "six", at=f"[::1]:{port}")
        procs.append(six)
        assert six.wait(30) == 1
        assert f"nothing listens at [::1]:{port}:" in six.stderr()
        procs.append(start_bot_process(tmp_path, port, "four", tmp_path / "four"))
        assert resumed.wait(60) == 0, resumed.stderr()
    finally:
        stop(procs)
    assert json.loads(table_file_path(record).read_text())["hosting"]["bind"] == "0.0.0.0"


def test_every_address_however_spelt_is_reached_and_served_alike() -> None:
    """--bind takes the text as typed: "::0" is "::", and was an SSH door
    on IPv6 alone (asyncio makes a TCP socket on an IPv6 address
    IPv6-only) whose guests were sent to [::0]."""
    for every in ("::", "::0", "0:0:0:0:0:0:0:0"):
        assert reached_here(every) == "127.0.0.1"
        assert ssh_door_bind(every, 2222) == ""  # asyncio's every address, each family
        assert ssh_door_bind(every, 0) == "0.0.0.0"  # one free port, shown: IPv4 alone
    for one in ("0.0.0.0", "127.0.0.1", "::1", "fd00::7"):
        assert ssh_door_bind(one, 2222) == one
    assert reached_here("::1") == "::1" and reached_here("0.0.0.0") == "127.0.0.1"


def test_a_new_table_binds_every_address_and_a_resume_keeps_its_own() -> None:
    given = argparse.Namespace(bind=None, resume=None)
    assert new_hosting(given).bind == "::"
    assert "bind" not in resume_overrides(given)
    assert resume_overrides(argparse.Namespace(bind="0.0.0.0"))["bind"] == "0.0.0.0"


@needs_ipv6
async def test_a_host_on_every_address_knows_an_ipv4_guest_by_its_ipv4_address(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """On a socket bound to ::, an IPv4 guest arrives as ::ffff:127.0.0.1:
    the host's log named it so, and its seats and limits would have known
    one machine under two addresses."""
    table = make_table(tmp_path, players=3, seed=31, code="sesame")
    host = await NetHost.start(table, "::", 0)
    port = host.address[1]
    guests = []
    try:
        with caplog.at_level(logging.INFO, logger="threeup.host"):
            wrong = make_client((LOOPBACK, port), "eve", tmp_path / "eve.json", code="nope")
            with pytest.raises(ConnectionRefusedError):
                await wrong.start()
            # An IPv6 guest's port is told from its address: in brackets.
            vic = make_client(("::1", port), "vic", tmp_path / "v.json", code="sesame", watch=True)
            await vic.start()
            guests.append(vic)
        logged = [r.getMessage() for r in caplog.records if "refused a join" in r.getMessage()]
        assert len(logged) == 1 and logged[0].startswith("refused a join from 127.0.0.1:")
        watching = [r.getMessage() for r in caplog.records if "watches from" in r.getMessage()]
        assert len(watching) == 1 and watching[0].startswith("vic watches from [::1]:"), watching
        for name, at in (("six", "::1"), ("four", LOOPBACK)):
            guest = make_client((at, port), name, tmp_path / f"{name}.json", code="sesame")
            await guest.start()
            guests.append(guest)
        assert sorted(peer.address[0] for peer in host.peers.values()) == [
            "127.0.0.1", "::1", "::1",
        ]  # fmt: skip
        assert [seat.name for seat in table.seats[:2]] == ["six", "four"]
    finally:
        for guest in guests:
            await guest.close()
        await host.close()


@needs_ipv6
async def test_the_apps_door_line_names_the_tables_bind_whichever_socket_comes_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A door on every address has a socket for each of IPv4 and IPv6, and
    the app took the first one's address as the door's: on a system that
    lists IPv4 first, its lobby would have said the door listens on IPv4
    only.  Here IPv6 comes first, so the door is made to list IPv4's first."""
    from threeup_tui.sshdoor import SshDoor

    first_address = SshDoor._first_address

    def ipv4_first(self: SshDoor) -> tuple[str, int]:
        _address, bound_port = first_address(self)
        return "0.0.0.0", bound_port

    monkeypatch.setattr(SshDoor, "_first_address", ipv4_first)
    door = free_tcp_port()
    client = await Launcher(announce_address="off").host(
        HostSettings(players=2, name="Ann", port=0, bind="::", ssh_port=door)
    )
    try:
        assert isinstance(client, HostedClient)
        assert client.ssh_address == ("::", door)
    finally:
        await client.close()
    for first in ("0.0.0.0", "::"):
        assert ssh_door_address((first, 2222), "", "::") == ("::", 2222)
    assert ssh_door_address(("0.0.0.0", 40001), "0.0.0.0", "::") == ("0.0.0.0", 40001)
