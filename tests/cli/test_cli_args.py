"""Bad arguments to every sub-command: exit 2, a clear message on stderr,
no traceback.  Only argument parsing is exercised for play, host, join and
replay (nothing is started)."""

from __future__ import annotations

from pathlib import Path

import pytest
from clihelp import assert_usage_error, run

TOO_MANY = "1" + "0" * 30  # games: more than msgpack's 64 bits hold

LONG = "9" * 4000  # a whole number Python reads (its limit is 4300 digits)
COMMANDS = ("verify", "simulate", "play", "host", "join", "replay")
EXPERTS = ["simulate", "--games", "5", "--players", "2", "--bots", "expert"]
CASES = [
    # verify
    (["verify"], ["file"]),
    (["verify", "--json"], ["file"]),
    (["verify", "a.json", "b.json"], ["b.json"]),
    (["verify", "a.json", "--bogus"], ["--bogus"]),
    # simulate
    (["simulate", "--players", "3", "--bots", "greedy"], ["--games"]),
    (["simulate", "--games", "5", "--bots", "greedy"], ["--players"]),
    (["simulate", "--games", "5", "--players", "3"], ["--bots"]),
    (["simulate", "--games", "0", "--players", "3", "--bots", "greedy"], ["--games", "0"]),
    (["simulate", "--games", "-2", "--players", "3", "--bots", "greedy"], ["--games"]),
    (["simulate", "--games", "x", "--players", "3", "--bots", "greedy"], ["--games", "x"]),
    # --jobs 2: an OverflowError once the pool asked how many games there were.
    (
        ["simulate", "--games", TOO_MANY, "--players", "2", "--bots", "random", "--jobs", "2"],
        ["--games", "at most 1000000000"],
    ),
    (["simulate", "--games", "5", "--players", "9", "--bots", "greedy"], ["--players", "9"]),
    (["simulate", "--games", "5", "--players", "1", "--bots", "greedy"], ["--players", "1"]),
    (["simulate", "--games", "5", "--players", "3", "--bots", "a,b"], ["unknown bot level 'a'"]),
    (["simulate", "--games", "5", "--players", "3", "--bots", "greedy,random"], ["3"]),
    (["simulate", "--games", "5", "--players", "3", "--bots", "nope"], ["nope", "greedy"]),
    (["simulate", "--games", "5", "--players", "2", "--bots", "greedy,nope"], ["nope"]),
    (["simulate", "--games", "5", "--players", "2", "--bots", ""], ["--bots", "random, greedy"]),
    # The level repeated whole: a line as long as what was typed.
    (["simulate", "--games", "5", "--players", "2", "--bots", "x" * 5000], ["--bots", "…"]),
    ([*EXPERTS, "--think-ms", "9", "--iterations", "9"], ["--think-ms or --iterations"]),
    (["simulate", "--games", "5", "--players", "3", "--bots", "greedy", "--seed", "x"], ["--seed"]),
    # play
    (["play", "--players", "9"], ["--players", "9"]),
    (["play", "--players", "1"], ["--players"]),
    (["play", "--players", "many"], ["--players"]),
    (["play", "--bot-level", "nope"], ["--bot-level", "nope"]),
    (["play", "--seed", "abc"], ["--seed"]),
    (["play", "extra"], ["extra"]),
    # host
    (["host", "--port", "99999"], ["--port", "99999"]),
    (["host", "--port", "-1"], ["--port"]),
    (["host", "--port", "http"], ["--port"]),
    (["host", "--players", "7"], ["--players", "7"]),
    (["host", "--bots", "-1"], ["--bots"]),
    (["host", "--bots", "two"], ["--bots"]),
    (["host", "--bot-level", "nope"], ["--bot-level", "nope"]),
    (["host", "--takeover-after", "-5"], ["--takeover-after"]),
    (["host", "--takeover-after", "soon"], ["--takeover-after"]),
    (["host", "--takeover-after", "nan"], ["--takeover-after", "not a number"]),
    (["host", "--rematch-after", "inf", "--headless"], ["--rematch-after", "not a number"]),
    # Any finite number was taken, and the game-over box printed all 301 digits of it.
    # (--bots 4: were the flag taken, no host starts; a later check refuses that.)
    (["host", "--takeover-after", "1e300", "--bots", "4"], ["--takeover-after", "at most 86400"]),
    (["host", "--rematch-after", "1e300", "--headless", "--bots", "4"], ["--rematch-after"]),
    (["host", "--rematch-after", "86401", "--headless", "--bots", "4"], ["a day", "off"]),
    (["host", "--bots", "6"], ["--bots", "at most 6 seats"]),
    (["host", "--finish", "last"], ["--finish"]),
    (["host", "--announce-port", "70000"], ["--announce-port"]),
    (["host", "--ssh-port", "x"], ["--ssh-port"]),
    (["host", "--seed", "1.5"], ["--seed"]),
    (["host", "--turn-time", "0"], ["--turn-time", "1 to 3600", "off: no turn timer"]),
    (["host", "--turn-time", "soon"], ["--turn-time"]),
    (["host", "--games", "0", "--headless"], ["--games"]),
    (["host", "--rematch-after", "-1", "--headless"], ["--rematch-after"]),
    (["host", "--games", "2"], ["--games", "--headless"]),
    # A table of --games 10**30 sent no lobby (msgpack holds 64 bits): no game began.
    (
        ["host", "--games", TOO_MANY, "--headless", "--bots", "4"],
        ["--games", "at most 1000000000", "off: no limit"],
    ),
    (["host", "--rematch-after", "30"], ["--rematch-after", "--headless"]),
    # join
    (["join", "--bot", "nope"], ["--bot", "nope"]),
    (["join", "--listen-port", "99999"], ["--listen-port"]),
    (["join", "a", "b"], ["b"]),
    (["join", "--bogus"], ["--bogus"]),
    (["join", "--think-ms", "5"], ["--think-ms", "--bot"]),
    (["join", "--bot", "greedy", "--watch"], ["--bot", "--watch"]),
    # replay
    (["replay"], ["file"]),
    (["replay", "a.json", "b.json"], ["b.json"]),
    # the command itself
    (["bogus"], ["bogus"]),
    (["--bogus"], ["--bogus"]),
]


