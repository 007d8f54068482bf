"""Command-line mistakes are told at once, in one line, before any screen opens;
every option's --help says what it does and its default.  Seats and moves in
the text output of ``verify`` and ``simulate`` are counted from 1."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from clihelp import assert_usage_error, run, write

from threeup_tui.cli import build_parser

EARLY = [
    (["join", "127.0.0.1:99999"], ["99999", "port"]),
    (["join", "127.0.0.1:0"], ["port"]),
    (["join", "127.0.0.1:http"], ["port"]),
    (["join", ":47823"], ["no host"]),
    (["join", "[::1"], ["]"]),
    (["join", "[notv6]:5"], ["IPv6"]),
    (["join", "a:b:c"], ["IPv6"]),
    (["join", "two words"], ["host"]),
    # Only what a resolver can be asked for goes to it as a name.
    (["join", "table\\pc"], ["is not a host name"]),
    (["join", "table\x1bpc"], ["is not a host name"]),
    (["join", "..table"], ["is not a host name"]),
    (["join", "x" * 64 + ".lan"], ["is not a host name"]),
    (["join", "x" * 300], ["'" + "x" * 38 + "… is not a host name"]),  # quoted once, cut
    # A port forgotten after the colon is not the default port.
    (["join", "127.0.0.1:"], ["no port after ':'"]),
    (["join", "[::1]:"], ["no port after ':'"]),
    # Digits and dots are never a host name, and the resolver would make
    # some address of them (47823 is 0.0.186.207): an IPv4 typo, or a port alone.
    (["join", "256.1.1.1"], ["256.1.1.1", "IPv4"]),
    (["join", "192.168.1:5000"], ["192.168.1", "IPv4"]),
    (["join", "47823"], ["47823", "IPv4"]),
    (["join", "--name", ""], ["--name"]),
    (["join", "--name", "x" * 25], ["--name", "24"]),
    (["join", "--code", ""], ["--code"]),
    (["join", "--code", " padded "], ["--code"]),
    (["join", "--code", "x" * 33], ["--code", "32"]),
    (["join", "127.0.0.1", "--bot", "greedy", "--watch"], ["--watch"]),
    (["host", "--announce", "nonsense"], ["--announce", "nonsense", "off"]),
    (["host", "--announce", "::1"], ["--announce", "IPv4"]),
    (["host", "--announce", "example.com"], ["--announce", "not looked up"]),
    # Port 0 was taken as the default port (47824), without a word.
    (["host", "--announce-port", "0"], ["--announce-port", "0 is not a port"]),
    (["join", "--listen-port", "0"], ["--listen-port", "0 is not a port"]),
    (["host", "--bind", "notanaddress"], ["--bind", "notanaddress", "IP"]),
    (["host", "--bind", "localhost"], ["--bind", "not looked up"]),
    (["host", "--bind", "300.1.1.1"], ["--bind"]),
    (["host", "--name", "\x1b\x07"], ["--name"]),
    (["host", "--bots", "4", "--players", "4"], ["--bots", "no seat"]),
    (["host", "--resume", "/nonexistent/journal.json"], ["--resume", "no such file"]),
    (["host", "--ssh-authorized-keys", "/nonexistent/keys"], ["--ssh-authorized-keys"]),
    (["host", "--code", "a\tb"], ["--code"]),
    (["host", "--code", ""], ["--code", "leave --code out", "--no-code takes a resumed"]),
    (["host", "--code", "x", "--no-code"], ["--code and --no-code: give one of them"]),
    (["host", "--record", "/nonexistent/dir/game.json"], ["--record", "no directory"]),
    (["host", "--record", "/tmp"], ["--record", "directory"]),
    (["play", "--name", "x" * 30], ["--name"]),
    # Not "must be at least 1", which 1 then is not enough for either.
    # A whole number, but past Python's 4300 digits: not "not a whole number".
    (["play", "--seed", "9" * 5000], ["--seed", "has 5000 digits: too many"]),
    (["play", "--players", "0"], ["--players", "2 to 6 players, not 0"]),
    (["simulate", "--players", "-3", "--games", "1", "--bots", "greedy"], ["2 to 6", "not -3"]),
    # The app without a terminal (these runs have none) ran on unseen at
    # full speed until killed.
    (["play"], ["threeup play: the app needs a terminal", "--headless"]),
    (["join", "127.0.0.1:47399"], ["threeup join: the app needs a terminal"]),
    # Told by the command given, which names its own --help.
    (["play", "X"], ["threeup play: unrecognized arguments: X", "threeup play --help"]),
    (["host", "--bogus"], ["threeup host: unrecognized", "threeup host --help"]),
]


@pytest.mark.parametrize(("args", "words"), EARLY, ids=[" ".join(a) for a, _ in EARLY])
def test_a_bad_value_is_one_line_before_any_screen(args: list[str], words: list[str]) -> None:
    started = time.monotonic()
    proc = run(*args, timeout=30)
    err = assert_usage_error(proc, *words)
    assert len(err.splitlines()) == 1, err
    assert err.startswith("threeup ")
    assert "usage:" not in err
    assert time.monotonic() - started < 20  # nothing waited on a network or a screen


BEFORE_THE_COMMAND = [
    (["--players", "3"], "threeup play --players 3 (see threeup play --help)"),
    (["--bot-level=random"], "threeup play --bot-level=random"),
    (["--code", "pizza", "host"], "threeup host --code pizza (see threeup host --help)"),
]


@pytest.mark.parametrize(
    ("args", "example"), BEFORE_THE_COMMAND, ids=[" ".join(a) for a, _ in BEFORE_THE_COMMAND]
)
def test_an_option_before_its_command_is_told_where_it_goes(args: list[str], example: str) -> None:
    """``threeup --players 3`` read "argument COMMAND: invalid choice: '3'
    (choose from 'play', ...)": argparse set the option aside and took its
    value for a command.  The line names the option and shows it after a
    command that takes it (the one given, if it does)."""
    err = assert_usage_error(run(*args, timeout=30), f"threeup: {args[0].split('=')[0]} goes after")
    assert len(err.splitlines()) == 1, err
    assert example in err
    assert "invalid choice" not in err


# A directory on the way whose name no file system allows: looking at the
# path fails with an error other than "no such file", as it does (for a
# user who is not root) under a directory of mode 000: Permission denied.
UNLOOKABLE = "/tmp/" + "x" * 256 + "/game.json"
SIMULATE = ["simulate", "--players", "2", "--bots", "greedy", "--games", "1"]
UNLOOKABLE_PATHS = {
    "resume": ["host", "--resume", UNLOOKABLE],
    "authorized-keys": ["host", "--ssh-authorized-keys", UNLOOKABLE],
    "record": ["host", "--record", UNLOOKABLE],
    "records": [*SIMULATE, "--records", UNLOOKABLE],
}


@pytest.mark.parametrize("args", UNLOOKABLE_PATHS.values(), ids=UNLOOKABLE_PATHS.keys())
def test_a_path_that_cannot_be_looked_at_is_one_line_before_any_screen(args: list[str]) -> None:
    """Path.is_file(), is_dir() and exists() raise for such a path: each
    of these ended in a traceback (PermissionError under a mode-000 dir)."""
    flag = next(a for a in args if a.startswith("--r") or a.startswith("--ssh"))
    err = assert_usage_error(run(*args, timeout=30), f"{flag} {UNLOOKABLE}: ", "too long")
    assert len(err.splitlines()) == 1


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("setpriv") is None,
    reason="runs the command as a user with no home: needs root and setpriv",
)
@pytest.mark.parametrize(
    "args",
    [["play"], ["join", "127.0.0.1:43999", "--bot", "greedy"], ["host"]],
    ids=["play", "join-bot", "host"],
)
def test_without_a_home_the_app_and_a_bot_say_so_in_one_line(args: list[str]) -> None:
    """A container run as a bare uid (no entry in the password file) and no
    HOME: platformdirs raised RuntimeError as the settings or the seat's
    token were looked for, a traceback before any screen."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "THREEUP_"))}
    env.pop("HOME", None)
    env["PYTHONPATH"] = str(Path(__file__).resolve().parent.parent.parent)
    uid = "54321"  # in no password file of a test machine
    as_uid = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]
    proc = subprocess.run(
        [*as_uid, sys.executable, "-m", "threeup_tui", *args],
        capture_output=True, text=True, timeout=30, cwd="/", env=env,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    err = assert_usage_error(proc, f"threeup {args[0]}: no home directory", "set HOME")
    assert len(err.splitlines()) == 1


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("setpriv") is None,
    reason="reads a file it may not as another user: needs root and setpriv",
)
def test_an_authorized_keys_file_that_cannot_be_read_is_told_in_words() -> None:
    """Found by the storage helper of stop 38: "cannot use it: [Errno 13]
    Permission denied: '/the/path'", the path twice and Python's number."""
    pytest.importorskip("asyncssh")
    with tempfile.TemporaryDirectory(dir="/tmp") as folder:
        os.chmod(folder, 0o755)  # the other user may look in, not read the file
        keys = Path(folder) / "keys"
        keys.write_text(
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n"
        )
        keys.chmod(0o600)
        env = {**os.environ, "HOME": folder}
        env["PYTHONPATH"] = str(Path(__file__).resolve().parent.parent.parent)
        as_uid = ["setpriv", "--reuid=54321", "--regid=54321", "--clear-groups"]
        proc = subprocess.run(
            [*as_uid, sys.executable, "-m", "threeup_tui", "host", "--headless",
             "--bind", "127.0.0.1", "--port", "0", "--ssh-port", "0",
             "--ssh-authorized-keys", str(keys)],
            capture_output=True, text=True, timeout=30, cwd="/", env=env,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip
    err = assert_usage_error(proc, f"--ssh-authorized-keys {keys}: cannot read it: ")
    assert err.endswith("Permission denied (see threeup host --help)") and "Errno" not in err
    assert len(err.splitlines()) == 1


def test_a_journal_that_cannot_resume_is_one_line_before_any_screen(tmp_path: Path) -> None:
    journal = tmp_path / "game.json"
    journal.write_text("{}")
    err = assert_usage_error(run("host", "--resume", str(journal), timeout=30), "cannot resume")
    assert "game.json.table is missing" in err and len(err.splitlines()) == 1
    (tmp_path / "game.json.table").write_text('{"format": "a shopping list"}')
    err = assert_usage_error(run("host", "--resume", str(journal), timeout=30), "cannot resume")
    assert "not a table file" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (('"rematch_after": null', '"rematch_after": 1e300'), "'rematch_after': 1e+300 is not"),
        (('"rematch_after": null', '"rematch_after": -1'), "'rematch_after': -1.0 is not from 0"),
        (('"turn_time": null', '"turn_time": NaN'), "'turn_time': nan is not from 0 to 3600"),
        (('"games": null', '"games": 1000000000000000000'), "'games': 1000000000000000000 is"),
        (('"games": null', f'"games": {"9" * 100}'), "'games': 99999999999999999999… (100 digits)"),
        (('"takeover_after": 30.0', '"takeover_after": 1e300'), "'takeover_after': 1e+300"),
        (('"port": null', '"port": 99999'), "'port': 99999 is not from 0 to 65535"),
        (('"game_number": 0', '"game_number": 1000000000000000000'), "'game_number'"),
    ],
)
def test_a_table_file_edited_to_a_number_beyond_its_bounds_is_refused(
    tmp_path: Path, edit: tuple[str, str], words: str
) -> None:
    """A table file edited by hand (a 1e300 s rematch wait, a negative one, a
    turn time of NaN, a game number of 10**18) was resumed with it, and every
    player was sent it.  --resume refuses it in one line naming the file and
    the setting, before any screen."""
    from threeup_tui.table import Table, TableConfig

    journal = tmp_path / "game.json"
    Table(TableConfig(players=2, journal=journal)).save_table_file()
    table_file = tmp_path / "game.json.table"
    text = table_file.read_text()
    assert edit[0] in text
    table_file.write_text(text.replace(edit[0], edit[1]))
    # Where a host would serve if the file were taken: loopback, unannounced.
    headless = ["--headless", "--bind", "127.0.0.1", "--port", "0", "--announce", "off"]
    for how in ([], headless):
        proc = run("host", "--resume", str(journal), *how, timeout=30)
        err = assert_usage_error(proc, "cannot resume", f"{table_file}: ", words)
        assert len(err.splitlines()) == 1


