"""What one seat, or a spectator, may see of a game.

A view holds no hidden card: a seat sees its own hand and face-up cards and,
of every seat, the hand size, the face-up cards, how many face-down cards lie
there (never which) and its *known* cards: those everyone saw go into that
hand (a picked-up pile, a failed blind flip), less one for every copy of the
kind the seat has played since.  Known cards are what every other player can
be certain the seat holds from public events alone, so no view ever depends
on a hidden card.  Views are plain frozen
data, so they can be sent over the network, compared and handed to bots.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .actions import DRAW, FLIP, PICKUP, Move, is_play, play_count, play_rank
from .cards import CODES, N_KINDS, RANK_OF, sort_key
from .options import Options
from .state import (
    E_CLEARED,
    E_FLIP_FAILED,
    E_OUT,
    E_PICKED_UP,
    M_DRAW,
    M_FLIP,
    M_PICKUP,
    M_PLAY,
    GameState,
    Phase,
)

PHASE_NAMES = {Phase.SETUP: "setup", Phase.PLAY: "play", Phase.OVER: "over"}


# Kinds in display order: by rank, then colour.
_DISPLAY_ORDER = sorted(range(N_KINDS), key=sort_key)


def _codes(counts: list[int]) -> tuple[str, ...]:
    """Codes of a per-kind count array, sorted by rank then colour."""
    if not any(counts):  # most known-card and many face-up arrays are empty
        return ()
    out: list[str] = []
    for k in _DISPLAY_ORDER:
        if counts[k]:
            out.extend([CODES[k]] * counts[k])
    return tuple(out)


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """The public side of one seat."""

    seat: int
    name: str
    hand_size: int
    face_up: tuple[str, ...]
    face_down: tuple[bool, bool, bool]  # which slots still hold a card
    known: tuple[str, ...]  # cards everyone can be certain this hand holds
    ready: bool  # face-up cards chosen (their identity waits for everyone, D2)
    out: bool  # no cards left (finish: places)

    @property
    def face_down_count(self) -> int:
        return sum(self.face_down)

    @property
    def cards_left(self) -> int:
        return self.hand_size + len(self.face_up) + self.face_down_count


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One move as everyone saw it."""

    seat: int
    kind: str  # play / flip / pickup / draw
    cards: tuple[str, ...]  # the cards played, the card turned, or ()
    cleared: bool
    picked_up: int  # cards that went into the hand (pick-up or failed flip)
    drawn: int  # cards drawn early (draw); hidden cards are never named
    out: bool
    flip_failed: bool


@dataclass(frozen=True, slots=True)
class View:
    """A seat's view (``seat`` set) or a spectator's (``seat`` None)."""

    seat: int | None
    phase: str  # "setup", "play" or "over"
    options: Options
    names: tuple[str, ...]
    seats: tuple[SeatInfo, ...]
    hand: tuple[str, ...]  # own hand, sorted; () for a spectator
    pile: tuple[str, ...]  # bottom first; the top card is last
    draw_size: int
    cleared: tuple[str, ...]  # cards out of the game, in the order they left
    to_act: int | None  # whose turn (None during set-up and at the end)
    extra_discards: int  # extra discards the seat to act still owes
    draw_open: bool  # the seat to act may take the optional draw now
    turn: int  # turns completed (D16 caps them at 1000)
    legal: tuple[int, ...]  # this seat's action ids when it is to act
    pickup_reason: str | None  # why picking up is not allowed now, if not
    draw_reason: str | None  # why drawing is not allowed now, if not
    winner: int | None
    places: tuple[int, ...]
    stalemate: bool
    moves_played: int
    log: tuple[LogEntry, ...] = field(default=())  # the last few moves

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.to_act == self.seat and self.phase == "play"

    @property
    def me(self) -> SeatInfo | None:
        return None if self.seat is None else self.seats[self.seat]

    @property
    def top_rank(self) -> int:
        """Rank on top of the pile, 0 when there is no pile."""
        return _rank_of_code(self.pile[-1]) if self.pile else 0

    @property
    def top_run(self) -> int:
        """How many cards of the top number lie on top in a row."""
        if not self.pile:
            return 0
        rank = self.top_rank
        run = 0
        for c in reversed(self.pile):
            if _rank_of_code(c) != rank:
                break
            run += 1
        return run

    @property
    def source(self) -> str:
        """Where this seat's discards come from now: hand, face-up, face-down or none."""
        me = self.me
        if me is None:
            return "none"
        if me.hand_size:
            return "hand"
        if self.draw_size:
            return "none"
        if me.face_up:
            return "face-up"
        return "face-down" if me.face_down_count else "none"

    def playable_ranks(self) -> set[int]:
        return {play_rank(a) for a in self.legal if is_play(a)}

    def can_flip(self) -> bool:
        return any(FLIP <= a < PICKUP for a in self.legal)

    def can_pickup(self) -> bool:
        return PICKUP in self.legal

    def can_draw(self) -> bool:
        return DRAW in self.legal


