"""Greedy's playout on ranks alone: who wins if every seat plays greedy's rule
(one seat, the searching one, may play the thrifty rule: bots/policy.py).

A search spends nearly all its time playing deals out.  The engine's
``apply`` keeps everything a record and a view need (card kinds, known
cards, the cleared cards, a history), and greedy reads none of it: only the
ranks in each hand, face-up and face-down, the draw pile's order and the
pile's top.  This copy of the rules plays on those alone, with greedy's
choice (bots/policy.py: greedy_choice) made inline, about four times as fast
as ``play_out``.  It must play exactly the engine's game:
tests/bots/test_rollout.py plays both from thousands of positions and
compares the winners.

The search's own actions are played here too: a deal is turned into
:class:`Ranks` once, and each action it tries is applied to a copy by
:func:`play_ranks` (the engine's ``clone`` and ``apply`` per action cost
more than the playout after them).  The endgame lookahead
(:func:`lookahead_ranks`) stops the same loop at the seat's next real
choice and lists its actions as the engine would (:func:`rank_actions`).

Only ``finish: first_out`` (the default) is played here: with ``places``
the order of the others matters, and play_out serves it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..rules.actions import DRAW, FLIP, PICKUP
from ..rules.cards import CLEAR, CLEAR1, DECK_SIZE, RANK_OF
from ..rules.options import PLACES
from ..rules.state import HAND_TARGET, TURN_LIMIT, GameState, Phase
from .policy import CLEARS_OTHERWISE, CLEARS_WITH_CARDS_LEFT, SPLIT_FROM, greedy_face_up


def plays_on_ranks(state: GameState) -> bool:
    """Whether :func:`greedy_winner` can play this state's game."""
    return state.options.finish != PLACES


STOP: Final = -2  # play_ranks stopped at the seat's decision (see there)


class Ranks:
    """A deal as greedy's game on ranks reads it: by seat, rank counts of
    the hand and the face-up cards, face-down ranks (-1: none), and the draw
    pile, the pile, whose turn it is and the turn's progress.  The deck is
    shared between copies: play only moves ``pos`` along it."""

    __slots__ = (
        "deck", "down", "down_size", "draw_open", "hand", "hand_size", "pending",
        "pile", "pos", "run", "seat", "top", "turns", "up", "up_size", "voluntary",
    )  # fmt: skip

    hand: list[list[int]]
    hand_size: list[int]
    up: list[list[int]]
    up_size: list[int]
    down: list[list[int]]
    down_size: list[int]
    deck: list[int]
    pos: int
    pile: list[int]
    top: int
    run: int
    pending: int
    draw_open: bool
    turns: int
    seat: int
    voluntary: bool

    def copy(self) -> Ranks:
        new: Ranks = object.__new__(Ranks)
        new.hand = [h[:] for h in self.hand]
        new.hand_size = self.hand_size[:]
        new.up = [u[:] for u in self.up]
        new.up_size = self.up_size[:]
        new.down = [d[:] for d in self.down]
        new.down_size = self.down_size[:]
        new.deck = self.deck
        new.pos = self.pos
        new.pile = self.pile[:]
        new.top = self.top
        new.run = self.run
        new.pending = self.pending
        new.draw_open = self.draw_open
        new.turns = self.turns
        new.seat = self.seat
        new.voluntary = self.voluntary
        return new


def ranks_of(state: GameState) -> Ranks:
    """The state's deal on ranks, in play (a state in set-up: every seat
    still to choose lays greedy's face-up cards first)."""
    if state.phase is Phase.SETUP:
        state = state.clone()
        for seat in range(state.n):
            if state.setup[seat] is None:
                state.choose_face_up(seat, greedy_face_up(state.setup_hand(seat)))
    r: Ranks = object.__new__(Ranks)
    r.hand = [h[:] for h in state.hand_rank]
    r.hand_size = state.hand_size[:]
    r.up = [u[:] for u in state.up_rank]
    r.up_size = state.up_size[:]
    r.down = [[RANK_OF[k] if k >= 0 else -1 for k in d] for d in state.down]
    r.down_size = state.down_size[:]
    r.deck = [RANK_OF[k] for k in state.deck]
    r.pos = state.draw_pos
    r.pile = [RANK_OF[k] for k in state.pile]
    r.top = state.top
    r.run = state.run
    r.pending = state.pending
    r.draw_open = state.draw_open
    r.turns = state.turns
    r.seat = state.seat
    r.voluntary = state.voluntary
    return r


