"""Finished games' records kept beside a table's journal (``party.json``:
``party-1.json``, ``party-2.json``...), and what is done when its directory
says no.  No Textual, no networking.

The next game's journal is written over the only other copy of a finished
game, so a record the journal's directory cannot take (read-only, full,
gone) is kept aside in the state directory (``records-aside/``), or held by
this process while that cannot take it either, and moved beside the journal
when a later game ends.  The host's log says where each record is, or that
one was lost; the host's own seat is told too (the log reaches nobody at an
app that hosts).

Aside, each table's records are in a folder named by the table's id
(``records-aside/TABLE-ID/party-1.json``): a table resumed after its host
stopped claims every record its earlier runs kept aside, and moves them
beside its journal with its next game's; by name alone (``party-1.json``,
every table's first game) it could claim only the game it resumed at,
by its bytes, and the earlier games' records stayed aside for ever.
Records kept aside by a threeup before this, loose in ``records-aside/``,
are still found for the game a table resumes at.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .paths import home_short, not_a_directory, records_aside_dir
from .recordfile import free_path, load_record, numbered_paths, read_json, save_record
from .rules import MalformedRecord, Record

log = logging.getLogger("threeup.table")


@dataclass
class _RecordWaiting:
    """A finished game's record not beside the journal yet: kept aside in
    the state directory (``aside``), or held by this process alone (None)."""

    number: int  # the table's game number
    record: Record
    aside: Path | None


def _why_not(folder: Path, err: OSError) -> str:
    """Why ``folder`` took no file, in words: what stands where it should
    be, else the system's reason ("No space left on device")."""
    return not_a_directory(folder) or err.strerror or str(err)


def _aside_dir() -> Path | None:
    """Where a record the journal's directory cannot take is kept aside;
    None where the directories have no names (no HOME, and a user the
    password file does not know: platformdirs raises), as a dedicated host
    run as a bare uid has.  It played on, and must still keep its games."""
    try:
        return records_aside_dir()
    except RuntimeError:
        return None


# A table id as threeup makes them (secrets.token_urlsafe): one that could
# name another folder ("..", "a/b", from a table file edited by hand) is none.
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")


def _table_aside_dir(table_id: str) -> Path | None:
    """Where the table ``table_id`` keeps its records aside; None where the
    state directory has no name, or the id could name another folder."""
    folder = _aside_dir()
    if folder is None or not _TABLE_ID.fullmatch(table_id):
        return None
    return folder / table_id


def _stem(journal: Path, number: int) -> str:
    return f"{journal.stem}-{number}"


def _save_new(folder: Path, stem: str, suffix: str, record: Record) -> Path:
    """Save ``record`` in ``folder`` under a new name (``stem.json``, else
    ``stem-2.json``...): where; OSError if it cannot be."""
    while True:
        kept = free_path(folder, stem, suffix)
        try:
            save_record(kept, record, new=True)
            return kept
        except FileExistsError:
            continue  # another program took the name since we looked: the next


