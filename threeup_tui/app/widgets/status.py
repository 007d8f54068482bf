"""The one-line banner at the top of the table: whose turn, what to do.

The line has room for the turn's words, the extra discards owed and the draw
hint (yours, or the seat to act's: both are public), the turn number and (in
its last seconds) your turn clock.  When the words do not fit they are said
shorter (``fit_parts``); the turn number and the clock, on the right, always
show.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from textual.content import Content
from textual.events import Resize
from textual.widget import Widget

from ...rules import View
from ...rules.actions import is_play
from ...rules.state import TURN_LIMIT
from ...textclean import plural
from ..text import MUTED, cut_at_word, fit_parts, rank_label

SOURCE_WORDS = {
    "hand": "from your hand",
    "face-up": "from your face-up cards",
    "face-down": "a face-down card, blind (f then 1-3)",
}


def display_turn(view: View) -> int:
    """The turn number people read: the turn being played (1 for the first);
    at the end, the turn the game ended in.  The game-over box says the same."""
    if view.phase == "over" and view.turn >= TURN_LIMIT:
        return view.turn  # ended at the cap, after its last turn (D16)
    # A game won ends during a turn: the one being played.
    return view.turn + 1


def _where_forms(view: View) -> list[str]:
    top = rank_label(view.pile[-1]) if view.pile else ""
    if view.source == "hand":
        if top:
            return [
                f"play from your hand onto {top}",
                f"from your hand onto {top}",
                f"from hand onto {top}",
                f"onto {top}",  # at 40 columns "YOUR TURN…" said nothing more
            ]
        return [
            "play any card from your hand",
            "any card from your hand",
            "any card from hand",
            "any card",
        ]
    if view.source == "face-up":
        if top:
            return [
                f"play from your face-up cards onto {top}",
                f"from your face-up cards onto {top}",
                f"from face-up onto {top}",
                f"onto {top}",
            ]
        return ["play any of your face-up cards", "any face-up card", "any face-up"]
    if view.source == "face-down":
        return [
            "play a face-down card, blind (f then 1-3)",
            "a face-down card, blind (f 1-3)",
            "flip: f 1-3",
        ]
    return []


def _owed_forms(n: int) -> list[str]:
    """The extra discards the seat to act owes, in ever shorter words."""
    return [f"{plural(n, 'extra discard')} owed", f"{n} extra owed", f"+{n} owed"]


def _can_discard(view: View) -> bool:
    return any(is_play(a) for a in view.legal) or view.can_flip()


def draw_forced(view: View) -> bool:
    """Whether the seat to act must draw now: the draw is open and it can
    neither discard nor pick up (D12), as with an empty hand right after a
    Clear +1 or +2 (D11).

    For your own turn this is read from your legal moves.  Of another seat
    only public facts may be used (no view depends on a hidden card): its
    hand size, the open draw and the table's options.  A seat whose hand is
    empty must draw; whether one holding cards could discard depends on
    cards nobody else sees, so it only "may" draw."""
    if view.my_turn:
        return view.can_draw() and not view.can_pickup() and not _can_discard(view)
    seat = view.to_act
    return (
        seat is not None
        and view.draw_open
        and view.seats[seat].hand_size == 0
        and not view.options.voluntary_pickup
    )


def my_turn_parts(view: View) -> list[list[str]]:
    """The words of your turn, each part with shorter forms."""
    parts: list[list[str]] = [["YOUR TURN"]]
    where = _where_forms(view)
    if where:
        parts.append(where)
    if view.extra_discards:
        parts.append(_owed_forms(view.extra_discards))
    if draw_forced(view):
        # Not "may": drawing is the one move there is (picking up is refused).
        parts.append(["nothing to play: draw (d)", "no play: draw (d)", "draw (d)"])
    elif view.can_draw():
        parts.append(["you may draw first (d)", "you may draw first", "may draw (d)"])
    if not _can_discard(view) and view.can_pickup():
        parts.append(["no play: pick up (u)", "no play: pick up", "pick up (u)"])
    return parts


# Cells a long name is cut to, a step at a time, to fit the banner: down to
# 6 ("Wilhe…") before what the seat owes goes (the ▶ on its row names it whole).
NAME_CUTS = (16, 12, 8, 6)


def name_forms(who: str) -> list[str]:
    """``who``, then cut shorter (a name of up to 24 cells otherwise leaves
    the banner no room for what that seat owes): the name shows whole on
    the seat's own row."""
    name = Content(who)
    cuts = [name.truncate(n - 1).plain.rstrip() + "…" for n in NAME_CUTS if name.cell_length > n]
    return [who, *cuts]


