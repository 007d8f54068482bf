"""Your games: wins and places by opponents and by players, the streak, and
every game, newest first (⏎ replays one): the newest LAST_GAMES first, then
a page at a time as the cursor nears the list's end.  Read from the history
in worker threads."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import NamedTuple

from rich.cells import cell_len
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from ...bots import BOT_LEVELS
from ...client.results import MAX_BOT_LEVEL
from ...history import LAST_GAMES, FinishedGame, History, HistoryError, Stats, Tally
from ...pendinggames import add_pending_games, line_severity, pending_games
from ...textclean import ordinal, plural
from ..messages import ReplayRequested
from ..text import MUTED, clean, fit_parts

VENUES = {"bots": "here", "host": "hosted", "join": "joined"}
# The Against column's widest words: at 13, the seven columns of Last games
# fit an 80-column terminal, "greedy+expert" with them.
AGAINST_WIDTH = 13
LOOK_AGAIN = 2.0  # seconds between looks for a change while the screen is open
# Games read at a time past the first LAST_GAMES, as the cursor comes within
# half of that of the list's end: a history of thousands is never read whole
# to open the screen, and every game is still reached.
MORE_GAMES = 100
# On the way to the oldest (End), pages this many times larger: 5,000 games
# took 4.3 s in pages of 100 (benchmarks/your_games.py).
TO_THE_OLDEST = 10

# What the files looked like when the screen read them: the history's
# (modified, size), and the games kept aside.  Another change is news.
Look = tuple[tuple[int, int] | None, tuple[Path, ...]]


@dataclass
class StatsLoaded(Message):
    stats: Stats | None
    error: str | None = None
    # Games kept aside while the history could not be written: added now,
    # or still waiting (how many), and a pending file set aside.
    notes: tuple[str, ...] = ()
    waiting: int = 0
    look: Look | None = None  # the files as they were read
    unchanged: bool = False  # looked again, and nothing had changed: nothing read
    # Read again while open: every game down to this id's (those shown).
    down_to: int | None = None
    widths: Widths | None = None  # the columns' widths over stats.last


@dataclass
class MoreGamesLoaded(Message):
    """A page of older games, read as the cursor neared the list's end."""

    before: int  # the id of the oldest game shown when they were asked for
    games: tuple[FinishedGame, ...]
    widths: Widths | None
    complete: bool  # no game is older than these
    error: str | None = None


def record_words(record: str | None, short: bool = False) -> str:
    """The record column: what Enter does with the game's record (``short``:
    "⏎" alone, as the title says "⏎ replays").  A record deleted since is
    told as such here, not only once Enter is pressed."""
    if not record:
        return ""
    if not record_there(record):
        return "gone"
    return "⏎" if short else "⏎ replay"


def record_there(record: str) -> bool:
    """Whether the record file is there.  Path.is_file() raises for a path
    it cannot look at (a directory on the way of mode 000: Permission
    denied), which ended the app with a traceback as the list was drawn."""
    try:
        return Path(record).is_file()
    except OSError:
        return False  # told as gone; Enter says so in the same words


def against_words(game: FinishedGame, width: int = AGAINST_WIDTH) -> str:
    """The Against column: the history's one word (a bot level, "people"),
    and for "mixed" whom it mixed, if that fits the column: "greedy+expert",
    "people+greedy".  A table of several bot levels read "mixed", which did
    not say which bots were met.  The stored word stays (the tallies group
    by it), and a longer list ("random+greedy+expert") stays "mixed"."""
    if game.opponents != "mixed":
        return clean(game.opponents, width)
    met: set[str] = set()
    for i, seat in enumerate(game.seats):
        if i == game.my_seat:
            continue
        if seat.kind != "bot":
            met.add("people")
        if seat.kind == "bot" or seat.bot_finished:
            # A network bot's level is the host's word: untrusted text.
            met.add(clean(seat.bot_level, MAX_BOT_LEVEL) or "bots")
    known = ["people", *BOT_LEVELS]  # people first, then the bots weakest first
    ordered = sorted(met, key=lambda k: (known.index(k) if k in known else len(known), k))
    words = "+".join(ordered)
    return words if cell_len(words) <= width else "mixed"