@pytest.mark.parametrize(("args", "words"), CASES, ids=[" ".join(a)[:80] for a, _ in CASES])
def test_bad_arguments(args: list[str], words: list[str]) -> None:
    """Each in one short line that sends the user to the command's --help,
    for what it allows: argparse's refusals did, the command's own checks
    (simulate --bots naming an unknown level or too few, join --think-ms
    without --bot, host --games without --headless) did not."""
    err = assert_usage_error(run(*args), *words)
    assert len(err.splitlines()) == 1 and len(err) < 300, err
    command = next((word for word in args if word in COMMANDS), None)
    prog = f"threeup {command}" if command else "threeup"
    assert err.startswith(f"{prog}: ") and err.endswith(f"(see {prog} --help)"), err


def test_simulate_records_must_be_a_directory(tmp_path: Path) -> None:
    target = tmp_path / "file.txt"
    target.write_text("not a directory")
    err = assert_usage_error(
        run(
            "simulate",
            "--games",
            "1",
            "--players",
            "2",
            "--bots",
            "greedy",
            "--records",
            str(target),
        ),
        "--records",
    )
    assert len(err.splitlines()) == 1
    assert target.read_text() == "not a directory"


def test_simulate_records_makes_its_directory_but_none_above_it(tmp_path: Path) -> None:
    """--records gmaes/run1 (a typo on the way) made gmaes and run1, and
    wrote the records there: refused as host --record refuses a missing
    directory, and nothing is made; the directory itself still is."""
    sim = ("simulate", "--games", "1", "--players", "2", "--bots", "random", "--records")
    typo = tmp_path / "gmaes" / "run1"
    err = assert_usage_error(run(*sim, str(typo)), f"--records {typo}: no directory {typo.parent}")
    assert len(err.splitlines()) == 1 and err.endswith("(see threeup simulate --help)"), err
    assert not typo.parent.exists()
    made = run(*sim, str(tmp_path / "run1"))
    assert made.returncode == 0, made.stderr
    assert [p.name for p in (tmp_path / "run1").iterdir()] == ["game-00000.json"]