def test_a_journal_of_another_format_is_named_beside_its_table_file(tmp_path: Path) -> None:
    """The line "cannot resume: 'format' must be 'threeup-record/1', ..." did not say
    which file, and a resume reads two: the journal and its .table."""
    from threeup_tui.table import Table, TableConfig

    journal = tmp_path / "game.json"
    Table(TableConfig(players=2, journal=journal)).save_table_file()  # a sound table file
    journal.write_text('{"format": "a shopping list"}')
    err = assert_usage_error(run("host", "--resume", str(journal), timeout=30), "cannot resume")
    assert f"{journal}: 'format' must be" in err, err
    assert ".table" not in err and len(err.splitlines()) == 1


def test_a_new_table_writes_over_no_file_it_finds_and_says_so_at_once(tmp_path: Path) -> None:
    """An earlier table's journal (which --resume could still bring back), or
    any file of the name, is refused before a host starts; nothing is written."""
    host = ["host", "--headless", "--bind", "127.0.0.1", "--port", "0"]  # should one start
    precious = tmp_path / "notes.txt"
    precious.write_text("my notes")
    proc = run(*host, "--record", str(precious), timeout=30)
    err = assert_usage_error(proc, "notes.txt is already there", "--record FILE")
    assert len(err.splitlines()) == 1 and precious.read_text() == "my notes"
    for headless_journal in ("threeup-game.json", "threeup-game.json.table"):
        (tmp_path / headless_journal).write_text("last night's table")
        proc = run(*host, timeout=30, cwd=tmp_path)
        assert_usage_error(proc, f"{headless_journal} is already there", "--record FILE")
        assert (tmp_path / headless_journal).read_text() == "last night's table"
        (tmp_path / headless_journal).unlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_a_record_saved_from_the_app_is_not_offered_to_resume(tmp_path: Path) -> None:
    """The result box saves the record as threeup-game.json where the app
    runs, the name a headless host's journal takes there too.  A newcomer
    who then ran ``threeup host --headless`` in that folder was told to
    ``--resume threeup-game.json``, which only said "cannot resume: ...
    .table is missing".  With no table file beside it there is no table to
    resume: the line says so and points at --record alone; with one, it
    still offers --resume."""
    from threeup_tui.app.scenes import demo_record
    from threeup_tui.recordfile import save_record

    saved = tmp_path / "threeup-game.json"
    save_record(saved, demo_record())
    kept = saved.read_bytes()
    host = ["host", "--headless", "--bind", "127.0.0.1", "--port", "0"]
    err = assert_usage_error(run(*host, timeout=30, cwd=tmp_path), "is already there")
    assert "--resume" not in err and "not a table to resume" in err, err
    assert "--record FILE" in err and len(err.splitlines()) == 1, err
    assert saved.read_bytes() == kept
    (tmp_path / "threeup-game.json.table").write_text("{}")  # a table's own file beside it
    err = assert_usage_error(run(*host, timeout=30, cwd=tmp_path), "is already there")
    assert "--resume threeup-game.json" in err, err


