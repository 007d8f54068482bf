"""A wrapping row of card tiles that is updated in place.

Tiles are reused by position, so a repaint after a move touches a few
widgets instead of remounting the whole hand (the per-move budget is 30 ms).

On a roomy terminal the tiles are drawn as cards.  When the cards do not
fit side by side, the row fans them like a hand held in play: each card
shows its labelled strip under the next, and the last of each line shows
whole.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.containers import Container
from textual.events import Resize

from .card import CardTile, TileSpec, tile_width
from .card_art import CARD_W, STRIP_W


def fan_columns(width: int, count: int) -> int:
    """Cards per line of a fan ``width`` cells wide (strips, then one whole card)."""
    most = max(1, (width - CARD_W) // STRIP_W + 1)
    lines = -(-count // most)
    return max(1, -(-count // lines))  # as even as the lines allow


class CardRow(Container):
    """Tiles for one zone ("hand", "up", "down", "setup"), wrapped on a grid."""

    def __init__(self, zone: str, *, id: str | None = None, classes: str = "") -> None:
        super().__init__(id=id or zone, classes=f"card-row {classes}".strip())
        self.zone = zone
        self._specs: list[TileSpec] = []
        # Surplus tiles are hidden, never removed: a tile removed and another
        # mounted with its id in the same frame would clash, and reuse is cheaper.
        self._tiles: list[CardTile] = []
        self.fanned = False

    @property
    def tiles(self) -> list[CardTile]:
        """The tiles in use, in order."""
        return self._tiles[: len(self._specs)]

    @property
    def specs(self) -> list[TileSpec]:
        return list(self._specs)

    def show(self, specs: Sequence[TileSpec]) -> None:
        specs = list(specs)
        if specs == self._specs:
            return
        resized = len(specs) != len(self._specs)
        self._specs = specs
        tiles = self._tiles
        for tile, spec in zip(tiles, specs, strict=False):
            tile.show(spec)
        if len(specs) > len(tiles):
            new = [
                CardTile(self.zone, i, spec)
                for i, spec in enumerate(specs[len(tiles) :], start=len(tiles))
            ]
            tiles.extend(new)
            self.mount_all(new)
        for tile in tiles[: len(specs)]:
            if not tile.display:
                tile.display = True
        for tile in tiles[len(specs) :]:
            if tile.display:
                tile.display = False
        self.set_class(not specs, "-empty")
        if resized:
            self.relayout()

    def relayout(self) -> None:
        """Wrap tiles: as many grid columns as fit the row (fanned if need be)."""
        width = self.size.width
        if not width:
            return
        step = tile_width(self) + 1
        columns = max(1, (width + 1) // step)
        count = len(self._specs)
        roomy = self.screen.has_class("-roomy")
        fanned = roomy and count > columns
        if fanned:
            columns = fan_columns(width, count)
            spec = f"{' '.join([str(STRIP_W)] * (columns - 1))} {CARD_W}".strip()
        else:
            spec = str(step - 1)
        self.fanned = fanned
        self.set_class(fanned, "-fanned")
        if self.styles.grid_size_columns != columns:
            self.styles.grid_size_columns = columns
        self.styles.grid_columns = spec
        for i, tile in enumerate(self._tiles):
            # Covered by the card to its right: every card but a line's last.
            tile.set_strip(fanned and i % columns != columns - 1)

    def on_resize(self, event: Resize) -> None:
        self.relayout()