_RANK_BY_CODE = {c: RANK_OF[k] for k, c in enumerate(CODES)}


def _rank_of_code(code: str) -> int:
    return _RANK_BY_CODE[code]


def _log_entry(entry: tuple[int, int, object, int, int]) -> LogEntry:
    seat, mtype, arg, effects, detail = entry
    cards: tuple[str, ...] = ()
    picked = drawn = 0
    if mtype == M_PLAY:
        assert isinstance(arg, tuple)
        cards = tuple(CODES[k] for k in arg)
        kind = "play"
    elif mtype == M_FLIP:
        cards = (CODES[detail & 0xFF],)
        picked = detail >> 8
        kind = "flip"
    elif mtype == M_PICKUP:
        picked = detail
        kind = "pickup"
    else:
        assert mtype == M_DRAW
        drawn = detail
        kind = "draw"
    return LogEntry(
        seat,
        kind,
        cards,
        bool(effects & E_CLEARED),
        picked if effects & E_PICKED_UP else 0,
        drawn,
        bool(effects & E_OUT),
        bool(effects & E_FLIP_FAILED),
    )


# One game's recent log, shared by the views of all its seats: every seat sees
# the same moves.  Holding the history list keeps its identity unique.
_log_cache: list[object] = [None, -1, -1, ()]


def log_entries(state: GameState, last: int | None = None) -> tuple[LogEntry, ...]:
    """The last ``last`` moves as log entries (all of them for None)."""
    if last is not None and last <= 0:
        return ()
    history = state.history
    key = -1 if last is None else last
    cached_history, length, cached_key, entries = _log_cache
    if cached_history is history and cached_key == key:
        assert isinstance(entries, tuple) and isinstance(length, int)
        grown = len(history) - length
        if grown == 0:
            return entries
        if grown > 0 and (last is None or grown <= last):
            # One more move since the last call (the usual case): shift the
            # window (or, for the whole log, extend it) instead of building
            # every entry again.
            result = entries + tuple(_log_entry(e) for e in history[-grown:])
            if last is not None:
                result = result[-last:]
            _log_cache[:] = [history, len(history), key, result]
            return result
    recent = history if last is None else history[-last:]
    result = tuple(_log_entry(e) for e in recent)
    _log_cache[:] = [history, len(history), key, result]
    return result


@dataclass(frozen=True, slots=True)
class _Public:
    """The part of a view that is the same for every viewer."""

    phase: str
    seats: tuple[SeatInfo, ...]
    pile: tuple[str, ...]
    draw_size: int
    cleared: tuple[str, ...]
    to_act: int | None
    extra_discards: int
    draw_open: bool
    winner: int | None
    places: tuple[int, ...]
    log: tuple[LogEntry, ...]