def _folder_that_takes_no_file(tmp_path: Path) -> Path:
    """A folder where no new file can be made: root writes through any mode,
    but procfs takes no new file from anyone."""
    if os.geteuid() == 0:
        return Path("/proc/self")
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    return folder


def test_a_journal_in_a_folder_that_takes_no_file_is_one_line_before_any_host(
    tmp_path: Path,
) -> None:
    """Found by trying --record in a read-only tmpfs: the host logged "cannot
    write the table file" and hosted on, its game's journal and table file
    never written, so nothing to --resume after a crash and no record."""
    host = ["host", "--headless", "--bind", "127.0.0.1", "--port", "0"]  # should one start
    folder = _folder_that_takes_no_file(tmp_path)
    proc = run(*host, "--record", str(folder / "game.json"), timeout=15)
    err = assert_usage_error(proc, f"--record {folder / 'game.json'}: cannot write in {folder}")
    assert len(err.splitlines()) == 1
    proc = run(*host, timeout=15, cwd=folder)  # the headless default journal, in the folder
    err = assert_usage_error(proc, "threeup-game.json (a headless host's journal): cannot write")
    assert len(err.splitlines()) == 1


def test_a_journal_whose_table_file_name_is_too_long_is_one_line_before_any_host(
    tmp_path: Path,
) -> None:
    """Found with a --record name of 255 characters, a valid name: the table
    file beside it (NAME.table) could not be named, and the host logged
    "cannot write the table file" and played on without it."""
    journal = tmp_path / ("x" * 250 + ".json")
    host = ["host", "--headless", "--bind", "127.0.0.1", "--port", "0"]  # should one start
    proc = run(*host, "--record", str(journal), timeout=15)
    err = assert_usage_error(proc, f"cannot write in {tmp_path}: File name too long")
    assert len(err.splitlines()) == 1
    assert list(tmp_path.iterdir()) == [], "the probe leaves nothing behind"


