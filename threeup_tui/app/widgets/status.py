"""The one-line banner at the top of the table: whose turn, what to do."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from ...rules import View
from ...rules.actions import is_play
from ..text import rank_text

SOURCE_WORDS = {
    "hand": "from your hand",
    "face-up": "from your face-up cards",
    "face-down": "a face-down card, blind (f then 1-3)",
}


def turn_words(view: View, names: tuple[str, ...], flip_prompt: bool) -> tuple[str, Content]:
    """(css class, content) for the banner."""
    if view.phase == "over":
        if view.winner is None:
            return "-over", Content.styled("Game over: stalemate, no winner", "bold")
        who = "You win!" if view.winner == view.seat else f"{names[view.winner]} wins"
        return "-over", Content.styled(f"Game over: {who}", "bold")
    if view.phase == "setup":
        return "-waiting", Content("Everyone is choosing face-up cards…")
    if flip_prompt:
        return "-my-turn", Content.styled(
            "Flip which face-down card? Press 1-3 (Esc cancels)", "bold"
        )
    if view.my_turn:
        top = f"onto {rank_text(view.pile[-1])}" if view.pile else "onto an empty pile"
        parts: list[str] = ["YOUR TURN"]
        if view.source in SOURCE_WORDS:
            where = SOURCE_WORDS[view.source]
            parts.append(f"play {where}" + ("" if view.source == "face-down" else f" {top}"))
        if view.extra_discards:
            n = view.extra_discards
            parts.append(f"{n} extra discard{'s' if n > 1 else ''} owed")
        if view.can_draw():
            parts.append("you may draw first")
        if not any(is_play(a) for a in view.legal) and not view.can_flip() and view.can_pickup():
            parts.append("no play: pick up")
        return "-my-turn", Content.styled(" · ".join(parts), "bold")
    if view.to_act is not None:
        who = names[view.to_act] if view.to_act < len(names) else "?"
        return "-waiting", Content.assemble("Waiting for ", (who, "bold"), "…")
    return "-waiting", Content("")


class StatusBar(Static):
    """Your turn (highlighted, with words) or whom the table waits for."""

    def __init__(self) -> None:
        super().__init__(id="status")
        self._key: object = None

    def show(
        self,
        view: View,
        names: tuple[str, ...],
        flip_prompt: bool,
        connection: str,
        detail: str,
    ) -> None:
        key = (
            view.to_act,
            view.phase,
            view.moves_played,
            view.legal,
            flip_prompt,
            connection,
            names,
        )
        if key == self._key:
            return
        self._key = key
        css, words = turn_words(view, names, flip_prompt)
        for name in ("-my-turn", "-waiting", "-over"):
            self.set_class(name == css, name)
        tail = Content.styled(f"  turn {view.turn + 1}", "$text-muted")
        if connection != "connected":
            tail += Content.styled(f"  ⚠ {connection} {detail}".rstrip(), "bold $text-error")
        self.update(words + tail, layout=False)  # always one line
