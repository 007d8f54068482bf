"""The player's settings, kept between runs in ``settings.toml`` in the config dir.

No Textual here: the app, the command line and the table screens all read
one :class:`Settings`.  The file is the user's own, so it is plain TOML
that a person may edit.  Reading it never stops a game: a file that cannot
be read or understood gives the defaults (field by field where it can) and
one line saying what was wrong; the damaged file is kept aside (as
``settings.toml.bad``, and the player is told so) before a change is saved
over it, so nothing the user wrote is lost.

A confined guest (``THREEUP_GUEST=1``) neither reads nor writes the file:
the SSH door runs the app as the host's user, whose settings (and name) are
not the guest's.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Collection
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from .bots import BOT_LEVELS
from .names import clean_name
from .paths import config_dir, confined_guest
from .recordfile import not_utf8, read_text, set_aside, write_atomic
from .textclean import clean_text, shown_value

SETTINGS_FILE = "settings.toml"
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
MIN_PLAYERS, MAX_PLAYERS = 2, 6


@dataclass(frozen=True)
class Settings:
    theme: str = ""  # a Textual theme name; "" for the app's own default
    bot_level: str = "greedy"  # the start screen's bot level (b)
    players: int = 4  # the start screen's player count (+ / -)
    name: str = ""  # the name you sit down with; "" until you choose one
    animation: bool = True  # cards landing on the pile are animated


def settings_path() -> Path:
    return config_dir() / SETTINGS_FILE


def _checked(raw: dict[str, Any]) -> tuple[Settings, list[str]]:
    """The settings in ``raw``, each bad field replaced by its default, and
    the names of the fields that were bad."""
    default = Settings()
    values: dict[str, Any] = {}
    bad: list[str] = []
    for f in fields(Settings):
        if f.name not in raw:
            continue
        value = raw[f.name]
        want = type(getattr(default, f.name))
        # bool is an int in Python, and not what "players = true" means.
        if type(value) is not want:
            bad.append(f.name)
            continue
        if f.name == "bot_level" and value not in BOT_LEVELS:
            bad.append(f.name)
            continue
        if f.name == "players" and not MIN_PLAYERS <= value <= MAX_PLAYERS:
            bad.append(f.name)
            continue
        if f.name == "name":
            value = clean_name(value, "")  # as the table will seat it
        elif f.name == "theme":
            value = clean_text(value, 64)
        values[f.name] = value
    return replace(default, **values), bad


def to_toml(settings: Settings, kept: dict[str, Any] | None = None) -> str:
    """The file's text; ``kept``: keys this threeup does not know (a newer
    one's settings), written back as they were read rather than dropped."""
    lines = ["# threeup settings: the app writes this file when you change a setting."]
    for key, value in asdict(settings).items():
        lines.append(f"{key} = {_toml_value(value)}")
    if kept:
        lines.append("# kept as they were: settings of another version of threeup")
        lines.extend(f"{_toml_key(key)} = {_toml_value(value)}" for key, value in kept.items())
    return "\n".join(lines) + "\n"


def _toml_value(value: Any) -> str:
    """A value as tomllib reads it back, as TOML text (a table inline)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)  # 1.5, 1e+100, inf, -inf, nan: each TOML's too
    if isinstance(value, str):
        # A JSON string without ASCII escaping is a TOML basic string:
        # the escapes json writes (\" \\ \n \t \uXXXX ...) are TOML's too,
        # and DEL, which json leaves alone, TOML wants escaped.
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        pairs = (f"{_toml_key(key)} = {_toml_value(item)}" for key, item in value.items())
        return "{" + ", ".join(pairs) + "}"
    return str(value.isoformat())  # a date, a time or a date-time: TOML's own form


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _toml_value(key)


def _short(err: tomllib.TOMLDecodeError) -> str:
    """tomllib's "Invalid value (at line 1, column 12)" as "invalid value at line 1, column 12"."""
    text = str(err).replace(" (at ", " at ").rstrip(")")
    return text[:1].lower() + text[1:]