def laid_ranks(kinds: Sequence[int], trio: Sequence[int]) -> tuple[list[int], list[int]]:
    """Rank counts of a seat's hand and face-up cards once it lays ``trio``
    of its six set-up cards ``kinds`` face up: what the set-up search puts
    in a deal's :class:`Ranks` for each choice it tries."""
    hand = [0] * 14
    up = [0] * 14
    for kind in kinds:
        hand[RANK_OF[kind]] += 1
    for kind in trio:
        hand[RANK_OF[kind]] -= 1
        up[RANK_OF[kind]] += 1
    return hand, up


def greedy_winner(state: GameState, thrifty: int | None = None) -> int | None:
    """The winner of ``state`` played to its end by greedy's rule at every
    seat but ``thrifty``, which plays the thrifty rule (bots/policy.py: the
    plain Clear first), or None for a stalemate (D16).  Seats still to
    choose face-up cards choose greedy's.  ``state`` itself is left as it was."""
    if state.phase is Phase.OVER:
        return state.winner
    return play_ranks(ranks_of(state), thrifty)


def rank_actions(r: Ranks) -> list[int]:
    """The engine's legal action ids for the seat to act (GameState.legal_actions)."""
    s = r.seat
    legal: list[int] = []
    src = None
    if r.hand_size[s]:
        src = r.hand[s]
    elif r.pos < DECK_SIZE:
        pass  # D11: the tableau is not playable yet
    elif r.up_size[s]:
        src = r.up[s]
    else:
        legal.extend(FLIP + slot for slot, rank in enumerate(r.down[s]) if rank >= 0)
    if src is not None:
        for rank in range(r.top or 1, 14):
            held = src[rank]
            if held:
                most = 1 if rank >= CLEAR else min(held, 6)  # one Clear at a time
                legal.extend(range(rank * 8 + 1, rank * 8 + most + 1))
    if r.draw_open and r.hand_size[s] < HAND_TARGET and r.pos < DECK_SIZE:
        legal.append(DRAW)
    if not legal or r.voluntary:
        legal.append(PICKUP)
    return legal


def play_ranks(
    r: Ranks, thrifty: int | None = None, action: int | None = None, stop: int | None = None
) -> int | None:
    """Play ``r`` on (changing it) by greedy's rule (``thrifty``'s seat by
    the thrifty one), after ``action`` (an action id legal for the seat to
    act) if one is given; the winner, or None for a stalemate.  With
    ``stop``, play stops at that seat's next decision with a real choice
    (more than one action, not which face-down card to turn), ``r`` is left
    there and STOP is returned."""
    n = len(r.hand)
    hand = r.hand
    hand_size = r.hand_size
    up = r.up
    up_size = r.up_size
    down = r.down
    down_size = r.down_size
    deck = r.deck
    pos = r.pos
    pile = r.pile
    top = r.top
    run = r.run
    pending = r.pending
    draw_open = r.draw_open
    turns = r.turns
    s = r.seat
    while True:
        held = hand_size[s]
        rank = 0
        count = 1
        if action is None:
            if s == stop:
                r.pos, r.pile, r.top, r.run = pos, pile, top, run
                r.pending, r.draw_open, r.turns, r.seat = pending, draw_open, turns, s
                legal = rank_actions(r)
                if len(legal) > 1 and not FLIP <= legal[0] < PICKUP:
                    return STOP
            if draw_open and held < HAND_TARGET and pos < DECK_SIZE:
                # Greedy takes the optional draw whenever it is open (D10).
                pos = _refill(hand[s], hand_size, s, deck, pos)
                draw_open = False
                continue
            # This discard action: a rank played from the hand, the face-up
            # cards or a flip; or 0, a pick-up (forced, D11/D12, or a failed flip).
            if held or (pos >= DECK_SIZE and up_size[s]):
                src = hand[s] if held else up[s]
                rank = top if top else 1
                while rank <= 10 and not src[rank]:
                    rank += 1
                if rank <= 10:
                    count = src[rank]  # the lowest number, every copy
                    if count > 1 and s == thrifty and rank >= SPLIT_FROM and pos < DECK_SIZE:
                        count = 1  # the thrifty rule keeps the others back
                else:
                    keen = held > 1 and s != thrifty
                    order = CLEARS_WITH_CARDS_LEFT if keen else CLEARS_OTHERWISE
                    for rank in order:  # the first Clear held is the one played
                        if src[rank]:
                            break
                    else:
                        rank = 0
                if rank:
                    src[rank] -= count
                    if held:
                        hand_size[s] = held - count
                    else:
                        up_size[s] -= count
            elif pos >= DECK_SIZE:
                rank = _turn(down[s], down_size, s, -1, top, pile)
        else:
            chosen = action
            action = None
            if chosen == DRAW:
                pos = _refill(hand[s], hand_size, s, deck, pos)
                draw_open = False
                continue
            if chosen >= FLIP:
                if chosen < PICKUP:
                    rank = _turn(down[s], down_size, s, chosen - FLIP, top, pile)
            else:
                rank = chosen >> 3
                count = chosen & 7
                if held:
                    hand[s][rank] -= count
                    hand_size[s] = held - count
                else:
                    up[s][rank] -= count
                    up_size[s] -= count
        if rank:
            if rank >= CLEAR:
                pile = []
                top = run = 0
                pending += rank - CLEAR
            else:
                if count == 1:
                    pile.append(rank)
                else:
                    pile.extend([rank] * count)
                if rank == top:
                    run += count
                else:
                    top = rank
                    run = count
                if run >= 3:
                    pile = []
                    top = run = 0
            pending -= 1
            draw_open = rank >= CLEAR1
            if not (hand_size[s] or up_size[s] or down_size[s]):
                return s
            if pending:
                continue
        else:
            # The pile goes into the hand (a pick-up, a failed flip).
            mine = hand[s]
            for x in pile:
                mine[x] += 1
            hand_size[s] += len(pile)
            pile = []
            top = run = 0
        # The end of the turn: the draw (D14), then play passes on.  (The
        # refill written out: this runs every turn.)
        held = hand_size[s]
        if held < HAND_TARGET and pos < DECK_SIZE:
            mine = hand[s]
            while held < HAND_TARGET and pos < DECK_SIZE:
                mine[deck[pos]] += 1
                pos += 1
                held += 1
            hand_size[s] = held
        turns += 1
        if turns >= TURN_LIMIT:
            return None
        s = s + 1 if s + 1 < n else 0
        pending = 1
        draw_open = False


