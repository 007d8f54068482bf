"""`threeup join fd00::2:5000` is the IPv6 address fd00::2:5000 at the
default port: valid, and read so.  A friend who meant port 5000 waited on
an address where no table is, told nothing.  A one-line word now, and the
join goes on."""

from __future__ import annotations

import pytest
from clihelp import assert_no_traceback, assert_usage_error, run

from threeup_tui.addresses import AddressError, parse_address, port_meant

HINTED = [
    ("fd00::2:5000", "[fd00::2]:5000"),
    ("::1:8080", "[::1]:8080"),
    (" fe80::1%eth0:1024 ", "[fe80::1%eth0]:1024"),
    ("2001:db8::7:9999", "[2001:db8::7]:9999"),
]
NOT_HINTED = [
    "::1",  # loopback, as meant
    "::",
    "[fd00::2]:5000",  # brackets say what is meant
    "[fd00::2:5000]",
    "fe80::1:2",  # port 2: an address's group, not a table's port
    "fd00::2:0500",  # a leading zero: a group as addresses write them
    "fd00::2:abcd",
    "2001:db8::5000",  # without the group, "2001:db8:" is no address
    "2001:db8:1:2:3:4:5:6000",  # eight groups: a whole address
    "::ffff:192.0.2.1",
    "127.0.0.1",
    "table.lan",
    "fe80::1%\x1b[31m:5000",  # not a plain line: not quoted back
]


@pytest.mark.parametrize(("typed", "meant"), HINTED)
def test_a_last_group_that_looks_like_a_port_gets_a_word(typed: str, meant: str) -> None:
    host, port = parse_address(typed)  # still read as an address, at the default port
    line = port_meant(typed)
    assert line == (
        f"reading {typed.strip()} as an address (port {port}); "
        f"for port {meant.rsplit(':', 1)[1]} write {meant}"
    )
    assert parse_address(meant) == (meant[1:].split("]")[0], int(meant.rsplit(":", 1)[1]))
    assert host == typed.strip()


@pytest.mark.parametrize("typed", NOT_HINTED)
def test_an_address_read_as_meant_gets_none(typed: str) -> None:
    assert port_meant(typed) is None


def test_threeup_join_says_it_and_goes_on() -> None:
    """Said on stderr, before the app; the join is not stopped by it (here
    it goes on to the app, which needs a terminal: nothing is sent)."""
    proc = run("join", "fd00::2:5000")
    assert_no_traceback(proc)
    hint, *rest = proc.stderr.splitlines()
    assert hint == (
        "threeup join: reading fd00::2:5000 as an address (port 47823); "
        "for port 5000 write [fd00::2]:5000"
    )
    assert rest and rest[0].startswith("threeup join: the app needs a terminal"), proc.stderr
    for meant in ("[fd00::2]:5000", "::1"):
        proc = run("join", meant)
        assert "reading" not in proc.stderr and "the app needs a terminal" in proc.stderr


def test_a_port_too_long_for_a_group_is_refused_with_the_brackets_to_write() -> None:
    """`fd00::2:47823` (the default port's five digits) is no address: it
    was refused as "not HOST:PORT, nor an IPv6 address", with no word of
    what to write."""
    err = assert_usage_error(run("join", "fd00::2:47823"), "not HOST:PORT")
    assert err.endswith("for port 47823 write [fd00::2]:47823 (see threeup join --help)"), err
    with pytest.raises(AddressError) as refused:
        parse_address("a:b:c")  # nothing to suggest: no address before the last ':'
    assert str(refused.value) == "'a:b:c': not HOST:PORT, nor an IPv6 address"
