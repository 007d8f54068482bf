"""Settings in a real file in the (per-test) config directory."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from threeup_tui.paths import config_dir
from threeup_tui.settings import Settings, SettingsFile, settings_path, to_toml


def test_the_config_dir_is_the_tests_own(own_directories: dict[str, Path]) -> None:
    assert config_dir() == own_directories["THREEUP_CONFIG_DIR"]
    assert settings_path().parent == config_dir()


def test_no_file_gives_the_defaults_quietly() -> None:
    loaded = SettingsFile()
    assert loaded.settings == Settings() and loaded.problem is None
    assert not settings_path().exists()  # reading writes nothing


def test_a_change_is_saved_and_read_back() -> None:
    assert SettingsFile().change(theme="nord", players=3, bot_level="random", name="Zoë") is None
    again = SettingsFile()
    assert again.settings == Settings("nord", "random", 3, "Zoë", True)
    assert again.problem is None
    assert SettingsFile().change(animation=False) is None
    assert SettingsFile().settings.animation is False
    assert SettingsFile().settings.players == 3  # one change keeps the others


def test_an_unchanged_setting_writes_nothing() -> None:
    SettingsFile().change(players=5)
    before = settings_path().stat().st_mtime_ns
    os.utime(settings_path(), ns=(0, 0))
    SettingsFile().change(players=5)
    assert settings_path().stat().st_mtime_ns == 0 != before


@given(st.text(max_size=30))
def test_any_name_survives_the_file(name: str) -> None:
    text = to_toml(Settings(name=name))
    assert tomllib.loads(text)["name"] == name


def test_a_file_that_is_not_toml_gives_defaults_one_line_and_is_kept(tmp_path: Path) -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text("players = [oops\n", encoding="utf-8")
    loaded = SettingsFile()
    assert loaded.settings == Settings()
    assert loaded.problem is not None and "\n" not in loaded.problem
    assert str(path) in loaded.problem and "not valid TOML" in loaded.problem
    assert path.read_text(encoding="utf-8") == "players = [oops\n"  # reading changes nothing
    # The first change keeps the damaged text aside, says where, then saves.
    told = loaded.change(players=3)
    assert told is not None and "settings.toml, which could not be read, is kept as " in told
    assert told.endswith("settings.toml.bad; your settings are now saved in a new settings.toml")
    assert (path.parent / "settings.toml.bad").read_text(encoding="utf-8") == "players = [oops\n"
    assert SettingsFile().settings.players == 3
    assert SettingsFile().change(players=4) is None  # a good file is just written


def test_a_second_damaged_file_is_kept_beside_the_first() -> None:
    """A damaged file is never deleted: the one kept aside before stays."""
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text("players = [oops\n", encoding="utf-8")
    assert "kept as settings.toml.bad;" in (SettingsFile().change(players=3) or "")
    path.write_text("players = [again\n", encoding="utf-8")
    assert "kept as settings.toml.bad-2;" in (SettingsFile().change(players=5) or "")
    assert (path.parent / "settings.toml.bad").read_text(encoding="utf-8") == "players = [oops\n"
    assert (path.parent / "settings.toml.bad-2").read_text(encoding="utf-8") == (
        "players = [again\n"
    )
    assert SettingsFile().settings.players == 5


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("players = 9\n", "players"),
        ("players = true\n", "players"),
        ('players = "4"\n', "players"),
        ('bot_level = "grandmaster"\n', "bot_level"),
        ("animation = 1\n", "animation"),
        ("name = 5\n", "name"),
    ],
)
def test_a_bad_field_falls_back_alone(text: str, bad: str) -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text(f'theme = "nord"\n{text}', encoding="utf-8")
    loaded = SettingsFile()
    assert loaded.settings.theme == "nord"  # the good field is kept
    assert getattr(loaded.settings, bad) == getattr(Settings(), bad)
    assert loaded.problem is not None and bad in loaded.problem and "\n" not in loaded.problem


def test_binary_garbage_and_unknown_keys() -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\xff\xfe\x00garbage")
    problem = SettingsFile().problem
    assert problem is not None
    assert problem.startswith("Settings file is not UTF-8 text (byte 0xff at offset 0): the")
    assert "codec" not in problem  # once Python's words: "'utf-8' codec can't decode..."
    path.write_text('future_setting = "x"\nplayers = 2\n', encoding="utf-8")
    loaded = SettingsFile()
    assert loaded.settings.players == 2 and loaded.problem is None


def test_control_characters_in_a_name_are_cleaned() -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text('name = "a\\u001b[2Jb"\n', encoding="utf-8")
    assert SettingsFile().settings.name == "a[2Jb"


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads and writes any file")
def test_an_unreadable_or_unwritable_place_is_one_line() -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text("players = 3\n", encoding="utf-8")
    path.chmod(0)
    try:
        loaded = SettingsFile()
        assert loaded.settings == Settings()
        assert loaded.problem is not None and "cannot be read" in loaded.problem
    finally:
        path.chmod(0o600)
    path.parent.chmod(0o500)
    try:
        loaded = SettingsFile()
        problem = loaded.change(players=5)
        assert problem is not None and "not saved" in problem and "\n" not in problem
        assert loaded.settings.players == 5  # still changed for this run
    finally:
        path.parent.chmod(0o700)


def test_a_directory_in_the_way_is_one_line() -> None:
    settings_path().mkdir(parents=True)
    loaded = SettingsFile()
    assert loaded.problem is not None and "cannot be read" in loaded.problem
    assert loaded.settings == Settings()
    problem = loaded.change(players=3)
    assert problem is not None and "not saved" in problem and "\n" not in problem
    assert settings_path().is_dir()  # left as it was


def test_a_fifo_or_a_huge_file_in_its_place_is_one_line_not_a_wait() -> None:
    """Opening a FIFO would wait for a writer before the app ever showed,
    and a huge file would be read into memory whole."""
    path = settings_path()
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    loaded = SettingsFile()
    assert loaded.problem is not None and "not a regular file" in loaded.problem
    assert loaded.settings == Settings()
    assert loaded.change(players=3) is None  # a FIFO holds nothing to keep
    assert SettingsFile().settings.players == 3
    path.unlink()
    with path.open("wb") as f:
        f.truncate(64 * 1024 * 1024 * 1024)  # sparse: no disk, no memory if not read
    loaded = SettingsFile()
    assert loaded.problem is not None and "too large" in loaded.problem
    assert loaded.settings == Settings()


def test_a_file_where_the_config_dir_should_be_is_one_line(
    own_directories: dict[str, Path],
) -> None:
    own_directories["THREEUP_CONFIG_DIR"].write_text("not a directory")
    loaded = SettingsFile()
    assert loaded.problem is not None and loaded.settings == Settings()
    problem = loaded.change(name="Ann")
    assert problem is not None and "not saved" in problem
    assert loaded.settings.name == "Ann"


def test_a_confined_guest_reads_and_writes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    SettingsFile().change(name="the host's owner")
    before = settings_path().read_text(encoding="utf-8")
    monkeypatch.setenv("THREEUP_GUEST", "1")
    guest = SettingsFile()
    assert guest.settings == Settings()  # not the host user's name
    assert guest.change(name="guest", players=2) is None
    assert settings_path().read_text(encoding="utf-8") == before


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("players = " + "1" * 5000 + "\n", "too many digits"),
        ("theme = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
        ("theme = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n", "nested too deeply"),
    ],
    ids=["long-number", "deep-array", "deep-table"],
)
def test_a_number_too_long_or_nesting_too_deep_is_one_line_and_kept(text: str, words: str) -> None:
    """tomllib raises Python's ValueError ("use sys.set_int_max_str_digits()")
    and RecursionError for these, not TOMLDecodeError: the app and every
    command (`threeup play`) ended in a traceback before any screen."""
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    loaded = SettingsFile()
    assert loaded.settings == Settings()
    assert loaded.problem is not None and "\n" not in loaded.problem
    assert str(path) in loaded.problem and words in loaded.problem
    assert "kept as settings.toml.bad;" in (loaded.change(players=3) or "")
    assert (path.parent / "settings.toml.bad").read_text(encoding="utf-8") == text
    assert SettingsFile().settings.players == 3


def test_a_settings_file_linked_from_elsewhere_is_written_through_the_link(
    tmp_path: Path,
) -> None:
    """A settings.toml kept with the user's dotfiles and linked into the
    config dir: a change was written over the link, which became a file of
    its own, and the dotfiles' copy never saw a change again."""
    kept = tmp_path / "dotfiles" / "threeup.toml"
    kept.parent.mkdir()
    kept.write_text("players = 3\n", encoding="utf-8")
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.symlink_to(kept)
    assert SettingsFile().change(players=5) is None
    assert path.is_symlink() and path.readlink() == kept
    assert tomllib.loads(kept.read_text(encoding="utf-8"))["players"] == 5
    assert SettingsFile().settings.players == 5
    assert sorted(p.name for p in kept.parent.iterdir()) == ["threeup.toml"]  # no temp left
    kept.unlink()  # a link that leads nowhere now: replaced by the file, as before
    assert SettingsFile().change(players=6) is None
    assert not path.is_symlink() and SettingsFile().settings.players == 6


