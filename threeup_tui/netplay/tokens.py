"""Seat tokens a client keeps, per table id and player name, in the user state directory.

A seat belongs to the token it was taken with.  The client makes a token
the first time it sits at a table under a name, and keeps it in
``seats.json`` in the state directory (``platformdirs.user_state_dir``, or
``THREEUP_STATE_DIR``), so that ``threeup join HOST --name Tia`` from any
terminal of the same account, after a crash of the client or of the host,
sends the same token and gets Tia's seat back.  No terminal is part of the
key: two terminals that join as Tia are one player, and the newer session
takes the seat over.

The file::

    {"format": "threeup-seats/1",
     "tables": {TABLE_ID: {"address": "HOST:PORT", "names": {NAME: TOKEN},
                           "shown": {NAME: GIVEN}, "seats": {NAME: SEAT}}},
     "addresses": {"HOST:PORT": TABLE_ID}}

NAME is the name case-folded, GIVEN as typed (for words), SEAT the seat
number (from 0) the host gave the token: the host tells a name already
seated apart ("Ann (2)"), so the name alone does not say which seat is
the token's.  ``shown`` and ``seats`` came later: an entry without them
is still read (its seat is then looked for by name), and an older
threeup reads a file with them.

How a client that knows only an address finds its token: the host sends
its table id in every ACCEPT, and the client notes which table it reached
at which address.  Joining HOST:PORT again, it looks the table id up by the
address, then the token by table id and name.  A token is only ever sent
to the address its table was first reached at (trust on first use, as SSH
does with host keys): a table id is not a proof, since anyone can claim
one, and a token sent to an impostor would let it take the seat.  So a
table that comes back at another address is, to this client, another
table there (its ACCEPT's id is kept as ``ID@HOST:PORT``), and the player
sits down anew.

A file that cannot be read as this store (damaged, hand-edited, from
another version) gives no tokens, and is kept aside as ``seats.json.bad``
before the next token is written, so the tokens it may still hold are not
lost; the player is told where it went.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..names import clean_name
from ..paths import confined_guest
from ..paths import state_dir as state_dir  # where sshdoor.py finds it too
from ..recordfile import json_of, locked, read_text, set_aside, write_atomic

log = logging.getLogger("threeup.tokens")

FORMAT = "threeup-seats/1"
MAX_TABLES = 200  # the oldest tables are forgotten first


def new_token() -> str:
    return secrets.token_hex(16)


def name_key(name: str) -> str:
    """Names as the host seats them: the same cleaning, so "Tia " is Tia."""
    return clean_name(name, "player").casefold()


@dataclass(frozen=True)
class KeptSeat:
    """A name this account sat under at a table, and the seat its token
    holds there (None: kept by a threeup that did not note it)."""

    name: str
    seat: int | None


def _seat_number(kept: object) -> int | None:
    """A seat number read from the file, or None: a hand-edited one points
    at a seat at most (the host goes by the token), and anything but a
    whole number from 0 (``true``, ``-1``, ``"2"``) points nowhere."""
    return kept if type(kept) is int and kept >= 0 else None


def _table_in(data: dict[str, Any], address: str) -> dict[str, Any]:
    """What the store ``data`` keeps of the table last reached at ``address``."""
    table_id = data["addresses"].get(address)
    table = data["tables"].get(table_id) if isinstance(table_id, str) else None
    if not isinstance(table, dict) or table.get("address") != address:
        return {}
    return table


def _tokens_in(table: dict[str, Any]) -> dict[str, Any]:
    """A kept table's name keys and their tokens."""
    names = table.get("names")
    return names if isinstance(names, dict) else {}


def _given_names(table: dict[str, Any]) -> list[str]:
    """A kept table's names as they were given (cleaned; a file from before
    names were kept as given: case-folded), the newest name last."""
    shown = table.get("shown")
    given = shown if isinstance(shown, dict) else {}
    return [
        name if isinstance(name := given.get(key), str) and name_key(name) == key else key
        for key in _tokens_in(table)
    ]


