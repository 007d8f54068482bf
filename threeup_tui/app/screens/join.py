"""Join a table: tables found on the LAN, or an address typed in."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, Checkbox, Footer, Header, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from ...addresses import AddressError, bracketed_port, parse_address, show_address
from ...launcher import NO_NAME, JoinSettings
from ...names import same_name
from ...textclean import plural
from ..messages import JoinCancelled, JoinRequested
from ..text import MUTED, clean, cut_at_word, fit_parts, plain
from ..widgets.line import InOrderInput
from ..widgets.tickbox import TickBox

LOOKING = "Looking for tables…"
# The host's refusal of a newcomer at a table with no seat free (table.TABLE_FULL).
TABLE_FULL = "the table is full"
NONE_HEARD = "No table heard yet: type the host's address (its lobby shows it)."


@dataclass
class TablesFound(Message):
    """The tables LAN discovery hears now (the whole list, each time it changes)."""

    announcements: list[Any]
    snapshot: bool  # the whole list (else one more table)


def announcement_address(ann: Any) -> str:
    address = getattr(ann, "address", None)
    if isinstance(address, str) and address:
        return clean(address, 80)
    host, port = getattr(ann, "host", None), getattr(ann, "port", None)
    return clean(f"{host}:{port}" if port else host or "", 80)


# The least a table's name is cut to before the row drops words instead.
LEAST_NAME = 10


def announcement_prompt(ann: Any, kept: Sequence[str] = (), width: int | None = None) -> Content:
    """One found table in a line; every field is untrusted.  ``kept``: the
    names this account keeps a seat under there (its seat waits).

    In ``width`` cells the row stays one line: it wrapped at 80 columns for
    a long table name, or with two kept names.  Its words step down first
    ("3/3 free", "code"), then the table's name is cut at a word with "…",
    then the kept names.  Past that, the seats and then the address go (a
    "…" says so): the list joins the table picked, whatever it shows."""
    name = getattr(ann, "name", None) or getattr(ann, "table_name", None) or "a table"
    full_name = plain(name, "bold", 32)
    names = [full_name]
    for cells in range(full_name.cell_length - 1, LEAST_NAME - 1, -1):
        shorter = cut_at_word(full_name, cells)
        if shorter.plain != names[-1].plain:
            names.append(shorter)
    parts: list[list[Content]] = [names]
    if kept:
        # "playing" read as no way in for a player whose own seat waits
        # there (their app closed, their terminal lost).  Next to the name:
        # at the line's end, a "…" for a word gone after it read as a name cut.
        words = f"your seat{'s' if len(kept) > 1 else ''}: "
        seat_names = ", ".join(clean(name, 16) for name in kept)
        yours = Content.assemble((words, "bold"), plain(seat_names, "bold", 40))
        forms = [yours]
        for cells in range(yours.cell_length - 1, len(words) + 4, -1):
            shorter = cut_at_word(yours, cells, sep=" ,")
            if shorter.plain != forms[-1].plain:
                forms.append(shorter)
        parts.append(forms)
    address = len(parts)
    parts.append([Content.styled(announcement_address(ann), MUTED)])
    order: list[int] = []  # the parts' steps down, in turn (then the rest, the last first)
    drop = []  # the parts that go first, past their shortest forms
    free, seats = getattr(ann, "free_seats", None), getattr(ann, "seats", None)
    started = getattr(ann, "started", False)
    # Bold, not the warning colour: on the list's highlighted row that
    # colour all but vanished in many themes.
    playing = Content.styled("playing", "bold")
    if isinstance(free, int) and isinstance(seats, int):
        # A table whose game has begun seats no newcomer: its free seats are
        # no way in, and its seat count is the first to go for room.
        if started:
            parts.append([Content(f"{seats} seats  ") + playing, playing])
        else:
            parts.append(
                [Content(f"{free} of {seats} seats free"), Content(f"{free}/{seats} free")]
            )
        order.append(len(parts) - 1)
    elif started:
        parts.append([playing])
    if getattr(ann, "code_required", False):
        # Asked for on joining: the first word to go.
        parts.append([Content("code needed"), Content("code")])
        order.append(len(parts) - 1)
        drop.append(len(parts) - 1)
    # The code, the seats, then the address: the name and the kept seat stay.
    drop = [*drop, *range(len(parts) - 1, address, -1), address]
    order += [0] * (len(names) - 1)
    if width is None:
        return Content("  ").join(forms[0] for forms in parts)
    drop = list(dict.fromkeys(drop))
    row = fit_parts(parts, width, sep="  ", order=order, drop=drop)
    whole = [f"{form.plain}…" for form in parts[1][:1]] if kept else []
    if whole and row.plain.endswith(whole[0]):
        # The words after the kept seat went: "your seat: Ann…" read as a
        # name cut.  A gap before the "…" says it is the rest of the row.
        spaced = fit_parts(parts, width - 2, sep="  ", order=order, drop=drop)
        if spaced.plain.endswith(whole[0]):
            row = spaced[:-1] + Content.styled("  …", MUTED)
    return row


class TableList(OptionList):
    """The tables found, a row each, fitted to the list's width."""

    class Resized(Message):
        """The list's width changed (the terminal's, or a scroll bar came)."""

    def on_resize(self) -> None:
        self.post_message(self.Resized())