def test_what_cannot_be_a_record_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    """A FIFO would wait forever for a writer, /dev/zero never ends, and a
    huge file would be read into memory whole: each is one line, at once."""
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.json"
    with huge.open("wb") as f:
        f.truncate(64 * 1024 * 1024 * 1024)  # sparse: 64 GiB that take no disk
    for path, words in (
        (fifo, ["not a regular file"]),
        ("/dev/zero", ["not a regular file"]),
        (huge, ["too large"]),
    ):
        for command in ("verify", "replay"):
            err = assert_usage_error(run(command, str(path), timeout=30), *words)
            assert len(err.splitlines()) == 1, err
    for flag in ("--resume", "--ssh-authorized-keys"):
        assert_usage_error(run("host", flag, "/dev/zero", timeout=30), flag, "not a regular file")


def test_an_authorized_keys_file_that_lists_no_key_is_one_line_before_any_screen(
    tmp_path: Path,
) -> None:
    pytest.importorskip("asyncssh")
    keys = tmp_path / "keys"
    keys.write_text("this is no key\n")
    for headless in ((), ("--headless",)):
        proc = run("host", *headless, "--bind", "127.0.0.1", "--port", "0",
                   "--ssh-port", "0", "--ssh-authorized-keys", str(keys), timeout=30)  # fmt: skip
        err = assert_usage_error(proc, "--ssh-authorized-keys", "cannot use it")
        assert len(err.splitlines()) == 1, err