def waiting_parts(view: View, who: str) -> list[list[str]]:
    """The words of another seat's turn, each part with shorter forms.

    The extra discards that seat owes and its open early draw are public
    (every view carries them), and say why the same player plays again:
    without them "Waiting for Ann…" read the same whether Ann was starting
    her turn or owed a discard after her Clear +2."""
    owed = owed_parts(view)
    names = name_forms(who)
    if not owed:
        return [[f"Waiting for {who}…", *(f"{name}'s turn…" for name in names)]]
    parts = [[f"Waiting for {who}", f"{who}'s turn", *names], *owed]
    parts[-1] = [f"{form}…" for form in parts[-1]]  # the table waits: the line ends so
    return parts


def owed_parts(view: View) -> list[list[str]]:
    """What the seat to act owes, for anyone but that seat: the extra
    discards and the early draw, which it must take with an empty hand
    (:func:`draw_forced`).  Public facts only, each part with shorter forms."""
    parts = []
    if view.extra_discards:
        parts.append(_owed_forms(view.extra_discards))
    if view.draw_open:
        parts.append(
            ["must draw first", "must draw"]
            if draw_forced(view)
            else ["may draw first", "may draw"]
        )
    return parts


# What the bot does for an away player, by phase, from the longest form to
# the shortest.  At the set-up it lays their cards at once, before any key
# of theirs can.
AWAY_DOING = {
    "play": ("the {} bot plays for you", "a bot plays for you", "bot plays"),
    "setup": (
        "the {} bot lays your cards face up",
        "the {} bot lays your cards",
        "a bot lays your cards",
        "a bot lays them",
    ),
    "laid": (
        "the {} bot laid your cards face up",
        "the {} bot laid your cards",
        "a bot laid your cards",
        "a bot laid them",
    ),
}


# What a player marked away must know first, wherever they look: the
# table's top line, the set-up's title, the result box.
AWAY_KEY = "You are away: any key to play again"


def away_parts(level: str, doing: str = "play") -> list[list[str]]:
    """The words for a player whose seat the bot plays while they are here
    (their turns timed out): the key that gives it back first, for it is
    the one thing to do (the table shows nothing else of it: the seat's
    turns go at once, and a key that was not a request changed nothing).
    ``doing``: what the bot does for them (AWAY_DOING)."""
    return [
        [
            "You are away: press any key to play again",
            AWAY_KEY,
            "Away: any key to play again",
            "Away: any key to play",
        ],
        [form.format(level) for form in AWAY_DOING[doing]],
    ]


