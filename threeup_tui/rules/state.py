"""The game state: every rule and decision of rules.md (D1-D18).

Cards are ints (see :mod:`cards`).  Each seat's hand and face-up cards are
kept as counts per card kind *and* per rank, so legal-action generation reads
at most 13 counters and applying a move touches only the cards it moves: no
per-move objects beyond the pile's list entries and one history tuple.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import IntEnum
from itertools import islice
from typing import Final

from .actions import DRAW, FLIP, PICKUP, Move, describe_action
from .cards import (
    CLEAR,
    CLEAR1,
    CODES,
    DECK_COUNTS,
    DECK_SIZE,
    N_KINDS,
    RANK_OF,
    describe,
    parse_code,
    rank_name,
)
from .errors import IllegalMove, SetupError, seat_words
from .options import PLACES, Options

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6
TURN_LIMIT: Final = 1000  # D16
# The most moves a game can have: in one turn a seat plays at most the
# cards it holds and those it draws (each play or flip takes one at least,
# each draw brings one at least, and the deck has DECK_SIZE), then picks up
# once; a game has TURN_LIMIT turns, and the one a player goes out in.
# Far above any real game's (a few hundred): a bound for what a peer sends.
MAX_MOVES: Final = (TURN_LIMIT + 1) * (2 * DECK_SIZE + 1)
HAND_TARGET: Final = 3

# History entries: (seat, move type, argument, effects, detail).
M_PLAY: Final = 0
M_FLIP: Final = 1
M_PICKUP: Final = 2
M_DRAW: Final = 3
# Effect bits of a history entry.
E_CLEARED: Final = 1  # the pile was cleared by this move
E_PICKED_UP: Final = 2  # the pile went into the hand (detail = cards taken)
E_OUT: Final = 4  # the mover has no cards left
E_TURN_END: Final = 8  # play passed on after this move
E_FLIP_FAILED: Final = 16

HistoryEntry = tuple[int, int, object, int, int]

# Why the optional draw is refused when no Clear +1 or +2 has just opened it
# (the other reasons, a full hand or an empty draw pile, mean it is open).
DRAW_NOT_OPEN: Final = "you may draw early only right after playing a Clear +1 or Clear +2"

# _PLAYS[rank][count]: the play actions for holding ``count`` cards of
# ``rank``: one per multiple size for numbers, one only for Clear cards (D5).
_PLAYS: Final = tuple(
    tuple(
        tuple(range((rank << 3) + 1, (rank << 3) + min(count, 1 if rank >= CLEAR else 6) + 1))
        for count in range(75)
    )
    for rank in range(14)
)


def _ranks_in_table() -> tuple[tuple[int, ...], ...]:
    """Every mask's ranks, lowest first.  Built from the mask without its
    lowest bit, one tuple each: about 6 ms, where testing every bit of every
    mask took 42, and the table is built at every start of the app."""
    table: list[tuple[int, ...]] = [()]
    for mask in range(1, 1 << 14):
        table.append(((mask & -mask).bit_length() - 1, *table[mask & (mask - 1)]))
    return tuple(table)


# _RANKS_IN[mask]: the ranks whose bits are set in ``mask``, lowest first.
_RANKS_IN: Final = _ranks_in_table()


def _mask_of(ranks: list[int]) -> int:
    """Bit ``r`` set for every rank ``r`` held at least once."""
    mask = 0
    for rank in range(1, 14):
        if ranks[rank]:
            mask |= 1 << rank
    return mask


class Phase(IntEnum):
    SETUP = 0
    PLAY = 1
    OVER = 2


def check_deck(deck: Sequence[int]) -> None:
    counts = [0] * N_KINDS
    for kind in deck:
        counts[kind] += 1
    if len(deck) == DECK_SIZE and counts == list(DECK_COUNTS):
        return
    # Name the cards that should not be there first, then the missing ones.
    extra = [k for k in range(N_KINDS) if counts[k] > DECK_COUNTS[k]]
    missing = [k for k in range(N_KINDS) if counts[k] < DECK_COUNTS[k]]
    problems = [
        f"{CODES[k]} is not a card of the game"
        if DECK_COUNTS[k] == 0
        else f"{counts[k]} of {CODES[k]} (the game has {DECK_COUNTS[k]})"
        for k in extra + missing
    ]
    shown = "; ".join(problems[:4]) + ("; ..." if len(problems) > 4 else "")
    raise SetupError(f"the deck must be the 74 listed cards, but it holds {len(deck)}: {shown}")


def shuffled_deck(rng: random.Random) -> list[int]:
    deck = [k for k in range(N_KINDS) for _ in range(DECK_COUNTS[k])]
    rng.shuffle(deck)
    return deck


_PLAYING: Final = Phase.PLAY


class GameState:
    """One game from the deal to the end.

    Build it with :meth:`deal` (a given deck) or :meth:`new` (a seeded
    shuffle), give every seat's face-up choice with :meth:`choose_face_up`,
    then drive it with :meth:`legal_actions` and :meth:`apply` (action ids) or
    :meth:`apply_move` (concrete moves, as in records).
    """

    __slots__ = (
        "_legal",
        "base",
        "cleared",
        "deck",
        "down",
        "down_size",
        "draw_open",
        "draw_pos",
        "first",
        "hand",
        "hand_mask",
        "hand_rank",
        "hand_size",
        "history",
        "known",
        "n",
        "names",
        "options",
        "out",
        "pending",
        "phase",
        "pile",
        "places",
        "run",
        "seat",
        "setup",
        "started",
        "top",
        "turns",
        "up",
        "up_rank",
        "up_size",
        "voluntary",
        "winner",
    )  # fmt: skip

    def __init__(
        self, names: Sequence[str], options: Options, deck: Sequence[int], first: int
    ) -> None:
        n = len(names)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise SetupError(f"a game has 2 to 6 players, not {n}")
        check_deck(deck)
        if not 0 <= first < n:
            raise SetupError(
                f"'first' must be a seat field from 0 to {n - 1} (seats 1 to {n}), not {first}"
            )
        if options.first is not None and options.first != first:
            raise SetupError(
                f"the option 'first' is {options.first} (seat {options.first + 1}) but the "
                f"record's 'first' is {first} (seat {first + 1})"
            )
        self.n = n
        self.names = tuple(names)
        self.options = options
        self.deck = tuple(deck)
        self.first = first
        self.hand = [[0] * N_KINDS for _ in range(n)]
        self.hand_rank = [[0] * 14 for _ in range(n)]
        self.hand_size = [0] * n
        self.hand_mask = [0] * n  # bit r: the hand holds rank r
        self.up = [[0] * N_KINDS for _ in range(n)]
        self.up_rank = [[0] * 14 for _ in range(n)]
        self.up_size = [0] * n
        self.down = [[deck[k * n + s] for k in range(3)] for s in range(n)]
        self.down_size = [3] * n
        self.known = [[0] * N_KINDS for _ in range(n)]
        for s in range(n):
            for k in range(6):
                self._give(s, deck[3 * n + k * n + s], False)
        self.draw_pos = 9 * n
        self.pile: list[int] = []
        self.top = 0  # rank on top of the pile; 0 when there is no pile
        self.run = 0  # how many cards of that rank lie on top in a row
        self.cleared: list[int] = []
        self.phase = Phase.SETUP
        self.seat = first
        self.pending = 1  # discard actions still to make this turn
        self.voluntary = options.voluntary_pickup
        self.draw_open = False
        self.turns = 0
        self.winner: int | None = None
        self.places: list[int] = []
        self.out = [False] * n
        self.setup: list[tuple[int, ...] | None] = [None] * n
        self.history: list[HistoryEntry] = []
        self.base = 0  # moves played before history[0] (a clone's history starts empty)
        self.started = False  # the seat to act has made this turn's first discard
        self._legal: list[int] | None = None

    # ----------------------------------------------------------------- build
    @classmethod
    def deal(
        cls,
        names: Sequence[str],
        deck: Sequence[int],
        first: int,
        options: Options | None = None,
    ) -> GameState:
        return cls(names, options or Options(), deck, first)

    @classmethod
    def new(
        cls, names: Sequence[str], options: Options | None = None, seed: int | None = None
    ) -> GameState:
        """A freshly shuffled game; the same seed always gives the same deal."""
        options = options or Options()
        rng = random.Random(seed)
        deck = shuffled_deck(rng)
        first = options.first if options.first is not None else rng.randrange(len(names))
        return cls(names, options, deck, first)

    def clone(self) -> GameState:
        """An independent copy for search: every list copied but the history.

        The copy's history starts empty (``base`` counts the moves before
        it, so :attr:`moves_played` stays right); the turn's progress is a
        flag, not read from the history.  A clone plays on exactly like its
        original, but its record covers only the moves made since cloning.
        """
        new: GameState = object.__new__(GameState)
        n = self.n
        new.n = n
        new.names = self.names
        new.options = self.options
        new.deck = self.deck
        new.first = self.first
        new.hand = [h[:] for h in self.hand]
        new.hand_rank = [r[:] for r in self.hand_rank]
        new.hand_size = self.hand_size[:]
        new.hand_mask = self.hand_mask[:]
        new.up = [u[:] for u in self.up]
        new.up_rank = [r[:] for r in self.up_rank]
        new.up_size = self.up_size[:]
        new.down = [d[:] for d in self.down]
        new.down_size = self.down_size[:]
        new.known = [k[:] for k in self.known]
        new.draw_pos = self.draw_pos
        new.pile = self.pile[:]
        new.top = self.top
        new.run = self.run
        new.cleared = self.cleared[:]
        new.phase = self.phase
        new.seat = self.seat
        new.pending = self.pending
        new.voluntary = self.voluntary
        new.draw_open = self.draw_open
        new.turns = self.turns
        new.winner = self.winner
        new.places = self.places[:]
        new.out = self.out[:]
        new.setup = self.setup[:]
        new.history = []
        new.base = self.base + len(self.history)
        new.started = self.started
        new._legal = None
        return new

    # ----------------------------------------------------------------- set-up
    def setup_hand(self, seat: int) -> list[int]:
        """The six cards a seat chooses from (its hand during set-up)."""
        return self.hand_kinds(seat)

    def choose_face_up(self, seat: int, kinds: Sequence[int]) -> None:
        """Lay three of the seat's six cards face up (D2: all choose at once)."""
        if self.phase != Phase.SETUP:
            raise SetupError("face-up cards are chosen only before the first discard")
        if not 0 <= seat < self.n:
            raise SetupError(f"there is no seat {seat + 1}: the seats are 1 to {self.n}")
        if self.setup[seat] is not None:
            raise SetupError(f"{self._seat(seat)} has already chosen its face-up cards")
        if len(kinds) != 3:
            raise SetupError(f"choose exactly 3 cards to lay face up, not {len(kinds)}")
        hand = self.hand[seat]
        need = [0] * N_KINDS
        for kind in kinds:
            need[kind] += 1
        for kind in dict.fromkeys(kinds):  # in the order named, each kind once
            if need[kind] > hand[kind]:
                raise SetupError(self._short_of(seat, kind, need[kind]))
        for kind in kinds:
            self._take(seat, kind)
            self.up[seat][kind] += 1
            self.up_rank[seat][RANK_OF[kind]] += 1
            self.up_size[seat] += 1
        self.setup[seat] = tuple(kinds)
        if all(choice is not None for choice in self.setup):
            self.phase = Phase.PLAY
            self._legal = None

    def _seat(self, seat: int) -> str:
        """``seat 2 (Ann)``: how every message names a seat (no "Ann's")."""
        return seat_words(seat, self.names[seat])

    def _short_of(self, seat: int, kind: int, named: int) -> str:
        """Why ``named`` copies of ``kind`` cannot be laid face up by ``seat``."""
        code, held = CODES[kind], self.hand[seat][kind]
        if held == 0:
            return f"{code} is not among the six cards of {self._seat(seat)}"
        copies = "one copy" if held == 1 else f"{held} copies"
        return (
            f"{code} is named {named} times, but the six cards of {self._seat(seat)} "
            f"hold {copies} of it"
        )

    def choose_face_up_codes(self, seat: int, codes: Sequence[str]) -> None:
        try:
            kinds = [parse_code(c) for c in codes]
        except ValueError as err:
            raise SetupError(str(err)) from None
        self.choose_face_up(seat, kinds)

    # ----------------------------------------------------------------- queries
    @property
    def over(self) -> bool:
        return self.phase == Phase.OVER

    @property
    def capped(self) -> bool:
        """The game ended at the turn limit (D16) instead of normally."""
        return self.phase == Phase.OVER and self.turns >= TURN_LIMIT

    @property
    def stalemate(self) -> bool:
        """Ended at the turn limit with no winner (with ``finish: places``
        a player who finished before the limit is still the winner)."""
        return self.capped and self.winner is None

    def draw_size(self) -> int:
        return DECK_SIZE - self.draw_pos

    def extra_discards(self) -> int:
        """Extra discard actions still owed (Clear +1 / Clear +2, D7-D9)."""
        return self.pending if self.turn_started() else 0

    @property
    def moves_played(self) -> int:
        """Moves made since the deal (a clone counts its original's too)."""
        return self.base + len(self.history)

    def turn_started(self) -> bool:
        """Whether the seat to act has made this turn's first discard.

        Kept as a flag (set by a discard that does not end the turn, cleared
        when play passes) rather than read from the history, so that a clone
        needs no history at all.
        """
        return self.started

    def can_draw(self) -> bool:
        """The optional draw of D10: open, hand under 3, draw pile not empty."""
        s = self.seat
        return (
            self.draw_open
            and self.hand_size[s] < HAND_TARGET
            and self.draw_pos < DECK_SIZE
            and self.phase == Phase.PLAY
        )

    def legal_actions(self) -> list[int]:
        """Action ids open to the seat to act; empty only when no one can act."""
        legal = self._legal
        if legal is not None:
            return legal
        legal = []
        if self.phase is _PLAYING:
            s = self.seat
            ranks = None
            if self.hand_size[s]:
                ranks = self.hand_rank[s]
                mask = self.hand_mask[s]
            elif self.draw_pos < DECK_SIZE:
                pass  # D11: the tableau is not playable yet
            elif self.up_size[s]:
                ranks = self.up_rank[s]
                mask = _mask_of(ranks)
            else:
                for slot, kind in enumerate(self.down[s]):
                    if kind >= 0:
                        legal.append(FLIP + slot)
            if ranks is not None:
                # Ranks at or above the top (Clear cards, 11-13, always are).
                top = self.top
                for rank in _RANKS_IN[mask >> top << top]:
                    legal.extend(_PLAYS[rank][ranks[rank]])
            if self.draw_open and self.hand_size[s] < HAND_TARGET and self.draw_pos < DECK_SIZE:
                legal.append(DRAW)
            if not legal or self.voluntary:
                legal.append(PICKUP)  # D12
        self._legal = legal
        return legal

    # ----------------------------------------------------------------- apply
    def apply(self, action: int) -> None:
        """Apply an action id for the seat to act; IllegalMove if not legal."""
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if action not in legal:
            raise IllegalMove(self.why_not(action))
        self._legal = None
        s = self.seat
        if action >= FLIP:
            if action < PICKUP:
                self._flip(s, action - FLIP)
            elif action == PICKUP:
                self._pickup(s)
            else:
                self._draw_early(s)
            return
        # The hot path, inlined: play ``count`` cards of ``rank``.  Which
        # copies go is immaterial to play; take them in colour order.
        rank = action >> 3
        count = action & 7
        if self.hand_size[s]:
            src = self.hand[s]
            hand_rank = self.hand_rank[s]
            hand_rank[rank] -= count
            if not hand_rank[rank]:
                self.hand_mask[s] &= ~(1 << rank)
            self.hand_size[s] -= count
            known: list[int] | None = self.known[s]
        else:
            src = self.up[s]
            self.up_rank[s][rank] -= count
            self.up_size[s] -= count
            known = None
        kind = rank - 1
        if count == 1:
            while not src[kind]:
                kind += 13
            src[kind] -= 1
            if known is not None and known[kind]:
                known[kind] -= 1  # public knowledge: a played copy is no longer known
            kinds: tuple[int, ...] = (kind,)
        else:
            picked: list[int] = []
            while count:
                have = src[kind]
                if have:
                    take = have if have < count else count
                    src[kind] = have - take
                    if known is not None and known[kind]:
                        known[kind] = max(0, known[kind] - take)
                    picked.extend([kind] * take)
                    count -= take
                kind += 13
            kinds = tuple(picked)
        self._discard(s, kinds, M_PLAY, kinds, 0)

    def apply_move(self, move: Move) -> None:
        """Apply a concrete move (a record's or a client's), checking every rule."""
        if self.phase == Phase.SETUP:
            raise IllegalMove("the game has not started: face-up cards are still being chosen")
        if self.phase == Phase.OVER:
            raise IllegalMove("the game is over: no more moves")
        if not 0 <= move.seat < self.n:
            raise IllegalMove(
                f'"seat": {move.seat} names no seat (a record of {self.n} players '
                f"has seats 0 to {self.n - 1})"
            )
        s = self.seat
        if move.seat != s:
            raise IllegalMove(f"it is the turn of {self._seat(s)}, not of {self._seat(move.seat)}")
        legal = self.legal_actions()
        if move.kind == "play":
            kinds, from_hand = self._check_play(s, move.cards)
            self._legal = None
            self._play(s, kinds, from_hand)
        elif move.kind == "flip":
            if not 0 <= move.slot <= 2:
                raise IllegalMove(f"face-down slots are 0, 1 and 2; there is no slot {move.slot}")
            self.apply(FLIP + move.slot)
        elif move.kind == "pickup":
            if PICKUP not in legal:
                raise IllegalMove(self.why_not(PICKUP))
            self.apply(PICKUP)
        else:
            self.apply(DRAW)

    # ------------------------------------------------------------ validation
    def _source_words(self, s: int) -> str:
        if self.hand_size[s]:
            return "hand"
        if self.draw_pos < DECK_SIZE:
            return "none"
        if self.up_size[s]:
            return "face-up"
        return "face-down"

    def _check_play(self, s: int, codes: Sequence[str]) -> tuple[list[int], bool]:
        if not codes:
            raise IllegalMove("a play needs at least one card")
        kinds: list[int] = []
        for c in codes:
            try:
                kinds.append(parse_code(c))
            except ValueError:
                raise IllegalMove(f"{c!r} is not a card") from None
        source = self._source_words(s)
        if source == "none":
            raise IllegalMove(
                "your hand is empty but the draw pile is not: face-up and face-down "
                "cards wait until both are empty, so you must "
                + ("draw" if self.can_draw() else "pick up the pile")
            )
        if source == "face-down":
            raise IllegalMove("only face-down cards are left: flip one of them")
        from_hand = source == "hand"
        have = self.hand[s] if from_hand else self.up[s]
        need = [0] * N_KINDS
        for kind in kinds:
            need[kind] += 1
            if need[kind] > have[kind]:
                raise IllegalMove(self._not_held(s, kind, from_hand))
        ranks = {RANK_OF[k] for k in kinds}
        if len(ranks) > 1:
            names = ", ".join(CODES[k] for k in kinds)
            raise IllegalMove(f"cards played together must share one number, and {names} do not")
        rank = RANK_OF[kinds[0]]
        if rank >= CLEAR and len(kinds) > 1:
            raise IllegalMove(
                "Clear cards are played one at a time, "
                f"not {len(kinds)} {rank_name(rank)} cards at once"
            )
        if rank < CLEAR and self.top and rank < self.top:
            cards = " and ".join(CODES[k] for k in kinds)
            raise IllegalMove(
                f"{cards} {'is' if len(kinds) == 1 else 'are'} lower than the "
                f"{self.top} on top of the discard pile"
            )
        return kinds, from_hand

    def _not_held(self, s: int, kind: int, from_hand: bool) -> str:
        where = "hand" if from_hand else "face-up cards"
        if from_hand and self.up[s][kind]:
            return (
                f"{CODES[kind]} is face up: face-up cards may be played only once the "
                "hand and the draw pile are empty (D4)"
            )
        return f"{CODES[kind]} ({describe(kind)}) is not in the {where} of {self._seat(s)}"

    def why_not(self, action: int) -> str:
        s = self.seat
        if self.phase != Phase.PLAY:
            return "the game is over" if self.phase == Phase.OVER else "the game has not started"
        if action == DRAW:
            if not self.draw_open:
                return DRAW_NOT_OPEN
            if self.hand_size[s] >= HAND_TARGET:
                return "the early draw is only for a hand of fewer than 3 cards"
            return "the draw pile is empty"
        if action == PICKUP:
            if self.can_draw():
                return "you may not pick up while you can draw (D12): draw first"
            return "you may not pick up while you have a legal discard (D12)"
        if FLIP <= action < PICKUP:
            slot = action - FLIP
            source = self._source_words(s)
            if source != "face-down":
                return (
                    "face-down cards are played only once the hand, the draw pile "
                    "and the face-up cards are gone"
                )
            if not 0 <= slot <= 2:
                return f"there is no face-down slot {slot}"
            # Numbered as the table shows them (f then 1-3), as seats are 1-based.
            return f"face-down card {slot + 1} is already played"
        if action < FLIP:
            return f"you cannot {describe_action(action)} now"
        return f"{action} is not an action"

    # ------------------------------------------------------------- mechanics
    def _give(self, s: int, kind: int, public: bool) -> None:
        self.add_to_hand(s, (kind,))
        if public:
            self.known[s][kind] += 1

    def _take(self, s: int, kind: int) -> None:
        hand = self.hand[s]
        hand[kind] -= 1
        rank = RANK_OF[kind]
        self.hand_rank[s][rank] -= 1
        if not self.hand_rank[s][rank]:
            self.hand_mask[s] &= ~(1 << rank)
        self.hand_size[s] -= 1
        # Public knowledge, exactly: a copy played is one known copy fewer.
        # Never clamp to the cards still held: that would tell everyone
        # whether an unseen copy of the same card is left (a hidden card).
        known = self.known[s]
        if known[kind]:
            known[kind] -= 1

    def _play(self, s: int, kinds: list[int], from_hand: bool) -> None:
        if from_hand:
            for kind in kinds:
                self._take(s, kind)
        else:
            up = self.up[s]
            up_rank = self.up_rank[s]
            for kind in kinds:
                up[kind] -= 1
                up_rank[RANK_OF[kind]] -= 1
            self.up_size[s] -= len(kinds)
        self._discard(s, tuple(kinds), M_PLAY, tuple(kinds), 0)

    def _discard(
        self, s: int, kinds: tuple[int, ...], mtype: int, arg: object, detail: int
    ) -> None:
        """Put played cards on the pile, resolve clears, extras and the win,
        and write the move into the history."""
        rank = RANK_OF[kinds[0]]
        pile = self.pile
        pile.extend(kinds)
        if rank >= CLEAR:
            cleared = True
            self.pending += rank - CLEAR  # Clear +1: one extra, +2: two (D7, D9)
        else:
            if rank == self.top:
                self.run += len(kinds)
            else:
                self.top = rank
                self.run = len(kinds)
            cleared = self.run >= 3  # three of a kind, by one player or several
        effects = 0
        if cleared:
            self.cleared.extend(pile)
            self.pile = []
            self.top = 0
            self.run = 0
            effects = E_CLEARED
        self.pending -= 1
        self.draw_open = rank >= CLEAR1
        if not (self.hand_size[s] or self.up_size[s] or self.down_size[s]):
            self.history.append((s, mtype, arg, effects | E_OUT, detail))
            self.started = False
            self._go_out(s)
        elif self.pending == 0:
            self.history.append((s, mtype, arg, effects | E_TURN_END, detail))
            self._end_turn(s)
        else:
            self.history.append((s, mtype, arg, effects, detail))
            self.started = True

    def _flip(self, s: int, slot: int) -> None:
        kind = self.down[s][slot]
        self.down[s][slot] = -1
        self.down_size[s] -= 1
        rank = RANK_OF[kind]
        if rank >= CLEAR or not self.top or rank >= self.top:
            self._discard(s, (kind,), M_FLIP, slot, kind)
            return
        # The turned card cannot be played: it goes up with the pile (rules, D14).
        # Detail packs the turned card and how many cards were taken.
        self.pile.append(kind)
        effects = E_FLIP_FAILED | E_PICKED_UP | E_TURN_END
        self.history.append((s, M_FLIP, slot, effects, kind | (len(self.pile) << 8)))
        self._take_pile(s)
        self._end_turn(s)

    def _pickup(self, s: int) -> None:
        taken = len(self.pile)
        self.history.append((s, M_PICKUP, 0, E_PICKED_UP | E_TURN_END, taken))
        self._take_pile(s)  # D13: an empty pile takes nothing and still ends the turn
        self._end_turn(s)

    def add_to_hand(self, s: int, kinds: Sequence[int]) -> None:
        """Put ``kinds`` into seat ``s``'s hand: its counts by kind and by
        rank, its rank mask and its size (who may know of them is the
        caller's business)."""
        hand = self.hand[s]
        hand_rank = self.hand_rank[s]
        mask = self.hand_mask[s]
        for kind in kinds:
            hand[kind] += 1
            rank = RANK_OF[kind]
            hand_rank[rank] += 1
            mask |= 1 << rank
        self.hand_mask[s] = mask
        self.hand_size[s] += len(kinds)

    def _take_pile(self, s: int) -> None:
        pile = self.pile
        self.add_to_hand(s, pile)
        known = self.known[s]  # everyone saw these cards go into the hand
        for kind in pile:
            known[kind] += 1
        self.pile = []
        self.top = 0
        self.run = 0

    def _draw_early(self, s: int) -> None:
        drawn = self._refill(s)
        self.draw_open = False
        self.history.append((s, M_DRAW, 0, 0, drawn))

    def _refill(self, s: int) -> int:
        """Draw until the hand holds 3 or the draw pile is empty; how many."""
        pos = self.draw_pos
        drawn = min(HAND_TARGET - self.hand_size[s], DECK_SIZE - pos)
        if drawn <= 0:
            return 0
        self.add_to_hand(s, self.deck[pos : pos + drawn])
        self.draw_pos = pos + drawn
        return drawn

    def _end_turn(self, s: int) -> None:
        """The end-of-turn draw (after a pick-up too, D14), then play passes on."""
        self.started = False
        if self.draw_pos < DECK_SIZE and self.hand_size[s] < HAND_TARGET:
            self._refill(s)
        self.turns += 1
        if self.turns >= TURN_LIMIT:
            self.phase = Phase.OVER  # D16: stalemate (or the places so far)
            return
        n = self.n
        nxt = (s + 1) % n
        out = self.out
        while out[nxt]:
            nxt = (nxt + 1) % n
        self.seat = nxt
        self.pending = 1
        self.draw_open = False

    def _go_out(self, s: int) -> None:
        if self.options.finish != PLACES:
            self.winner = s
            self.phase = Phase.OVER
            return
        self.out[s] = True
        self.places.append(s)
        if self.winner is None:
            self.winner = s
        holders = [p for p in range(self.n) if not self.out[p]]
        if len(holders) == 1:
            self.places.append(holders[0])
            self.out[holders[0]] = True
            self.phase = Phase.OVER
            return
        # D18: the pile stays and the next player still holding cards goes on
        # (the draw pile is empty, so the end-of-turn draw takes nothing).
        self._end_turn(s)

    # ------------------------------------------------------------ inspection
    def hand_kinds(self, s: int) -> list[int]:
        return [k for k in range(N_KINDS) for _ in range(self.hand[s][k])]

    def up_kinds(self, s: int) -> list[int]:
        return [k for k in range(N_KINDS) for _ in range(self.up[s][k])]

    def known_kinds(self, s: int) -> list[int]:
        return [k for k in range(N_KINDS) for _ in range(self.known[s][k])]

    def count_cards(self) -> int:
        """Every card in play, to check that none is lost or made (74)."""
        total = DECK_SIZE - self.draw_pos + len(self.pile) + len(self.cleared)
        for s in range(self.n):
            total += self.hand_size[s] + self.up_size[s] + self.down_size[s]
        return total

    def snapshot(self) -> dict[str, object]:
        """Everything that makes this state, for comparing two replays."""
        return {
            "phase": int(self.phase),
            "seat": self.seat,
            "hand": [list(h) for h in self.hand],
            "up": [list(u) for u in self.up],
            "down": [list(d) for d in self.down],
            "known": [list(k) for k in self.known],
            "pile": list(self.pile),
            "cleared": list(self.cleared),
            "draw_pos": self.draw_pos,
            "pending": self.pending,
            "draw_open": self.draw_open,
            "turns": self.turns,
            "winner": self.winner,
            "places": list(self.places),
            "started": self.started,
            "moves_played": self.moves_played,
            "history": list(self.history),
        }

    def moves(self, start: int = 0) -> list[Move]:
        """The concrete moves so far (from move ``start`` on), as a record
        writes them."""
        out: list[Move] = []
        for seat, mtype, arg, _effects, _detail in islice(self.history, start, None):
            if mtype == M_PLAY:
                assert isinstance(arg, tuple)
                out.append(Move.play(seat, tuple(CODES[k] for k in arg)))
            elif mtype == M_FLIP:
                assert isinstance(arg, int)
                out.append(Move.flip(seat, arg))
            elif mtype == M_PICKUP:
                out.append(Move.pickup(seat))
            else:
                out.append(Move.draw(seat))
        return out
