"""The game record ``threeup-record/1`` (record.md): parse, build, replay, verify.

Pure functions on already-decoded JSON values; reading and writing files
lives outside the engine (:mod:`threeup_tui.recordfile`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Final

from ..textclean import shown_value
from .actions import Move, MoveShapeError
from .cards import CODES, is_code, parse_code
from .errors import IllegalMove, SetupError, seat_words
from .options import PLACES, OptionError, Options
from .state import MAX_PLAYERS, MIN_PLAYERS, GameState, Phase

FORMAT: Final = "threeup-record/1"
# What a failed verdict found wrong (Verdict.wrong).
SETUP: Final = "setup"
MOVE: Final = "move"
RESULT: Final = "result"
_TOP_FIELDS: Final = frozenset(
    {"format", "players", "options", "deck", "first", "setup", "moves", "result"}
)


class MalformedRecord(ValueError):
    """Not a record at all: ``verify`` exits 2 with this one-line message."""


@dataclass(frozen=True, slots=True)
class Record:
    players: tuple[str, ...]
    options: Options
    deck: tuple[str, ...]
    first: int
    setup: tuple[tuple[str, ...], ...]
    moves: tuple[Move, ...]
    result: dict[str, Any] | None = None
    raw_options: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "players": list(self.players),
            "options": dict(self.raw_options) or self.options.to_json(),
            "deck": list(self.deck),
            "first": self.first,
            "setup": [list(s) for s in self.setup],
            "moves": [m.to_json() for m in self.moves],
        }
        if self.result is not None:
            out["result"] = self.result
        return out


def parse_record(data: Any) -> Record:
    """Check the shape of a whole record; MalformedRecord if it is not one."""
    if not isinstance(data, dict):
        raise MalformedRecord("a record is a JSON object")
    if data.get("format") != FORMAT:
        # What the file holds, cut (record.md: one line): a record of
        # another version says which, and a megabyte of it says little.
        found = f", not {shown_value(data['format'])}" if "format" in data else ""
        raise MalformedRecord(f"'format' must be {FORMAT!r}{found}")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise MalformedRecord("'players' must be a list of names")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise MalformedRecord(f"'players' must name 2 to 6 players, not {len(players)}")
    raw_options = data.get("options", {})
    try:
        options = Options.from_json(raw_options)
    except OptionError as err:
        raise MalformedRecord(str(err)) from None
    deck = data.get("deck")
    if not isinstance(deck, list):
        raise MalformedRecord("'deck' must be a list of card codes")
    for c in deck:
        if not is_code(c):
            raise MalformedRecord(f"unknown card code {shown_value(c)} in 'deck'")
    first = data.get("first", options.first if options.first is not None else 0)
    if not isinstance(first, int) or isinstance(first, bool):
        raise MalformedRecord("'first' must be a seat number")
    setup = data.get("setup")
    if not isinstance(setup, list) or not all(isinstance(s, list) for s in setup):
        raise MalformedRecord("'setup' must be a list of face-up choices, one per seat")
    for choice in setup:
        for c in choice:
            if not is_code(c):
                raise MalformedRecord(f"unknown card code {shown_value(c)} in 'setup'")
    moves = data.get("moves")
    if not isinstance(moves, list):
        raise MalformedRecord("'moves' must be a list")
    parsed: list[Move] = []
    for i, m in enumerate(moves):
        try:
            parsed.append(Move.from_json(m))
        except MoveShapeError as err:
            # Counted from 1, as verify names an illegal move ("move 1 of 71");
            # only verify's JSON keeps record.md's 0-based index.
            raise MalformedRecord(f"move {i + 1} of {len(moves)}: {err}") from None
    result = data.get("result")
    if result is not None:
        _check_result_shape(result)
    unknown = set(data) - _TOP_FIELDS
    if unknown:
        raise MalformedRecord(f"unknown field {shown_value(sorted(unknown)[0])}")
    return Record(
        players=tuple(players),
        options=options,
        deck=tuple(deck),
        first=first,
        setup=tuple(tuple(s) for s in setup),
        moves=tuple(parsed),
        result=result,
        raw_options=dict(raw_options) if isinstance(raw_options, dict) else {},
    )


def _check_result_shape(result: Any) -> None:
    if not isinstance(result, dict) or "winner" not in result:
        raise MalformedRecord("'result' must be an object with 'winner'")
    winner = result["winner"]
    if winner is not None and (not isinstance(winner, int) or isinstance(winner, bool)):
        raise MalformedRecord("'result.winner' must be a seat number or null")
    if set(result) - {"winner", "places"}:
        raise MalformedRecord("'result' holds only 'winner' and 'places'")
    places = result.get("places")
    if places is not None and (
        not isinstance(places, list)
        or not all(isinstance(p, int) and not isinstance(p, bool) for p in places)
    ):
        raise MalformedRecord("'result.places' must be a list of seat numbers")


def start_state(record: Record) -> GameState:
    """The state after the deal and the face-up choices; SetupError if wrong."""
    n = len(record.players)
    if not 0 <= record.first < n:
        # A set-up error (record.md), not a malformed file: 'first' is a number,
        # as "seat" is in a move, where a seat that does not exist is illegal.
        where = " in the options" if record.options.first == record.first else ""
        raise SetupError(
            f'"first": {record.first}{where} names no seat (a record of {n} players '
            f"has seats 0 to {n - 1})"
        )
    deck = [parse_code(c) for c in record.deck]
    state = GameState.deal(record.players, deck, record.first, record.options)
    if len(record.setup) != len(record.players):
        raise SetupError(
            f"'setup' must hold one face-up choice per seat ({len(record.players)}), "
            f"not {len(record.setup)}"
        )
    for seat, choice in enumerate(record.setup):
        state.choose_face_up_codes(seat, choice)
    return state


@dataclass(frozen=True, slots=True)
class Verdict:
    ok: bool
    moves: int
    finished: bool
    winner: int | None
    places: tuple[int, ...] | None
    move: int | None = None  # index of the first illegal move, on failure
    error: str | None = None
    # On failure, what is wrong: "setup", "move" or "result" (record.md's
    # three kinds of exit 1; the JSON tells a move by its index only).
    wrong: str | None = None

    def to_json(self) -> dict[str, Any]:
        if not self.ok:
            return {"ok": False, "move": self.move, "error": self.error}
        out: dict[str, Any] = {
            "ok": True,
            "moves": self.moves,
            "finished": self.finished,
            "winner": self.winner,
        }
        if self.places is not None:
            out["places"] = list(self.places)
        return out


def result_of(state: GameState) -> dict[str, Any] | None:
    """The ``result`` field for a finished game, None while it goes on."""
    if state.phase != Phase.OVER:
        return None
    out: dict[str, Any] = {"winner": state.winner}
    if state.options.finish == PLACES:
        out["places"] = list(state.places)
    return out


def replay(record: Record) -> tuple[GameState, Verdict]:
    """Replay a record as far as it is legal; the verdict says how it went."""
    state: GameState | None = None
    try:
        state = start_state(record)
    except SetupError as err:
        verdict = Verdict(False, 0, False, None, None, None, str(err), SETUP)
        return _empty_state(record), verdict
    for index, move in enumerate(record.moves):
        try:
            state.apply_move(move)
        except IllegalMove as err:
            return state, Verdict(False, index, False, None, None, index, str(err), MOVE)
    finished = state.phase == Phase.OVER
    places = tuple(state.places) if record.options.finish == PLACES else None
    verdict = Verdict(True, len(record.moves), finished, state.winner if finished else None, places)
    if record.result is not None:
        problem = _result_problem(record.result, state)
        if problem:
            n = len(record.moves)
            return state, Verdict(False, n, finished, None, None, None, problem, RESULT)
    return state, verdict


def _empty_state(record: Record) -> GameState:
    # A stand-in for a record whose set-up failed: callers only read the verdict.
    return GameState.new(["?"] * len(record.players), seed=0)


def _result_problem(result: dict[str, Any], state: GameState) -> str | None:
    actual = result_of(state)
    if actual is None:
        return "the record has a result but its moves stop before the game ends"
    if result.get("winner") != actual["winner"]:
        named = _seat_or_value(result.get("winner"), state.names)
        return (
            f"the result names as winner {named} but the replay gives "
            f"{_seat_or_value(actual['winner'], state.names)}"
        )
    if "places" in actual and "places" not in result:
        return "the game is played for places but the result lists none"
    if "places" in result and result["places"] != actual.get("places", []):
        listed = ", ".join(_seat_or_value(p, state.names) for p in result["places"])
        replayed = ", ".join(_seat_or_value(p, state.names) for p in state.places)
        return f"the result lists places {listed} but the replay gives {replayed}"
    return None


def _seat_or_value(value: Any, names: tuple[str, ...] | list[str]) -> str:
    """A seat of the record as people count it ("seat 2 (Bo)"), else the
    value itself, shortened: a winner of -1 or 7 names no seat."""
    if type(value) is int and 0 <= value < len(names):
        return seat_words(value, names[value])
    if value is None:
        return "none"
    text = json.dumps(value)
    return text if len(text) <= 24 else text[:20] + "…"


def verify(data: Any) -> Verdict:
    """The contract of ``threeup verify`` on a decoded JSON value.

    Raises MalformedRecord (exit 2); otherwise returns the verdict (exit 0/1).
    """
    return replay(parse_record(data))[1]


def record_of(state: GameState, with_result: bool = True) -> Record:
    """The record of a game so far (face-up choices must all be made)."""
    if state.base:
        raise SetupError("a clone holds only the moves made since cloning: it has no record")
    setup = []
    for seat, choice in enumerate(state.setup):
        if choice is None:
            raise SetupError(
                f"{seat_words(seat, state.names[seat])} has not chosen its face-up cards yet"
            )
        setup.append(tuple(CODES[k] for k in choice))
    return Record(
        players=state.names,
        options=state.options,
        deck=tuple(CODES[k] for k in state.deck),
        first=state.first,
        setup=tuple(setup),
        moves=tuple(state.moves()),
        result=result_of(state) if with_result else None,
    )