def turn_words(
    view: View, names: tuple[str, ...], flip_prompt: bool, away: str | None = None
) -> tuple[str, list[list[str]]]:
    """(css class, parts) for the banner; each part lists its forms, longest
    first.  ``away``: the level of the bot that plays this seat while its
    player is here (Session.away_bot)."""
    if away and view.phase != "over":
        return "-away", away_parts(away)
    if view.phase == "over":
        if view.winner is None:
            return "-over", [["Game over: stalemate, no winner", "Game over: stalemate"]]
        if view.winner == view.seat:
            return "-over", [["Game over: You win!", "You win!"]]
        winner = names[view.winner]
        return "-over", [
            [f"Game over: {winner} wins", *(f"{name} wins" for name in name_forms(winner))]
        ]
    if view.phase == "setup":
        return "-waiting", [["Everyone is choosing face-up cards…", "Choosing face-up cards…"]]
    if flip_prompt:
        return "-my-turn", [
            [
                "Flip which face-down card? Press 1-3 (Esc cancels)",
                "Flip which card? 1-3 (Esc cancels)",
                "Flip: 1-3, Esc",
            ]
        ]
    if view.my_turn:
        return "-my-turn", my_turn_parts(view)
    if view.to_act is not None:
        who = names[view.to_act] if view.to_act < len(names) else "?"
        return "-waiting", waiting_parts(view, who)
    return "-waiting", [[""]]


@dataclass(frozen=True)
class Banner:
    """What the banner shows; equal banners paint nothing new."""

    css: str
    parts: tuple[tuple[str, ...], ...]
    turn: int
    connection: str  # "" when connected
    clock: str  # the countdown of your last seconds, or ""
    watching: int = 0  # spectators watching the table now
    drop_first: tuple[int, ...] = ()  # parts left out before the others when none fits


def banner_for(
    view: View,
    names: tuple[str, ...],
    flip_prompt: bool,
    connection: str = "connected",
    detail: str = "",
    clock: str = "",
    watching: int = 0,
    away: str | None = None,
) -> Banner:
    css, parts = turn_words(view, names, flip_prompt, away)
    trouble = ""
    if connection != "connected":  # "⚠ closed: the host closed the table"
        trouble = f"⚠ {connection}: {detail}" if detail else f"⚠ {connection}"
    if connection == "closed" and view.phase != "over":
        # No turn is coming at a closed table: "YOUR TURN" would invite a move.
        css, parts = "-waiting", [[""]]
    turn = display_turn(view)
    # Where cards come from goes before what you owe and may or must do, said
    # nowhere else: "from hand onto 9" outlasted "pick up (u)", the one move
    # there was, and "any card from hand" the extra discard owed.  With the
    # draw the one move, the discards owed go before it too ("YOUR TURN ·
    # +2 owed…" at 40 columns had left out "draw (d)").
    mine = css == "-my-turn" and not flip_prompt
    first_to_go = []
    if mine and _where_forms(view):
        first_to_go.append(1)
    if mine and view.extra_discards and draw_forced(view):
        first_to_go.append(len(first_to_go) + 1)  # the part after where, if any
    drop_first = tuple(first_to_go) if len(parts) > len(first_to_go) + 1 else ()
    parts_ = tuple(tuple(p) for p in parts)
    return Banner(css, parts_, turn, trouble, clock, watching, drop_first)


def trouble_forms(trouble: str) -> list[Content]:
    """The link's trouble, from the longest form to the shortest: whole,
    then without its last clauses ("⚠ closed: the host stopped in the middle
    of the game: it may resume the table" loses ": it may resume the
    table"), then cut after a whole word ("⚠ closed: the host stopped…"),
    then its first clause ("⚠ closed", "⚠ reconnecting for 12 s") and last
    the state alone ("⚠ reconnecting"): never a bare "⚠…"."""
    clauses = [trouble]
    while clauses[-1].count(": ") > 1:
        clauses.append(clauses[-1].rsplit(": ", 1)[0])
    first = trouble.split(": ", 1)[0]
    forms = [Content(form) for form in clauses]
    last = Content(clauses[-1])
    for width in range(last.cell_length - 1, Content(first).cell_length, -1):
        cut = cut_at_word(last, width)
        if Content(first).cell_length < cut.cell_length <= width and cut.plain != forms[-1].plain:
            forms.append(cut)
    state = " ".join(first.split()[:2])  # "⚠ reconnecting"
    for form in (first, state):
        if form != forms[-1].plain:
            forms.append(Content(form))
    return forms