def lookahead_winner(state: GameState, seat: int, thrifty: bool = True) -> int | None:
    """The winner of ``state`` when ``seat`` looks one decision ahead
    (:func:`lookahead_ranks` on the state's deal).  ``state`` is left as it was."""
    if state.phase is not Phase.PLAY:
        return greedy_winner(state, seat if thrifty else None)
    return lookahead_ranks(ranks_of(state), seat, thrifty)


def lookahead_ranks(
    r: Ranks, seat: int, thrifty: bool = True, action: int | None = None
) -> int | None:
    """The winner of ``r`` (after ``action``, if given) when ``seat`` looks
    one decision ahead.

    Play goes as in :func:`play_ranks` (``seat`` by the thrifty rule, or by
    greedy's if not ``thrifty``) up to ``seat``'s next decision with a real
    choice; there each of its actions is played out so, and ``seat`` wins
    if any of them wins on this deal.  Otherwise the winner is that of its
    first action.  Knowing the deal, the choice is optimistic (it picks what
    wins *this* deal), but it is made for a decision the seat will search
    for itself when it comes, where the thrifty rule plays it blind.  ``r``
    is changed."""
    careful = seat if thrifty else None  # the seat that plays the thrifty rule
    winner = play_ranks(r, careful, action, seat)
    if winner != STOP:
        return winner
    first: int | None = None
    for i, choice in enumerate(rank_actions(r)):
        winner = play_ranks(r.copy(), careful, choice)
        if winner == seat:
            return seat
        if i == 0:
            first = winner
    return first


def _turn(
    slots: list[int], down_size: list[int], s: int, slot: int, top: int, pile: list[int]
) -> int:
    """Turn a face-down card (the first one left if ``slot`` is -1): its
    rank, or 0 when it cannot go on ``top`` and goes up with the pile (the
    seat then picks the pile up)."""
    if slot < 0:
        slot = 0
        while slots[slot] < 0:
            slot += 1
    rank = slots[slot]
    slots[slot] = -1
    down_size[s] -= 1
    if rank < CLEAR and top and rank < top:
        pile.append(rank)
        return 0
    return rank


def _refill(mine: list[int], hand_size: list[int], s: int, deck: list[int], pos: int) -> int:
    """Draw until the hand holds 3 or the draw pile is empty; the new position."""
    take = min(HAND_TARGET - hand_size[s], DECK_SIZE - pos)
    for rank in deck[pos : pos + take]:
        mine[rank] += 1
    hand_size[s] += take
    return pos + take
