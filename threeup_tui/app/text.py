"""Text helpers: untrusted strings made safe, and how cards are written.

Names, chat lines, table names and even rejection reasons can come from
other machines.  They are never used as Rich/Textual markup: they are
cleaned of control characters here and always shown as ``Content`` built
from plain parts (``Content.assemble`` never parses markup).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.markup import escape
from textual.content import Content

from ..names import cut_cells
from ..rules import View
from ..rules.cards import RANK_OF, parse_code
from ..rules.cards import card_label as card_label
from ..rules.cards import rank_label as rank_label
from ..rules.state import DRAW_NOT_OPEN
from ..textclean import clean_text, ordinal

COLOUR_WORDS = {"R": "red", "G": "green", "B": "blue"}


def clean(text: object, limit: int = 200) -> str:
    """``text`` (an error, say, made a string) as :func:`clean_text` leaves it:
    without control/format characters, whitespace collapsed, trimmed; and
    cut to ``limit`` terminal cells (a wide character takes two), for a
    name or a line from another host may be cut by characters, or not."""
    cleaned = clean_text(text if isinstance(text, str) else str(text), limit)
    return cut_cells(cleaned, limit).rstrip()


_RULE_REF = re.compile(r"\s*\(D\d+\)")


# The engine's reasons in a player's words, where the rules' words differ
# (the spec's "legal discard" is what the Play button does, D12).  Said here
# once, for every path: the reasons beside the buttons said "not while you
# can play" and a refused pick-up's note "a legal discard".  The engine's
# words stay (records and verify use them; another host sends them).
PLAYER_REASONS = {
    "you may not pick up while you have a legal discard": "you may not pick up while you can play",
}


def reason_words(reason: object) -> str:
    """A refusal's reason for players: cleaned (it may come from another
    machine) and without the engine's rule numbers ("(D12)"), which mean
    something to the rules page's readers, not at the table; in the
    player's words (:data:`PLAYER_REASONS`)."""
    words = _RULE_REF.sub("", clean(reason, 300))
    return PLAYER_REASONS.get(words, words)


def host_stopped(detail: object) -> bool:
    """Whether a link's trouble is its host stopping on purpose, to be
    resumed: every such reason ends ": it may resume the table" (the
    protocol's CLOSE reasons), and the client waits for the table."""
    return isinstance(detail, str) and detail.endswith(": it may resume the table")


DRAWN_ALREADY = "you have drawn already: the early draw comes once, right after a Clear +1 or +2"


def refusal_words(view: View | None, reason: object) -> str:
    """A refusal's reason for players (:func:`reason_words`), with one told
    apart: the engine says the early draw comes only right after a Clear +1
    or +2, which reads as wrong to a player who has just played one and
    drawn; they are told they drew."""
    if reason == DRAW_NOT_OPEN and view is not None and view.log:
        last = view.log[-1]
        if last.kind == "draw" and last.seat == view.seat:
            return DRAWN_ALREADY
    return reason_words(reason)


def plain(text: object, style: str = "", limit: int = 200) -> Content:
    """An untrusted string as Content: shown literally, never as markup."""
    return Content.styled(clean(text, limit), style)


def markup_safe(text: object, limit: int = 200) -> str:
    """An untrusted string for the few places that only take markup strings."""
    return escape(clean(text, limit))


def cards_label(codes: Iterable[str]) -> str:
    return " ".join(card_label(c) for c in codes)


def rank_of_code(code: str) -> int:
    """The rank (1..13) of a card code: display grouping, not rules."""
    return RANK_OF[parse_code(code)]


def colour_class(code: str) -> str:
    """The CSS class that tints a card tile by its colour (``c-R``, ``c-G``, ``c-B``)."""
    return f"c-{code[0]}"


# Theme variables, resolved by Textual at render time: themes apply, and
# Words drawn muted within a line.  The app gives the variable its value for
# the theme (ThreeUpApp.get_css_variables): "$text-muted", worked out against
# what the words are drawn on; dim in the terminal's own colours, where that
# cannot be worked out.
WORDS_MUTED = "words-muted"
MUTED = f"${WORDS_MUTED}"

# NO_COLOR drops the tint while the letter stays.
CARD_STYLES = {"R": "bold $text-error", "G": "bold $text-success", "B": "bold $text-primary"}


def card_content(code: str) -> Content:
    """One card, tinted by its colour."""
    return Content.styled(card_label(code), CARD_STYLES.get(code[0], "bold"))


