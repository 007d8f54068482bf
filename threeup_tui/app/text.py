"""Text helpers: untrusted strings made safe, and how cards are written.

Names, chat lines, table names and even rejection reasons can come from
other machines.  They are never used as Rich/Textual markup: they are
cleaned of control characters here and always shown as ``Content`` built
from plain parts (``Content.assemble`` never parses markup).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from rich.markup import escape
from textual.content import Content

from ..rules.cards import RANK_OF, parse_code

_RANK_TEXT = {"C": "C", "C1": "C+1", "C2": "C+2"}
COLOUR_WORDS = {"R": "red", "G": "green", "B": "blue"}


def clean(text: object, limit: int = 200) -> str:
    """``text`` without control/format characters (ESC, BEL, bidi overrides...),
    whitespace collapsed, trimmed to ``limit`` characters."""
    if not isinstance(text, str):
        text = str(text)
    # Line breaks and tabs become spaces; every other control or format
    # character (ESC, BEL, bidi overrides, zero-width) goes.
    kept = "".join(
        " " if ch.isspace() else ch
        for ch in text
        if ch.isspace() or unicodedata.category(ch)[0] != "C"
    )
    return " ".join(kept.split())[:limit]


_RULE_REF = re.compile(r"\s*\(D\d+\)")


def reason_words(reason: object) -> str:
    """A refusal's reason for players: cleaned (it may come from another
    machine) and without the engine's rule numbers ("(D12)"), which mean
    something to the rules page's readers, not at the table."""
    return _RULE_REF.sub("", clean(reason, 300))


def plain(text: object, style: str = "", limit: int = 200) -> Content:
    """An untrusted string as Content: shown literally, never as markup."""
    return Content.styled(clean(text, limit), style)


def markup_safe(text: object, limit: int = 200) -> str:
    """An untrusted string for the few places that only take markup strings."""
    return escape(clean(text, limit))


def rank_text(code: str) -> str:
    """``"7"``, ``"10"``, ``"C"``, ``"C+1"`` or ``"C+2"``."""
    return _RANK_TEXT.get(code[1:], code[1:])


def card_label(code: str) -> str:
    """A card as shown everywhere: colour letter then rank (``R7``, ``BC+1``).

    The letter means colour is never the only cue (NO_COLOR, colour blindness).
    """
    return f"{code[0]}{rank_text(code)}"


def cards_label(codes: Iterable[str]) -> str:
    return " ".join(card_label(c) for c in codes)


def rank_of_code(code: str) -> int:
    """The rank (1..13) of a card code: display grouping, not rules."""
    return RANK_OF[parse_code(code)]


def colour_class(code: str) -> str:
    """The CSS class that tints a card tile by its colour (``c-R``, ``c-G``, ``c-B``)."""
    return f"c-{code[0]}"


# Theme variables, resolved by Textual at render time: themes apply, and
# NO_COLOR drops the tint while the letter stays.
CARD_STYLES = {"R": "bold $text-error", "G": "bold $text-success", "B": "bold $text-primary"}


def card_content(code: str) -> Content:
    """One card, tinted by its colour."""
    return Content.styled(card_label(code), CARD_STYLES.get(code[0], "bold"))


def cards_content(codes: Iterable[str], empty: str = "-") -> Content:
    """Cards separated by spaces, each tinted; ``empty`` when there are none."""
    parts = [card_content(c) for c in codes]
    if not parts:
        return Content.styled(empty, "$text-muted")
    return Content(" ").join(parts)
