"""The table, driven by Hypothesis through random sequences of everything
that can happen to it, its principles checked after every step.

A :class:`~hypothesis.stateful.RuleBasedStateMachine` plays the real
:class:`Table` (on a clock the test moves, its journal and table file in a
temporary directory) the way its hosts do: people sit with new tokens, their
own tokens, wrong tokens and other people's names; they leave and come back
(a newer session replaces an older one, as the host's take-over does); the
host adds and removes bots, sets options and the turn timer and starts the
game; players choose face-up cards and make legal moves (from the engine's
legal actions) and illegal ones; bots act; clocks run out (take-overs, the
turn timer's stand-in, a dedicated host's rematch); people and spectators
chat; games end and begin again; the host stops (cleanly or by a crash) and
the table is brought back from its files.

After every step:

- every card is somewhere: 74 cards, each of the deck's kinds as often as
  the deck holds it;
- every session's latest view is the engine's view of its seat now (a
  spectator's: the spectator view, with no hand, no face-up card before
  everyone has chosen), its latest lobby the table's lobby for it (the room
  code for the host's seat alone), its latest clock the table's clock, and
  it has heard every chat line since it began, once and in order; no
  session is sent a token or the table's secret, and no spectator a Notice;
- a seat belongs to its token: each token the model knows unlocks its seat
  and no other, tokens are distinct, a held seat's token never changes, a
  seat is connected exactly while a session holds it, and no two seats
  read alike;
- settings (options, turn timer, every TableConfig field, bot levels) change
  only when the host changes them;
- a crash now would lose nothing: the journal and the table file, read as
  ``--resume`` reads them, bring back the same identity, settings, game
  (deal, face-up choices, every move), seats, tokens, time-out counts, game
  number and chat (checked after every action of the fast-forward rules
  too, not only after each step).

A request the table refuses (a wrong seat or host, an illegal choice or
move, a seat number that names no seat, a bad setting) raises TableError
and changes nothing, nor tells anyone anything; any other exception fails
the test.  A stop and resume really continues on the resumed table.

CI runs a derandomized sample of 30 runs of 40 steps (60 before): of the
faults of the table this test found, a time-out's count written after the
table file and a seat number past the last one taken for a seat fail
within it; the third (a bot named like the player seated before it) was
found with random seeds, and the sample of 60 did not find it either.
``THREEUP_HYPOTHESIS=soak`` runs 300 on random seeds; to hunt longer:
``THREEUP_MACHINE_EXAMPLES=2000 THREEUP_MACHINE_STEPS=80 pytest
tests/seats/test_table_stateful.py --hypothesis-show-statistics``.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import random
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import hypothesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)
from hypothesis_budget import SOAK, examples

from threeup_tui.client.events import (
    ChatReceived,
    Event,
    LobbyChanged,
    Notice,
    TurnClock,
    ViewChanged,
)
from threeup_tui.names import clean_name, same_name
from threeup_tui.rules import (
    DRAW,
    FLIP,
    PICKUP,
    GameState,
    Move,
    Options,
    Phase,
    RulesError,
    View,
    seat_view,
)
from threeup_tui.rules.actions import play_count, play_rank
from threeup_tui.rules.cards import CODES, DECK_COUNTS, N_KINDS, RANK_OF, parse_code
from threeup_tui.table import HOSTING_MODE, Table, TableConfig, TableError, check_resumable
from threeup_tui.textclean import without_controls

EXAMPLES = int(os.environ.get("THREEUP_MACHINE_EXAMPLES", "0"))
STEPS = int(os.environ.get("THREEUP_MACHINE_STEPS", "0"))

NAMES = st.one_of(
    st.sampled_from(
        [
            "Ann", "ann ", "Bob", "山田", "Zoë 李", "", "   ", "[b]Eve[/b]", "\x1b[2JMal",
            "a\u202eb", "x" * 60, "seat 2", "table", "watcher",
            # What a bot added later would be called.
            "greedy bot 1", "greedy bot 2", "Greedy Bot 3", "random bot 2",
        ]
    ),
    st.text(max_size=12),
)  # fmt: skip
CHAT = st.one_of(
    st.sampled_from(["hi", "", "  ", "\x07\x1b[31mred", "R4 G7 BC2", "x" * 401, "é" * 600]),
    st.text(max_size=30),
)
BOT_LEVELS = ("random", "greedy")  # fast bots; "expert" thinks for 250 ms a move
LEVELS = st.sampled_from([*BOT_LEVELS, *BOT_LEVELS, "expert!", ""])
PLAY_CODES = st.sampled_from([*CODES, "RC2", "BC2"])


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Session:
    """One live connection: a seat's (its player's client) or a spectator's."""

    key: str
    seat: int | None
    clock: FakeClock
    first_line: int  # the chat number last posted before it began
    events: list[tuple[float, Event]] = field(default_factory=list)
    checked: int = 0  # events looked through for secrets so far

    def hear(self, event: Event) -> None:
        self.events.append((self.clock.now, event))

    def latest(self, kind: type[Any]) -> tuple[float, Any] | None:
        for at, event in reversed(self.events):
            if isinstance(event, kind):
                return at, event
        return None