def cards_content(codes: Iterable[str], empty: str = "-") -> Content:
    """Cards separated by spaces, each tinted; ``empty`` when there are none."""
    parts = [card_content(c) for c in codes]
    if not parts:
        return Content.styled(empty, MUTED)
    return Content(" ").join(parts)


# ---------------------------------------------------------------- fitting text
# Where a line runs out of room it is shortened, never silently cut: each part
# of a line has forms from the longest to the shortest, the parts step down
# one at a time (the least needed first), and only when every part is at its
# shortest is the line cut, with "…" where it was cut.

Forms = Sequence[Content]


@dataclass(frozen=True)
class Fitted:
    """A line made by :func:`fitted_parts`, and how: which form each part
    took (an index into its forms; None where the part is empty or went
    whole), and whether, past every form, the line was cut at a word."""

    content: Content
    forms: tuple[int | None, ...]
    cut: bool = False


def fit_parts(
    parts: Sequence[Forms],
    width: int,
    sep: Content | str = " · ",
    order: Sequence[int] | None = None,
    drop: Sequence[int] = (),
) -> Content:
    """``parts`` joined by ``sep`` in at most ``width`` cells.

    ``order`` says which part steps down to its next shorter form, one step
    per entry (an index may come more than once); after it, every part steps
    down in turn, the last part first, until the line fits.  Past the
    shortest forms, parts go whole: those in ``drop`` first, then the last
    first; the first part goes last."""
    return fitted_parts(parts, width, sep, order, drop).content


def fitted_parts(
    parts: Sequence[Forms],
    width: int,
    sep: Content | str = " · ",
    order: Sequence[int] | None = None,
    drop: Sequence[int] = (),
) -> Fitted:
    """:func:`fit_parts`, telling which forms it chose: a caller that
    styles other lines after this one asks, never reads the line back."""
    sep = Content(sep) if isinstance(sep, str) else sep
    count = len(parts)
    given = [i for i, forms in enumerate(parts) if forms]  # the parts' places in ``parts``
    parts = [forms for forms in parts if forms]
    level = [0] * len(parts)
    rest = list(range(len(parts) - 1, -1, -1))
    schedule = [i for i in (order or ()) if 0 <= i < len(parts)]
    schedule += [i for i in rest for _ in range(len(parts[i]))]

    def line() -> Content:
        return sep.join(forms[i] for forms, i in zip(parts, level, strict=True))

    def report(content: Content, kept: Sequence[int], cut: bool = False) -> Fitted:
        forms: list[int | None] = [None] * count
        for i in kept:
            forms[given[i]] = level[i]
        return Fitted(content, tuple(forms), cut)

    everything = range(len(parts))
    shown = line()
    for index in schedule:
        if shown.cell_length <= width:
            return report(shown, everything)
        if level[index] < len(parts[index]) - 1:
            level[index] += 1
            shown = line()
    if shown.cell_length <= width:
        return report(shown, everything)
    # Still too long: parts go whole, a "…" saying so, before the first
    # part is cut (at a word).
    kept = list(range(len(parts)))
    firsts = [i for i in drop if 0 < i < len(parts)]
    for index in [*firsts, *(i for i in range(len(parts) - 1, 0, -1) if i not in firsts)]:
        kept.remove(index)
        head = sep.join(parts[i][level[i]] for i in kept)
        if head.cell_length + 1 <= width:
            if firsts:
                # What is left may say more again ("no play: pick up (u)"
                # once "from hand onto 9" has gone): longer forms, the first
                # part's first, while they fit.
                for i in kept:
                    while level[i] > 0:
                        level[i] -= 1
                        longer = sep.join(parts[k][level[k]] for k in kept)
                        if longer.cell_length + 1 > width:
                            level[i] += 1
                            break
                        head = longer
            return report(head if head.plain.endswith("…") else head + Content("…"), kept)
    return report(cut_at_word(shown, width), everything, cut=True)


def cut_at_word(content: Content, width: int, sep: str = " ·│") -> Content:
    """``content`` in at most ``width`` cells: cut after the last whole word
    that fits, with "…" (a separator left dangling goes too).  Only a first
    word wider than ``width`` on its own is cut inside, where nothing else can be."""
    width = max(width, 1)
    if content.cell_length <= width:
        return content
    plain = content.plain
    for end in range(len(plain) - 1, 0, -1):
        if plain[end] != " ":
            continue
        head = content[:end].rstrip(sep + " ")
        if head.plain and head.cell_length + 1 <= width:
            return head if head.plain.endswith("…") else head + Content("…")
    return content.truncate(width, ellipsis=True)