class TokenStore:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or state_dir() / "seats.json"

    def _load(self) -> dict[str, Any]:
        return self._read()[0]

    def _read(self) -> tuple[dict[str, Any], bool]:
        """The store, and whether a file is there that is not one (damaged,
        or from another version): ``remember`` keeps such a file aside
        rather than write over the tokens it may still hold."""
        data: Any = None
        unusable = False
        try:
            data = json_of(read_text(self.path), self.path)
        except FileNotFoundError:
            data = {"format": FORMAT}
        except (OSError, ValueError):  # MalformedRecord and UnicodeDecodeError are ValueErrors
            unusable = True
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            data = {}  # start afresh
            unusable = True
        tables = data.get("tables")
        addresses = data.get("addresses")
        store = {
            "format": FORMAT,
            "tables": tables if isinstance(tables, dict) else {},
            "addresses": addresses if isinstance(addresses, dict) else {},
        }
        return store, unusable

    def _table_at(self, address: str) -> dict[str, Any]:
        """What is kept of the table last reached at ``address``."""
        return _table_in(self._load(), address)

    def token_for(self, address: str, name: str) -> str | None:
        """The kept token for ``name`` at the table last reached at ``address``."""
        token = _tokens_in(self._table_at(address)).get(name_key(name))
        return token if isinstance(token, str) and 16 <= len(token) <= 128 else None

    def seats_kept(self, address: str, table_id: str) -> list[KeptSeat]:
        """The names of :meth:`names_at`, each with the seat its token holds,
        only if the table last reached at ``address`` is ``table_id``: names
        kept for an older table that ran there hold no seat at this one."""
        data = self._load()  # once: the join list asks at every change it hears
        if data["addresses"].get(address) not in (table_id, f"{table_id}@{address}"):
            return []
        table = _table_in(data, address)
        numbers = table.get("seats")
        seats = numbers if isinstance(numbers, dict) else {}
        return [
            KeptSeat(name, _seat_number(seats.get(name_key(name)))) for name in _given_names(table)
        ]

    def names_at(self, address: str) -> list[str]:
        """The names this account has sat under at the table last reached at
        ``address``, as they were given (cleaned; a file from before names
        were kept as given: case-folded), the newest name last."""
        return _given_names(self._table_at(address))

    def remember(
        self, address: str, name: str, table_id: str, token: str, seat: int | None = None
    ) -> str | None:
        """After an ACCEPT from ``address`` naming ``table_id``: keep ``token``
        as ``name``'s token there, and ``seat``, the seat the host gave it
        (None: not known, and no seat number kept).  Nothing is kept if the
        file cannot be written (no state directory): the seat then lasts for
        this run.
        Returns a line for the player when a file that could not be read was
        moved aside (the seats it held cannot be taken back by themselves)."""
        if confined_guest():
            return None  # an SSH door guest writes nothing on the host's disk
        told = None
        with contextlib.suppress(OSError), locked(self.path):
            data, unusable = self._read()
            tables, addresses = data["tables"], data["addresses"]
            key = table_id
            known = tables.get(key)
            if isinstance(known, dict) and known.get("address") != address:
                key = f"{table_id}@{address}"  # the id is known elsewhere: not trusted here
                known = tables.get(key)
            if not isinstance(known, dict) or not isinstance(known.get("names"), dict):
                known = {"address": address, "names": {}}
            known["names"][name_key(name)] = token
            if not isinstance(known.get("shown"), dict):
                known["shown"] = {}
            known["shown"][name_key(name)] = clean_name(name, "player")  # as given, for words
            seats = known.get("seats")
            seats = seats if isinstance(seats, dict) else {}
            if seat is not None and seat >= 0:
                seats[name_key(name)] = seat
            else:  # not known: a number kept before may have been another token's
                seats.pop(name_key(name), None)
            if seats:
                known["seats"] = seats
            else:
                known.pop("seats", None)
            tables.pop(key, None)
            tables[key] = known  # the most recently used table last
            addresses[address] = key
            for old in list(tables)[:-MAX_TABLES]:
                del tables[old]
            for where, kept in list(addresses.items()):
                if kept not in tables:
                    del addresses[where]
            if unusable and self.path.exists():
                aside = set_aside(self.path)
                log.warning("%s could not be read; kept as %s", self.path, aside)
                told = (
                    f"Your seats file {self.path} could not be read; it is kept as "
                    f"{aside.name}, and your seats at other tables must be taken anew"
                )
            write_atomic(self.path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        return told
