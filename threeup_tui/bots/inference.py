"""What the other seats' unseen hand cards can be, from public events.

The uniform determinizer (rules/search.py) deals every unseen card anywhere
unseen.  The public log says more: this module replays it (sizes, the pile,
known cards: all public) and keeps, for every unseen card in another seat's
hand, the ranks it can have:

- *certain* (the rules): a pick-up that was forced (``voluntary_pickup``
  off) says the hand held no card that could go on the pile: every unseen
  card in it was a number below the top;
- *likely* (a model of sensible play, greedy's): a seat lays its strongest
  cards face up, so its hand holds none stronger than its weakest face-up
  card; it plays its lowest playable number with every copy, so it held
  none between the top and the number played, and no other copy; it plays
  a Clear only when no number can go; it takes the optional draw.

Each seat's *trust* is how often its checkable decisions agreed with the
model (a seat that played a 9 holding a known 5 does not play that way); a
sample applies a seat's likely ranks with that probability, and the certain
ones always.  The cards are then dealt by :meth:`Determinizer.deal`, the
tested primitive: hand cards drawn from a uniform shuffle, first fit, the
rest of the shuffle into the other unseen places.

It needs the whole log (a view with ``log_length=None``); given a shorter
one, or one that does not add up, it knows nothing and sampling is uniform.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from ..rules.cards import CLEAR, CLEAR1, DECK_SIZE, N_KINDS, RANK_OF, parse_code
from ..rules.search import HAND, Determinizer
from ..rules.state import GameState
from ..rules.views import View
from .policy import CLEARS_OTHERWISE, CLEARS_WITH_CARDS_LEFT, setup_value

ALL: Final = ((1 << 14) - 1) & ~1  # ranks 1-13
NUMBERS: Final = ((1 << 11) - 1) & ~1  # ranks 1-10


def _between(low: int, high: int) -> int:
    """Ranks ``low`` to ``high - 1``."""
    return ((1 << high) - 1) & ~((1 << low) - 1) if high > low else 0


class _Slot:
    """One unseen hand card: the ranks it can have."""

    __slots__ = ("certain", "likely")

    def __init__(self) -> None:
        self.certain = ALL
        self.likely = ALL


@dataclass(frozen=True, slots=True)
class Beliefs:
    """Per seat, the rank masks of its unseen hand cards and its trust."""

    certain: dict[int, tuple[int, ...]]
    likely: dict[int, tuple[int, ...]]
    trust: dict[int, float]
    evidence: dict[int, tuple[int, int]]  # (plays that agreed with the model, plays checked)


class _Replay:
    """The public course of the game, move by move from the first."""

    def __init__(self, view: View) -> None:
        n = len(view.names)
        self.n = n
        self.me = view.seat
        self.hand = [3] * n
        self.up = [3] * n
        self.down = [3] * n
        self.known = [[0] * N_KINDS for _ in range(n)]
        self.draw = DECK_SIZE - 9 * n
        self.pile: list[int] = []
        self.top = 0
        self.run = 0
        self.pending = 1
        self.draw_open = False
        self.voluntary = view.options.voluntary_pickup
        self.slots: list[list[_Slot]] = [[_Slot() for _ in range(3)] for _ in range(n)]
        self.checked = [0] * n
        self.agreed = [0] * n
        self.first_up: list[list[int]] = [[] for _ in range(n)]  # face-up cards played


def _discard(r: _Replay, seat: int, rank: int, count: int) -> None:
    """A card or a multiple lands on the pile: clears, extras, the turn."""
    if rank >= CLEAR:
        r.pile = []
        r.top = r.run = 0
        r.pending += rank - CLEAR
    else:
        if rank == r.top:
            r.run += count
        else:
            r.top, r.run = rank, count
        if r.run >= 3:
            r.pile = []
            r.top = r.run = 0
    r.pending -= 1
    r.draw_open = rank >= CLEAR1
    if not (r.hand[seat] or r.up[seat] or r.down[seat]):
        r.pending = 1  # out: play passes on (the draw pile is empty by then)
        r.draw_open = False
    elif r.pending == 0:
        _end_turn(r, seat)


def _end_turn(r: _Replay, seat: int) -> None:
    drawn = min(3 - r.hand[seat], r.draw) if r.hand[seat] < 3 else 0
    if drawn > 0:
        _draw(r, seat, drawn)
    r.pending = 1
    r.draw_open = False


def _draw(r: _Replay, seat: int, count: int) -> None:
    r.hand[seat] += count
    r.draw -= count
    r.slots[seat].extend(_Slot() for _ in range(count))


def _take_unseen(r: _Replay, seat: int, rank: int) -> bool:
    """A card of ``rank`` left the unseen part of the hand: drop the slot
    that most likely held it (the fewest ranks that allow it, the certain
    ones first); False if the model said no unseen card could be it."""
    slots = r.slots[seat]
    bit = 1 << rank
    fitting = [s for s in slots if s.certain & bit]
    if not fitting:
        return False  # not a card this hand could hold: the replay is off
    # The certain masks are all "below some top", nested: dropping the
    # tightest that fits keeps every true hand fitting the rest.
    slots.remove(
        min(fitting, key=lambda s: (s.certain.bit_count(), (s.likely & s.certain).bit_count()))
    )
    return any(s.likely & bit for s in fitting)


def _narrow(r: _Replay, seat: int, mask: int, certain: bool) -> None:
    """Every unseen card of the seat's hand has a rank in ``mask``."""
    for slot in r.slots[seat]:
        if certain:
            slot.certain &= mask
        else:
            slot.likely &= mask