def test_a_bad_announce_address_in_the_environment_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # In-process, with the host itself replaced: even if the check failed,
    # nothing would listen or announce.
    import threeup_tui.netplay.run as run_module
    from threeup_tui.cli import main

    started: list[object] = []
    monkeypatch.setattr(run_module, "run_headless_host", lambda args: started.append(args) or 0)
    monkeypatch.setenv("THREEUP_ANNOUNCE", "nonsense")
    assert main(["host", "--headless"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "THREEUP_ANNOUNCE" in err and "nonsense" in err
    assert started == []
    monkeypatch.setenv("THREEUP_ANNOUNCE", "off")
    assert main(["host", "--headless"]) == 0 and len(started) == 1


def test_addresses_are_checked_without_a_name_lookup(monkeypatch: pytest.MonkeyPatch) -> None:
    looked_up: list[object] = []

    def no_lookups(*args: object, **kwargs: object) -> object:
        looked_up.append(args)
        raise AssertionError("a name lookup")

    monkeypatch.setattr(socket, "getaddrinfo", no_lookups)
    monkeypatch.setattr(socket, "gethostbyname", no_lookups)
    parser = build_parser()
    for argv in (
        ["host", "--bind", "notanaddress"],
        ["host", "--announce", "nonsense"],
        ["host", "--bind", "gamebox.local"],
    ):
        with pytest.raises(SystemExit) as caught:
            parser.parse_args(argv)
        assert caught.value.code == 2
    good = parser.parse_args(["host", "--bind", "::1", "--announce", "127.255.255.255"])
    assert (good.bind, good.announce) == ("::1", "127.255.255.255")
    assert parser.parse_args(["host", "--announce", "off"]).announce == "off"
    # A table to join may be a name: it is looked up when joining, not when parsing.
    assert parser.parse_args(["join", "gamebox.local:5000"]).address == "gamebox.local:5000"
    assert parser.parse_args(["join", "[::1]:5000"]).address == "[::1]:5000"
    assert looked_up == []


def _sub_parsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no sub-commands")


def test_every_option_has_words_and_its_default() -> None:
    subs = _sub_parsers(build_parser())
    assert {"play", "host", "join", "replay", "verify", "simulate"} <= set(subs)
    for name, sub in subs.items():
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            what = f"threeup {name} {'/'.join(action.option_strings) or action.dest}"
            assert action.help and len(action.help) > 10, what
            flag = isinstance(action, argparse._StoreTrueAction)
            if action.option_strings and not action.required and not flag:
                assert "default" in action.help, what


def test_host_help_shows_every_default() -> None:
    proc = run("host", "--help", timeout=30)
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    for words in (
        "default ::, every address, IPv6 and IPv4",
        "default 47823",
        "default 4)",
        "default 0)",
        "default greedy",
        "default 30",
        "default first_out",
        "default 47824",
    ):
        assert words in text, words
    assert "host names are not looked up" in text


def test_join_help_shows_how_an_ipv6_table_is_written() -> None:
    """Written "::1:47823", an IPv6 address and its port are one address."""
    subs = _sub_parsers(build_parser())
    text = " ".join(subs["join"].format_help().split())
    assert "IPv6 address bare (::1) or in brackets ([::1], [::1]:47823)" in text


def test_the_announce_port_in_the_help_is_discoverys() -> None:
    from threeup_tui.netplay.discovery import DEFAULT_ANNOUNCE_PORT

    help_text = build_parser().format_help()
    subs = _sub_parsers(build_parser())
    assert f"default {DEFAULT_ANNOUNCE_PORT}" in " ".join(subs["host"].format_help().split())
    assert help_text


# ---------------------------------------------------------------- 1-based for people
def test_verify_text_counts_seats_and_moves_from_1(tmp_path: Path) -> None:
    from threeup_tui.recordfile import save_record
    from threeup_tui.rules import record_of
    from threeup_tui.simulate import play_bot_game

    state = play_bot_game(("greedy", "greedy", "greedy"), seed=3, names=["Ann", "Bob", "Cy"])
    assert state.winner is not None
    path = tmp_path / "g.json"
    save_record(path, record_of(state))
    proc = run("verify", str(path), timeout=60)
    name = ["Ann", "Bob", "Cy"][state.winner]
    assert f"winner: seat {state.winner + 1} ({name})" in proc.stdout
    raw = json.loads(run("verify", str(path), "--json", timeout=60).stdout)
    assert raw["winner"] == state.winner  # JSON stays 0-based, as record.md says
    one = json.loads(path.read_text())
    one["moves"], one["result"] = one["moves"][:1], None
    path.write_text(json.dumps({k: v for k, v in one.items() if v is not None}))
    assert run("verify", str(path), timeout=60).stdout == "ok: 1 move, unfinished\n"

    record = json.loads(path.read_text())
    moves = record["moves"]
    record["moves"] = [moves[0], moves[0], *moves[2:]]  # the same move twice: move 2 is illegal
    bad = write(tmp_path / "bad.json", record)
    proc = run("verify", str(bad), timeout=60)
    assert proc.returncode == 1
    assert proc.stdout.startswith(f"illegal move 2 of {len(record['moves'])}:"), proc.stdout
    assert json.loads(run("verify", str(bad), "--json", timeout=60).stdout)["move"] == 1


def test_verify_text_shows_a_records_names_without_what_a_terminal_would_obey(
    tmp_path: Path,
) -> None:
    """A record is an untrusted file: an escape sequence in a player's name
    (a new window title, a cleared screen) or a bidi override must not reach
    the terminal; the name is shown as the app's replay shows it."""
    from threeup_tui.recordfile import save_record
    from threeup_tui.rules import Options, record_of
    from threeup_tui.simulate import play_bot_game

    hostile = "\x1b]0;pwned\x07\x1b[2J\u202eEvil\u200b\n" + "x" * 40
    names = [hostile, hostile, hostile]
    options = Options(finish="places")
    state = play_bot_game(("greedy",) * 3, seed=4, names=names, options=options)
    path = tmp_path / "evil.json"
    save_record(path, record_of(state))
    out = run("verify", str(path), timeout=60).stdout
    assert out.startswith("ok: ") and "winner: seat" in out and "places: seat" in out
    for obeyed in ("\x1b", "\x07", "\u202e", "\u200b"):
        assert obeyed not in out
    assert f"(]0;pwned[2JEvil {'x' * 8})" in out  # cut as a name is (24 characters)


def test_verify_text_of_an_illegal_move_shows_no_escape_from_a_name(tmp_path: Path) -> None:
    """The engine's reason may quote a name ("it is NAME's turn"); it reached
    the terminal with the name's escape sequences and line breaks."""
    import samples

    record = samples.short()
    record["players"][1] = "\x1b]0;pwned\x07\x1b[2J\u202eEvil\nx"
    bad = samples.with_moves(record, {"seat": 2, "play": ["G6"]})  # seat 1's turn
    proc = run("verify", str(write(tmp_path / "evil.json", bad)), timeout=60)
    assert proc.returncode == 1 and proc.stdout.startswith("illegal move 2 of 2: "), proc.stdout
    assert len(proc.stdout.splitlines()) == 1, proc.stdout
    for obeyed in ("\x1b", "\x07", "\u202e"):
        assert obeyed not in proc.stdout
    assert "]0;pwned[2JEvil x" in proc.stdout
    raw = json.loads(run("verify", str(tmp_path / "evil.json"), "--json", timeout=60).stdout)
    assert "\x1b]0;pwned\x07" in raw["error"]  # the JSON keeps the name as the file has it


def test_verify_text_places_are_1_based(tmp_path: Path) -> None:
    from threeup_tui.recordfile import save_record
    from threeup_tui.rules import Options, record_of
    from threeup_tui.simulate import play_bot_game

    levels = ("greedy", "random", "greedy")
    state = play_bot_game(levels, seed=4, names=["A", "B", "C"], options=Options(finish="places"))
    path = tmp_path / "p.json"
    save_record(path, record_of(state))
    out = run("verify", str(path), timeout=60).stdout
    expected = ", ".join(f"seat {p + 1} ({'ABC'[p]})" for p in state.places)
    assert f"places: {expected}" in out
    # Unfinished: before anyone is out, no empty "places: "; then who is out so far.
    record = record_of(state)
    first_out = next(i for i in range(len(record.moves)) if replay_places(record, i + 1))
    for moves, words in ((3, None), (first_out + 1, "out so far: seat")):
        short = dataclasses.replace(record, moves=record.moves[:moves], result=None)
        save_record(path, short)
        out = run("verify", str(path), timeout=60).stdout.strip()
        assert out.startswith(f"ok: {moves} moves, unfinished") and "places" not in out, out
        assert (words is None and out.endswith("unfinished")) or (words or "") in out, out


def replay_places(record: Any, moves: int) -> list[int]:
    """Who is out after the first ``moves`` moves of a game for places."""
    from threeup_tui.rules import replay

    state, _verdict = replay(dataclasses.replace(record, moves=record.moves[:moves], result=None))
    return list(state.places)


def test_simulate_text_and_bot_names_count_seats_from_1(tmp_path: Path) -> None:
    proc = run(
        "simulate", "--games", "2", "--players", "3", "--bots", "greedy,random,greedy",
        "--seed", "1", "--records", str(tmp_path), timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    rows = [line.split() for line in proc.stdout.splitlines()[2:5]]
    assert [(r[0], r[1]) for r in rows] == [("1", "greedy"), ("2", "random"), ("3", "greedy")]
    record = json.loads((tmp_path / "game-00000.json").read_text())
    assert record["players"] == ["greedy-1", "random-2", "greedy-3"]
    raw = json.loads(
        run("simulate", "--games", "1", "--players", "2", "--bots", "greedy", "--json").stdout
    )
    assert [s["seat"] for s in raw["seats"]] == [0, 1]  # JSON stays 0-based


@pytest.mark.parametrize("busy", ["game port", "ssh port"])
def test_a_port_in_use_is_one_line_and_leaves_no_file_to_refuse_a_retry(
    tmp_path: Path, busy: str
) -> None:
    """The host could not listen: it says so in one line (no traceback from
    a socket left to a closed loop), and the new table's file is gone, so
    the same command works once the port is free."""
    if busy == "ssh port":
        pytest.importorskip("asyncssh")
    holder = socket.socket(
        socket.AF_INET, socket.SOCK_DGRAM if busy == "game port" else socket.SOCK_STREAM
    )
    with holder:
        holder.bind(("127.0.0.1", 0))
        taken = str(holder.getsockname()[1])
        if busy == "ssh port":
            holder.listen()
        ports = ["--port", taken] if busy == "game port" else ["--port", "0", "--ssh-port", taken]
        proc = run("host", "--headless", "--bind", "127.0.0.1", *ports, "--players", "2",
                   "--record", "t.json", "--announce", "off", cwd=tmp_path, timeout=30)  # fmt: skip
    assert_usage_error(proc, "cannot listen", "in use")
    assert "Exception ignored" not in proc.stderr, proc.stderr
    assert sorted(os.listdir(tmp_path)) == []


def test_a_long_bad_value_is_quoted_short() -> None:
    """A 500-character --name was repeated whole in its error line."""
    err = assert_usage_error(run("play", "--name", "x" * 500, timeout=30), "--name", "…")
    assert len(err.strip()) < 160, err


def test_ssh_port_without_the_extra_names_the_readmes_install(tmp_path: Path) -> None:
    """It said pip install 'threeup[ssh]', a package index's name, where the
    README installs from threeup's folder ('.[ssh]')."""
    hide = "import sys; sys.modules['asyncssh'] = None; from threeup_tui.cli import main; "
    proc = subprocess.run(
        [sys.executable, "-c", hide + "sys.exit(main(['host', '--ssh-port', '2222']))"],
        capture_output=True, text=True, timeout=30, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert "pip install '.[ssh]'" in proc.stderr and "threeup[ssh]" not in proc.stderr
    assert "pip install '.[ssh]'" in (Path(__file__).parents[2] / "README.md").read_text()


def test_a_join_where_nothing_listens_says_so() -> None:
    """The port reports that nothing listens: one line naming the address,
    not "no table answers" after the whole 8 s time-out."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = run("join", f"127.0.0.1:{port}", "--bot", "greedy", timeout=30)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        f"threeup join: nothing listens at 127.0.0.1:{port}: no table there (is that its port?)"
    ]


@pytest.mark.parametrize(
    ("login", "table"),
    [("ev\x1b[31mil\nX", "ev[31mil X's table"), ("L" * 10_000, "L" * 24 + "'s table")],
    ids=["escape and line break", "10,000 letters"],
)
def test_a_headless_hosts_login_name_is_cleaned_as_a_name(
    tmp_path: Path, login: str, table: str
) -> None:
    """Found with LOGNAME set to an escape sequence and a line break: the
    headless host's default name (getpass reads $LOGNAME first) went into
    its log and the table's name as it was, the log line in two and the
    escape to the terminal; 10,000 letters of it made a line as long."""
    env = {**os.environ, "LOGNAME": login}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parent.parent.parent)
    host = subprocess.Popen(
        [sys.executable, "-m", "threeup_tui", "host", "--headless", "--bind", "127.0.0.1",
         "--port", "0", "--players", "2", "--record", str(tmp_path / "game.json")],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True, encoding="utf-8", errors="replace", env=env, cwd=tmp_path,
    )  # fmt: skip
    try:
        assert host.stderr is not None
        line = host.stderr.readline()  # "... threeup: hosting NAME's table on ..."
    finally:
        host.terminate()
        host.wait(timeout=30)
    assert f"hosting {table} on 127.0.0.1:" in line, line[:200]
    assert "\x1b" not in line