@pytest.mark.parametrize("wrong", ["not there", "a file"])
def test_a_directory_not_there_is_said_in_one_wording_everywhere(
    tmp_path: Path, wrong: str
) -> None:
    """host --record, simulate --records and the result box's Save (the
    table) each check that the directory they write in is there: the table
    said "no directory X to save the record in", the command line "no
    directory X", and a file in the way was "not a directory" to simulate,
    "no directory" to host, and Python's "Not a directory" to the table."""
    from threeup_tui.table import TableConfig, TableError, open_table

    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    if wrong == "not there":
        folder = tmp_path / "gmaes" / "2026"
        words = f"no directory {folder}"
    else:
        folder = notes / "2026"
        words = f"{notes} is a file, not a directory"
    record = folder / "x.json"
    table = open_table(TableConfig(players=2, seed=5), bots=2)
    table.start(None)
    while table.step_bot():
        pass
    with pytest.raises(TableError) as refused:
        table.save_for(None, str(record))
    assert str(refused.value) == words
    assert_usage_error(run("host", "--record", str(record)), f"--record {record}: {words} (see")
    sim = ("simulate", "--games", "1", "--players", "2", "--bots", "random", "--records")
    runs = folder / "run1"  # made by simulate, but not the directory it goes in
    assert_usage_error(run(*sim, str(runs)), f"--records {runs}: {words} (see")
    assert_usage_error(run(*sim, str(notes)), f"--records {notes}: {notes} is a file, not a")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]  # nothing made
    assert notes.read_text() == "my notes"


def test_simulate_records_writes_over_no_file(tmp_path: Path) -> None:
    """A second run into the same directory would replace the first one's
    records: it is refused on the command line, and they stay as they were."""
    sim = ("simulate", "--games", "2", "--players", "2", "--bots", "greedy", "--seed")
    first = run(*sim, "1", "--records", str(tmp_path))
    assert first.returncode == 0, first.stderr
    kept = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert sorted(kept) == ["game-00000.json", "game-00001.json"]
    err = assert_usage_error(
        run(*sim, "2", "--records", str(tmp_path)), "game-00000.json", "new or empty directory"
    )
    assert len(err.splitlines()) == 1
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == kept


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_simulate_records_that_cannot_be_written_stop_the_run_in_one_line() -> None:
    # /proc/self is a directory nobody can add a file to, root included.
    proc = run("simulate", "--games", "2", "--players", "2", "--bots", "greedy",
               "--records", "/proc/self", "--jobs", "2")  # fmt: skip
    err = assert_usage_error(proc, "game-00000.json", "no such file")
    assert len(err.splitlines()) == 1


def test_help_and_version_exit_0() -> None:
    proc = run("--help")
    assert proc.returncode == 0 and "verify" in proc.stdout and "simulate" in proc.stdout
    proc = run("verify", "--help")
    assert proc.returncode == 0 and "--json" in proc.stdout
    proc = run("--version")
    assert proc.returncode == 0 and proc.stdout.startswith("threeup ")


@pytest.mark.parametrize("flag", ["--takeover-after", "--rematch-after"])
def test_a_day_is_the_longest_wait_a_host_takes(flag: str) -> None:
    from threeup_tui.cli import build_parser

    args = build_parser().parse_args(["host", flag, "86400"])
    assert getattr(args, flag.removeprefix("--").replace("-", "_")) == 86400


# A refusal quoted such a number whole: one line of 4000 characters.
LONG_NUMBERS = [
    ["play", "--players", LONG],
    ["play", "--think-ms", LONG],
    ["host", "--port", LONG],
    ["host", "--bots", LONG],
    ["join", "--listen-port", LONG],
    ["simulate", "--games", "1", "--players", "2", "--bots", "random", "--iterations", LONG],
]


@pytest.mark.parametrize("args", LONG_NUMBERS, ids=[a[-2] for a in LONG_NUMBERS])
def test_a_long_number_is_refused_in_a_short_line(args: list[str]) -> None:
    err = assert_usage_error(run(*args), args[-2], "999… (4000 digits)")
    assert len(err) < 200, err