class RecordKeeper:
    """One table's finished games' records: ``kept`` lists where each is
    (beside the journal, or aside), in the order the games ended.
    ``tell_host`` says a line to the host's seat, if the table has one."""

    def __init__(
        self, tell_host: Callable[[str], None], table_id: Callable[[], str] = lambda: ""
    ) -> None:
        self.kept: list[Path] = []
        self._waiting: list[_RecordWaiting] = []  # not beside the journal yet
        self._tell_host = tell_host
        # The table's id, read when needed: a resumed table takes its own
        # from its file after this keeper is made.
        self._table_id = table_id
        self._claimed = False  # the records earlier runs kept aside: looked for

    def keep(self, journal: Path, number: int, record: Record) -> tuple[Path | None, bool]:
        """Keep game ``number``'s ``record`` beside ``journal``: where it is
        kept, or None (held by this process alone); and whether a run
        before this one had kept it already (a table resumed at a game's end)."""
        self.keep_waiting(journal)  # an earlier game's first, while it waits
        already = _kept_before(journal, number, record, self._table_id())
        if already is not None:
            if already not in self.kept:
                self.kept.append(already)
            waiting = any(w.aside == already for w in self._waiting)
            if already.parent != journal.parent and not waiting:  # kept aside by a run before
                self._waiting.append(_RecordWaiting(number, record, already))
            return already, True
        try:
            kept = _save_new(journal.parent, _stem(journal, number), journal.suffix, record)
        except OSError as err:
            return self._keep_aside(journal, _RecordWaiting(number, record, None), err), False
        self.kept.append(kept)
        return kept, False

    def _keep_aside(self, journal: Path, waiting: _RecordWaiting, err: OSError) -> Path | None:
        """The journal's directory could not take ``waiting``'s record
        (``err``): keep it aside in the state directory, or hold it here;
        where it is kept, or None.  The host's log says which, and why."""
        self._waiting.append(waiting)
        why = _why_not(journal.parent, err)
        why_not_aside = _save_aside(journal, waiting, self._table_id())
        if waiting.aside is None:
            log.error(
                "could not keep game %d's record beside %s (%s), nor aside (%s): this host "
                "holds it, and tries again as each game ends and as it stops",
                waiting.number, journal, why, why_not_aside,
            )  # fmt: skip
            self._tell_host(
                f"Game {waiting.number}'s record could not be kept beside {journal.name} "
                f"({why}), nor aside ({why_not_aside}): the table holds it until one can"
            )
            return None
        self.kept.append(waiting.aside)
        log.error(
            "could not keep game %d's record beside %s (%s): it is kept in %s instead, "
            "and moved beside the journal when its directory takes files again",
            waiting.number, journal, why, waiting.aside,
        )  # fmt: skip
        self._tell_host(
            f"Game {waiting.number}'s record could not be kept beside {journal.name} ({why}): "
            f"it is in {home_short(waiting.aside)}"
        )
        return waiting.aside

    def keep_waiting(self, journal: Path, last_try: bool = False) -> None:
        """Move each finished game's record kept aside (or held here) beside
        ``journal``, if its directory takes files again; one held here goes
        aside if it can.  ``last_try``: the host is stopping, and the log
        says where each record not beside the journal stays, or that it is
        lost (nowhere could take it)."""
        self._claim_kept_aside(journal)
        waiting_still = []
        for waiting in self._waiting:
            try:
                kept = _save_new(journal.parent, _stem(journal, waiting.number),
                                 journal.suffix, waiting.record)  # fmt: skip
            except OSError as err:
                waiting_still.append(waiting)
                if waiting.aside is None:
                    self._retry_aside(waiting, journal, err, last_try)
                elif last_try:
                    log.warning(
                        "game %d's record stays in %s: %s cannot take it (%s)",
                        waiting.number, waiting.aside, journal.parent,
                        _why_not(journal.parent, err),
                    )  # fmt: skip
                continue
            if waiting.aside is None:
                self.kept.append(kept)
            else:
                self.kept[self.kept.index(waiting.aside)] = kept
                with contextlib.suppress(OSError):
                    waiting.aside.unlink()
            log.info("game %d's record is beside the journal now: %s", waiting.number, kept)
        self._waiting = waiting_still

    def _claim_kept_aside(self, journal: Path) -> None:
        """Once: take on the records this table's earlier runs kept aside
        (its host stopped, and was resumed), to be moved beside ``journal``
        now if its directory takes them, else as a later game ends or the
        host stops."""
        if self._claimed:
            return
        self._claimed = True
        folder = _table_aside_dir(self._table_id())
        if folder is None:
            return
        try:
            found = sorted(folder.iterdir())
        except OSError:
            return  # none kept aside, or none to read: they stay where they are
        claimed = []
        for path in found:
            number = _game_number(path.name, journal)
            if number is None or any(w.aside == path for w in self._waiting):
                continue
            try:
                record = load_record(path)
            except MalformedRecord:
                continue  # not a record of ours (changed by hand): left as it is
            if _holding(journal.parent, journal, number, record) is not None:
                # Moved beside the journal by the run before, which stopped
                # before it removed this copy: a second would be made there.
                with contextlib.suppress(OSError):
                    path.unlink()
                continue
            claimed.append(_RecordWaiting(number, record, path))
        claimed.sort(key=lambda waiting: waiting.number)
        for waiting in claimed:
            log.info(
                "game %d's record, kept aside by this table before it was resumed, is in %s",
                waiting.number, waiting.aside,
            )  # fmt: skip
        self._waiting[:0] = claimed
        earlier = [w.aside for w in claimed if w.aside is not None and w.aside not in self.kept]
        self.kept[:0] = earlier  # games that ended before this run's

    def _retry_aside(
        self, waiting: _RecordWaiting, journal: Path, err: OSError, last_try: bool
    ) -> None:
        """A record held here alone, the journal's directory still refusing
        it: the state directory again; on the last try, said lost if not."""
        why_not_aside = _save_aside(journal, waiting, self._table_id())
        if waiting.aside is None:
            if last_try:
                log.error(
                    "game %d's record is lost: neither %s (%s) nor aside (%s) could take it",
                    waiting.number, journal.parent, _why_not(journal.parent, err), why_not_aside,
                )  # fmt: skip
            return
        self.kept.append(waiting.aside)
        log.warning(
            "game %d's record is kept in %s now (%s still cannot take it: %s)",
            waiting.number, waiting.aside, journal.parent, _why_not(journal.parent, err),
        )  # fmt: skip


