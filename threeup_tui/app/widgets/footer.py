"""The footer of the game's screens: every key hint shows, at 80 columns too.

Textual's footer drops the hints that do not fit at its right end, without
a sign.  Below ``ROOMY`` columns this one packs its hints closer and leaves
out the command palette's own hint (ctrl+p still opens it, and the help
says so), which is what lets a table's nine keys fit at 80 columns.  Still
narrower, it leaves out hints before its last two (help and leave, on a
table), so those two always show: the help lists every key.  Which hints
go first is the screen's to say (``FOOTER_ORDER``: its actions, the most
important first); a key it does not list goes before any it does, the
rightmost first.  The set-up's "⏎ Lay face up", the rightmost before help,
went first at 40 columns, under a button that said it.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.events import Resize
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

ROOMY = 100
KEPT_AT_THE_END = 2  # help and leave: the way to every other key, and out


def compact_width(key: FooterKey) -> int:
    """The columns a compact footer gives a key: the key, a space and its
    description, then a margin of one."""
    described = 1 + cell_len(key.description) if key.description else 0
    return cell_len(key.key_display) + described + 1


class KeysFooter(Footer):
    def __init__(self, roomy: int = ROOMY) -> None:
        """``roomy``: the columns from which the footer is Textual's own, the
        palette's hint at its right (a screen of few keys has room for it
        sooner)."""
        super().__init__()
        self.roomy = roomy

    def compose(self) -> ComposeResult:
        grouped = self._bindings_ready and any(
            binding.group is not None and binding.show
            for _node, binding, _enabled, _tip in self.screen.active_bindings.values()
        )
        if not self.compact or grouped:  # a group's keys are composed inside it
            yield from super().compose()
            return
        every = [w for w in super().compose() if isinstance(w, FooterKey)]
        room = (self.size.width or self.app.size.width) + 1  # the last key needs no margin
        keeps = self._keys_kept()
        rank = self._rank()
        keys = list(every)
        while len(keys) > KEPT_AT_THE_END and sum(map(compact_width, keys)) > room:
            droppable = [key for key in keys[:-KEPT_AT_THE_END] if key.action not in keeps]
            if not droppable:
                break
            # The least important; of equals, the rightmost (max keeps the first).
            keys.remove(max(reversed(droppable), key=rank))
        # The room made by a wide key may be more than was needed: a key
        # dropped before it comes back where it fits, the most important
        # first (Play, at a 40-column table that shows "c Chat (2)"; Hint,
        # at a 40-column set-up once "1-6/space Select" made way).
        for key in sorted(every, key=rank):
            if key not in keys and sum(map(compact_width, keys)) + compact_width(key) <= room:
                keys = [k for k in every if k in keys or k is key]
        yield from keys

    def _rank(self) -> Callable[[FooterKey], int]:
        """How unimportant a key is to the screen: its place in the screen's
        ``FOOTER_ORDER``, after every listed one if it is not listed."""
        order: tuple[str, ...] = tuple(getattr(self.screen, "FOOTER_ORDER", ()))

        def rank(key: FooterKey) -> int:
            return order.index(key.action) if key.action in order else len(order)

        return rank

    def _keys_kept(self) -> frozenset[str]:
        """The actions the screen wants in sight however narrow the footer
        is (``footer_keeps()``: the chat's key while it counts lines unread)."""
        keeps = getattr(self.screen, "footer_keeps", None)
        return frozenset(keeps()) if callable(keeps) else frozenset()

    def on_resize(self, event: Resize) -> None:
        self._fit()
        self.call_after_refresh(self.recompose)  # what fits has changed

    def on_mount(self) -> None:
        self._fit()

    def _fit(self) -> None:
        narrow = self.app.size.width < self.roomy
        self.compact = narrow
        self.show_command_palette = not narrow


__all__ = ["KeysFooter"]
