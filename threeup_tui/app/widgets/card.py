"""A card tile and a face-down slot: the things a player clicks."""

from __future__ import annotations

from dataclasses import dataclass

from textual.content import Content
from textual.events import Click
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from ..text import card_label, colour_class


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


_STATE_CLASSES = ("-selected", "-cursor", "-playable", "-dimmed", "-gone", "c-R", "c-G", "c-B")


class CardTile(Static):
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
        self._apply(spec)

    def show(self, spec: TileSpec) -> None:
        if spec != self.spec:
            self.spec = spec
            self._apply(spec)

    def _apply(self, spec: TileSpec) -> None:
        wanted = set()
        if spec.code is not None:
            wanted.add(colour_class(spec.code))
        for flag, name in (
            (spec.selected, "-selected"),
            (spec.cursor, "-cursor"),
            (spec.playable, "-playable"),
            (spec.dimmed, "-dimmed"),
            (not spec.present, "-gone"),
        ):
            if flag:
                wanted.add(name)
        for name in _STATE_CLASSES:
            self.set_class(name in wanted, name)
        self.set_class(spec.code is None, "face-down")
        # Tiles have a fixed size: no layout pass needed for a new face.
        self.update(self._content(spec), layout=False)

    @staticmethod
    def _content(spec: TileSpec) -> Content:
        if spec.code is None:
            # Face-down: the slot number is the name players use (f then 1-3).
            return Content(f"▒{spec.slot + 1}▒" if spec.present else " · ")
        # The tick makes selection visible without colour (NO_COLOR, mono).
        mark = "✓" if spec.selected else ""
        return Content(mark + card_label(spec.code))

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self, event.chain))


def tile_width(widget: Widget) -> int:
    """Cells one tile takes in ``widget``'s screen (roomy screens draw borders)."""
    return 8 if widget.screen.has_class("-roomy") else 5