def result_words(game: FinishedGame) -> str:
    words = _result(game)
    mine = game.seats[game.my_seat] if 0 <= game.my_seat < len(game.seats) else None
    # Your seat played to its end by the bot while you were gone or away
    # (D17): yours, and counted, but not as if you had played it all.
    return f"{words} (bot)" if mine is not None and mine.bot_finished else words


def _result(game: FinishedGame) -> str:
    if game.won:
        return "won"
    if game.place is not None:
        return ordinal(game.place)
    return "stalemate" if game.stalemate else "lost"


def streak_words(streak: int) -> str:
    if streak > 0:
        return f"won the last {streak}" if streak > 1 else "won the last game"
    if streak < 0:
        return f"lost the last {-streak}" if streak < -1 else "lost the last game"
    return "none yet"


def summary(stats: Stats) -> Content:
    total = stats.total
    return Content.assemble(
        (plural(total.games, "game"), "bold"),
        f" · {total.wins} won ({total.win_rate:.0%})",
        " · streak: ",
        (streak_words(stats.streak), "bold"),
        f" · best: {stats.best_streak} won in a row",
    )


# Where the tallies fit: two side by side with their places (37 columns
# each) from 80 columns, without them (24 each) from 54; and only from 20
# lines, else they pushed the last games, title and all, off the screen.
PLACES_WIDTH = 80
TALLIES_WIDTH = 54
TALLIES_HEIGHT = 20
# Under those, the tallies in two lines (compact_tallies) from 16 lines: at
# 60x18 the tables hid and nothing said how the games went against whom.
# Under 16, three of the last games come first.
COMPACT_HEIGHT = 16


def compact_tallies(stats: Stats, width: int) -> Content:
    """The tallies in two lines of ``width`` cells, wins of games played:
    ``Won against greedy 3/5 · random 2/2``, ``Won with 2 players 2/2 ·
    3: 1/2``; a line too long ends with "…" after its last whole entry."""
    against = [f"{clean(t.label, AGAINST_WIDTH)} {t.wins}/{t.games}" for t in stats.by_opponents]
    # "Won with 2 players 2/2 · 3: 1/2": the word once.
    players = [f"{t.label}: {t.wins}/{t.games}" for t in stats.by_players]
    if players:
        first = stats.by_players[0]
        players[0] = f"{first.label} players {first.wins}/{first.games}"
    lines = []
    for head, entries in (("Won against", against), ("Won with", players)):
        if entries:
            parts = [[Content(f"{head} {entries[0]}")], *([Content(e)] for e in entries[1:])]
            lines.append(fit_parts(parts, width))
    return Content("\n").join(lines)


def tally_table(
    title: str, tallies: tuple[Tally, ...], label: str = "{}", with_places: bool = True
) -> Content:
    """A small table of text (37 columns, two fit side by side at 80): games,
    wins, the win rate, and how often each place (1st·2nd·...); without the
    places, 24 columns."""
    places = max((len(t.places) for t in tallies), default=0) if with_places else 0
    # Up to three places fit the 37 columns; past them the 1st and 2nd, and
    # "…", in the heading and in every row alike (the rows once listed all
    # six, and each broke over two lines at 80 columns).
    shown = places if places <= 3 else 2
    names = [ordinal(p) for p in range(1, shown + 1)] + (["…"] if shown < places else [])
    head = f"{title:<9} {'games':>5} {'won':>3} {'rate':>4}"
    if places:
        head += "  " + "·".join(names)
    lines = [Content.styled(head, "bold")]
    for t in tallies:
        row = f"{clean(label.format(t.label), 9):<9} {t.games:>5} {t.wins:>3} {t.win_rate:>4.0%}"
        if places:
            counts = [str(t.places[p] if p < len(t.places) else 0) for p in range(shown)]
            row += "  " + "·".join(counts + (["…"] if shown < places else []))
        lines.append(Content(row))
    return Content("\n").join(lines)