def cards_forms(
    codes: Sequence[str], label: str = "", least: int = 1, empty: str = "-"
) -> list[Content]:
    """A run of cards, then the same run cut short with a count of the rest:
    ``known G1 G2 B2 R3 B6``, ``known G1 G2 B2 …+2``, ... ``known G1 …+4``."""
    head = Content(f"{label} ") if label else Content("")
    forms = [head + cards_content(codes, empty)]
    for keep in range(len(codes) - 1, least - 1, -1):
        rest = Content.styled(f" …+{len(codes) - keep}", MUTED)
        forms.append(head + cards_content(codes[:keep], empty) + rest)
    return forms


def number_words(n: int) -> str:
    """Small counts as words (the pile's "two 7s"), larger ones as digits."""
    words = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
    return words[n] if 0 <= n < len(words) else str(n)


def whole_words(content: Content, width: int) -> Content:
    """``content`` with every word wider than ``width`` cut to it, with "…":
    wrapped, such a word was folded at the box's edge, and a long name read
    as two words ("Konstantinov" over "a played B5")."""
    width = max(width, 1)
    if all(cell_len(word) <= width for word in content.plain.split()):
        return content  # as it is, its styles and all

    def cut(word: Content) -> Content:
        if word.cell_length <= width:
            return word
        # Whole characters only: a wide one cut in half left a blank before
        # the "…" ("李雪花李雪 …"), which read as a word of its own.
        end = len(cut_cells(word.plain, width - 1))
        return word[:end] + Content("…")

    lines = [Content(" ").join(cut(w) for w in line.split(" ")) for line in content.split("\n")]
    return Content("\n").join(lines)


def clamp_rows(content: Content, width: int, rows: int) -> Content:
    """``content`` wrapped to ``width``; past ``rows`` lines, the last line
    shown ends with "…"."""
    width = max(width, 1)
    lines = content.wrap(width) or [content]
    if len(lines) > rows:
        # After a whole word: "Pick up: not no…" read as a word of its own.
        rest = Content(" ").join(lines[rows - 1 :])
        lines = [*lines[: rows - 1], cut_at_word(rest, width)]
    return Content("\n").join(lines)


def fit_rows(parts: Sequence[Forms], width: int, rows: int, sep: Content | str = " · ") -> Content:
    """Like :func:`fit_parts`, for a box of ``rows`` wrapped lines: parts
    step down to shorter forms (the last first) until the wrapped text fits."""
    sep = Content(sep) if isinstance(sep, str) else sep
    parts = [forms for forms in parts if forms]
    level = [0] * len(parts)
    width = max(width, 1)

    def text() -> Content:
        return sep.join(forms[i] for forms, i in zip(parts, level, strict=True))

    shown = text()
    for index in [i for i in range(len(parts) - 1, -1, -1) for _ in parts[i]]:
        if len(shown.wrap(width)) <= rows:
            break
        if level[index] < len(parts[index]) - 1:
            level[index] += 1
            shown = text()
    if len(shown.wrap(width)) <= rows:
        # A part stepped down before an earlier one did may say more again
        # in the room that one left: "Pick up: not now · no draw" had room
        # for "Draw: not now".
        for index in range(len(parts)):
            while level[index] > 0:
                level[index] -= 1
                if len(text().wrap(width)) > rows:
                    level[index] += 1
                    break
        shown = text()
    if len(shown.wrap(width)) > rows:
        # The last parts go whole, a "…" saying so ("Pick up: not now…"),
        # before any is cut ("Pick up: not now · Draw: not …").
        def head(keep: int) -> Content:
            kept = zip(parts[:keep], level[:keep], strict=True)
            return sep.join(forms[i] for forms, i in kept) + Content("…")

        for keep in range(len(parts) - 1, 0, -1):
            if len(head(keep).wrap(width)) <= rows:
                # What is kept may say more in the room the rest left
                # ("Pick up: not now…", not "no pick-up…").
                for index in range(keep):
                    while level[index] > 0:
                        level[index] -= 1
                        if len(head(keep).wrap(width)) > rows:
                            level[index] += 1
                            break
                return Content("\n").join(head(keep).wrap(width))
    return clamp_rows(shown, width, rows)


def out_content(place: int | None, seats: int) -> Content:
    """A seat that is out: "OUT", and its place in a game for places ("OUT (2nd)").
    The last place goes to the seat still holding cards when the others are
    out (D15), which the engine marks out too: it reads "LAST (4th)"."""
    if place is not None and place == seats:
        return Content.styled(f"LAST ({ordinal(place)})", "bold $text-warning")
    return Content.styled(f"OUT ({ordinal(place)})" if place else "OUT", "bold $text-success")
