"""Where a headless host's SSH door listens, said so that nobody is sent
to an address nothing answers: with ``--ssh-port 0`` on every address the
door is on IPv4 alone (two families would get two free ports), beside a
table on IPv6 and IPv4.  A real ``threeup host --headless`` on loopback."""

from __future__ import annotations

import time
from pathlib import Path

from netplay_support import Proc, start_host_process

IPV4_ONLY = "the SSH door listens on IPv4 only, while the table takes IPv6 too"


def door_lines(tmp_path: Path, ssh_port: str, bind: str | None) -> str:
    host: Proc = start_host_process(
        tmp_path, players=2, bots=0, seed=3, record=tmp_path / f"g{ssh_port}{bind}.json",
        bind=bind, games=None, extra=("--ssh-port", ssh_port), tag=f"host-{ssh_port}-{bind}",
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        while "threeup ssh door listening on" not in host.stderr():
            assert time.monotonic() < deadline, host.stderr()
            time.sleep(0.05)
        time.sleep(0.3)  # a line after it, if any, is written at once
        return host.stderr()
    finally:
        host.kill()


def test_a_door_on_a_free_port_beside_a_table_on_both_families_says_ipv4_only(
    tmp_path: Path,
) -> None:
    said = door_lines(tmp_path, "0", None)
    assert "threeup ssh door listening on 0.0.0.0:" in said
    assert IPV4_ONLY in said and "--ssh-port a number" in said


def test_a_door_on_the_tables_own_address_says_nothing_more(tmp_path: Path) -> None:
    said = door_lines(tmp_path, "0", "127.0.0.1")
    assert "threeup ssh door listening on 127.0.0.1:" in said and "IPv4 only" not in said
