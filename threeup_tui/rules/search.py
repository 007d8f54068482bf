"""Search support: full game states dealt from one seat's view.

A search bot cannot read the cards its seat does not see, so it samples
them: :class:`Determinizer` takes a seat's :class:`View` (nothing else; no
game state reaches it) and deals full :class:`GameState` objects that agree
with everything the view shows:

- the seat's own hand and face-up cards, every face-up card that is shown,
  the discard pile (in order) and the cleared cards (in order);
- every seat's hand size, known cards, face-down slots, readiness and
  whether it is out;
- the draw pile's size, whose turn it is, the extra discards owed, whether
  the optional draw is open, the turn count, the options;
- the recent log (rebuilt as history entries, so ``seat_view`` of a sample
  shows the same log) and the number of moves played.

Every unseen card goes uniformly at random into the unseen places: the other
seats' hand cards that are not known, every face-down slot still holding a
card (the seat's own too: nobody sees their own face-down cards), the draw
pile and, during set-up, the face-up cards another seat has chosen but not
yet shown (D2).  During set-up the first player is not shown either: unless
the options name it, a sample starts with a seat chosen at random (D3).

What a sample cannot reproduce: moves older than the view's log (a sample's
history holds the log's moves only, ``base`` counts the rest, so its record
cannot be written) and the initial face-up choices of moves long gone (a
sample records the face-up cards shown now).  Neither changes how play goes
on from here.
"""

from __future__ import annotations

import random
from typing import Final

from .cards import CODES, DECK_COUNTS, DECK_SIZE, N_KINDS, RANK_OF, parse_code
from .state import (
    DRAW_NOT_OPEN,
    E_CLEARED,
    E_FLIP_FAILED,
    E_OUT,
    E_PICKED_UP,
    E_TURN_END,
    M_DRAW,
    M_FLIP,
    M_PICKUP,
    M_PLAY,
    GameState,
    HistoryEntry,
    Phase,
)
from .views import LogEntry, View

_PHASES: Final = {"setup": Phase.SETUP, "play": Phase.PLAY, "over": Phase.OVER}
_MOVE_TYPES: Final = {"play": M_PLAY, "flip": M_FLIP, "pickup": M_PICKUP, "draw": M_DRAW}

# Zone names, as :meth:`Determinizer.zones` reports them.
HAND: Final = "hand"  # a seat's unknown hand cards (another seat's)
UP: Final = "up"  # another seat's face-up cards not yet shown (set-up, D2)
DOWN: Final = "down"  # a seat's face-down cards
DRAW_PILE: Final = "draw"


class ViewMismatch(ValueError):
    """A view whose cards do not add up to the deck (a corrupted view)."""


def _kinds(codes: tuple[str, ...]) -> list[int]:
    return [parse_code(c) for c in codes]


def _history_of(log: tuple[LogEntry, ...], to_act: int | None, started: bool) -> list[HistoryEntry]:
    """History entries whose log entries are ``log``.

    A log entry shows all of a move but whether it ended the turn; that bit
    is rebuilt (a pick-up or a failed flip always ends it; another move does
    when the next move is another seat's, or, for the last, when the turn
    has not started) though nothing in play reads it.
    """
    out: list[HistoryEntry] = []
    for i, entry in enumerate(log):
        mtype = _MOVE_TYPES[entry.kind]
        effects = (
            (E_CLEARED if entry.cleared else 0)
            | (E_OUT if entry.out else 0)
            | (E_FLIP_FAILED if entry.flip_failed else 0)
        )
        arg: object = 0
        detail = 0
        if mtype == M_PLAY:
            arg = tuple(_kinds(entry.cards))
        elif mtype == M_FLIP:
            # A flip's slot is not shown in the log; only the card turned.
            detail = parse_code(entry.cards[0]) | (entry.picked_up << 8)
            if entry.flip_failed:
                effects |= E_PICKED_UP
        elif mtype == M_PICKUP:
            detail = entry.picked_up
            effects |= E_PICKED_UP
        else:
            detail = entry.drawn
        if i + 1 < len(log):
            ends = log[i + 1].seat != entry.seat
        else:
            ends = not (started and entry.seat == to_act)
        if (ends or mtype == M_PICKUP or entry.flip_failed) and not entry.out:
            effects |= E_TURN_END
        out.append((entry.seat, mtype, arg, effects, detail))
    return out