def config_fields(table: Table) -> dict[str, Any]:
    """Every setting but ``options``, which the table keeps live in
    ``table.options`` (``config.options`` is only what it was opened with)."""
    fields = dataclasses.asdict(table.config)
    del fields["options"]
    return fields


def fingerprint(table: Table) -> str:
    """Everything a refused request must leave as it was."""
    state = table.state
    data: dict[str, Any] = {
        "file": table.table_file_json(),
        "seats": [
            (s.connected, s.absent_since, s.bot is not None, s.bot_level, s.away, s.timeouts)
            for s in table.seats
        ],
        "votes": sorted(table.rematch_votes),
        "rematch_at": table.rematch_at,
        "deadlines": sorted(table.turn_clock.deadlines.items()),
        "armed": table.turn_clock.armed_at,
        "closing": table.closing,
        "options": table.options.to_json(),
    }
    if state is not None:
        data["state"] = [repr(state.snapshot()), repr(state.setup), int(state.phase)]
    return json.dumps(data, sort_keys=True, default=str)


def cards_of(state: GameState) -> Counter[int]:
    """Every card in the game, wherever it lies."""
    held: Counter[int] = Counter()
    for s in range(state.n):
        for kind in range(N_KINDS):
            held[kind] += state.hand[s][kind] + state.up[s][kind]
        held.update(k for k in state.down[s] if k >= 0)
    held.update(state.pile)
    held.update(state.cleared)
    held.update(state.deck[state.draw_pos :])
    return held


def assert_restored(old: Table, new: Table) -> None:
    """``new``, brought back from ``old``'s files, is ``old``: the same
    identity, settings, game (its deal, choices and every move), seats and
    tokens, game number and chat.  Its people are yet to come back; in a
    lobby only the host's seat waits for its player (the others open)."""
    assert (new.table_id, new.secret) == (old.table_id, old.secret)
    assert config_fields(new) == config_fields(old)
    assert new.options == old.options
    assert new.hosting == old.hosting
    assert new.game_number == old.game_number
    assert new.chat_log == old.chat_log
    old_state, state = old.state, new.state
    if old_state is None:
        assert state is None
    else:
        assert state is not None
        assert state.names == old_state.names and state.options == old_state.options
        assert state.deck == old_state.deck and state.first == old_state.first
        assert state.setup == old_state.setup and state.phase == old_state.phase
        assert state.moves() == old_state.moves()
        assert state.snapshot() == old_state.snapshot()
    for i, (a, b) in enumerate(zip(old.seats, new.seats, strict=True)):
        if old_state is None and a.kind == "human" and i != old.host_seat:
            assert b.kind == "open"  # a lobby seat opens again
            continue
        assert (b.kind, b.name, b.token) == (a.kind, a.name, a.token), f"seat {i + 1}"
        if a.kind == "bot":
            assert b.bot_level == a.bot_level and b.bot is not None
        if a.kind == "human":
            assert not b.connected
            assert (b.timeouts, b.away, b.network_bot) == (a.timeouts, a.away, a.network_bot)
    assert new.host_seat == old.host_seat


class TableMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        # A run writes the journal (and flushes it to disk) after every move,
        # thousands of times: in memory where there is a memory file system.
        # What a crash is tested for here is a killed host, not a lost disk.
        shm = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
        self.dir = Path(tempfile.mkdtemp(prefix="threeup-machine-", dir=shm))
        self.journal = self.dir / "party.json"
        self.clock = FakeClock()
        self.table: Table
        self.hosted = False  # the app's host sits at the table (else a headless host)
        self.held: dict[int, str] = {}  # seat -> the token that holds it
        self.live: dict[int, Session] = {}  # seat -> the session that holds it now
        self.spectators: list[Session] = []
        self.options = Options()
        self.config: dict[str, Any] = {}
        self.bot_levels: dict[int, str] = {}
        self.tokens_made = 0
        self.sessions_made = 0
        self.secrets_seen: set[str] = set()
        self.games_over = 0
        self.resumes = 0
        self.timed_out = False
        self.over_seen = 0  # the last game seen over

    def teardown(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)
        table = getattr(self, "table", None)  # None: the opening itself failed
        if table is None:
            return
        state = table.state
        hypothesis.event(f"games begun: {table.game_number}")
        hypothesis.event(f"games over: {self.games_over}")
        hypothesis.event(f"resumes: {min(self.resumes, 3)}")
        hypothesis.event(f"timed out: {self.timed_out}")
        if state is not None:
            moves = len(state.history) // 50 * 50
            hypothesis.event(f"last game: {state.phase.name}, {moves}+ moves")

    # ------------------------------------------------------------ helpers
    def fresh_token(self) -> str:
        self.tokens_made += 1
        return f"tok{self.tokens_made:04d}" + "f" * 25

    def connect(self, seat: int | None) -> Session:
        """A session begins (subscribes) for ``seat``; for a seat, any older
        session of that seat ends first, as the host's take-over does."""
        if seat is not None and seat in self.live:
            self.table.unsubscribe(self.live.pop(seat).key)
        self.sessions_made += 1
        log = self.table.chat_log
        session = Session(f"s{self.sessions_made}", seat, self.clock, log[-1].number if log else 0)
        self.table.subscribe(session.key, seat, session.hear)
        if seat is None:
            self.spectators.append(session)
        else:
            self.live[seat] = session
        return session

    def by(self, data: st.DataObject) -> int | None:
        """Who asks for a host's action: the host (a seat, or the headless
        host itself), or anyone else, or a seat number that names no seat."""
        n = len(self.table.seats)
        return data.draw(
            st.one_of(
                st.just(self.table.host_seat),
                st.none(),
                st.integers(-2, n + 1),
            ),
            label="by",
        )

    def allowed(self, by: int | None) -> bool:
        return by is None or by == self.table.host_seat

    def attempt(self, action: Any, expect: bool | None, why: str = "") -> bool:
        """Make a request: True if done; a refusal must be a TableError and
        must change nothing (nor tell anyone anything).  ``expect``: whether
        it must be done (None: either); ``why`` it must be refused."""
        before = fingerprint(self.table)
        heard = self.heard()
        try:
            action()
        except TableError as err:
            assert expect is not True, f"refused: {err}"
            assert fingerprint(self.table) == before, f"refused ({err}) but changed the table"
            assert self.heard() == heard, f"refused ({err}) but told someone"
            assert str(err)
            return False
        assert expect is not False, f"done, but should have been refused: {why}"
        return True

    def heard(self) -> int:
        return sum(len(s.events) for s in self.sessions())

    def sessions(self) -> list[Session]:
        return [*self.live.values(), *self.spectators]

    def request(self, seat: int) -> None:
        """What a host does first with any request of a seated session."""
        self.table.seat_active(seat)

    def open_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.table.seats) if s.kind == "open"]

    def human_to_act(self) -> int | None:
        """The seat to act in play, if its player is here and no bot plays it."""
        state = self.table.state
        if state is None or state.phase != Phase.PLAY:
            return None
        seat = self.table.seats[state.seat]
        if state.seat in self.live and seat.bot is None:
            return state.seat
        return None

    def legal_move(self, data: st.DataObject | random.Random, seat: int) -> Move:
        """A legal move for ``seat`` (to act), from the engine's legal actions:
        a play takes any copies of its rank (not only the ones concrete_move
        would choose)."""
        state = self.table.state
        assert state is not None
        view = seat_view(state, seat)
        if isinstance(data, random.Random):
            action = data.choice(view.legal)
        else:
            action = data.draw(st.sampled_from(view.legal), label="action")
        if action == PICKUP:
            return Move.pickup(seat)
        if action == DRAW:
            return Move.draw(seat)
        if FLIP <= action < PICKUP:
            return Move.flip(seat, action - FLIP)
        rank, count = play_rank(action), play_count(action)
        source = view.hand if view.source == "hand" else view.seats[seat].face_up
        pool = [c for c in source if RANK_OF[parse_code(c)] == rank]
        if isinstance(data, random.Random):
            data.shuffle(pool)
        else:
            pool = list(data.draw(st.permutations(pool), label="copies"))
        return Move.play(seat, tuple(pool[:count]))

    def legal_face_up(self, data: st.DataObject | random.Random, seat: int) -> list[str]:
        state = self.table.state
        assert state is not None
        hand = [CODES[k] for k in state.setup_hand(seat)]
        if isinstance(data, random.Random):
            return data.sample(hand, 3)
        return list(data.draw(st.permutations(hand), label="face-up"))[:3]

    # ------------------------------------------------------------ set-up
    @initialize(
        players=st.integers(2, 5),
        seed=st.integers(0, 10_000),
        hosted=st.booleans(),
        code=st.sampled_from([None, "c0de"]),
        turn_time=st.sampled_from([None, 5.0, 20.0]),
        takeover_after=st.sampled_from([4.0, 30.0]),
        games=st.sampled_from([None, None, 2]),
        rematch_after=st.sampled_from([None, 15.0]),
        auto_start=st.sampled_from([False, False, False, True]),
        spectator_chat=st.booleans(),
        bots=st.integers(0, 2),
        people=st.integers(0, 2),
        start=st.booleans(),
    )
    def open(
        self,
        players: int,
        seed: int,
        hosted: bool,
        code: str | None,
        turn_time: float | None,
        takeover_after: float,
        games: int | None,
        rematch_after: float | None,
        auto_start: bool,
        spectator_chat: bool,
        bots: int,
        people: int,
        start: bool,
    ) -> None:
        config = TableConfig(
            players=players, seed=seed, code=code, bot_level="greedy", journal=self.journal,
            turn_time=turn_time, takeover_after=takeover_after, games=games,
            rematch_after=rematch_after, auto_start=auto_start, spectator_chat=spectator_chat,
            table_name="the machine's table",
        )  # fmt: skip
        # open_table's new table, on the test's clock.
        table = Table(config, self.clock)
        for _ in range(min(bots, players - 1)):
            table.add_bot(None, config.bot_level)
        table.save_table_file()
        self.table = table
        self.hosted = hosted
        self.config = config_fields(table)
        self.bot_levels = {i: s.bot_level or "" for i, s in enumerate(table.seats) if s.bot}
        self.secrets_seen = {table.secret}
        self.connect(None)
        if hosted:
            token = self.fresh_token()
            seat, back = table.seat_human("Host", token, host=True)
            assert back == token and table.host_seat == seat
            self.held[seat] = token
            self.connect(seat)
        for n in range(min(people, len(self.open_seats()))):
            token = self.fresh_token()
            seat, _ = table.seat_human(f"player {n + 1}", token)
            self.held[seat] = token
            self.connect(seat)
        if start:  # half the runs begin with a game under way
            for seat in self.open_seats():
                table.add_bot(None, "random")
                self.bot_levels[seat] = "random"
            if table.state is None:
                table.start(None)

    # ------------------------------------------------------------ seats
    @rule(
        data=st.data(), name=NAMES, how=st.sampled_from(["new", "none", "held", "wrong", "named"])
    )
    def sit(self, data: st.DataObject, name: str, how: str) -> None:
        """Someone asks for a seat: with a new token, none, a token that
        holds a seat (a return, maybe from another terminal), a wrong one,
        or the name of someone seated and another token."""
        table = self.table
        token: object
        if how == "held" and self.held:
            seat = data.draw(st.sampled_from(sorted(self.held)), label="returning")
            token = self.held[seat]
        elif how == "wrong" and self.held:
            real = self.held[data.draw(st.sampled_from(sorted(self.held)), label="of")]
            last = "e" if real[-1] != "e" else "d"  # a token the table made may end in "e"
            near = [real[:-1], real + "0", real.upper(), real[:-1] + last, " " + real]
            wrong = [t for t in near if t not in self.held.values()]  # "0123".upper()...
            token = data.draw(st.sampled_from([*wrong, 123, b""]), label="wrong token")
        elif how == "named":
            # A seated player's or bot's name, or the one a bot added at the
            # next open seat would be given.
            names = [s.name for s in table.seats if s.kind != "open"]
            after = self.open_seats()[1:2]
            names += [f"{level} bot {i + 1}" for i in after for level in BOT_LEVELS]
            if names:
                name = data.draw(st.sampled_from(names), label="a name at the table")
            token = self.fresh_token()
        elif how == "none":
            token = None
        else:
            token = self.fresh_token()
        back = next((i for i, t in self.held.items() if t == token), None)
        host = self.hosted and table.host_seat is None and data.draw(st.booleans(), label="host")
        state_before = table.state
        opened = self.open_seats()
        names_before = [s.name for s in table.seats]
        if back is not None:
            seat, given = table.seat_human(name, token, host=host)
            assert (seat, given) == (back, token), "a token must give back its own seat"
            assert table.seats[seat].name == names_before[seat], "a return keeps the name"
            self.connect(seat)
            return
        expect = state_before is None and bool(opened)
        why = "a token that holds no seat, at a table with no open seat for a newcomer"
        result: list[tuple[int, str]] = []

        def sit() -> None:
            result.append(table.seat_human(name, token, host=host))

        if not self.attempt(sit, expect, why):
            return
        seat, given = result[0]
        assert seat not in self.held, f"token {token!r} took seat {seat + 1}, held by another"
        assert seat == opened[0], "a newcomer takes the first open seat"
        if isinstance(token, str) and token:
            assert given == token
        assert given not in self.held.values()
        shown = table.seats[seat].name
        others = [n for j, n in enumerate(names_before) if j != seat and j not in opened]
        assert not any(same_name(shown, other) for other in others), "told apart"
        assert shown and clean_name(shown, "?") == shown, "a name is kept clean"
        if host:
            assert table.host_seat == seat
        self.held[seat] = given
        self.connect(seat)
        if table.config.auto_start and state_before is None and not self.open_seats():
            assert table.state is not None, "a full table with auto_start starts"

    @precondition(lambda self: bool(self.live))
    @rule(data=st.data())
    def leave(self, data: st.DataObject) -> None:
        """A player's session ends (they quit, or the connection dropped)."""
        seat = data.draw(st.sampled_from(sorted(self.live)), label="leaving")
        session = self.live.pop(seat)
        self.table.unsubscribe(session.key)
        in_lobby = self.table.state is None
        was_host = self.table.host_seat == seat
        self.table.disconnect(seat)
        if in_lobby:
            del self.held[seat]
            assert self.table.seats[seat].kind == "open"
            if was_host:
                assert self.table.host_seat is None
        else:
            assert not self.table.seats[seat].connected
            assert self.table.seats[seat].token == self.held[seat]

    @precondition(lambda self: bool(self.live))
    @rule(data=st.data())
    def network_bot(self, data: st.DataObject) -> None:
        """A seated client says it is a bot (``join --bot``)."""
        seat = data.draw(st.sampled_from(sorted(self.live)), label="seat")
        level = data.draw(st.sampled_from(["greedy", "", "x" * 40, "\x1b[1m"]), label="level")
        self.table.set_network_bot(seat, level)

    @rule()
    def watch(self) -> None:
        if len(self.spectators) < 3:
            self.connect(None)

    @precondition(lambda self: len(self.spectators) > 1)
    @rule()
    def stop_watching(self) -> None:
        session = self.spectators.pop()
        self.table.unsubscribe(session.key)

    @rule(data=st.data())
    def add_bot(self, data: st.DataObject) -> None:
        by = self.by(data)
        level = data.draw(LEVELS, label="level")
        opened = self.open_seats()
        table = self.table
        started = table.state is not None
        expect = self.allowed(by) and level in BOT_LEVELS and not started and bool(opened)
        if self.attempt(lambda: table.add_bot(by, level), expect):
            self.bot_levels[opened[0]] = level
            seat = table.seats[opened[0]]
            assert seat.kind == "bot" and seat.bot_level == level

    @rule(data=st.data())
    def remove(self, data: st.DataObject) -> None:
        table = self.table
        by = self.by(data)
        seat = data.draw(st.integers(-1, len(table.seats)), label="seat")
        expect = (
            self.allowed(by)
            and table.state is None
            and 0 <= seat < len(table.seats)
            and seat != table.host_seat
        )
        if self.attempt(lambda: table.remove_seat(by, seat), expect):
            assert table.seats[seat].kind == "open"
            self.held.pop(seat, None)
            self.bot_levels.pop(seat, None)
            gone = self.live.pop(seat, None)
            if gone is not None:  # the host closes the removed player's session
                table.unsubscribe(gone.key)

    @rule(
        data=st.data(),
        first=st.one_of(st.none(), st.integers(-1, 5)),
        voluntary=st.booleans(),
        finish=st.sampled_from(["first_out", "places"]),
    )
    def set_options(
        self, data: st.DataObject, first: int | None, voluntary: bool, finish: str
    ) -> None:
        table = self.table
        by = self.by(data)
        options = Options.from_json(
            {"first": "random" if first is None else first, "voluntary_pickup": voluntary,
             "finish": finish}
        )  # fmt: skip
        in_range = first is None or 0 <= first < len(table.seats)
        expect = self.allowed(by) and table.state is None and in_range
        if self.attempt(lambda: table.set_options(by, options), expect):
            self.options = options

    @rule(
        data=st.data(),
        seconds=st.sampled_from([None, 0.0, 0.5, 1.0, 3.0, 20.0, 3600.0, 3601.0, math.nan]),
    )
    def set_turn_time(self, data: st.DataObject, seconds: float | None) -> None:
        table = self.table
        by = self.by(data)
        valid = seconds is None or 1 <= seconds <= 3600
        expect = self.allowed(by) and not table.game_under_way and valid
        if self.attempt(lambda: table.set_turn_time(by, seconds), expect):
            self.config["turn_time"] = seconds

    # ------------------------------------------------------------ the game
    @rule(data=st.data())
    def start(self, data: st.DataObject) -> None:
        table = self.table
        by = self.by(data)
        number = table.game_number
        expect: bool | None = (
            self.allowed(by) and not table.game_under_way and not self.open_seats()
        )
        if expect and table.state is not None and table.rematch_mode() == "none":
            expect = False
        if self.attempt(lambda: table.start(by), expect):
            assert table.state is not None and table.state.phase == Phase.SETUP
            assert table.game_number == number + 1
            assert table.state.options == self.options

    @precondition(lambda self: not self.table.game_under_way)
    @rule(data=st.data())
    def fill_and_start(self, data: st.DataObject) -> None:
        """The host fills the open seats with bots and starts the game."""
        table = self.table
        by = table.host_seat
        for seat in self.open_seats():
            level = data.draw(st.sampled_from(["random", "greedy"]), label="level")
            self.attempt(lambda level=level: table.add_bot(by, level), table.state is None)
            if table.state is None:
                self.bot_levels[seat] = level
        if table.state is None or table.state.phase == Phase.OVER:
            expect = table.state is None or table.rematch_mode() != "none"
            self.attempt(lambda: table.start(by), expect)

    @rule(data=st.data())
    def rematch(self, data: st.DataObject) -> None:
        table = self.table
        by = data.draw(st.one_of(st.none(), st.sampled_from(sorted(self.live) or [0])), label="by")
        if by is not None and by in self.live:
            self.request(by)
        over = table.state is not None and table.state.phase == Phase.OVER
        mode = table.rematch_mode()
        expect: bool | None = over and mode != "none"
        if expect and (mode == "host" or by is None):
            expect = self.allowed(by)
        self.attempt(lambda: table.rematch(by), expect)

    @precondition(
        lambda self: self.table.state is not None and self.table.state.phase == Phase.SETUP
    )
    @rule(data=st.data())
    def choose_face_up(self, data: st.DataObject) -> None:
        table = self.table
        state = table.state
        assert state is not None
        waiting = [i for i in sorted(self.live) if state.setup[i] is None]
        if waiting and data.draw(st.booleans(), label="legal"):
            seat = data.draw(st.sampled_from(waiting), label="seat")
            cards = self.legal_face_up(data, seat)
            self.request(seat)
            self.attempt(lambda: table.choose_face_up(seat, cards), True)
            assert table.seats[seat].timeouts == 0
            return
        seat = data.draw(st.sampled_from([*sorted(self.live), -1, len(table.seats)]), label="s")
        cards = data.draw(st.lists(PLAY_CODES | st.just("X"), max_size=5), label="cards")
        probe = state.clone()
        try:
            probe.choose_face_up_codes(seat, cards)
            expect = True
        except RulesError:
            expect = False
        if seat in self.live:
            self.request(seat)
        self.attempt(lambda: table.choose_face_up(seat, cards), expect)

    @precondition(lambda self: self.human_to_act() is not None)
    @rule(data=st.data())
    def move(self, data: st.DataObject) -> None:
        """The player to act makes a legal move."""
        seat = self.human_to_act()
        assert seat is not None
        move = self.legal_move(data, seat)
        self.request(seat)
        self.attempt(lambda: self.table.submit(seat, move), True)
        assert self.table.seats[seat].timeouts == 0

    @precondition(lambda self: bool(self.live))
    @rule(data=st.data())
    def bad_move(self, data: st.DataObject) -> None:
        """A seated player sends a move that may break any rule: another
        seat's, out of turn, cards not held, a bad slot, before or after the
        game."""
        table = self.table
        seat = data.draw(st.sampled_from(sorted(self.live)), label="seat")
        mover = data.draw(st.sampled_from([seat, seat, (seat + 1) % 6, -1, 7]), label="mover")
        kind = data.draw(st.sampled_from(["play", "flip", "pickup", "draw"]), label="kind")
        if kind == "play":
            move = Move.play(mover, data.draw(st.lists(PLAY_CODES, max_size=4), label="cards"))
        elif kind == "flip":
            move = Move.flip(mover, data.draw(st.integers(-1, 3), label="slot"))
        else:
            move = Move(mover, kind)  # type: ignore[arg-type]
        self.request(seat)
        state = table.state
        expect = False
        if state is not None and mover == seat:
            probe = state.clone()
            try:
                probe.apply_move(move)
                expect = True
            except RulesError:
                pass
        self.attempt(lambda: table.submit(seat, move), expect)

    @rule()
    def step_bot(self) -> None:
        request = self.table.bot_request()
        acted = self.table.step_bot()
        assert acted == (request is not None)

    @rule(limit=st.integers(1, 12))
    def runner(self, limit: int) -> None:
        """What TableRunner does while nobody sends anything: the timers,
        then every bot action due, up to ``limit`` of them."""
        for _ in range(limit):
            self.table.check_timers()
            if not self.table.step_bot():
                return
            self.a_crash_now_loses_nothing()  # after each action, not only each step

    @precondition(lambda self: self.table.state is not None)
    @rule(
        seed=st.integers(0, 2**16),
        moves=st.integers(1, 400),
        idle=st.sampled_from([0.0, 0.0, 0.5, 1.0]),
    )
    def play_on(self, seed: int, moves: int, idle: float) -> None:
        """Fast forward: bots act and the players here make random legal
        choices and moves, up to ``moves`` actions; with a turn timer, a
        player lets it run out that often (``idle``)."""
        rng = random.Random(seed)
        table = self.table
        for _ in range(moves):
            state = table.state
            assert state is not None
            if state.phase == Phase.OVER:
                return
            if table.step_bot():
                self.a_crash_now_loses_nothing()  # after each action, not only each step
                continue
            turn_time = table.config.turn_time
            if turn_time is not None and rng.random() < idle:
                self.clock.now += turn_time  # nobody here acts in time
                table.check_timers()
                if table.bot_request() is not None:
                    continue
            if state.phase == Phase.SETUP:
                waiting = [i for i in sorted(self.live) if state.setup[i] is None]
                if not waiting:
                    absent = [i for i, c in enumerate(state.setup) if c is None]
                    if not absent or not self.wait_or_return(rng, absent[0]):
                        return
                    continue
                seat = rng.choice(waiting)
                self.request(seat)
                table.choose_face_up(seat, self.legal_face_up(rng, seat))
                self.a_crash_now_loses_nothing()
                continue
            seat_to_act = self.human_to_act()
            if seat_to_act is None:
                # An absent player's turn: they come back, or the take-over
                # bot plays for them once its time is up.
                if not self.wait_or_return(rng, state.seat):
                    return
                continue
            self.request(seat_to_act)
            if self.human_to_act() == seat_to_act:
                table.submit(seat_to_act, self.legal_move(rng, seat_to_act))
                self.a_crash_now_loses_nothing()

    def wait_or_return(self, rng: random.Random, seat: int) -> bool:
        """Seat ``seat``'s player is not here: they come back (with their
        token), or time passes until a bot takes the seat over.  False if
        neither can happen (not a person's seat)."""
        table = self.table
        if seat not in self.held:
            return False
        if seat not in self.live and rng.random() < 0.5:
            assert table.seat_human("back again", self.held[seat]) == (seat, self.held[seat])
            self.connect(seat)
            return True
        self.clock.now += table.config.takeover_after + (table.config.turn_time or 0) + 1
        table.check_timers()
        return True

    @rule(
        seconds=st.sampled_from([0.5, 3.0, "turn", "take-over", 31.0]),
        run=st.booleans(),
    )
    def time_passes(self, seconds: float | str, run: bool) -> None:
        """The runner's look at the timers (take-overs, the turn timer, a
        dedicated host's next game) after ``seconds`` (or a turn's time, or
        the take-over's), and (``run``) the bot actions then due."""
        config = self.table.config
        if seconds == "turn":
            seconds = config.turn_time or 1.0
        elif seconds == "take-over":
            seconds = config.takeover_after + 0.5
        assert isinstance(seconds, float)
        self.clock.now += seconds
        wait = self.table.check_timers()
        assert wait is None or wait >= 0
        if run:
            self.runner(12)

    @rule(data=st.data())
    def unknown_seat(self, data: st.DataObject) -> None:
        """A request for a seat number that names no seat is refused."""
        table = self.table
        n = len(table.seats)
        seat = data.draw(st.sampled_from([-1, -n, n, n + 3]), label="seat")
        what = data.draw(st.sampled_from(["chat", "rematch", "setup", "move"]), label="what")
        if what == "chat":
            self.attempt(lambda: table.chat(seat, "hello"), False)
        elif what == "rematch":
            self.attempt(lambda: table.rematch(seat), False)
        elif what == "setup":
            self.attempt(lambda: table.choose_face_up(seat, ["R1", "R2", "R3"]), False)
        else:
            self.attempt(lambda: table.submit(seat, Move.pickup(seat)), False)

    @precondition(lambda self: bool(self.live))
    @rule(data=st.data())
    def active(self, data: st.DataObject) -> None:
        self.request(data.draw(st.sampled_from(sorted(self.live)), label="seat"))

    @rule(data=st.data(), text=CHAT)
    def chat(self, data: st.DataObject, text: str) -> None:
        table = self.table
        speakers: list[int | None] = [*sorted(self.live), None]
        seat = data.draw(st.sampled_from(speakers), label="speaker")
        if seat is not None:
            self.request(seat)
            self.attempt(lambda: table.chat(seat, text), None)
        else:
            name = clean_name(data.draw(NAMES, label="name"), "watcher")
            speaker = self.spectators[0].key
            self.attempt(lambda: table.chat(None, text, ("session", speaker), name), None)
        if table.chat_log:
            line = table.chat_log[-1]
            assert without_controls(line.text) == line.text
            assert without_controls(line.name) == line.name

    # ------------------------------------------------------------ a stop
    @rule(clean=st.booleans())
    def stop_and_resume(self, clean: bool) -> None:
        """The host stops (a clean stop keeps the turn clock; a crash keeps
        only what the files hold) and the table comes back from its files."""
        old = self.table
        if clean:  # as the launcher stops a network host
            old.close("the host stopped")
            old.suspend()
        mode = {key: getattr(old.config, key) for key in HOSTING_MODE}
        new = Table.resume(self.journal, None, mode, self.clock)
        assert_restored(old, new)
        old_state, state = old.state, new.state
        if clean and state is not None and state.phase == Phase.PLAY and old.turn_clock.deadlines:
            left = old.clock_for(None)[1]
            again = new.clock_for(None)[1]
            assert left is not None and again is not None
            assert again >= min(left, self.config["turn_time"]) - 1e-9
        self.table = new
        self.resumes += 1
        if old_state is None:
            for seat in [s for s in self.held if s != old.host_seat]:
                del self.held[seat]
        self.live.clear()
        self.spectators.clear()
        self.connect(None)

    # ------------------------------------------------------------ invariants
    @invariant()
    def tally(self) -> None:
        """No check: what the run reached (--hypothesis-show-statistics)."""
        table = self.table
        self.timed_out = self.timed_out or any(s.timeouts for s in table.seats)
        if table.state is not None and table.state.over and table.game_number != self.over_seen:
            self.over_seen = table.game_number
            self.games_over += 1

    @invariant()
    def a_crash_now_loses_nothing(self) -> None:
        """Whenever the host is killed, its files bring the table back."""
        assert_restored(self.table, check_resumable(self.journal))

    @invariant()
    def cards_are_all_there(self) -> None:
        state = self.table.state
        if state is not None:
            assert state.count_cards() == 74
            counts = cards_of(state)
            assert [counts[k] for k in range(N_KINDS)] == list(DECK_COUNTS)

    @invariant()
    def every_session_sees_what_it_may_now(self) -> None:
        table = self.table
        state = table.state
        for session in self.sessions():
            seat = session.seat
            latest = session.latest(ViewChanged)
            if state is None:
                assert latest is None
            else:
                assert latest is not None, f"session of seat {seat} has no view"
                view: View = latest[1].view
                assert view == seat_view(state, seat), f"stale view for seat {seat}"
                if seat is None:
                    assert view.hand == () and view.legal == ()
                    if state.phase == Phase.SETUP:
                        assert all(s.face_up == () for s in view.seats)
            lobby = session.latest(LobbyChanged)
            assert lobby is not None
            assert lobby[1].lobby == table.lobby(seat), f"stale lobby for seat {seat}"
            if seat is None or seat != table.host_seat:
                assert lobby[1].lobby.code is None
            self.check_clock(session)
            self.check_chat(session)

    def check_clock(self, session: Session) -> None:
        seat, remaining = self.table.clock_for(session.seat)
        latest = session.latest(TurnClock)
        if latest is None:
            assert remaining is None, f"session of seat {session.seat} was never sent its clock"
            return
        at, clock = latest
        assert clock.seat == seat
        assert (clock.remaining is None) == (remaining is None)
        if remaining is not None and seat is not None:
            deadline = self.table.turn_clock.deadlines[seat]
            assert math.isclose(at + clock.remaining, max(deadline, at), abs_tol=1e-6)

    def check_chat(self, session: Session) -> None:
        log = self.table.chat_log
        last = log[-1].number if log else 0
        numbers = [e.number for _, e in session.events if isinstance(e, ChatReceived) and not e.old]
        assert numbers == list(range(session.first_line + 1, last + 1))

    @invariant()
    def nothing_secret_is_told(self) -> None:
        secrets = [*self.held.values(), *self.secrets_seen]
        for session in self.sessions():
            for _, event in session.events[session.checked :]:
                text = repr(event)
                assert not any(secret in text for secret in secrets)
                if session.seat is None:
                    assert not isinstance(event, Notice)
            session.checked = len(session.events)

    @invariant()
    def a_seat_belongs_to_its_token(self) -> None:
        table = self.table
        names = [s.name for s in table.seats if s.kind != "open"]
        for i, name in enumerate(names):
            assert not any(same_name(name, other) for other in names[i + 1 :]), names
        humans = {i: s.token for i, s in enumerate(table.seats) if s.kind == "human"}
        assert humans == self.held
        tokens = list(humans.values())
        assert len(set(tokens)) == len(tokens)
        for seat, token in self.held.items():
            assert table.seat_of_token(token) == seat
        for i, s in enumerate(table.seats):
            assert s.connected == (i in self.live), f"seat {i + 1} connected is {s.connected}"
        host = table.host_seat
        assert host is None or table.seats[host].kind == "human"

    @invariant()
    def settings_change_only_when_set(self) -> None:
        table = self.table
        assert table.options == self.options, "the options changed"
        now = config_fields(table)
        changed = sorted(key for key in now if now[key] != self.config.get(key))
        assert not changed, f"settings changed: {changed}"
        for i, level in self.bot_levels.items():
            seat = table.seats[i]
            assert (seat.kind, seat.bot_level) == ("bot", level), f"seat {i + 1}'s bot"


TableMachine.TestCase.settings = settings(
    max_examples=EXAMPLES or examples(ci=30, soak=300),
    stateful_step_count=STEPS or 40,
    deadline=None,
    derandomize=not (EXAMPLES or SOAK),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    # No explain phase: it replays a long failing run hundreds of times.
    phases=[p for p in hypothesis.Phase if p != hypothesis.Phase.explain],
)
test_the_table_keeps_its_principles_whatever_happens = TableMachine.TestCase
