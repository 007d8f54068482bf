"""Cards drawn as cards, for roomy terminals: a bordered face with the rank
large, a patterned back, and the narrow strip a card shows when another
lies over it (a fanned hand or pile).

Only text and theme styles: the colour of a face comes from the tile's CSS
class (or a ``$text-…`` style on the pile), and the rank is also written
small in the corners with its colour letter, so nothing rests on colour
alone (NO_COLOR, monochrome).  Every line of a face is ``CARD_W`` cells wide.
"""

from __future__ import annotations

from functools import lru_cache

from textual.content import Content

from ..text import MUTED, card_label

CARD_W = 9  # cells across a whole card, borders included
CARD_H = 5  # lines down
STRIP_W = 5  # cells a covered card shows: its left border and its label ("GC+2")
INNER = CARD_W - 2

# 3x3 glyphs (Textual's bold digits, and a C to match).
_GLYPHS = {
    "0": ("┏━┓", "┃ ┃", "┗━┛"),
    "1": ("╺┓ ", " ┃ ", "╺┻╸"),
    "2": ("╺━┓", "┏━┛", "┗━╸"),
    "3": ("╺━┓", " ━┫", "╺━┛"),
    "4": ("╻ ╻", "┗━┫", "  ╹"),
    "5": ("┏━╸", "┗━┓", "╺━┛"),
    "6": ("┏━╸", "┣━┓", "┗━┛"),
    "7": ("╺━┓", "  ┃", "  ╹"),
    "8": ("┏━┓", "┣━┫", "┗━┛"),
    "9": ("┏━┓", "┗━┫", "╺━┛"),
    "C": ("┏━╸", "┃  ", "┗━╸"),
}

# Border sets: a plain card, the cursor's (heavy), a selected card's (double):
# the three differ in shape as well as colour.
BORDERS = {
    "plain": "╭─╮│╰╯",
    "cursor": "┏━┓┃┗┛",
    "selected": "╔═╗║╚╝",
}


def big_rank(code: str) -> tuple[str, str, str]:
    """The rank of ``code`` in 3 lines, ``INNER`` cells wide, centred.

    Numbers are drawn large; a Clear is a large C, with its +1 / +2 beside it."""
    rank = code[1:]
    if rank.startswith("C"):
        extra = f"+{rank[1:]}" if len(rank) > 1 else ""
        rows = [g + (extra if i == 0 else " " * len(extra)) for i, g in enumerate(_GLYPHS["C"])]
    else:
        rows = ["".join(_GLYPHS[d][i] for d in rank) for i in range(3)]
    width = max(len(r) for r in rows)
    left = (INNER - width) // 2
    return tuple(" " * left + r.ljust(width) + " " * (INNER - width - left) for r in rows)  # type: ignore[return-value]


def _border(kind: str) -> tuple[str, ...]:
    return tuple(BORDERS.get(kind, BORDERS["plain"]))


def _framed(rows: list[str], frame: str, style: str) -> list[Content]:
    """Rows whose first and last lines, and first and last cells, are the
    frame (styled ``frame``); the rest styled ``style``."""
    frame = frame or style
    if frame == style:  # one style for the whole card: one span a line
        return [Content.styled(row, style) for row in rows]
    out = []
    last = len(rows) - 1
    for i, row in enumerate(rows):
        if i in (0, last) or len(row) <= 2:
            out.append(Content.styled(row, frame))
        else:
            out.append(Content.assemble((row[0], frame), (row[1:-1], style), (row[-1], frame)))
    return out


def face_lines(
    code: str,
    border: str = "plain",
    mark: str = "",
    style: str = "",
    strip: bool = False,
    frame: str = "",
) -> list[Content]:
    """A face-up card, ``CARD_W`` x ``CARD_H``, its label in the top border
    (and mirrored in the bottom one); ``mark`` (e.g. "✓") sits in the top
    border's right corner; ``frame`` styles the border.  ``strip``: only
    the left ``STRIP_W`` cells, as the card shows under another (its label,
    no big rank).  Faces repeat: they are drawn once (cached)."""
    return list(_face(code, border, mark, style, strip, frame))


@lru_cache(maxsize=4096)
def _face(
    code: str, border: str, mark: str, style: str, strip: bool, frame: str
) -> tuple[Content, ...]:
    tl, h, tr, v, bl, br = _border(border)
    label = card_label(code)
    if strip:
        rows = [f"{tl}{label}{h * (STRIP_W - 1 - len(label))}"]
        rows += [f"{v}{' ' * (STRIP_W - 1)}"] * 3
        rows.append(f"{bl}{h * (STRIP_W - 1)}")
        return tuple(
            Content.styled(r, frame or style)
            if i in (0, 4)
            else Content.assemble((r[0], frame or style), (r[1:], style))
            for i, r in enumerate(rows)
        )
    top_fill = INNER - len(label) - (len(mark) + 1 if mark else 0)
    top = f"{tl}{label}{h * top_fill}{mark}{h if mark else ''}{tr}"
    bottom = f"{bl}{h * (INNER - len(label))}{label}{br}"
    return tuple(_framed([top, *(f"{v}{r}{v}" for r in big_rank(code)), bottom], frame, style))


def back_lines(
    number: str = "", border: str = "plain", style: str = "", frame: str = ""
) -> list[Content]:
    """A face-down card: a patterned back, ``number`` (a slot, a count) in the middle."""
    return list(_back(number, border, style, frame))


@lru_cache(maxsize=512)
def _back(number: str, border: str, style: str, frame: str) -> tuple[Content, ...]:
    tl, h, tr, v, bl, br = _border(border)
    fill = "▒" * INNER
    middle = fill
    if number:
        text = f" {number} "
        left = (INNER - len(text)) // 2
        middle = fill[:left] + text + fill[left + len(text) :]
    rows = [f"{tl}{h * INNER}{tr}", f"{v}{fill}{v}", f"{v}{middle}{v}", f"{v}{fill}{v}"]
    rows.append(f"{bl}{h * INNER}{br}")
    return tuple(_framed(rows, frame, style))


def gone_lines() -> list[Content]:
    """Where a face-down card was: an empty outline."""
    return list(_gone())


@lru_cache(maxsize=1)
def _gone() -> tuple[Content, ...]:
    dots = "┄" * INNER
    rows = [f"┌{dots}┐", *(f"┆{' ' * INNER}┆" for _ in range(3)), f"└{dots}┘"]
    return tuple(Content.styled(r, MUTED) for r in rows)


def fan_lines(strips: list[list[Content]], top: list[Content]) -> list[Content]:
    """Cards overlapped left to right: the strips of the covered ones, then
    the top card whole."""
    rows = [Content("")] * CARD_H
    for strip in strips:
        rows = [row + part for row, part in zip(rows, strip, strict=True)]
    return [row + part for row, part in zip(rows, top, strict=True)]


__all__ = [
    "CARD_H",
    "CARD_W",
    "STRIP_W",
    "back_lines",
    "big_rank",
    "face_lines",
    "fan_lines",
    "gone_lines",
]