class JoinScreen(Screen[None]):
    """Focus starts where the hint is: on the tables found, when there is a
    list (typing an address there goes to the address field), else in the
    address field.  ``autojoin`` joins the given address at once."""

    BINDINGS = [Binding("escape", "back", "Back")]
    AUTO_FOCUS = None  # chosen in on_mount
    # Tables announce themselves every second: this long without one, the
    # list is not about to fill, and the player is told what else to do.
    NONE_HEARD_AFTER = 5.0

    def __init__(
        self,
        settings: JoinSettings | None = None,
        discover: Callable[[], AsyncIterator[Any]] | None = None,
        # discover() yields the list of tables heard (or one table at a time)
        autojoin: bool = False,
        # kept_at(HOST:PORT, table id): the names a seat is kept under there
        kept_at: Callable[[str, str | None], list[str]] | None = None,
    ) -> None:
        super().__init__(id="join-screen")
        self.initial = settings or JoinSettings(address="")
        self.discover = discover
        self.autojoin = autojoin and bool(self.initial.address)
        self.found: dict[str, Any] = {}
        self.kept_at = kept_at
        self.kept: dict[str, list[str]] = {}  # by address: the names a seat waits under
        self.seat_name: str | None = None  # a name filled in for a kept seat: not remembered
        self.joining: str | None = None  # the address being joined, while waiting
        self._port_meant: str | None = None  # fd00::2:5000: the word on the port it may mean
        self._joining_since = 0.0
        self._ticker: Timer | None = None
        self._rows_fitted_to: int | None = None  # the width the list's rows fit

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="join-form", classes="form"):
            yield Static(Content.styled("Join a table", "bold"), classes="form-title")
            if self.discover is not None:
                # Wrapped where narrow: a Label is as wide as its words, and at
                # 40 columns "join):" went past the form's edge unmarked.
                yield Static("Tables on this network (↑ ↓, ⏎ to join):", id="found-label")
                yield TableList(id="found")
                yield Static(LOOKING, id="found-status")
            with Horizontal(classes="field"):
                yield Label("Address")
                yield InOrderInput(
                    self.initial.address,
                    placeholder="HOST[:PORT]",
                    id="join-address",
                    compact=True,
                    # Typing on the list of tables lands here: keep what was typed.
                    select_on_focus=False,
                )
            with Horizontal(classes="field"):
                yield Label("Your name")
                yield InOrderInput(self.initial.name, id="join-name", max_length=24, compact=True)
            with Horizontal(classes="field"):
                yield Label("Room code")
                yield InOrderInput(
                    self.initial.code or "",
                    placeholder="if the table has one",
                    id="join-code",
                    password=True,
                    compact=True,
                )
            yield TickBox(
                "Only watch (a spectator, no seat)",
                self.initial.watch,
                id="join-watch",
                compact=True,
            )
            yield Static(id="join-error", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Join", id="join", variant="success", compact=True)
                yield Button("Back", id="back", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        if self.discover is not None:
            self.listen()
            self.set_timer(self.NONE_HEARD_AFTER, self._none_heard)
        if self.discover is not None and not self.initial.address:
            self.query_one("#found", OptionList).focus()
        else:
            self.query_one("#join-address", Input).focus()
        if self.autojoin:
            self.join(remember=False)  # the command line's name is for this run

    def on_key(self, event: events.Key) -> None:
        # Typing on the list of tables types the address instead.
        found = self.query("#found")
        if found and found.first().has_focus and event.is_printable and event.character:
            # Not typed here: the app types it into the line that has the
            # keys, in its turn among the keys (InOrderInput).
            self.set_focus(self.query_one("#join-address", Input))
            event.prevent_default()

    @work(exclusive=True, group="discover")
    async def listen(self) -> None:
        """Post every announcement the launcher hears, until the screen goes."""
        assert self.discover is not None
        try:
            async for heard in self.discover():
                if isinstance(heard, list):
                    self.post_message(TablesFound(heard, snapshot=True))
                else:
                    self.post_message(TablesFound([heard], snapshot=False))
        except Exception as err:  # discovery is a convenience: the form still works
            self.query_one("#found-status", Static).update(
                plain(f"LAN discovery is not available: {err}")
            )

    def _none_heard(self) -> None:
        """On a network with no table (or one whose announcements do not
        reach here) "Looking for tables…" stayed for ever: say what else to do."""
        if self.found:
            return
        status = self.query_one("#found-status", Static)
        if str(status.content) == LOOKING:
            status.update(Content.styled(NONE_HEARD, MUTED))

    @on(TablesFound)
    def tables_found(self, event: TablesFound) -> None:
        heard = {announcement_address(a): a for a in event.announcements}
        heard.pop("", None)
        if not event.snapshot:
            heard = {**self.found, **heard}
        if heard == self.found:
            return
        self.found = heard
        self.kept = {addr: self._kept_names(addr, a) for addr, a in heard.items()}
        found = self.query_one("#found", OptionList)
        highlighted = found.highlighted
        found.clear_options()
        width = self._rows_fitted_to = self._row_width()
        found.add_options(
            Option(announcement_prompt(a, self.kept[addr], width), id=addr)
            for addr, a in heard.items()
        )
        self.call_after_refresh(self._fit_rows)
        if heard:
            # A highlighted table from the start: ⏎ joins it, as the hint says.
            found.highlighted = 0 if highlighted is None else min(highlighted, len(heard) - 1)
        count = len(heard)
        self.query_one("#found-status", Static).update(
            f"{plural(count, 'table')} found" if count else LOOKING
        )

    def _row_width(self) -> int | None:
        """The cells a row of the list has (None: not laid out yet)."""
        found = self.query_one("#found", OptionList)
        padding = found.get_component_styles("option-list--option").padding
        width = found.scrollable_content_region.width - padding.width
        return width if width > 0 else None

    def _fit_rows(self) -> None:
        """Each table's row fitted again to the list's width, if it changed."""
        found = self.query("#found")
        width = self._row_width() if found else None
        if width is None or width == self._rows_fitted_to:
            return
        self._rows_fitted_to = width
        tables = found.first(OptionList)
        for index, (addr, announcement) in enumerate(self.found.items()):
            prompt = announcement_prompt(announcement, self.kept.get(addr, []), width)
            tables.replace_option_prompt_at_index(index, prompt)
        # A scroll bar shown for the rows as they were (two lines for one)
        # goes with the new rows and gives back its cells, with no Resize.
        self.call_after_refresh(self._fit_rows)

    @on(TableList.Resized)
    def _list_resized(self) -> None:
        self._fit_rows()

    @on(OptionList.OptionSelected, "#found")
    def found_chosen(self, event: OptionList.OptionSelected) -> None:
        self.join_table(event.option.id or "")

    def _kept_names(self, address: str, announcement: Any) -> list[str]:
        table_id = getattr(announcement, "table_id", None)
        if self.kept_at is None or not isinstance(table_id, str):
            return []
        try:
            return self.kept_at(address, table_id)
        except (OSError, RuntimeError):  # the state directory: the list goes on without it
            return []

    def join_table(self, address: str) -> None:
        """Join a table of the list (asking first for its room code, if it
        needs one), under the name its seat waits for if it keeps one."""
        self.query_one("#join-address", Input).value = address
        kept = self.kept.get(address, [])
        name = self.query_one("#join-name", Input)
        if len(kept) == 1 and not same_name(name.value.strip(), kept[0]):
            # The seat is the token's, and the token is kept under the name
            # the player sat as: under another they were a newcomer, "the
            # table is full".  That name is for this join, not kept.  (With
            # seats under two names, a --bot's too, the player types which.)
            name.value = self.seat_name = kept[0]
        if getattr(self.found.get(address), "code_required", False) and not (
            self.query_one("#join-code", Input).value
        ):
            self.query_one("#join-code", Input).focus()
            self.notify("This table needs a room code", timeout=3)
            return
        self.join()

    def _highlighted_table(self) -> str | None:
        """The address of the table highlighted in the list, if any."""
        found = self.query("#found")
        if not found:
            return None
        tables = found.first(OptionList)
        if tables.highlighted is None or not self.found:
            return None
        return tables.get_option_at_index(tables.highlighted).id

    def settings(self) -> JoinSettings:
        return JoinSettings(
            address=self.query_one("#join-address", Input).value.strip(),
            name=clean(self.query_one("#join-name", Input).value, 24) or NO_NAME,
            code=self.query_one("#join-code", Input).value or None,
            watch=self.query_one("#join-watch", Checkbox).value,
        )

    @on(Button.Pressed, "#join")
    @on(Input.Submitted)
    def join_pressed(self) -> None:
        self.join()

    def join(self, remember: bool = True) -> None:
        """Ask to join; ``remember``: keep the form's name for the next run."""
        settings = self.settings()
        remember = remember and settings.name != self.seat_name
        self._port_meant = None
        picked = self._highlighted_table() if not settings.address else None
        if picked:
            # A name typed and ⏎ (or Join) with a table highlighted and no
            # address: that table, as ⏎ on the list joins it.  It said
            # "type the host's address, or pick a table" to a player who
            # had just picked one, highlighted before their eyes.
            self.join_table(picked)
            return
        if not settings.address:
            self.show_error("type the host's address (HOST or HOST:PORT), or pick a table")
            self.query_one("#join-address", Input).focus()
            return
        try:
            host, port = parse_address(settings.address)
        except AddressError as err:
            self.show_error(str(err))
            self.query_one("#join-address", Input).focus()
            return
        self.joining = show_address(host, port)
        # Said on the command line too, but there only once the app has gone
        # (and here in short: "Joining [fd00::2:5000]:47823" says the rest).
        self._port_meant = bracketed_port(settings.address)
        self._joining_since = time.monotonic()
        self._show_joining()
        if self._ticker is None:
            self._ticker = self.set_interval(1.0, self._show_joining)
        self.post_message(JoinRequested(settings, remember))

    def _show_joining(self) -> None:
        if self.joining is None:
            return
        # Rounded: the ticker may fire a hair before the second is up, and
        # int() would then show each count a second late.
        waited = round(time.monotonic() - self._joining_since)
        self.query_one("#join-error", Static).update(
            Content.assemble(
                (f"Joining {self.joining}… ", "bold"),
                (
                    "waiting for the table to answer" + (f" ({waited} s)" if waited else ""),
                    MUTED,
                ),
                ("\nEsc stops trying.", MUTED),
                (self._port_meant_line(), MUTED),
            )
        )

    def _port_meant_line(self) -> str:
        """The word on a port the address may mean, as a line of its own."""
        hint = self._port_meant
        return f"\n{hint[:1].upper()}{hint[1:]}" if hint else ""

    def _stop_joining(self) -> None:
        self.joining = None
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None

    def show_error(self, error: str) -> None:
        self._stop_joining()
        watch = self.query_one("#join-watch", Checkbox)
        if TABLE_FULL in error and not watch.value:
            # A fifth friend at a table of four: the form can still seat
            # them as a spectator, and said nothing of it.
            error += "; tick “Only watch” to watch the game"
        self.query_one("#join-error", Static).update(
            Content.assemble(plain(f"Could not join: {error}"), (self._port_meant_line(), MUTED))
        )
        if "room code" in error:
            # A wrong (or missing) room code: the fix is typed there, and
            # the focus stayed on the address that was joined from.
            code = self.query_one("#join-code", Input)
            code.focus()
            code.select_all()

    @on(Button.Pressed, "#back")
    def action_back(self) -> None:
        if self.joining is not None:  # Esc while waiting stops the attempt, stays here
            self.post_message(JoinCancelled())
            self._stop_joining()
            self.query_one("#join-error", Static).update(Content.styled("Stopped joining.", MUTED))
            return
        self.dismiss(None)
