"""Find text cut without a sign on a screen.

Two checks, for every widget that draws text:

- what it draws fits its box: its content, wrapped at the box's width as
  Textual wraps it, needs no more lines than the box has (else the last
  lines are cropped without a word);
- what the terminal shows in its box is what it draws: every word drawn is
  on screen and every word on screen was drawn whole (a word cut by the
  screen's edge, by a neighbour or by something drawn over it shows up as
  a word that was never drawn, or as a drawn word that is missing).

A word may end with "…": that is the sign that something was left out.
Widgets inside a scrolling pane are only checked for the first (a pane
shows the part scrolled to, by design); so is the chat's text.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual.app import App
from textual.containers import ScrollableContainer
from textual.content import Content
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Footer, Input
from textual.widgets._footer import FooterKey

from threeup_tui.app.widgets.card import CardTile
from threeup_tui.app.widgets.status import StatusBar

BOX_CHARS = set("─│╭╮╰╯┌┐└┘┄┆═║╔╗╚╝━┃┏┓┗┛▔▁▏▕▌▐▊▎█▀▄")


def screen_lines(app: App[object]) -> list[str]:
    strips = app.screen._compositor.render_strips()
    return [strip.text for strip in strips]


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


def _in_scroller(widget: Widget) -> bool:
    node = widget.parent
    while isinstance(node, Widget):
        if isinstance(node, ScrollableContainer) and (
            node.max_scroll_y > 0 or node.max_scroll_x > 0
        ):
            return True
        node = node.parent
    return False


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
    """Every place where text is cut without a sign, in words."""
    problems: list[str] = []
    lines = screen_lines(app)
    screen = Region(0, 0, app.size.width, app.size.height)
    for widget in text_widgets(app):
        content = drawn(widget)
        if content is None or not content.plain.strip():
            continue
        region = widget.content_region
        name = f"{type(widget).__name__}#{widget.id}"
        wrapped = content.wrap(region.width)
        if len(wrapped) > region.height:
            lost = " ".join(line.plain for line in wrapped[region.height :])
            problems.append(f"{name}: lines past its box: {lost!r}")
        footer = isinstance(widget, FooterKey)  # a footer key is cut by the footer's end
        if (_in_scroller(widget) and not footer) or widget.id == "chat-text":
            continue
        shown = screen.intersection(region)
        if shown != region:
            problems.append(f"{name}: partly off screen ({region} on {screen})")
            continue
        seen = " ".join(lines[y][region.x : region.right] for y in range(region.y, region.bottom))
        meant = " ".join(line.plain for line in wrapped[: region.height])
        on_screen, drawn_words = words(seen), words(meant)
        for word in on_screen:
            if word not in drawn_words and not word.endswith("…"):
                problems.append(f"{name}: {word!r} on screen is not a whole word of {meant!r}")
        missing = [w for w in drawn_words if w not in on_screen]
        if missing:
            problems.append(f"{name}: {missing} drawn but not on screen (covered?)")
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
