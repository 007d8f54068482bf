"""Where threeup keeps things, when there is no home directory to keep them in."""

from __future__ import annotations

import pwd
import subprocess
from pathlib import Path

import pytest

from threeup_tui import paths


@pytest.fixture
def homeless(monkeypatch: pytest.MonkeyPatch) -> None:
    """No HOME, no XDG variables, and a user the password file does not know
    (a container run as a bare uid): Path.home() and platformdirs give up."""
    for name in ("HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"):
        monkeypatch.delenv(name, raising=False)
    for name in ("THREEUP_STATE_DIR", "THREEUP_CONFIG_DIR", "THREEUP_DATA_DIR"):
        monkeypatch.delenv(name)

    def unknown(uid: int) -> pwd.struct_passwd:
        raise KeyError(f"getpwuid(): uid not found: {uid}")

    monkeypatch.setattr(pwd, "getpwuid", unknown)


def test_without_a_home_the_directories_say_why_in_one_line(homeless: None) -> None:
    why = paths.no_home()
    assert why is not None and "\n" not in why
    assert why.startswith("no home directory") and "set HOME" in why


def test_a_directory_given_by_name_needs_no_home(
    homeless: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in ("XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name))
    assert paths.no_home() is None
    assert paths.state_dir() == tmp_path / "XDG_STATE_HOME" / "threeup"


def test_without_a_home_a_path_is_told_whole(homeless: None, tmp_path: Path) -> None:
    """Path.home() raised RuntimeError, and telling the host how to resume
    a table ended the app."""
    journal = tmp_path / "tables" / "table.json"
    assert paths.home_short(journal) == str(journal)
    assert paths.resume_command(journal) == f"`threeup host --resume {journal}`"


def test_a_path_under_home_is_told_from_home(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert paths.home_short(tmp_path / "a" / "b.json") == "~/a/b.json"
    assert paths.home_short(Path("/elsewhere/b.json")) == "/elsewhere/b.json"


@pytest.mark.parametrize(
    "where",
    ["tables", "my tables", "it's $HOME; `x` & (y)", "~tilde/\\back", "山田 zero\u200bwidth"],
)
def test_the_resume_command_pasted_into_a_shell_names_the_journal(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, where: str
) -> None:
    """The command the host is left to bring its table back held the path
    as it was: a space made two words of it, and `$HOME` or a quote another
    file (or a command).  It is quoted for the shell, the home's ~ left out
    of the quotes to be expanded: a shell reads the very path from it."""
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    for journal in (home / where / "game night.json", tmp_path / where / "party.json"):
        command = paths.resume_command(journal, headless=True).strip("`")
        assert command.startswith("threeup host --headless --resume ")
        pasted = command.replace("threeup host --headless --resume", "printf %s", 1)
        shell = subprocess.run(
            ["sh", "-c", pasted], capture_output=True, text=True, env={"HOME": str(home)}
        )
        assert shell.stdout == str(journal), command


@pytest.mark.parametrize(
    ("name", "what"),
    [
        ("night\none", "a line break"),
        ("night\rone", "a line break"),
        ("tab\there", "a control character ('\\t')"),
        ("bell\x07", "a control character ('\\x07')"),
        ("esc\x1b[2J", "a control character ('\\x1b')"),
        ("latin\udce9", "a byte that is not UTF-8"),
    ],
)
def test_a_path_no_one_line_command_can_name_is_told(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str, what: str
) -> None:
    """The command that resumes a table is one line to paste: a line break
    in the path broke it in two (no quoting in sh keeps one on a line), a
    tab pasted back as spaces, an escape was obeyed by the terminal, and a
    byte that is not UTF-8 printed as an escape naming another file.  The
    host refuses such a journal up front (hostargs); here, what it says."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert paths.unpastable(tmp_path / name / "game.json") == what
    assert paths.unpastable(tmp_path / "ok" / name) == what


def test_a_path_one_line_can_name_is_not_refused(tmp_path: Path) -> None:
    """Spaces, quotes, shell characters, letters of any script, and even
    characters that draw nothing are quoted onto one line: not refused."""
    for name in ("my tables", "it's $HOME; `x` & (y)", "山田 ü", "zero\u200bwidth", "~tilde"):
        journal = tmp_path / name / "game.json"
        assert paths.unpastable(journal) is None, name
        assert "\n" not in paths.resume_command(journal)


def test_a_table_the_app_keeps_is_resumed_from_the_start_screen(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A table hosted from the app keeps its journal in the state directory,
    and the start screen offers it: "Resume your table" is the way back,
    not a command of a path a hundred characters long.  A --record journal
    elsewhere is told by its command."""
    monkeypatch.setenv("THREEUP_STATE_DIR", str(tmp_path / "state"))
    kept = paths.tables_dir() / "table-20261207-084500.json"
    assert paths.how_to_resume(kept) == 'start threeup, then "Resume your table"'
    elsewhere = tmp_path / "party night.json"
    said = f"`threeup host --resume '{elsewhere}'` brings it back"
    assert paths.how_to_resume(elsewhere) == said


def test_a_directory_named_relative_is_kept_absolute(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """THREEUP_DATA_DIR=data: the history kept "data/records/game-....json"
    as a game's record, which an app started in any other directory could
    not find ("gone")."""
    from threeup_tui.history import FinishedGame, History, SeatEntry

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("THREEUP_DATA_DIR", "data")
    history = History()
    record = history.new_record_path()
    record.parent.mkdir(parents=True)
    record.write_text("{}")
    seats = (SeatEntry("me", "you"), SeatEntry("bot", "bot", "greedy"))
    history.add(FinishedGame(seats, 0, 1, True, False, 20, 15, record=str(record)))
    monkeypatch.chdir("/")
    (game,) = History(tmp_path / "data" / "history.sqlite3", enabled=True).games()
    assert game.record is not None and Path(game.record).is_file()


def test_the_app_without_a_home_is_told_as_threeup(
    homeless: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """The app has no command: its errors were told by "threeup None"."""
    from threeup_tui.cli import main

    assert main([]) == 2
    said = capsys.readouterr().err
    assert said.startswith("threeup: no home directory"), said
    assert "--help" not in said  # no flag mends it: the help has nothing to say
    assert main(["play"]) == 2
    assert capsys.readouterr().err.startswith("threeup play: no home directory")


def test_the_readme_says_how_the_app_says_its_table_comes_back(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The README said that the chat of a table hosted from the app "says
    which file `threeup host --resume` takes", and that its players "wait
    for the `--resume` the terminal is left with": the chat and the
    terminal say to start threeup and pick "Resume your table" (above)."""
    monkeypatch.setenv("THREEUP_STATE_DIR", str(tmp_path / "state"))
    said = paths.how_to_resume(paths.tables_dir() / "table-20261207-084500.json")
    readme = " ".join((Path(__file__).parents[2] / "README.md").read_text().split())
    assert readme.count(said) >= 2, said  # the chat, and the terminal it stops in
    assert "which file `threeup host --resume` takes" not in readme
    assert "the `--resume` the terminal is left with" not in readme