class Determinizer:
    """Deals full states that agree with one seat's view (see the module).

    Build it once per decision; :meth:`sample` is the cheap part (a clone
    of a template holding everything the view shows, then the shuffled
    unseen cards dealt into the unseen places).
    """

    __slots__ = (
        "_base",
        "_first_choices",
        "_hidden_downs",
        "_hidden_hands",
        "_hidden_ups",
        "_history",
        "_seen",
        "_template",
        "seat",
        "unseen",
    )  # fmt: skip

    def __init__(self, view: View) -> None:
        if view.seat is None:
            raise ValueError("a spectator's view has no seat to deal for")
        me = view.seat
        n = len(view.names)
        phase = _PHASES[view.phase]
        in_setup = phase == Phase.SETUP
        st: GameState = object.__new__(GameState)
        st.n = n
        st.names = view.names
        st.options = view.options
        st.first = 0
        st.hand = [[0] * N_KINDS for _ in range(n)]
        st.hand_rank = [[0] * 14 for _ in range(n)]
        st.hand_size = [0] * n
        st.hand_mask = [0] * n
        st.up = [[0] * N_KINDS for _ in range(n)]
        st.up_rank = [[0] * 14 for _ in range(n)]
        st.up_size = [0] * n
        st.down = [[-1, -1, -1] for _ in range(n)]
        st.down_size = [0] * n
        st.known = [[0] * N_KINDS for _ in range(n)]
        seen: list[int] = []
        hidden_hands: list[tuple[int, int]] = []
        hidden_ups: list[int] = []
        hidden_downs: list[tuple[int, tuple[int, ...]]] = []
        setup: list[tuple[int, ...] | None] = [None] * n
        for info in view.seats:
            s = info.seat
            known = _kinds(info.known)
            for kind in known:
                st.known[s][kind] += 1
            if s == me:
                in_hand = _kinds(view.hand)
                if len(in_hand) != info.hand_size:
                    raise ViewMismatch("the seat's hand does not match its hand size")
                unknown_in_hand = 0
            else:
                in_hand = known
                unknown_in_hand = info.hand_size - len(known)
                if in_setup and info.ready:
                    unknown_in_hand -= 3  # three of the six are face up, not shown yet
                    hidden_ups.append(s)
                if unknown_in_hand < 0:
                    raise ViewMismatch(f"seat {s + 1} shows more known cards than it holds")
            for kind in in_hand:
                st._give(s, kind, False)
            seen.extend(in_hand)
            if unknown_in_hand:
                hidden_hands.append((s, unknown_in_hand))
            face_up = _kinds(info.face_up)
            for kind in face_up:
                st.up[s][kind] += 1
                st.up_rank[s][RANK_OF[kind]] += 1
            st.up_size[s] = len(face_up)
            seen.extend(face_up)
            if info.ready and not (in_setup and s != me):
                setup[s] = tuple(face_up)  # what is shown now stands in for the choice
            slots = tuple(slot for slot in range(3) if info.face_down[slot])
            st.down_size[s] = len(slots)
            if slots:
                hidden_downs.append((s, slots))
            if any(st.known[s][k] > st.hand[s][k] for k in known):
                raise ViewMismatch(f"seat {s + 1}'s known cards are not all in its hand")
        pile = _kinds(view.pile)
        cleared = _kinds(view.cleared)
        seen.extend(pile)
        seen.extend(cleared)
        counts = [0] * N_KINDS
        for kind in seen:
            counts[kind] += 1
        if any(counts[k] > DECK_COUNTS[k] for k in range(N_KINDS)):
            extra = next(CODES[k] for k in range(N_KINDS) if counts[k] > DECK_COUNTS[k])
            raise ViewMismatch(f"the view shows more copies of {extra} than the deck holds")
        unseen = [k for k in range(N_KINDS) for _ in range(DECK_COUNTS[k] - counts[k])]
        places = (
            sum(count for _s, count in hidden_hands)
            + 3 * len(hidden_ups)
            + sum(len(slots) for _s, slots in hidden_downs)
            + view.draw_size
        )
        if places != len(unseen):
            raise ViewMismatch(
                f"the view leaves {len(unseen)} cards unseen but {places} places to hold them"
            )
        st.draw_pos = DECK_SIZE - view.draw_size
        st.pile = pile
        top = run = 0
        for kind in reversed(pile):
            rank = RANK_OF[kind]
            if top and rank != top:
                break
            top = rank
            run += 1
        st.top = top
        st.run = run
        st.cleared = cleared
        st.phase = phase
        started = phase == Phase.PLAY and view.extra_discards > 0
        st.seat = view.to_act if view.to_act is not None else (view.winner or 0)
        st.pending = view.extra_discards if started else 1
        st.started = started
        st.voluntary = view.options.voluntary_pickup
        # The draw opens after a Clear +1 or +2 even when a full hand or an
        # empty draw pile keeps it from being taken; only the seat to act is
        # told (by the reason it may not draw), and only it can tell the two.
        st.draw_open = view.draw_open or (
            view.to_act == me and view.draw_reason not in (None, DRAW_NOT_OPEN)
        )
        st.turns = view.turn
        st.winner = view.winner
        st.places = list(view.places)
        st.out = [info.out for info in view.seats]
        st.setup = setup
        st.history = []
        st.base = 0
        st._legal = None
        st.deck = ()
        if view.options.first is not None:
            st.first = view.options.first
            if in_setup:
                st.seat = view.options.first
            first_choices: tuple[int, ...] = ()
        elif in_setup:
            first_choices = tuple(range(n))  # D3: not shown until play starts
        else:
            first_choices = ()
            st.first = st.seat  # stands in: the records of samples are not written
        self.seat = me
        self.unseen = tuple(unseen)
        self._seen = tuple(seen)
        self._template = st
        self._hidden_hands = tuple(hidden_hands)
        self._hidden_ups = tuple(hidden_ups)
        self._hidden_downs = tuple(hidden_downs)
        self._first_choices = first_choices
        self._history = _history_of(view.log, view.to_act, started)
        self._base = view.moves_played - len(view.log)

    def zones(self) -> list[tuple[str, int, int]]:
        """The unseen places as (zone, seat, size), in the order they are
        dealt; the draw pile's seat is -1."""
        out = [(HAND, s, count) for s, count in self._hidden_hands]
        out.extend((UP, s, 3) for s in self._hidden_ups)
        out.extend((DOWN, s, len(slots)) for s, slots in self._hidden_downs)
        out.append((DRAW_PILE, -1, DECK_SIZE - self._template.draw_pos))
        return out

    def sample(self, rng: random.Random) -> GameState:
        """One full state: the unseen cards shuffled into the unseen places."""
        cards = list(self.unseen)
        rng.shuffle(cards)
        choices = self._first_choices
        return self.deal(cards, choices[int(rng.random() * len(choices))] if choices else None)

    def deal(self, cards: list[int], first: int | None = None) -> GameState:
        """The state with ``cards`` (a permutation of :attr:`unseen`) dealt
        into the places in :meth:`zones` order, the draw pile last (its top
        card first); during set-up ``first`` is the first player when the
        options leave it to chance."""
        st = self._template.clone()
        st.history = self._history[:]
        st.base = self._base
        i = 0
        for s, count in self._hidden_hands:
            st.add_to_hand(s, cards[i : i + count])
            i += count
        for s in self._hidden_ups:
            chosen = tuple(cards[i : i + 3])
            for kind in chosen:
                st.up[s][kind] += 1
                st.up_rank[s][RANK_OF[kind]] += 1
            st.up_size[s] = 3
            st.setup[s] = chosen
            i += 3
        for s, slots in self._hidden_downs:
            down = st.down[s]
            for slot in slots:
                down[slot] = cards[i]
                i += 1
        st.deck = self._seen + tuple(cards)
        if first is not None and self._first_choices:
            st.seat = st.first = first
        return st


def determinize(view: View, rng: random.Random) -> GameState:
    """One full state agreeing with ``view`` (see :class:`Determinizer`)."""
    return Determinizer(view).sample(rng)
