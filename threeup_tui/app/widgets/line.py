"""A one-line input whose keys take effect in the order they were typed."""

from __future__ import annotations

from textual import events
from textual.widgets import Input


class InOrderInput(Input):
    """An input that types nothing in its own queue: printable keys and
    pastes bubble up to the app, which types them in (ThreeUpApp.on_key,
    on_paste, calling ``type_in``), in the app's queue, where the keys
    bound to the input (Backspace, Enter, arrows...) run too.

    Textual's Input types a letter in its own queue, while a bound key
    goes back up to the app to be run: of keys that arrive together, the
    letters landed before the Backspaces typed ahead of them.  In tmux,
    "BSpace BSpace BSpace K i m" sent at once to the name box showing
    "Ann" (selected, as a box shows its text on opening) typed "Kim" over
    it and then erased it: an empty box; "BSpace J" changed nothing."""

    async def _on_key(self, event: events.Key) -> None:
        if event.is_printable:
            event.prevent_default()  # not Input's typing: up to the app, in its turn
            return
        await super()._on_key(event)

    def _on_paste(self, event: events.Paste) -> None:
        # Not stopped: up to the app, in its turn, as a key is.
        event.prevent_default()

    def type_in(self, text: str) -> None:
        """Typed or pasted ``text``, as Input types it: over the selection
        if there is one (a box selects its text when it takes the keys),
        else at the cursor; a paste's first line only (a line break would
        have been its Enter)."""
        lines = text.splitlines()
        line = lines[0] if lines else ""
        if not line:
            return
        selection = self.selection
        if selection.is_empty:
            self.insert_text_at_cursor(line)
        else:
            # In one step, as Input does: a key the box refuses (a letter
            # in the port's digits) leaves the selected text as it was, where
            # deleting it first and then refusing the key emptied the box.
            self.replace(line, *selection)