def _model_play(r: _Replay, seat: int, rank: int, count: int) -> int | None:
    """The ranks greedy's rule leaves in the hand after this play from it,
    or None when the play is not greedy's given what is public (the seat
    could draw, or its known cards had a lower number that could go)."""
    held = [0] * 14
    for kind in range(N_KINDS):
        held[RANK_OF[kind]] += r.known[seat][kind]
    low = max(r.top, 1)
    if r.draw_open and r.hand[seat] < 3 and r.draw > 0:
        return None  # greedy would have drawn
    if rank < CLEAR:
        if any(held[x] for x in range(low, rank)) or held[rank] > count:
            return None
        return ALL & ~_between(low, rank + 1)  # nothing from the top up, no other copy
    if any(held[x] for x in range(low, 11)):
        return None
    mask = ALL & ~_between(low, 11)  # no number that could go
    after = r.hand[seat] - 1
    preferred = CLEARS_WITH_CARDS_LEFT if after > 0 else CLEARS_OTHERWISE
    for better in preferred[: preferred.index(rank)]:
        mask &= ~(1 << better)
    return mask


def _play(r: _Replay, seat: int, kinds: list[int]) -> None:
    rank = RANK_OF[kinds[0]]
    if r.hand[seat]:
        if seat != r.me:
            mask = _model_play(r, seat, rank, len(kinds))
            fits = True
            for kind in kinds:
                if r.known[seat][kind]:
                    r.known[seat][kind] -= 1
                else:
                    fits = _take_unseen(r, seat, rank) and fits
            # A play is evidence for the model when it is greedy's as far as
            # anyone can tell: what was known allowed it, and every unseen
            # card played was one the model allowed.
            r.checked[seat] += 1
            if mask is not None and fits:
                r.agreed[seat] += 1
                _narrow(r, seat, mask, False)
        else:
            for kind in kinds:
                if r.known[seat][kind]:
                    r.known[seat][kind] -= 1
        r.hand[seat] -= len(kinds)
    else:
        r.up[seat] -= len(kinds)
        r.first_up[seat].extend(kinds)
    r.pile.extend(kinds)
    _discard(r, seat, rank, len(kinds))


def _pick_up(r: _Replay, seat: int, cards: list[int]) -> None:
    """The pile (and a failed flip's card) go into the hand, seen by all."""
    for kind in cards:
        r.known[seat][kind] += 1
    r.hand[seat] += len(cards)
    r.pile = []
    r.top = r.run = 0
    _end_turn(r, seat)


def replay_beliefs(view: View) -> Beliefs | None:
    """The beliefs about every other seat's unseen hand cards, or None when
    the view's log does not reach back to the first move or does not add up."""
    if view.seat is None or view.phase == "setup" or len(view.log) != view.moves_played:
        return None
    # Two passes: the first finds every seat's first face-up cards (those
    # shown now and those played since), which the second needs from the start.
    first = _replay(view, None)
    if first is None:
        return None
    face_up = [
        [parse_code(c) for c in info.face_up] + first.first_up[info.seat] for info in view.seats
    ]
    r = _replay(view, face_up)
    return None if r is None else _beliefs(r, view)