def _game_number(name: str, journal: Path) -> int | None:
    """The game whose record the file ``name``, kept aside in this table's
    folder, holds: by the journal's names (``party-3.json``, ``party-3-2.json``
    for a name taken), else by an earlier journal's of this table
    (``old-3.json``): a host resumed with ``--record`` moving its journal
    elsewhere (a directory that takes no file) claimed none of those, and
    they stayed aside for ever, against the log's word that they would be
    moved beside the journal.  Without the earlier journal's name a
    ``-2`` for a name taken reads as the game's number: that record goes
    beside the journal all the same, under a number of its own.  None for
    a file of no game (a write never finished, ``.party-1.json.XXXXXXXX``)."""
    ours = re.fullmatch(
        rf"{re.escape(journal.stem)}-(\d+)(?:-\d+)?{re.escape(journal.suffix)}", name
    )
    earlier = ours or re.fullmatch(r"[^.].*-(\d+)\.json", name)
    return None if earlier is None else int(earlier.group(1))


def _save_aside(journal: Path, waiting: _RecordWaiting, table_id: str) -> str | None:
    """Keep ``waiting``'s record in the state directory, in the folder of
    the table ``table_id`` (``aside`` says where): None once it is kept,
    else why not, in words naming where."""
    if _aside_dir() is None:
        return "no home directory to name the state directory by"
    folder = _table_aside_dir(table_id) or _aside_dir()
    assert folder is not None
    try:
        waiting.aside = _save_new(folder, _stem(journal, waiting.number), journal.suffix,
                                  waiting.record)  # fmt: skip
    except OSError as err:
        return f"{folder}: {_why_not(folder, err)}"
    return None


def _kept_before(journal: Path, number: int, record: Record, table_id: str) -> Path | None:
    """Game ``number``'s record, if one beside the journal (or kept aside in
    the state directory, by this table or, loose, by an older threeup)
    holds it already: a table resumed at the end of a game finds the one
    its first run kept."""
    for folder in (journal.parent, _table_aside_dir(table_id), _aside_dir()):
        kept = None if folder is None else _holding(folder, journal, number, record)
        if kept is not None:
            return kept
    return None


def _holding(folder: Path, journal: Path, number: int, record: Record) -> Path | None:
    """The file in ``folder`` by game ``number``'s names that holds ``record``."""
    wanted = json.loads(json.dumps(record.to_json()))  # as a file reads back
    for kept in numbered_paths(folder, _stem(journal, number), journal.suffix):
        if not os.path.lexists(kept):
            break
        with contextlib.suppress(MalformedRecord):
            if read_json(kept) == wanted:
                return kept
    return None