def _right_side(banner: Banner, trouble: Content | None, watching: bool) -> Content:
    """The notes on the right: the clock, the link's trouble, how many
    watch, and the turn, which always shows."""
    parts = []
    if banner.clock:
        parts.append(Content.styled(f" {banner.clock} ", "bold reverse $text-error"))
    if trouble is not None:
        parts.append(trouble.stylize("bold $text-error"))
    if watching and banner.watching:
        # Players are told that someone watches (a spectator counts itself).
        parts.append(Content.styled(f"{banner.watching} watching", MUTED))
    parts.append(Content.styled(f"turn {banner.turn}", MUTED))
    return Content("  ").join(parts)


@lru_cache(maxsize=256)
def banner_content(banner: Banner, width: int) -> Content:
    """The banner in ``width`` cells: the words on the left, shortened to
    fit; the clock, the link's trouble, how many watch and the turn on the right.

    What gives way, first to last: the words' shorter forms (below); how
    many watch; the trouble's detail, down to its state ("⚠ reconnecting");
    the words after the first part (the turn's hints); and only then the
    first part, cut at a word.  At 50 columns a spectator's count and
    "Wilhelm… · +1 owed…" had left the table's waiting words neither the
    name nor the draw hint, and at 40 a lost link read "⚠…"."""
    forms = [[Content.styled(f, "bold") for f in part] for part in banner.parts]
    sep = Content(" · ")
    # The first part a little shorter ("Ann's turn" for "Waiting for Ann":
    # what Ann owes says more), then every other part a little shorter,
    # then shorter still.  "YOUR TURN" has no shorter form.
    order = [0] + list(range(1, len(forms))) * 2
    shortest = [part[-1] for part in forms if part]
    every_part = sep.join(shortest).cell_length  # every part, each in its shortest form
    # The first part alone, and the "…" that says the rest is left out.
    first_part = shortest[0].cell_length + (len(shortest) > 1) if shortest else 0
    # The name's last cut ("Wilhe…") only once the watchers' count has gone.
    if len(forms) > 1 and len(forms[0]) > 2:
        every_part_roomy = sep.join([forms[0][-2], *shortest[1:]]).cell_length
    else:
        every_part_roomy = every_part
    troubles: list[Content | None] = (
        list(trouble_forms(banner.connection)) if banner.connection else [None]
    )
    # (what the left needs, trouble, watching) from the most said to the least.
    tries = [(every_part_roomy, troubles[0], True)]
    tries += [(need, trouble, False) for need in (every_part, first_part) for trouble in troubles]
    right = _right_side(banner, troubles[-1], False)
    for need, trouble, watching in tries:
        side = _right_side(banner, trouble, watching)
        if width - side.cell_length - 2 >= need:
            right = side
            break
    room = max(width - right.cell_length - 2, 1)
    left = fit_parts(forms, room, sep, order, banner.drop_first)
    gap = max(width - left.cell_length - right.cell_length, 1)
    return left + Content(" " * gap) + right


class StatusBar(Widget):
    """Your turn (highlighted, with words) or whom the table waits for."""

    def __init__(self) -> None:
        super().__init__(id="status")
        self.banner: Banner | None = None

    def show(
        self,
        view: View,
        names: tuple[str, ...],
        flip_prompt: bool,
        connection: str,
        detail: str,
        clock: str = "",
        watching: int = 0,
        away: str | None = None,
    ) -> None:
        banner = banner_for(view, names, flip_prompt, connection, detail, clock, watching, away)
        if banner == self.banner:
            return
        self.banner = banner
        for name in ("-my-turn", "-waiting", "-over", "-away"):
            self.set_class(name == banner.css, name)
        self.refresh()  # one line, always: a repaint, no layout

    def render(self) -> Content:
        if self.banner is None:
            return Content("")
        return banner_content(self.banner, self.content_region.width)

    def on_resize(self, event: Resize) -> None:
        self.refresh()

    @property
    def text(self) -> str:
        """The banner as plain text at its current width."""
        return self.render().plain
