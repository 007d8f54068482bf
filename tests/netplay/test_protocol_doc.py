"""docs/protocol.md is what a stranger implements from: its table of timers
and limits must say what the session layer and threeup's host and client
really use, and its LOBBY and VIEW tables every key the host sends, so that
a change of either is seen here, not by a player."""

from __future__ import annotations

import re
from pathlib import Path

import msgpack
import pytest

from net import NetConfig
from net.codec import encode
from net.packets import ChallengePacket, EchoPacket
from threeup_tui.client.events import GameResult, GamesPlayed
from threeup_tui.netplay.client import CLIENT_NET
from threeup_tui.netplay.host import HOST_NET
from threeup_tui.netplay.wire import lobby_to_wire, played_to_wire, view_to_wire
from threeup_tui.rules import GameState, seat_view
from threeup_tui.table import Table, TableConfig

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
SAME = "—"  # the table's mark for "the default"


def timer_rows() -> dict[str, tuple[str, str, str]]:
    """``parameter: (default, host, client)`` for each NetConfig field the
    "Timers and limits" table names in backquotes."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Timers and limits", 1)[1].split("\n#", 1)[0]
    rows: dict[str, tuple[str, str, str]] = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 5 or not cells[0].startswith("`"):
            continue
        names = re.findall(r"`(\w+)`", cells[0])
        # "`min_rto`, `max_rto` | 0.05, 1.0": one value per name, in order.
        columns = [cell.split(", ") if len(names) > 1 else [cell] for cell in cells[1:4]]
        for i, name in enumerate(names):
            default, host, client = (col[i] if len(col) > 1 else col[0] for col in columns)
            rows[name] = (default, host, client)
    return rows


# The wire's names for two NetConfig fields.
ALIASES = {"recv_window": "window_frames", "max_message": "max_message_size"}
ROWS = {ALIASES.get(name, name): row for name, row in timer_rows().items()}
FIELDS = [name for name in ROWS if hasattr(NetConfig(), name)]


def test_the_table_names_the_timers_a_client_needs() -> None:
    needed = {"idle_timeout", "heartbeat_interval", "initial_rto", "min_rto", "max_rto",
              "ack_delay", "connect_timeout", "cookie_lifetime", "close_copies",
              "window_frames", "max_message_size"}  # fmt: skip
    assert needed <= set(FIELDS), set(ROWS)


@pytest.mark.parametrize("name", FIELDS)
def test_each_timer_in_the_table_is_the_one_the_code_uses(name: str) -> None:
    default, host, client = ROWS[name]
    expected = getattr(NetConfig(), name)

    def value(cell: str) -> float:
        return float(cell.split()[0].replace(",", "")) if cell != SAME else expected

    assert value(default) == expected, (name, default)
    assert value(host) == getattr(HOST_NET, name), (name, host)
    assert value(client) == getattr(CLIENT_NET, name), (name, client)


def documented_keys(heading: str) -> set[str]:
    """The keys of the first table after a bold ``heading`` line ("LOBBY")."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split(f"\n**{heading}**", 1)[1]
    table = section.split("| key |", 1)[1].split("\n\n", 1)[0]
    keys: set[str] = set()
    for line in table.splitlines()[2:]:
        first = line.strip().strip("|").split("|")[0]
        keys.update(re.findall(r"`(\w+)`", first))
    return keys


def test_the_lobby_and_view_tables_name_every_key_the_host_sends() -> None:
    """A key the host sends but the document leaves out is one a stranger's
    client cannot know (as `spectator_chat` once was); one the document names
    but the host never sends is one it waits for in vain."""
    state = GameState.new(["ann", "bob"], seed=3)
    table = Table(TableConfig(players=2, seed=3))
    assert documented_keys("LOBBY") == set(lobby_to_wire(table.lobby()))
    assert documented_keys("VIEW") == set(view_to_wire(seat_view(state, 0)))


def test_the_played_table_names_every_key_of_a_game_the_host_sends() -> None:
    result = GameResult(1, ("ann", "bob"), (("human", None), ("bot", "greedy")), 0, (), False,
                        40, 30, "first_out")  # fmt: skip
    (game,) = played_to_wire(GamesPlayed((result,)))["games"]
    assert documented_keys("GAME") == set(game)


def test_the_largest_hello_the_document_promises_fits_one_echo() -> None:
    """A stranger sizes its hello by the number the document gives: a hello
    that large must fit ECHO with every other field at its largest, and one
    byte more must not (else the number is not the bound)."""
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r"a hello of at most \*\*([\d,]+) bytes\*\* packed", text)
    assert found, "the document gives no bound on the hello's size"
    bound = int(found.group(1).replace(",", ""))

    def echo(size: int) -> bytes:
        hello = "h" * (size - 3)  # a str16: 3 bytes of header
        assert len(msgpack.packb(hello)) == size
        return encode(EchoPacket(2**64 - 1, 256, 65_536, hello, 2**64 - 1, bytes(16)))

    assert len(echo(bound)) == 1200
    with pytest.raises(ValueError, match="too large"):
        echo(bound + 1)


def test_the_challenge_sizes_the_document_gives_are_the_encoded_ones() -> None:
    """The document answers "what does a HELLO buy an attacker" with the
    CHALLENGE's size: at most N bytes, and what a random 64-bit nonce gets
    while the server's clock (``cookie_time``, whole seconds of the
    monotonic clock) is under 2**16 and after."""
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    found = re.search(
        r"a CHALLENGE at most (\d+) bytes for a HELLO of 1200 .*?: (\d+) bytes while "
        r"the host's machine has been up less than 2¹⁶ s, about 18 hours, and (\d+) "
        r"after; `benchmarks/hostile.py`, whose nonces are small, measures (\d+)\)",
        text,
    )
    assert found, "the document gives no CHALLENGE size"
    most, young, old, small = (int(n) for n in found.groups())
    mac = bytes(16)
    assert len(encode(ChallengePacket(2**64 - 1, 2**64 - 1, mac))) == most
    assert len(encode(ChallengePacket(2**63, 2**16 - 1, mac))) == young
    assert len(encode(ChallengePacket(2**63, 2**16, mac))) == old
    assert len(encode(ChallengePacket(49, 2**16 - 1, mac))) == small  # hostile.py: nonce i < 50