class SettingsFile:
    """The settings as loaded, and where changes go.

    ``problem`` is one line for the player when the file could not be used
    as it was (or a change could not be saved); None when all is well.
    """

    def __init__(self, path: Path | None = None, confined: bool | None = None) -> None:
        self.confined = confined_guest() if confined is None else confined
        self.path = path or settings_path()
        self.settings = Settings()
        self.problem: str | None = None
        self._damaged = False  # keep the file aside before writing over it
        self._kept: dict[str, Any] = {}  # keys of another version, written back
        if not self.confined:
            self._load()

    @classmethod
    def in_memory(cls, settings: Settings | None = None) -> SettingsFile:
        """Settings that are never read from nor written to disk (pictures, benchmarks)."""
        file = cls(Path("/nonexistent") / SETTINGS_FILE, confined=True)
        file.settings = settings or Settings()
        return file

    def _load(self) -> None:
        try:
            text = read_text(self.path)
        except FileNotFoundError:
            return
        except UnicodeDecodeError as err:
            self._report(f"is {not_utf8(err)}")
            return
        except OSError as err:
            self._report("cannot be read", str(err.strerror or err))
            return
        try:
            # A byte order mark is how some editors (Windows Notepad) begin a
            # UTF-8 file; tomllib calls it an "invalid statement at line 1".
            raw = tomllib.loads(text.removeprefix("\ufeff"))
        except tomllib.TOMLDecodeError as err:
            self._report("is not valid TOML", _short(err))
            return
        except RecursionError:  # tomllib parses nested arrays by recursion
            self._report("is nested too deeply to be settings")
            return
        except ValueError:  # tomllib's int() past Python's limit on digits
            self._report("holds a number with too many digits to be settings")
            return
        self.settings, bad = _checked(raw)
        ours = {f.name for f in fields(Settings)}
        self._kept = {key: value for key, value in raw.items() if key not in ours}
        if bad:
            self._damaged = True
            self.problem = (
                f"Settings: {self.path}: bad {', '.join(bad)}; using the default for "
                f"{'them' if len(bad) > 1 else 'it'}"
            )

    def check_theme(self, known: Collection[str]) -> None:
        """Say so in ``problem`` when the file names a theme not in ``known``
        (the app's themes; this module knows no Textual).  The app starts in
        its default theme, but the setting stays as it is, in the file too:
        a typo for the player to mend, or a theme of another Textual.  It
        was ignored without a word, and the player wondered why the theme
        they wrote did not come."""
        theme = self.settings.theme
        if not theme or theme in known:
            return
        unknown = f"unknown theme {shown_value(theme)}; using the default theme"
        self.problem = (
            f"{self.problem}; {unknown}" if self.problem else f"Settings: {self.path}: {unknown}"
        )

    def _report(self, what: str, why: str = "") -> None:
        """``problem``: what happened and what the app does first, then the
        file's path, the parser's (or the system's) why last, so that a cut
        takes only that: at 80x24 the note read "Settings not loaded, using
        the defaults: PATH is not valid TOML (illegal character…", and at
        40x15 the path took all its room."""
        self._damaged = True
        told = f"Settings file {what}: the defaults are used; it is kept at {self.path}"
        self.problem = f"{told} ({why})" if why else told

    def change(self, **changes: Any) -> str | None:
        """Apply and save ``changes``; a one-line problem if saving failed.

        The settings change for this run even when they cannot be saved.
        """
        new = replace(self.settings, **changes)
        new, _bad = _checked(asdict(new))
        if new == self.settings:
            return None
        self.settings = new
        return self.save()

    def save(self) -> str | None:
        """Write the settings; a line for the player if that failed, or if a
        file that could not be read was first moved aside (where it went)."""
        if self.confined:
            return None
        told = None
        try:
            if self._damaged and self.path.is_file():
                aside = set_aside(self.path)
                told = (
                    f"Settings: {self.path.name}, which could not be read, is kept as "
                    f"{aside.name}; your settings are now saved in a new {self.path.name}"
                )
            self._damaged = False
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, to_toml(self.settings, self._kept), sync=False)
        except OSError as err:
            self.problem = f"Settings not saved to {self.path}: {err.strerror or err}"
            return self.problem
        return told


__all__ = ["Settings", "SettingsFile", "settings_path", "to_toml"]