# The last games' columns.  Where they do not all fit, the table scrolled
# sideways and its edge cut a column in two ("Wher" and "join" at 60x18,
# "M" and "1" of 109 at 50x16): the date loses its year first, then the
# columns go whole, least needed first, then the date loses its time, and
# last the Against column says "mixed" for a mix ("greedy+expert" cut the
# Record column to "⏎ rep" at 40 columns), and the Record column "⏎" (a
# "lost (bot)" or a "stalemate" still pushed it past 40 columns).
COLUMNS = ("When", "Players", "Against", "Result", "Moves", "Where", "Record")
LEFT_OUT_FIRST = ("Where", "Moves", "Players")
WHEN_FORMS = ("%Y-%m-%d %H:%M", "%m-%d %H:%M", "%m-%d")
NARROW_AGAINST = len("Against")  # "mixed", "people", a bot level: no wider than the heading
CELL_PADDING = 2  # a DataTable's cell: one blank each side
SCROLL_BAR = 2  # the table's, when the games are more than its lines


class Layout(NamedTuple):
    """How the last games show: the When form, the columns, the Against
    column's width, and whether the Record column says "⏎" alone."""

    when: str
    columns: tuple[str, ...]
    against: int = AGAINST_WIDTH
    short_record: bool = False


def row_cells(game: FinishedGame, layout: Layout | None = None) -> dict[str, str]:
    """A game's row of the last games, by column."""
    layout = layout or Layout(WHEN_FORMS[0], COLUMNS)
    return {
        "When": game.finished_at.astimezone().strftime(layout.when),
        "Players": str(game.players),
        "Against": against_words(game, layout.against),
        "Result": result_words(game),
        "Moves": str(game.moves),
        "Where": VENUES.get(game.venue, clean(game.venue, 8)),
        "Record": record_words(game.record, layout.short_record),
    }


def all_layouts() -> tuple[Layout, ...]:
    """Every layout, the widest first."""
    columns: tuple[str, ...] = COLUMNS
    layouts = [Layout(WHEN_FORMS[0], columns), Layout(WHEN_FORMS[1], columns)]
    for left_out in LEFT_OUT_FIRST:
        columns = tuple(c for c in columns if c != left_out)
        layouts.append(Layout(WHEN_FORMS[1], columns))
    layouts.append(Layout(WHEN_FORMS[2], columns))
    layouts.append(Layout(WHEN_FORMS[2], columns, NARROW_AGAINST))
    layouts.append(Layout(WHEN_FORMS[2], columns, NARROW_AGAINST, short_record=True))
    return tuple(layouts)


LAYOUTS = all_layouts()
# Each layout's columns, each as wide as its widest cell or its heading.
Widths = dict[Layout, dict[str, int]]


def column_widths(games: Sequence[FinishedGame], before: Widths | None = None) -> Widths:
    """The columns' widths in every layout over ``games`` and the games
    measured in ``before``: a page of older games added to the list is
    measured alone (in the worker that read it), not the thousands above it."""
    widths: Widths = {}
    for layout in LAYOUTS:
        known = before.get(layout) if before else None
        widest = dict(known) if known else {column: cell_len(column) for column in layout.columns}
        for game in games:
            cells = row_cells(game, layout)
            for column in layout.columns:
                widest[column] = max(widest[column], cell_len(cells[column]))
        widths[layout] = widest
    return widths


def joined_widths(first: Widths, second: Widths) -> Widths:
    """The widths over the games of both."""
    return {
        layout: {column: max(first[layout][column], second[layout][column]) for column in widest}
        for layout, widest in first.items()
    }


def table_width(widths: Widths, layout: Layout) -> int:
    """The cells the last games take in ``layout``: each column, and its padding."""
    return sum(widths[layout][column] + CELL_PADDING for column in layout.columns)


def table_layout(widths: Widths, width: int) -> Layout:
    """The layout that shows the last games whole in ``width`` cells; the
    narrowest, if even it does not fit."""
    return next((lay for lay in LAYOUTS if table_width(widths, lay) <= width), LAYOUTS[-1])


