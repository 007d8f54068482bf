"""`threeup host --resume` can take back every setting the table was given.

A resumed table keeps each setting of its table file unless the host gives
the flag again.  `--no-code` and `--turn-time off` could take a room code or
a turn timer away, but `--rematch-after`, `--games` and `--ssh-port` could
only be changed, never taken away: a host who had started a table "for 3
games" could not resume it to play on.  Through the real command line, on
loopback.
"""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path
from typing import Any

from netplay_support import THREEUP, Proc, spawn, start_host_process

DOOR = "threeup ssh door listening on "


def stop(host: Proc) -> None:
    """Ctrl-C, as the host's operator stops it; the table file stays."""
    host.popen.send_signal(signal.SIGINT)
    assert host.wait(30) == 0, host.stderr()


def saved(record: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(record.with_name(record.name + ".table").read_text())
    return data


def resume(tmp_path: Path, record: Path, tag: str, *flags: str) -> Proc:
    return start_host_process(
        tmp_path, players=2, bots=0, seed=0, record=record, resume=record, tag=tag, extra=flags
    )


def wait_for_door(host: Proc) -> None:
    deadline = time.monotonic() + 20
    while DOOR not in host.stderr():
        assert time.monotonic() < deadline, host.stderr()
        time.sleep(0.05)


def test_a_resume_takes_away_rematch_after_games_and_the_ssh_door(tmp_path: Path) -> None:
    record = tmp_path / "party.json"
    first = start_host_process(
        tmp_path, players=2, bots=0, seed=3, record=record, games=3,
        extra=("--rematch-after", "5", "--ssh-port", "0"),
    )  # fmt: skip
    wait_for_door(first)
    stop(first)
    door_port = saved(record)["hosting"]["ssh_port"]
    assert isinstance(door_port, int) and door_port > 0

    # The same values given again pass, said so; the door comes back.
    again = resume(tmp_path, record, "again", "--games", "3", "--rematch-after", "5")
    wait_for_door(again)
    stop(again)
    log = again.stderr()
    assert "--games given again: 3, as saved" in log
    assert "--rematch-after given again: 5.0, as saved" in log

    off = resume(tmp_path, record, "off", "--rematch-after", "off", "--games", "off", "--no-ssh")
    time.sleep(0.5)  # a door would say so at once, after the game port's line
    stop(off)
    log = off.stderr()
    waits = "the next game waits for every player now (it was 5.0 s)"
    assert f"--rematch-after off given: {waits}" in log
    assert "--games off given: no limit on games now (it was 3 games)" in log
    assert f"--no-ssh given: no SSH door now (it was on port {door_port})" in log
    assert DOOR not in log
    table = saved(record)
    assert (table["config"]["rematch_after"], table["config"]["games"]) == (None, None)
    assert table["hosting"]["ssh_port"] is None

    # Kept so: a resume with no flag brings none of them back.
    plain = resume(tmp_path, record, "plain")
    time.sleep(0.5)
    stop(plain)
    assert DOOR not in plain.stderr()
    assert saved(record)["config"]["games"] is None


def test_off_flags_on_a_new_table_are_its_defaults_and_contradictions_are_refused(
    tmp_path: Path,
) -> None:
    record = tmp_path / "party.json"
    host = start_host_process(
        tmp_path, players=2, bots=0, seed=3, record=record, games=None,
        extra=("--rematch-after", "off", "--games", "off", "--turn-time", "off", "--no-ssh"),
    )  # fmt: skip
    stop(host)
    config = saved(record)["config"]
    assert (config["rematch_after"], config["games"], config["turn_time"]) == (None, None, None)
    for flags, words in (
        (("--no-ssh", "--ssh-port", "2222"), "--ssh-port and --no-ssh: give one of them"),
        (("--games", "0"), "'0' must be at least 1 (off: no limit)"),
    ):
        proc = spawn(
            [str(THREEUP), "host", "--headless", "--resume", str(record), *flags],
            tmp_path, tmp_path / "refused.stderr", tmp_path / "refused-state",
        )  # fmt: skip
        assert proc.wait(30) == 2
        assert words in proc.stderr() and "Traceback" not in proc.stderr()