def test_a_file_an_editor_began_with_a_byte_order_mark_is_read() -> None:
    """Saved by Windows Notepad, the file began with U+FEFF, and was refused
    as "not valid TOML (invalid statement at line 1, column 1)"."""
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_bytes('\ufeffplayers = 3\r\nname = "Åsa"\r\n'.encode())
    loaded = SettingsFile()
    assert loaded.problem is None
    assert (loaded.settings.players, loaded.settings.name) == (3, "Åsa")


def test_settings_of_another_version_are_written_back_not_dropped() -> None:
    """A newer threeup's settings (keys this one does not know) were read,
    passed over, and dropped from the file at the first change here."""
    path = settings_path()
    path.parent.mkdir(parents=True)
    theirs = (
        'sound = "chime"\nvolume = 0.75\n"odd key" = [1, 2, [3]]\n'
        "started = 2026-12-06T03:00:00Z\n[window]\nwidth = 80\nsizes = {a = 1}\n"
    )
    path.write_text(f"players = 3\n{theirs}", encoding="utf-8")
    loaded = SettingsFile()
    assert loaded.problem is None and loaded.settings.players == 3
    assert loaded.change(players=5) is None
    back = tomllib.loads(path.read_text(encoding="utf-8"))
    assert back.pop("players") == 5
    assert {k: v for k, v in back.items() if k in tomllib.loads(theirs)} == tomllib.loads(theirs)


toml_values = st.recursive(
    st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@given(st.dictionaries(st.text(min_size=1, max_size=8), toml_values, max_size=4))
def test_any_setting_kept_reads_back_as_it_was(kept: dict[str, object]) -> None:
    kept = {k: v for k, v in kept.items() if k not in Settings.__dataclass_fields__}
    text = to_toml(Settings(), kept)
    back = tomllib.loads(text)
    assert {k: back[k] for k in kept} == kept