def title_words(position: int, total: int, width: int) -> str:
    """The list's title: where the cursor is among all your games (the list
    holds the newest and grows as the cursor goes down), in ``width``."""
    forms = (
        f"Game {position} of {total}, newest first (↑ ↓ End, ⏎ replays)",
        f"Game {position} of {total} (↑ ↓ End, ⏎ replays)",
        f"{position}/{total} (End, ⏎ replays)",
        f"{position}/{total} (⏎ replays)",
    )
    return next((form for form in forms if cell_len(form) <= width), forms[-1])


class GamesTable(DataTable[str]):
    """The last games: Home goes to the newest, End to the oldest of all
    (not only of those read yet; a plain table's Home and End scroll
    sideways, which this one never needs)."""

    BINDINGS = [
        Binding("home,ctrl+home", "scroll_top", "Newest", show=False),
        # Said in the list's title, not the footer: at 40 columns the
        # footer's "End Oldest" cut "r Replay" to "r Rep".
        Binding("end,ctrl+end", "screen.oldest", "Oldest", show=False),
    ]

    def action_cursor_down(self) -> None:
        screen = self.screen
        if (
            self.cursor_row >= self.row_count - 1
            and isinstance(screen, StatsScreen)
            and screen.owe_a_row()
        ):
            return  # taken as the page in flight comes in
        super().action_cursor_down()


