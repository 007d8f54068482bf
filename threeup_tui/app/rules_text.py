"""The rules page shown in the app, and the key help.

The rules live in ``docs/rules.md`` at the project root (one text for the
README, the repository and the app).  A wheel carries that file inside the
package as ``threeup_tui/app/rules.md``; should neither be found, a short
built-in summary stands in for it.
"""

from __future__ import annotations

from pathlib import Path

_SOURCE_RULES = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
_WHEEL_RULES = Path(__file__).resolve().parent / "rules.md"
RULES_PATH = _SOURCE_RULES if _SOURCE_RULES.exists() else _WHEEL_RULES

BUILTIN_RULES = """\
# How to play 3UP 3DOWN

Get rid of every card: your hand, your 3 face-up and your 3 face-down cards.
The first player with nothing left wins.

## The cards

74 cards in red (R), green (G) and blue (B): numbers 1 to 10, **Clear**,
**Clear +1** and (green only) **Clear +2**. Colour never matters for play.

## Set-up

Everyone gets 3 cards face down and 6 in hand, then lays 3 of the 6 face up
on the face-down ones. The rest is the draw pile.

## Your turn

- Play one card, or several of the same number, **equal to or higher** than
  the top of the pile. Anything goes on an empty pile.
- A **Clear** card goes on anything and clears the pile out of the game;
  **Clear +1** and **Clear +2** also give you 1 or 2 extra discards.
  **Three of a kind** on top also clears the pile.
- Right after a Clear +1 or +2, holding fewer than 3 cards, you may draw
  back up to 3 before your next discard, while the draw pile lasts; with an
  empty hand you must.
- Cannot play, nor draw early? Pick up the whole pile.
- Then draw back up to 3 cards.
- With the draw pile and your hand empty, play your face-up cards, then your
  face-down cards blind: a face-down card that cannot go is picked up with
  the pile.
"""

KEYS_HELP = """\
# Keys

| key | at the table |
| --- | --- |
| ← → | move between your cards |
| Home End | go to your first / last card |
| space | select / deselect the cursor's card (face-down: flip it) |
| 1 … 9, 0 | select every card of that number (0 is 10) |
| ⏎ or p | play the selected cards (or the card under the cursor) |
| u | pick up the pile |
| d | draw (when the draw is open) |
| f then 1-3 | flip a face-down card |
| h | hint: select what the best bot would do (⏎ then does it) |
| Esc | clear the selection |
| s | watching: take back the seat this table kept for you |
| c | chat (with people): ⏎ sends; Esc or an empty ⏎ goes back |
| Tab | into the moves or chat: ↑ ↓ PgUp PgDn Home End scroll it |
| g | the result, once the game is over |
| ? or F1 | this help |
| q | leave the table (`threeup join` and `threeup host` end there) |
| ctrl+q | quit threeup (in a game it asks first) |
| ctrl+p | command palette: every action by name |

**Mouse.** Click a card to select it (cards of one number go together; a card
of another number starts a new selection). Double-click a card, or press
*Play*, to play. Click a face-down card to flip it. Click the pile to pick it
up. Buttons that cannot be used now are greyed out, with the reason beside
them.

**Face-down cards.** When only your face-down cards are left, ← → or 1-3
go to one of them, and space or ⏎ flips it (as `f` then 1-3 does at once).

**Set-up.** Click three cards (or press 1-6, or move with ← → and press
space), then ⏎ to lay them face up; Esc clears your choice, and `h` selects
the three the best bot would choose.

**Start screen.** ↑ ↓ and ⏎ choose from the menu; `+` (or `=`) and `-` set
the number of players, `b` the bots' level (it is remembered), `n` your name;
`x` (or Delete) forgets the kept game or table highlighted; `q` quits threeup.

**Lobby.** ↑ ↓ highlight a seat. The host adds a bot with `a`, takes the
highlighted seat's bot or player away with `x` (or Delete), and starts the
game with `s`; a spectator sits down with `s`.

**Game over.** `r` asks for a rematch (or for the next game, where the
players ask for it), `s` saves the game's record under the name in its box (a
spectator's `s` takes back the seat kept for them), `b` gives the bots the
next level for the next game, and `t` or Esc goes back to look at the table
(`g` brings the box back). In the name's box (click it, or Tab to it) keys
type: ⏎ saves the record under that name, Esc goes back to the table.

**Messages** (your turn, a hint, why a move was refused) show on the line
just above the keys, never over the cards. With a turn timer, your last ten
seconds are counted down at the right of the top line.

**Help and replay.** ↑ ↓ PgUp PgDn Home End scroll these pages. In a replay
← → (or `h` `l`) step one move, PgUp PgDn ten, Home End go to the start and
the end, space plays the moves one by one, ↑ ↓ scroll the seats, ? (or F1)
shows this page, and Esc or `q` goes back.

Every card shows its colour letter and its number: `R7` is a red 7, `GC+2`
a green Clear +2.
"""


def load_rules(path: Path | None = None) -> str:
    """The rules as Markdown: ``docs/rules.md`` if it is there, else the summary."""
    try:
        return (path or RULES_PATH).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return BUILTIN_RULES
