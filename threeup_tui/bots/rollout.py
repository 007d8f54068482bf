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

Only ``finish: first_out`` (the default) is played here: with ``places``
the order of the others matters, and play_out serves it.
"""

from __future__ import annotations

from ..rules.actions import FLIP, PICKUP
from ..rules.cards import CLEAR, CLEAR1, DECK_SIZE, RANK_OF
from ..rules.options import PLACES
from ..rules.state import HAND_TARGET, TURN_LIMIT, GameState, Phase
from .policy import CLEARS_OTHERWISE, CLEARS_WITH_CARDS_LEFT, greedy_choice, greedy_face_up


def plays_on_ranks(state: GameState) -> bool:
    """Whether :func:`greedy_winner` can play this state's game."""
    return state.options.finish != PLACES


def greedy_winner(state: GameState, thrifty: int | None = None) -> int | None:
    """The winner of ``state`` played to its end by greedy's rule at every
    seat but ``thrifty``, which plays the thrifty rule (bots/policy.py: the
    plain Clear first), or None for a stalemate (D16).  Seats still to
    choose face-up cards choose greedy's.  ``state`` itself is left as it was."""
    if state.phase is Phase.OVER:
        return state.winner
    if state.phase is Phase.SETUP:
        state = state.clone()
        for seat in range(state.n):
            if state.setup[seat] is None:
                state.choose_face_up(seat, greedy_face_up(state.setup_hand(seat)))
    n = state.n
    hand = [h[:] for h in state.hand_rank]
    hand_size = state.hand_size[:]
    up = [u[:] for u in state.up_rank]
    up_size = state.up_size[:]
    down = [[RANK_OF[k] if k >= 0 else -1 for k in d] for d in state.down]
    down_size = state.down_size[:]
    deck = [RANK_OF[k] for k in state.deck]
    pos = state.draw_pos
    pile = [RANK_OF[k] for k in state.pile]
    top = state.top
    run = state.run
    pending = state.pending
    draw_open = state.draw_open
    turns = state.turns
    s = state.seat
    while True:
        held = hand_size[s]
        if draw_open and held < HAND_TARGET and pos < DECK_SIZE:
            # Greedy takes the optional draw whenever it is open (D10).
            pos = _refill(hand[s], hand_size, s, deck, pos)
            draw_open = False
            continue
        # This discard action: a rank played from the hand, the face-up
        # cards or a flip; or 0, a pick-up (forced, D11/D12, or a failed flip).
        rank = 0
        count = 1
        if held or (pos >= DECK_SIZE and up_size[s]):
            src = hand[s] if held else up[s]
            rank = top if top else 1
            while rank <= 10 and not src[rank]:
                rank += 1
            if rank <= 10:
                count = src[rank]  # the lowest number, every copy
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
            slots = down[s]
            slot = 0
            while slots[slot] < 0:
                slot += 1
            rank = slots[slot]
            slots[slot] = -1
            down_size[s] -= 1
            if rank < CLEAR and top and rank < top:
                pile.append(rank)  # the turned card goes up with the pile
                rank = 0
        if rank:
            if rank >= CLEAR:
                pile = []
                top = run = 0
                pending += rank - CLEAR
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
            # The pile goes into the hand (a forced pick-up, a failed flip).
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
    """The winner of ``state`` when ``seat`` looks one decision ahead.

    Play goes as in :func:`greedy_winner` (``seat`` by the thrifty rule, or
    by greedy's if not ``thrifty``) up to ``seat``'s next decision with a
    real choice (not a lone action, not which face-down card to turn); there
    each of its actions is played out so, and ``seat`` wins if any of them
    wins on this deal.  Otherwise the winner is that of its first action.
    Knowing the deal, the choice is optimistic (it picks what wins *this*
    deal), but it is made for a decision the seat will search for itself
    when it comes, where the thrifty rule plays it blind.  ``state`` is left
    as it was."""
    careful = seat if thrifty else None  # the seat that plays the thrifty rule
    if state.phase is not Phase.PLAY:
        return greedy_winner(state, careful)
    state = state.clone()
    while True:
        legal = state.legal_actions()
        s = state.seat
        if len(legal) == 1:
            state.apply(legal[0])
        elif s == seat and not FLIP <= legal[0] < PICKUP:
            break
        else:
            state.apply(greedy_choice(legal, state.hand_size[s], s == careful))
        if state.phase is not Phase.PLAY:
            return state.winner
    first: int | None = None
    for i, action in enumerate(legal):
        trial = state.clone()
        trial.apply(action)
        winner = greedy_winner(trial, careful)
        if winner == seat:
            return seat
        if i == 0:
            first = winner
    return first


def _refill(mine: list[int], hand_size: list[int], s: int, deck: list[int], pos: int) -> int:
    """Draw until the hand holds 3 or the draw pile is empty; the new position."""
    take = min(HAND_TARGET - hand_size[s], DECK_SIZE - pos)
    for rank in deck[pos : pos + take]:
        mine[rank] += 1
    hand_size[s] += take
    return pos + take
