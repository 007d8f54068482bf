"""One opponent's pane: name, presence, hand size, face-up, face-down, known cards."""

from __future__ import annotations

from dataclasses import dataclass

from textual.content import Content
from textual.widgets import Static

from ...client import SeatSlot
from ...rules import SeatInfo
from ..session import presence
from ..text import cards_content

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


@dataclass(frozen=True)
class OpponentInfo:
    info: SeatInfo
    name: str  # cleaned
    slot: SeatSlot | None
    to_act: bool
    phase: str
    place: int | None  # 1-based finishing place (finish: places)


def _place(n: int) -> str:
    return ORDINALS.get(n, f"{n}th")


class OpponentPane(Static):
    """A compact one-line row on small terminals, a box on roomy ones."""

    def __init__(self, seat: int) -> None:
        super().__init__(id=f"opp-{seat}", classes="opponent")
        self.seat = seat
        self._shown: tuple[OpponentInfo, bool] | None = None

    def show(self, data: OpponentInfo, roomy: bool) -> None:
        if self._shown == (data, roomy):
            return
        self._shown = (data, roomy)
        self.set_class(data.to_act, "-to-act")
        self.set_class(data.info.out, "-out")
        self.set_class(
            data.slot is not None and data.slot.kind == "human" and not data.slot.connected, "-away"
        )
        self.update(self.render_info(data, roomy), layout=False)  # fixed height by CSS

    @staticmethod
    def render_info(data: OpponentInfo, roomy: bool) -> Content:
        info = data.info
        symbol, word = presence(data.slot)
        marker = ("▶ ", "bold $text-accent") if data.to_act else ("  ", "")
        head = Content.assemble(
            marker,
            (data.name, "bold"),
            (f" {symbol} {word}" if word else "", "$text-muted"),
        )
        if info.out:
            status = Content.styled(
                f"OUT ({_place(data.place)})" if data.place else "OUT", "bold $text-success"
            )
            return Content("\n" if roomy else " ").join([head, status])
        if data.phase == "setup":
            status = Content("ready ✓" if info.ready else "choosing…")
            return Content("\n" if roomy else " │ ").join([head, status])
        down = "▒" * info.face_down_count or "-"
        hand = Content(f"hand {info.hand_size:>2}")
        up = Content.assemble("up ", cards_content(info.face_up))
        downs = Content(f"down {down}")
        known = Content.assemble("known ", cards_content(info.known)) if info.known else None
        if roomy:
            lines = [head, Content("  ").join([hand, downs]), up]
            if known is not None:
                lines.append(known)
            return Content("\n").join(lines)
        parts = [head, hand, up, downs]
        if known is not None:
            parts.append(known)
        return Content(" │ ").join(parts)
