"""Player names: the one function that makes an untrusted name safe to seat.

Names arrive from other machines (a UDP hello) and from SSH user names.
Both go through :func:`clean_name`, so 山田 is 山田 over SSH as over UDP,
and ``a[b]`` and ``ab`` stay two names.  What goes:

- control and format characters (ESC, BEL, bidi overrides, zero-width
  joiners...), and unassigned or private-use code points;
- Rich markup tags (``[bold]``, ``[/]``, ``[link=...]``): the app escapes
  markup when it shows a name, but a name is also written to logs and
  records, and a tag there is never a name's letters;
- combining marks that follow no letter (at the start, after a space:
  a name of marks alone showed as nothing, or bent the character before
  it on screen), and marks past four on one letter (a name
  of a letter and hundreds of accents piles them across the rows above);
- runs of whitespace (one space is kept), and the ends' whitespace.

Then the name is cut to :data:`MAX_NAME_CELLS` terminal cells (a wide
character such as 山 takes two), never inside a character and never
between a character and the combining marks that follow it.
"""

from __future__ import annotations

import re
import unicodedata

from rich.cells import cell_len

from .textclean import marks_on_letters, without_controls

MAX_NAME_CELLS = 24

# Rich's own tag grammar (rich.markup.RE_TAGS): a tag starts with a lower
# case letter, '#', '/' or '@'.  "[42]" and "[Ann]" are not tags: kept.
_MARKUP_TAG = re.compile(r"\[([a-z#/@][^\[\]]*)\]")


def clean_name(name: object, fallback: str, cells: int = MAX_NAME_CELLS) -> str:
    """``name`` made safe to show and seat, or ``fallback`` if nothing is left."""
    if not isinstance(name, str):
        return fallback
    text = unicodedata.normalize("NFC", name)
    text = without_controls(text)
    previous = None
    while previous != text:  # "[b[i]]" leaves "[b]" after one pass
        previous, text = text, _MARKUP_TAG.sub("", text)
    text = " ".join(marks_on_letters(text).split())
    return cut_cells(text, cells).rstrip() or fallback


def cut_cells(text: str, cells: int) -> str:
    """The longest start of ``text`` that fits in ``cells`` terminal cells."""
    if cell_len(text) <= cells:
        return text
    used = 0
    for i, ch in enumerate(text):
        width = cell_len(ch)
        if used + width > cells:
            return text[:i]
        used += width
    return text


def name_width(name: str) -> int:
    """Terminal cells a name takes."""
    return cell_len(name)


def same_name(a: str, b: str) -> bool:
    """Two names people would read as one ("Ann" and "ann")."""
    return a.casefold() == b.casefold()


def distinct_name(name: str, taken: list[str], cells: int = MAX_NAME_CELLS) -> str:
    """``name``, or ``name (2)``, ``name (3)``... so that no two seats read alike."""
    if not any(same_name(name, other) for other in taken):
        return name
    n = 2
    while True:
        candidate = numbered_name(name, n, cells)
        if not any(same_name(candidate, other) for other in taken):
            return candidate
        n += 1


def numbered_name(name: str, n: int, cells: int = MAX_NAME_CELLS) -> str:
    """``name (n)``, the name cut to make room for the number."""
    suffix = f" ({n})"
    return cut_cells(name, cells - cell_len(suffix)).rstrip() + suffix


# "Ann (2)": how the host tells a name from one already seated (distinct_name).
_TOLD_APART = re.compile(r" \(([2-9]|[1-9][0-9]{1,2})\)$")


def seated_as(seat_name: str, name: str) -> bool:
    """Whether the host may have seated ``name`` as ``seat_name``: that name,
    or it told apart from one already seated ("Ann (2)", the name cut to
    make room as :func:`distinct_name` cuts it)."""
    asked = clean_name(name, "player")
    if same_name(seat_name, asked):
        return True
    told = _TOLD_APART.search(seat_name)
    return told is not None and same_name(seat_name, numbered_name(asked, int(told.group(1))))