def _seat_infos(state: GameState, seat: int | None) -> tuple[SeatInfo, ...]:
    in_setup = state.phase == Phase.SETUP
    seats = []
    for s in range(state.n):
        # D2: face-up choices stay hidden until everyone has chosen; a seat
        # sees its own six cards as its hand until then.
        show_up = not in_setup or s == seat
        down = state.down[s]
        seats.append(
            SeatInfo(
                seat=s,
                name=state.names[s],
                hand_size=state.hand_size[s] + (state.up_size[s] if in_setup and s != seat else 0),
                face_up=_codes(state.up[s]) if show_up else (),
                face_down=(down[0] >= 0, down[1] >= 0, down[2] >= 0),
                known=_codes(state.known[s]),
                ready=state.setup[s] is not None,
                out=state.out[s],
            )
        )
    return tuple(seats)


def _build_public(state: GameState, seat: int | None, log_length: int | None) -> _Public:
    to_act = state.seat if state.phase == Phase.PLAY else None
    return _Public(
        phase=PHASE_NAMES[state.phase],
        seats=_seat_infos(state, seat),
        pile=tuple(CODES[k] for k in state.pile),
        draw_size=state.draw_size(),
        cleared=tuple(CODES[k] for k in state.cleared),
        to_act=to_act,
        extra_discards=state.extra_discards() if to_act is not None else 0,
        draw_open=state.can_draw() if to_act is not None else False,
        winner=state.winner if state.phase == Phase.OVER else None,
        places=tuple(state.places),
        log=log_entries(state, log_length),
    )


# After set-up every seat sees the same public part: build it once per move
# and share it between the views of all seats (a host sends one view per seat
# after every move).  The key holds the history list itself, so its identity
# stays unique; every change of a game after set-up appends to its history.
_public_cache: list[object] = [None, -1, -1, None]


def _public(state: GameState, seat: int | None, log_length: int | None) -> _Public:
    if state.phase == Phase.SETUP:
        return _build_public(state, seat, log_length)  # differs per seat (D2)
    history = state.history
    cached_history, length, cached_log_length, public = _public_cache
    if cached_history is history and length == len(history) and cached_log_length == log_length:
        assert isinstance(public, _Public)
        return public
    public = _build_public(state, seat, log_length)
    _public_cache[:] = [history, len(history), log_length, public]
    return public


def seat_view(state: GameState, seat: int | None, log_length: int | None = 12) -> View:
    """The view of ``seat`` (None: a spectator), with hidden cards removed,
    and the last ``log_length`` moves of the log (None: all of them)."""
    public = _public(state, seat, log_length)
    mine = seat is not None and public.to_act == seat
    legal = tuple(state.legal_actions()) if mine else ()
    pickup_reason = draw_reason = None
    if mine:
        if PICKUP not in legal:
            pickup_reason = state.why_not(PICKUP)
        if DRAW not in legal:
            draw_reason = state.why_not(DRAW)
    return View(
        seat=seat,
        phase=public.phase,
        options=state.options,
        names=state.names,
        seats=public.seats,
        hand=_codes(state.hand[seat]) if seat is not None else (),
        pile=public.pile,
        draw_size=public.draw_size,
        cleared=public.cleared,
        to_act=public.to_act,
        extra_discards=public.extra_discards,
        draw_open=public.draw_open,
        turn=state.turns,
        legal=legal,
        pickup_reason=pickup_reason,
        draw_reason=draw_reason,
        winner=public.winner,
        places=public.places,
        stalemate=state.stalemate,
        moves_played=state.moves_played,
        log=public.log,
    )


Cards = Callable[[tuple[str, ...]], list[Any]]
"""How a JSON form writes a run of cards (codes for records and files;
the network writes card kinds)."""


def public_to_json(
    view: View, cards: Cards = list, log_length: int | None = None
) -> dict[str, Any]:
    """The fields of :func:`view_to_json` that are the same for every seat
    after set-up; the log cut to its last ``log_length`` entries."""
    log = view.log if log_length is None else view.log[max(0, len(view.log) - log_length) :]
    return {
        "phase": view.phase,
        "options": view.options.to_json(),
        "names": list(view.names),
        "seats": [
            [
                s.hand_size,
                cards(s.face_up),
                [int(b) for b in s.face_down],
                cards(s.known),
                s.ready,
                s.out,
            ]
            for s in view.seats
        ],
        "pile": cards(view.pile),
        "draw": view.draw_size,
        "cleared": cards(view.cleared),
        "to_act": view.to_act,
        "extra": view.extra_discards,
        "draw_open": view.draw_open,
        "turn": view.turn,
        "winner": view.winner,
        "places": list(view.places),
        "stalemate": view.stalemate,
        "moves": view.moves_played,
        "log": [
            [e.seat, e.kind, cards(e.cards), e.cleared, e.picked_up, e.drawn, e.out, e.flip_failed]
            for e in log
        ],
    }