class StatsScreen(Screen[None]):
    DEFAULT_CSS = """
    #stats-body { padding: 0 1; height: 1fr; }
    #stats-summary { height: auto; margin: 1 0; }
    #stats-tallies { height: auto; margin-bottom: 1; }
    #stats-tallies Static { width: 1fr; max-width: 44; height: auto; margin-right: 2; }
    #stats-compact { margin-bottom: 1; display: none; }
    #last-title { height: 1; color: $text-muted; }
    #last-games { height: 1fr; }
    """
    BINDINGS = [
        Binding("escape,q", "close", "Back"),
        Binding("r", "replay", "Replay"),
    ]
    AUTO_FOCUS = "#last-games"

    def __init__(self, history: History) -> None:
        super().__init__(id="stats-screen")
        self.history = history
        self.games: dict[str, FinishedGame] = {}
        self.stats: Stats | None = None
        # What was read last (None: not yet), and whether it failed: then
        # every look tries again (a lock let go changes no file).
        self._look: Look | None = None
        self._failed = False
        self._reading = False
        self._told_unreadable = 0
        self._layout: Layout | None = None  # the last games' columns, as shown
        self._widths: Widths = column_widths(())  # their widths over self.games
        self._all_read = False  # no game is older than those in self.games
        self._reading_more = False
        self._to_the_oldest = False  # End pressed: the cursor follows the pages in
        self._more_trouble: str | None = None  # the last page's error, told once
        # ↓ pressed at the last row read while older games are on their way:
        # the cursor goes on by as many once they come (owe_a_row).
        self._rows_owed = 0

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="stats-body"):
            yield Static(Content.styled("Reading your games…", MUTED), id="stats-summary")
            with Horizontal(id="stats-tallies"):
                yield Static(id="by-opponents")
                yield Static(id="by-players")
            yield Static(id="stats-compact")
            yield Static("Last games (↑ ↓, ⏎ replays)", id="last-title")
            yield GamesTable(id="last-games", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Your games"
        self._start_reading()
        if self.history.enabled:
            # Read once, "N kept aside" stayed as it was while the screen was
            # open: a game kept aside since (by this app or another of the
            # account), or the history free again and the games added.
            self.set_interval(LOOK_AGAIN, self._look_again)
        # The mouse wheel at the list's end reads more too, as the cursor does.
        self.watch(self.query_one(DataTable), "scroll_y", self._scrolled, init=False)

    def _start_reading(self) -> None:
        self._reading = True
        self.run_worker(partial(self._read, self._oldest_shown()), thread=True, group="stats")

    def _look_again(self) -> None:
        if not self._reading:
            self._reading = True
            down_to = self._oldest_shown()
            self.run_worker(partial(self._read_if_changed, down_to), thread=True, group="stats")

    def _oldest_shown(self) -> int | None:
        """The id of the oldest game in the list (None: none yet)."""
        return next(reversed(self.games.values())).id if self.games else None

    def _read_if_changed(self, down_to: int | None) -> None:
        """In a worker thread: read again if the files changed since."""
        if self._failed or self._files_now() != self._look:
            self._read(down_to)
        else:
            self.post_message(StatsLoaded(None, unchanged=True))

    def _files_now(self) -> Look:
        try:
            status = self.history.path.stat()
            there: tuple[int, int] | None = (status.st_mtime_ns, status.st_size)
        except OSError:
            there = None
        return there, tuple(pending_games())

    def _read(self, down_to: int | None) -> None:
        """In a worker thread: a locked file waits a moment without freezing
        the app.  The last games as far as the list has gone (``down_to``),
        with what they measure: thousands of rows measured on the app's
        thread held up its keys."""
        notes = tuple(add_pending_games(self.history))
        look = self._files_now()  # before reading: a change from now on is read next time
        # Games the history cannot take yet (a full disk, a read-only one,
        # a lock): said beside what it shows, which leaves them out.
        waiting = len(pending_games()) if self.history.enabled else 0
        try:
            stats = self.history.stats(down_to=down_to)
        except HistoryError as err:
            self.post_message(StatsLoaded(None, str(err), notes, waiting, look))
        else:
            widths = column_widths(stats.last)
            self.post_message(
                StatsLoaded(stats, None, notes, waiting, look, down_to=down_to, widths=widths)
            )

    def _read_more(self, before: int, count: int) -> None:
        """In a worker thread: the page of games older than ``before``'s."""
        try:
            games = self.history.games(count, before=before)
        except HistoryError as err:
            self.post_message(MoreGamesLoaded(before, (), None, False, str(err)))
        else:
            complete = len(games) < count
            self.post_message(MoreGamesLoaded(before, tuple(games), column_widths(games), complete))

    @on(StatsLoaded)
    def loaded(self, message: StatsLoaded) -> None:
        self._reading = False
        if message.unchanged:
            return
        self._look = message.look
        # Read again at each look while the history cannot be read, or
        # cannot take the games kept aside: a disk freed changes no file.
        self._failed = message.stats is None or message.waiting > 0
        top = self.query_one("#stats-summary", Static)
        for note in message.notes:
            self.notify(note, severity=line_severity(note), markup=False, timeout=8)
        kept_aside = (
            f"{plural(message.waiting, 'finished game')} kept aside,"
            " added when the history can be written"
        )
        if message.stats is None:
            error = message.error or "Your games cannot be read"
            if message.waiting:
                error += f"\n{kept_aside}"
            top.update(Content.styled(error, "$text-error"))
            return
        stats = message.stats
        if stats.unreadable and stats.unreadable != self._told_unreadable:
            # Rows changed by hand or by another program: said, not hidden
            # (once, not again at each look while the screen is open).
            self._told_unreadable = count = stats.unreadable
            self.notify(
                f"Your games: {plural(count, 'game')} in {self.history.path} cannot be read:"
                f" {'it is' if count == 1 else 'they are'} not counted; the file is left as it is",
                severity="warning",
                markup=False,
                timeout=10,
            )
        if not stats.total.games:
            # Not "No finished games yet" while games wait to be counted:
            # a full disk left the history empty, and they read as lost.
            if message.waiting:
                top.update(Content.styled(f"None counted yet: {kept_aside}", "$text-warning"))
            else:
                top.update(
                    "No finished games yet: play one from the start screen, and it is counted here."
                )
            self.query_one("#last-title").display = False
            self.query_one(DataTable).display = False
            return
        top.update(
            Content.assemble(summary(stats), "\n", (kept_aside, "$text-warning"))
            if message.waiting
            else summary(stats)
        )
        self.query_one("#last-title").display = True  # hidden while there were none
        self.stats = stats
        self._show_tallies()
        table = self.query_one(DataTable)
        table.display = True
        # Read again while open: the cursor stays on the game it was on.
        chosen = self._chosen_key() if table.row_count else None
        games = list(stats.last)
        widths = message.widths or column_widths(games)
        if message.down_to is None:
            self._all_read = len(games) < LAST_GAMES
        else:
            # A page of older games that came in while this was read stays.
            older = [g for g in self.games.values() if (g.id or 0) < message.down_to]
            games += older
            widths = joined_widths(widths, column_widths(older))
        self.games = {str(game.id): game for game in games}
        self._widths = widths
        self._fill_table(chosen)
        self.refresh_bindings()

    @on(MoreGamesLoaded)
    def more_loaded(self, message: MoreGamesLoaded) -> None:
        self._reading_more = False
        if message.error is not None:
            # A locked history: said once, not at each key at the list's
            # end; the next key there tries again.
            if message.error != self._more_trouble:
                self.notify(message.error, severity="warning", markup=False, timeout=6)
            self._more_trouble = message.error
            self._to_the_oldest = False
            self._rows_owed = 0  # told the history is locked: not moved later, unasked
            return
        self._more_trouble = None
        if message.before != self._oldest_shown() or message.widths is None:
            self._read_more_near_the_end()  # the list was read again since: ask again
            return
        self._all_read = message.complete
        new = {str(game.id): game for game in message.games if str(game.id) not in self.games}
        self.games.update(new)
        self._widths = joined_widths(self._widths, message.widths)
        table = self.query_one(DataTable)
        if self._fitted_layout() != self._layout:
            self._fill_table(self._chosen_key() if table.row_count else None)
        else:
            self._add_rows(new)
        owed, self._rows_owed = self._rows_owed, 0
        if self._to_the_oldest:
            table.move_cursor(row=table.row_count - 1, animate=False)
        elif owed:
            goal = table.cursor_row + owed
            table.move_cursor(row=min(goal, table.row_count - 1), animate=False)
            self._rows_owed = max(goal - (table.row_count - 1), 0)  # a page shorter than owed
        self._show_title()
        self._read_more_near_the_end()

    def _fitted_layout(self) -> Layout:
        # The screen's padding (stats-body: 0 1) and the table's scroll bar.
        return table_layout(self._widths, self.size.width - 2 - SCROLL_BAR)

    def _fill_table(self, chosen: str | None) -> None:
        """The last games, in the columns that fit the screen's width (the
        cursor on the game ``chosen``, if it is there)."""
        table = self.query_one(DataTable)
        self._layout = layout = self._fitted_layout()
        table.clear(columns=True)
        for column in layout.columns:
            table.add_column(column, key=column)
        self._add_rows(self.games)
        if chosen in self.games:
            table.move_cursor(row=table.get_row_index(chosen), animate=False)
        self._show_title()

    def _add_rows(self, games: dict[str, FinishedGame]) -> None:
        table = self.query_one(DataTable)
        layout = self._layout or self._fitted_layout()
        for key, game in games.items():
            cells = row_cells(game, layout)
            table.add_row(*(cells[column] for column in layout.columns), key=key)

    def _show_title(self) -> None:
        table = self.query_one(DataTable)
        if not table.row_count:
            return
        total = max(self.stats.total.games if self.stats else 0, len(self.games))
        width = max(self.size.width - 2, 1)  # the screen's padding
        words = title_words(table.cursor_row + 1, total, width)
        self.query_one("#last-title", Static).update(Content(words))

    @on(DataTable.RowHighlighted)
    def row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        table = self.query_one(DataTable)
        # A key up from the end (not a page coming in behind an older
        # message) stops End's following the pages in.
        if event.cursor_row == table.cursor_row < table.row_count - 1:
            self._to_the_oldest = False
            self._rows_owed = 0
        self._show_title()
        self._read_more_near_the_end()

    def _scrolled(self) -> None:
        table = self.query_one(DataTable)
        # Not before the rows are laid out: every table "ends" at 0 then.
        if table.max_scroll_y and table.scroll_y >= table.max_scroll_y - table.size.height:
            self._read_more_near_the_end(view=True)

    def _read_more_near_the_end(self, view: bool = False) -> None:
        """Read the next page once the cursor is within half a page of the
        list's end (or, ``view``, the mouse wheel moved the view near it)."""
        table = self.query_one(DataTable)
        if self._all_read or self._reading_more or not self.games:
            return
        # Half a page ahead: keys that come at once (a key held down, PgDn
        # pressed fast) stopped at the last row read while the page was read.
        ahead = max(table.size.height, MORE_GAMES // 2)
        near = view or table.cursor_row >= table.row_count - ahead
        before = self._oldest_shown()
        if near and before is not None:
            self._reading_more = True
            count = MORE_GAMES * (TO_THE_OLDEST if self._to_the_oldest else 1)
            read = partial(self._read_more, before, count)
            self.run_worker(read, thread=True, group="more-games")

    def laid_out(self) -> bool:
        """The last games are in the table, each column as wide as its
        cells.  A table measures its cells when it is next idle: until then
        (a moment, longer on a busy machine) its columns are as wide as their
        headings, "2025" for the date and "⏎ repl" for the record."""
        layout = self._layout
        if not self.games or layout is None:
            return False
        columns = self.query_one(DataTable).ordered_columns
        wanted = self._widths[layout]
        return [str(c.label) for c in columns] == list(layout.columns) and all(
            c.content_width >= wanted[str(c.label)] for c in columns
        )

    def owe_a_row(self) -> bool:
        """↓ at the last row read: whether it is kept for the older games on
        their way (the cursor goes on by one more as they come).  A key held
        down, or sent in a burst, stopped at the last row read while a page
        was read, and the presses past it were lost."""
        if self._all_read or not self.games:
            return False
        self._rows_owed += 1
        self._read_more_near_the_end()  # none on its way (one failed): asked again
        return True

    def action_oldest(self) -> None:
        """End: the oldest game, read a page at a time behind the cursor."""
        table = self.query_one(DataTable)
        if not table.row_count:
            return
        self._to_the_oldest = not self._all_read
        table.move_cursor(row=table.row_count - 1, animate=False)
        self._read_more_near_the_end()

    def on_resize(self) -> None:
        width, height = self.size
        short = height < TALLIES_HEIGHT or width < TALLIES_WIDTH
        self.set_class(short, "-short")
        self.set_class(height < COMPACT_HEIGHT, "-tiny")
        self._show_tallies()
        table = self.query_one(DataTable)
        if self.games and self._fitted_layout() != self._layout:
            self._fill_table(self._chosen_key() if table.row_count else None)
        self._show_title()

    def _show_tallies(self) -> None:
        stats = self.stats
        if stats is None:
            return
        places = self.size.width >= PLACES_WIDTH
        by_opponents = tally_table("against", stats.by_opponents, with_places=places)
        by_players = tally_table("players", stats.by_players, "{} players", with_places=places)
        # The screen's padding (stats-body: 0 1) off the width.
        compact = compact_tallies(stats, max(self.size.width - 2, 1))
        # Its height set, not "auto": updated with the games, the two lines
        # kept the height of the empty line before them until some other
        # change laid the screen out again.
        self.query_one("#stats-compact").styles.height = len(compact.plain.splitlines())
        for id_, content in (
            ("#by-opponents", by_opponents),
            ("#by-players", by_players),
            ("#stats-compact", compact),
        ):
            widget = self.query_one(id_, Static)
            if widget.visual != content:
                widget.update(content)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # "r Replay" only once there is a game to replay: on "No finished
        # games yet" (or a history that cannot be read) the key did nothing.
        return bool(self.games) if action == "replay" else True

    @on(DataTable.RowSelected)
    def row_selected(self, event: DataTable.RowSelected) -> None:
        self._replay(event.row_key.value)

    def action_replay(self) -> None:
        if self.query_one(DataTable).row_count:
            self._replay(self._chosen_key())

    def _chosen_key(self) -> str | None:
        table = self.query_one(DataTable)
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    def _replay(self, key: str | None) -> None:
        game = self.games.get(key or "")
        if game is None:
            return
        if not game.record:
            self.notify("No record of this game: only the host keeps one", timeout=4)
        elif not record_there(game.record):
            self.notify(f"The record is gone: {game.record}", severity="warning", markup=False)
        else:
            self.post_message(ReplayRequested(game.record))

    def action_close(self) -> None:
        self.dismiss(None)
