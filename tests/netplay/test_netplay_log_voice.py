"""What ``join --bot`` and ``host --headless`` print on stderr reads in the
command's own voice, one line each (README): logging's default format
("WARNING:threeup.tokens:...") read as a crash, and a repr is no words."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from netplay_support import start_bot_process, start_host_process

RAW_LOGGING = re.compile(r"^(DEBUG|INFO|WARNING|ERROR|CRITICAL):", re.MULTILINE)
STAMP = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} "


def test_a_bot_and_a_host_log_in_their_own_voice(tmp_path: Path) -> None:
    state = tmp_path / "bot-state"
    state.mkdir()
    (state / "seats.json").write_text("{ not json\n")  # its log warns: kept aside
    record = tmp_path / "party.json"
    host = start_host_process(tmp_path, players=2, bots=1, seed=5, record=record, games=1)
    bot = start_bot_process(tmp_path, host.port, "netbot", state)
    try:
        assert host.wait(90) == 0, host.stderr()
        assert bot.wait(30) == 0, bot.stderr()
    finally:
        for proc in (host, bot):
            proc.kill()
    said = bot.stderr()
    assert f"threeup join: {state / 'seats.json'} could not be read; kept as" in said, said
    assert not RAW_LOGGING.search(said), said
    for line in said.splitlines():
        assert line.startswith("threeup join: "), said
    logged = host.stderr()
    assert not RAW_LOGGING.search(logged), logged
    assert re.search(rf"^{STAMP}threeup host: game 1 over", logged, re.MULTILINE), logged
    for line in logged.splitlines():
        assert re.match(rf"({STAMP})?threeup host[ :]", line), logged


def test_an_error_logged_with_its_exception_is_one_line_in_words(tmp_path: Path) -> None:
    """What a bot seat logs when its bot gave no decision (after a SIGSTOP:
    "ERROR:threeup.botseat:the bot gave no decision: ThinkingError('no
    decision within 10 s')"): one line, the exception in words."""
    program = (
        "import logging\n"
        "from threeup_tui.bots.pool import ThinkingError\n"
        "from threeup_tui.process import log_to_stderr\n"
        "log_to_stderr('threeup join', logging.WARNING)\n"
        "try:\n"
        "    raise ThinkingError('no decision within 10 s')\n"
        "except ThinkingError:\n"
        "    logging.getLogger('threeup.botseat').exception('the bot gave no decision')\n"
        "logging.getLogger('threeup').info('not shown: below the level')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stderr == (
        "threeup join: the bot gave no decision: ThinkingError: no decision within 10 s\n"
    ), done.stderr