def own_to_json(view: View, cards: Cards = list) -> dict[str, Any]:
    """The fields of :func:`view_to_json` that belong to the viewer."""
    return {
        "seat": view.seat,
        "hand": cards(view.hand),
        "legal": list(view.legal),
        "pickup_reason": view.pickup_reason,
        "draw_reason": view.draw_reason,
    }


def view_to_json(view: View) -> dict[str, Any]:
    """A plain dict (msgpack- and JSON-friendly) of a view."""
    return {**public_to_json(view), **own_to_json(view)}


def view_from_json(data: dict[str, Any]) -> View:
    """Inverse of :func:`view_to_json`; raises (KeyError, TypeError, ValueError) on bad data."""
    names = tuple(str(n) for n in data["names"])
    seats = tuple(
        SeatInfo(
            seat=i,
            name=names[i],
            hand_size=int(s[0]),
            face_up=tuple(str(c) for c in s[1]),
            face_down=(bool(s[2][0]), bool(s[2][1]), bool(s[2][2])),
            known=tuple(str(c) for c in s[3]),
            ready=bool(s[4]),
            out=bool(s[5]),
        )
        for i, s in enumerate(data["seats"])
    )
    return View(
        seat=data["seat"],
        phase=str(data["phase"]),
        options=Options.from_json(data["options"]),
        names=names,
        seats=seats,
        hand=tuple(str(c) for c in data["hand"]),
        pile=tuple(str(c) for c in data["pile"]),
        draw_size=int(data["draw"]),
        cleared=tuple(str(c) for c in data["cleared"]),
        to_act=data["to_act"],
        extra_discards=int(data["extra"]),
        draw_open=bool(data["draw_open"]),
        turn=int(data["turn"]),
        legal=tuple(int(a) for a in data["legal"]),
        pickup_reason=data["pickup_reason"],
        draw_reason=data["draw_reason"],
        winner=data["winner"],
        places=tuple(int(p) for p in data["places"]),
        stalemate=bool(data["stalemate"]),
        moves_played=int(data["moves"]),
        log=tuple(
            LogEntry(
                int(e[0]),
                str(e[1]),
                tuple(str(c) for c in e[2]),
                bool(e[3]),
                int(e[4]),
                int(e[5]),
                bool(e[6]),
                bool(e[7]),
            )
            for e in data["log"]
        ),
    )


def concrete_move(view: View, action: int) -> Move:
    """The concrete move for an action id, taking cards from the view's own
    hand or face-up cards.  Cards everyone already knows are played first, so
    the seat's unseen cards stay unseen."""
    if view.seat is None:
        raise ValueError("a spectator has no moves")
    if action == PICKUP:
        return Move.pickup(view.seat)
    if action == DRAW:
        return Move.draw(view.seat)
    if FLIP <= action < PICKUP:
        return Move.flip(view.seat, action - FLIP)
    rank, count = play_rank(action), play_count(action)
    me = view.seats[view.seat]
    source = view.hand if view.source == "hand" else me.face_up
    pool = [c for c in source if _rank_of_code(c) == rank]
    known = list(me.known) if view.source == "hand" else []
    chosen: list[str] = []
    for c in sorted(pool, key=lambda c: c not in known):
        if len(chosen) == count:
            break
        chosen.append(c)
        if c in known:
            known.remove(c)
    if len(chosen) < count:
        raise ValueError(f"the view holds no {count} cards of rank {rank}")
    return Move.play(view.seat, tuple(chosen))
