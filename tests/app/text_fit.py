"""Find text cut without a sign on a screen.

Two checks, for every widget that draws text:

- what it draws fits its box: its content, wrapped at the box's width as
  Textual wraps it, needs no more lines than the box has (else the last
  lines are cropped without a word);
- what the terminal shows of its box is what it draws: every word drawn in
  the part of the box on screen is there, and every word there was drawn
  whole (a word cut by the screen's edge, by a neighbour or by something
  drawn over it shows up as a word that was never drawn, or as a drawn
  word that is missing).

"The part of the box on screen" is the box clipped by every container it
sits in (a pane, a dialog, a row) and by the screen.  What that clipping
may take away, and what is a cut:

- sideways, nothing: a box wider than the pane that shows it (a Label as
  wide as its words in a narrow form) loses the words past the pane's
  edge without a sign, so its part outside the pane is a cut, even in a
  pane that scrolls sideways (a footer key past the footer's end);
- above and below, whole lines, when the container scrolls up and down
  (a list scrolled down, the moves log, the hand): that is scrolling, and
  a scrollbar or the keys bring the lines back.  Only the lines in sight
  are read, and they must be whole;
- above and below, by a container that does not scroll (a row one line
  high, a drop-down): a cut, as any.  A container "scrolls" when its
  overflow is auto or scroll and it has somewhere to scroll to.

Only marks count: a blank clipped off (a button's padding) is no cut.
A box scrolled out of sight is read too, from its own lines: scrolled
back into sight, a box wider than its pane would be cut at the side.

A word may end with "…": that is the sign that something was left out.
The chat's text is only checked for the first (it shows its newest lines,
cut at its top on purpose).

The screen is read in cells, as the terminal shows it: a wide character
("王", "👍") takes two, so a box's columns are not its characters' indices
(read by characters, a row after "王小明" was read two cells to the right
per wide character, and its last words were never looked at).  An option
list draws its options by lines of its own: each option's words on screen
must be whole words of that option (an option wrapped inside a word, a
name folded at the list's edge, is a cut).  A DataTable draws by lines of
its own too: each cell in sight is read in its column's cells on screen,
and its words there must be whole words of the cell (a column the table's
edge cuts in two, "Wher" of "Where", is a cut); a column wholly out of
sight sideways is scrolling, as lines above and below are.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual.app import App
from textual.content import Content
from textual.coordinate import Coordinate
from textual.errors import NoWidget
from textual.geometry import Region
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import DataTable, Footer, Input, OptionList
from textual.widgets._footer import FooterKey

from threeup_tui.app.widgets.card import CardTile
from threeup_tui.app.widgets.status import StatusBar

BOX_CHARS = set("─│╭╮╰╯┌┐└┘┄┆═║╔╗╚╝━┃┏┓┗┛▔▁▏▕▌▐▊▎█▀▄")


def screen_strips(app: App[object]) -> list[Strip]:
    return list(app.screen._compositor.render_strips())


def screen_lines(app: App[object]) -> list[str]:
    return [strip.text for strip in screen_strips(app)]


def cells(strip: Strip, left: int, right: int) -> str:
    """The text of cells ``left`` to ``right`` of a line of the screen (a
    wide character half in the span is left out: it is not whole there)."""
    return strip.crop(left, right).text


def region_lines(app: App[object], region: Region) -> list[str]:
    """What the screen shows in ``region``, a line of text per row, read by cells."""
    strips = screen_strips(app)[region.y : region.bottom]
    return [cells(strip, region.x, region.right) for strip in strips]


def drawn(widget: Widget) -> Content | None:
    """What ``widget`` draws, as Content (None: not text)."""
    try:
        out = widget.render()
    except Exception:
        return None
    if isinstance(out, Content):
        return out
    if isinstance(out, str):
        return Content(out)
    if isinstance(out, Text):
        return Content.from_rich_text(out)
    return None


def words(text: str) -> list[str]:
    return [w for w in text.split() if not set(w) <= BOX_CHARS]


def _scrolls_up_and_down(widget: Widget) -> bool:
    """Whether a container ``widget`` sits in scrolls up and down (not the
    screen: what the screen's edge cuts is cut)."""
    return any(_scrolls(node)[1] for node in widget.ancestors if isinstance(node, Widget))


def _scrolls(node: Widget) -> tuple[bool, bool]:
    """Whether ``node`` scrolls (sideways, up and down) and has something to
    scroll to; the screen does not count: what its edge cuts is cut."""
    if isinstance(node, Screen):
        return False, False
    # A container that hides what overflows (a row, a drop-down) has room
    # to scroll too, but nothing scrolls it: it cuts.
    styles = node.styles
    across = styles.overflow_x in ("auto", "scroll") and node.max_scroll_x > 0
    down = styles.overflow_y in ("auto", "scroll") and node.max_scroll_y > 0
    return across, down


def _room(widget: Widget) -> Region:
    """Where ``widget`` may draw and be seen, as its containers place it:
    inside each one's content (its border, padding and scrollbars cut),
    up to the first that scrolls that way (inside it, the box moves with
    the scrolling: a box below the pane's visible part is not cut by the
    pane's parent).  Up and down, a scrolling container cuts nothing."""
    x0, x1, y0, y1 = -(10**6), 10**6, -(10**6), 10**6
    sideways = up_down = True
    for node in widget.ancestors:
        if not isinstance(node, Widget):
            break
        area = node.scrollable_content_region
        across, down = _scrolls(node)
        if sideways:
            x0, x1 = max(x0, area.x), min(x1, area.right)
            sideways = not across
        up_down = up_down and not down
        if up_down:
            y0, y1 = max(y0, area.y), min(y1, area.bottom)
    return Region(x0, y0, max(0, x1 - x0), max(0, y1 - y0))


def _clipped_away(widget: Widget) -> list[str]:
    """What ``widget`` draws outside its :func:`_room` that is lost: any
    mark (not a blank, not a line of a box) in its columns past the room's
    sides or its lines above or below.  Read from the widget's own lines,
    so a box scrolled out of sight is read too (scrolled into sight, it
    would be cut at the side)."""
    box, room = widget.region, _room(widget)
    left, right = max(0, room.x - box.x), max(0, box.right - room.right)
    above, below = max(0, room.y - box.y), max(0, box.bottom - room.bottom)
    if not (left or right or above or below):
        return []
    lost = []
    strips = widget.render_lines(Region(0, 0, box.width, box.height))
    for y, strip in enumerate(strips):
        if y < above or y >= box.height - below:
            hidden = strip.text
        else:
            hidden = strip.crop(0, left).text + " " + strip.crop(box.width - right).text
        if words(hidden):
            lost.append(strip.text.strip())
    return lost


def text_widgets(app: App[object]) -> Iterable[Widget]:
    for widget in app.screen.walk_children(Widget):
        if not widget.display or not widget.visible or widget.children:
            continue
        if isinstance(widget, (Input, Footer)):
            continue  # an input scrolls its own text
        region = widget.content_region
        if region.width <= 0 or region.height <= 0:
            continue
        if any(not a.display or not a.visible for a in widget.ancestors if isinstance(a, Widget)):
            continue
        yield widget


def cut_text(app: App[object]) -> list[str]:
    """Every place where text is cut without a sign, in words (what "cut"
    means where a container clips a box: the module's docstring)."""
    problems: list[str] = []
    lines = screen_strips(app)
    screen = Region(0, 0, app.size.width, app.size.height)
    for widget in text_widgets(app):
        if isinstance(widget, OptionList):
            lost = _clipped_away(widget)
            if lost:
                problems.append(f"OptionList#{widget.id}: clipped to {_room(widget)}: {lost}")
            else:
                problems += _options_cut(app, widget, lines)
            continue
        if isinstance(widget, DataTable):
            problems += _table_cells_cut(app, widget, lines)
            continue
        content = drawn(widget)
        if content is None or not content.plain.strip():
            continue
        region = widget.content_region
        name = f"{type(widget).__name__}#{widget.id}"
        wrapped = content.wrap(region.width)
        if len(wrapped) > region.height:
            lost = " ".join(line.plain for line in wrapped[region.height :])
            problems.append(f"{name}: lines past its box: {lost!r}")
        if widget.id == "chat-text":
            continue
        try:
            clip = app.screen.find_widget(widget).clip.intersection(screen)
        except NoWidget:
            continue  # not placed on the screen at all
        lost = _clipped_away(widget)
        if lost:
            problems.append(f"{name}: clipped by its container to {_room(widget)}: {lost}")
            continue
        top, bottom = max(region.y, clip.y), min(region.bottom, clip.bottom)
        rows = range(top, bottom)  # the box's lines in sight: read them whole
        if not rows:
            continue
        left, right = max(region.x, clip.x), min(region.right, clip.right)
        seen = " ".join(cells(lines[y], left, right) for y in rows)
        meant = " ".join(wrapped[y - region.y].plain for y in rows if y - region.y < len(wrapped))
        on_screen, drawn_words = words(seen), words(meant)
        # Whole words of what it draws, before wrapping: a word wider than
        # the box, folded by the wrapping, shows as two that are none.
        whole = set(words(content.plain))
        for word in on_screen:
            if word not in whole and not word.endswith("…"):
                problems.append(f"{name}: {word!r} on screen is not a whole word of {meant!r}")
        missing = [w for w in drawn_words if w not in on_screen]
        if missing:
            problems.append(f"{name}: {missing} drawn but not on screen (covered?)")
    return problems


def _content_in_sight(app: App[object], widget: Widget) -> tuple[Region, int, int, int, int] | None:
    """A scrolling widget's content region, and the part of it in sight
    (left, right, top, bottom, clipped by its containers); None unshown."""
    try:
        clip = app.screen.find_widget(widget).clip
    except NoWidget:
        return None
    region = widget.scrollable_content_region
    left, right = max(region.x, clip.x), min(region.right, clip.right)
    top, bottom = max(region.y, clip.y), min(region.bottom, clip.bottom)
    return region, left, right, top, bottom


def _options_cut(app: App[object], options: OptionList, lines: list[Strip]) -> list[str]:
    """Where an option list shows part of an option's words: each line of
    the list in sight is a line of one option, and its words on screen must
    be whole words of that option (wrapped inside a word, a long name
    showed "Konstantin" and "ova" on two lines, each drawn as it was)."""
    name = f"OptionList#{options.id}"
    seen = _content_in_sight(app, options)
    if seen is None:
        return []
    region, left, right, top, bottom = seen
    problems = []
    index_lines = options._lines
    for y in range(top, bottom):
        at = options.scroll_offset.y + y - region.y
        if not 0 <= at < len(index_lines):
            continue
        option = options.options[index_lines[at][0]]
        visual = options._get_visual(option)
        prompt = visual.plain if isinstance(visual, Content) else str(option.prompt)
        whole = words(prompt)
        for word in words(cells(lines[y], left, right)):
            if word not in whole and not word.endswith("…"):
                problems.append(f"{name}: {word!r} on screen is not a whole word of {prompt!r}")
    return problems


def _plain(value: object) -> str:
    if isinstance(value, Text):
        return value.plain
    if isinstance(value, Content):
        return value.plain
    return str(value)


def _table_cells_cut(app: App[object], table: DataTable[object], lines: list[Strip]) -> list[str]:
    """Where a DataTable shows part of a cell: for each cell in sight, its
    column's cells on screen (scrolled as the table is) must hold whole
    words of the cell and, where the column is wholly in sight, all of
    them.  The table draws by lines, so the general check read nothing of
    it (a column cut at its edge went unseen).  Row labels and fixed rows
    or columns are not read: no table of the app has them."""
    name = f"DataTable#{table.id}"
    seen = _content_in_sight(app, table)
    if seen is None:
        return []
    region, left, right, top, bottom = seen
    header = table.header_height if table.show_header else 0
    # Each line in sight: the texts of its cells, in column order.
    rows: list[tuple[int, list[str]]] = []
    if header:
        labels = [_plain(column.label) for column in table.ordered_columns]
        rows += [(y, labels) for y in range(region.y, region.y + header) if top <= y < bottom]
    y = region.y + header - round(table.scroll_y)
    for index, row in enumerate(table.ordered_rows):
        cells_of_row = [
            _plain(table.get_cell_at(Coordinate(index, c))) for c in range(len(table.columns))
        ]
        for line in range(row.height):
            if max(top, region.y + header) <= y + line < bottom:
                rows.append((y + line, cells_of_row))
        y += row.height
    problems = []
    x = region.x - round(table.scroll_x)
    for c, column in enumerate(table.ordered_columns):
        width = column.get_render_width(table)
        start, end = x, x + width
        x = end
        if end <= left or start >= right:
            continue  # wholly out of sight sideways: scrolled
        whole_in_sight = start >= left and end <= right
        for y, texts in rows:
            text = texts[c]
            whole = words(text)
            seen = words(cells(lines[y], max(start, left), min(end, right)))
            for word in seen:
                if word not in whole and not word.endswith("…"):
                    problems.append(f"{name}: {word!r} on screen is not a whole word of {text!r}")
            missing = [w for w in whole if w not in seen]
            if whole_in_sight and missing and not any(w.endswith("…") for w in seen):
                problems.append(f"{name}: {missing} of {text!r} not on screen")
    return problems


def footer_keys(app: App[object]) -> list[str]:
    """The footer's key descriptions, as shown."""
    return [drawn(k).plain for k in app.screen.query(FooterKey) if drawn(k) is not None]  # type: ignore[union-attr]


def hidden_cards(app: App[object]) -> list[str]:
    """Every card tile of the table not shown whole, in words.

    A tile pushed past its row's container is clipped by it (or drawn
    under a neighbour such as the moves and chat column): only part of it,
    or none, is on screen although the screen says the card is there.  The
    hand alone may scroll (up and down, by design), so its tiles may be
    clipped above or below but never at the side.
    """
    problems: list[str] = []
    screen = app.screen
    panels = [w.region for w in screen.query("#side") if w.display]
    for tile in screen.query(CardTile):
        if not tile.display or any(not a.display for a in tile.ancestors if isinstance(a, Widget)):
            continue
        geometry = screen.find_widget(tile)
        region, clip = geometry.region, geometry.clip
        name = f"card {tile.zone} {tile.index + 1} at {region}"
        if tile.zone == "hand":
            if region.x < clip.x or region.right > clip.right:
                problems.append(f"{name}: cut at the side (clipped to {clip})")
        elif not clip.contains_region(region):
            problems.append(f"{name}: clipped to {clip}")
        problems += [f"{name}: under the side column {p}" for p in panels if p.overlaps(region)]
    return problems


def banner_cut_words(bar: StatusBar) -> list[str]:
    """Words of the top line cut inside: a word followed by "…" passes
    :func:`cut_text` ("ma…" is "…"-signed), yet the line should shorten by
    its shorter forms and, past them, drop whole words.  Every word shown
    must be a whole word of one of the banner's forms (a name cut short is
    one of its forms), with or without a "…" after it."""
    banner = bar.banner
    if banner is None:
        return []
    forms = [form for part in banner.parts for form in part]
    forms += [banner.connection, banner.clock, f"{banner.watching} watching", f"turn {banner.turn}"]
    end = "…:;,"  # a clause cut off after its word leaves the word whole
    whole = {"·"} | {w.rstrip(end) for form in forms for w in form.split()}
    return [w for w in bar.text.split() if w.rstrip(end) not in whole]
