"""A card tile and a face-down slot: the things a player clicks.

On small terminals a tile is one line (``R7``, ``▒1▒``); on roomy ones it
is drawn as a card (see :mod:`.card_art`): a bordered face with its rank
large, a patterned back, or, in a fanned row, the strip a covered card
shows.  The cursor's card has a heavy border, a selected card a tick (and
a double border, away from the cursor), so neither rests on colour; a
one-line tile is underlined under the cursor, reversed and ticked when
selected.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from textual.content import Content
from textual.events import Click
from textual.message import Message
from textual.widget import Widget

from ..text import MUTED, card_label, colour_class
from .card_art import CARD_W, STRIP_W, back_lines, face_lines, gone_lines

COMPACT_W = 5


@dataclass(frozen=True)
class TileSpec:
    """What one tile shows: a card code, or a face-down slot (``code`` None)."""

    code: str | None
    slot: int = -1  # the face-down slot number, for a face-down tile
    selected: bool = False
    cursor: bool = False
    playable: bool = False
    dimmed: bool = False
    present: bool = True  # a face-down slot still holds a card
    why: str = ""  # why a dimmed card cannot be played (its tooltip)


@lru_cache(maxsize=2048)
def tile_content(spec: TileSpec, strip: bool = False) -> Content:
    """The card drawn for a roomy terminal, as one Content (cards repeat: cached)."""
    return Content("\n").join(tile_lines(spec, strip))


def tile_lines(spec: TileSpec, strip: bool = False) -> list[Content]:
    """The card drawn for a roomy terminal."""
    # The cursor's border even on a selected card (whose tick still says so):
    # with the selection's, the cursor there showed by colour alone.
    border = "cursor" if spec.cursor else "selected" if spec.selected else "plain"
    # The accent's text colour: its label is read on the accent's muted
    # background, where the accent itself faded out in light themes.
    frame = "bold $text-accent" if (spec.selected or spec.cursor) else ""
    if spec.code is None:
        if not spec.present:
            return gone_lines()
        lines = back_lines(str(spec.slot + 1), border, MUTED, frame or MUTED)
        return [line[:STRIP_W] for line in lines] if strip else lines
    return face_lines(spec.code, border, "✓" if spec.selected else "", "", strip, frame)


@lru_cache(maxsize=2048)
def compact_content(spec: TileSpec) -> Content:
    """The one-line tile of a small terminal."""
    if spec.code is None:
        # Face-down: the slot number is the name players use (f then 1-3).
        return Content(f"▒{spec.slot + 1}▒" if spec.present else " · ")
    # The tick makes selection visible without colour (NO_COLOR, mono).
    mark = "✓" if spec.selected else ""
    return Content(mark + card_label(spec.code))


class CardTile(Widget):
    """One card (or one face-down slot) in a row of tiles.

    A tile only reports clicks; what a click means (select, play, flip) is the
    screen's decision, made from the view.
    """

    @dataclass
    class Clicked(Message):
        tile: CardTile
        chain: int  # 2 for a double click

    def __init__(self, zone: str, index: int, spec: TileSpec) -> None:
        super().__init__(id=f"{zone}-{index}", classes="card")
        self.zone = zone
        self.index = index
        self.spec = spec
        self.strip = False  # covered by the next card of a fanned row
        self._apply(spec)

    def show(self, spec: TileSpec) -> None:
        if spec != self.spec:
            self.spec = spec
            self._apply(spec)

    def set_strip(self, strip: bool) -> None:
        if strip != self.strip:
            self.strip = strip
            self._apply(self.spec)

    def _apply(self, spec: TileSpec) -> None:
        wanted = {"card"}
        if spec.code is not None:
            wanted.add(colour_class(spec.code))
        else:
            wanted.add("face-down")
        if self.strip:
            wanted.add("-strip")
        for flag, name in (
            (spec.selected, "-selected"),
            (spec.cursor, "-cursor"),
            (spec.playable, "-playable"),
            (spec.dimmed, "-dimmed"),
            (not spec.present, "-gone"),
        ):
            if flag:
                wanted.add(name)
        if wanted != set(self.classes):
            self.set_classes(wanted)  # one restyle for all the changes
        why = spec.why or None
        if self.tooltip != why:
            self.tooltip = why
        # Tiles have a fixed size: a repaint, no layout pass for a new face.
        self.refresh()

    def render(self) -> Content:
        if self.screen.has_class("-roomy"):
            return tile_content(self.spec, self.strip)
        return compact_content(self.spec)

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self, event.chain))


def tile_width(widget: Widget) -> int:
    """Cells one tile takes in ``widget``'s screen (roomy screens draw cards)."""
    return CARD_W if widget.screen.has_class("-roomy") else COMPACT_W