def _replay(view: View, face_up: list[list[int]] | None) -> _Replay | None:
    r = _Replay(view)
    if face_up is not None:
        for s, cards in enumerate(face_up):
            # Greedy's set-up: the three strongest cards face up, so none of
            # the three kept in hand is stronger than the weakest of them.
            weakest = min((setup_value(RANK_OF[k]) for k in cards), default=16)
            mask = sum(1 << x for x in range(1, 14) if setup_value(x) <= weakest)
            for slot in r.slots[s]:
                slot.likely = mask
    try:
        for entry in view.log:
            seat = entry.seat
            if entry.kind == "play":
                _play(r, seat, [parse_code(c) for c in entry.cards])
            elif entry.kind == "flip":
                kind = parse_code(entry.cards[0])
                r.down[seat] -= 1
                if entry.flip_failed:
                    _pick_up(r, seat, [*r.pile, kind])
                else:
                    r.pile.append(kind)
                    _discard(r, seat, RANK_OF[kind], 1)
            elif entry.kind == "pickup":
                if not r.voluntary and seat != r.me and r.top:
                    _narrow(r, seat, _between(1, r.top), True)
                _pick_up(r, seat, list(r.pile))
            else:
                _draw(r, seat, entry.drawn)
                r.draw_open = False
    except (IndexError, ValueError, KeyError):
        return None
    return r


def _beliefs(r: _Replay, view: View) -> Beliefs | None:
    if r.draw != view.draw_size or [parse_code(c) for c in view.pile] != r.pile:
        return None
    certain: dict[int, tuple[int, ...]] = {}
    likely: dict[int, tuple[int, ...]] = {}
    trust: dict[int, float] = {}
    evidence: dict[int, tuple[int, int]] = {}
    for info in view.seats:
        s = info.seat
        known = sorted(parse_code(c) for c in info.known)
        if r.hand[s] != info.hand_size or sorted(_kinds_of(r.known[s])) != known:
            return None
        if s == r.me:
            continue
        slots = r.slots[s]
        if len(slots) != info.hand_size - len(info.known):
            return None
        certain[s] = tuple(slot.certain for slot in slots)
        likely[s] = tuple(slot.likely for slot in slots)
        # Laplace's rule: a seat never checked is trusted half way.
        trust[s] = (r.agreed[s] + 1) / (r.checked[s] + 2)
        evidence[s] = (r.agreed[s], r.checked[s])
    return Beliefs(certain, likely, trust, evidence)


def _kinds_of(counts: list[int]) -> list[int]:
    return [k for k in range(N_KINDS) for _ in range(counts[k])]


def erratic(agreed: int, checked: int) -> float:
    """How often to model a seat's moves as random rather than greedy's in
    rollouts, from how its plays agreed with greedy's rule: never for a seat
    that plays that way (the prior is four agreeing plays in five), up to
    always for one that agrees about half the time (a random player)."""
    agreement = (agreed + 4) / (checked + 5)
    return min(1.0, max(0.0, (0.8 - agreement) / 0.3))


class InformedDealer:
    """Samples like the determinizer, with the beliefs applied to the other
    seats' unseen hand cards (see the module)."""

    __slots__ = ("beliefs", "dealer", "seat")

    def __init__(self, view: View) -> None:
        self.dealer = Determinizer(view)
        self.seat = self.dealer.seat
        self.beliefs = replay_beliefs(view)

    def sample(self, rng: random.Random) -> GameState:
        beliefs = self.beliefs
        if beliefs is None:
            return self.dealer.sample(rng)
        pool = list(self.dealer.unseen)
        rng.shuffle(pool)
        hands: list[int] = []
        for zone, seat, size in self.dealer.zones():
            if zone != HAND:
                break
            use_likely = rng.random() < beliefs.trust[seat]
            masks = [
                c & lk if use_likely and c & lk else c
                for c, lk in zip(beliefs.certain[seat], beliefs.likely[seat], strict=True)
            ]
            for mask in sorted(masks, key=int.bit_count)[:size]:
                hands.append(_pick(pool, mask))
        return self.dealer.deal(hands + pool)


def _pick(pool: list[int], mask: int) -> int:
    """The first card of the shuffled pool whose rank fits (else the first)."""
    for i, kind in enumerate(pool):
        if mask >> RANK_OF[kind] & 1:
            return pool.pop(i)
    return pool.pop(0)
