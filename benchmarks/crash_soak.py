"""A table survives: a headless host killed and resumed, again and again.

    .venv/bin/python benchmarks/crash_soak.py [--runs N] [--seed S] [--stops kill,term]
                                              [--phases setup,play,...] [--port-base P]
                                              [--keep DIR] [--json]

Each run starts a real ``threeup host --headless`` process on 127.0.0.1
(nothing announced) with settings drawn at random (players, bots and their
level, a room code, a turn time, --finish, --voluntary-pickup,
--no-spectator-chat, --rematch-after), and seats 1 to 3 players in this
process: real ``NetClient`` sessions that play like ``threeup join`` (a
greedy or random bot choosing), chat now and then, and sometimes sit idle
so that the turn timer acts for them.  At a moment drawn at random in one
phase (the set-up, the middle of a game, right after a player saw its own
move acknowledged, the game's end, the wait for a rematch) the host is
stopped: SIGKILL (a crash) or SIGTERM (a clean stop, which keeps the turn
clock's time left).  The files are read as the stop left them, the host is
started again with ``--resume JOURNAL`` alone, the players reconnect by
themselves, and the table plays its games to the end.  In about a third of
the crash runs one player joins again from "another terminal" (a new
client, the same seat tokens) as soon as the table is back, before its old
app has noticed the crash.

What each run checks, against what the players saw before the stop:

- every view a player saw (so every move it saw acknowledged, its own
  face-up choice too) is a prefix of the finished game's record: no move
  lost or changed; the record ``threeup verify``s;
- the settings, the room code, the options, bot levels, the turn time and
  each seat's owner (the token its player's state directory keeps) are the
  same in the table file after the stop, after the resume, and in the
  lobby the players see again;
- each seat's count of time-outs is at least the time-outs its player was
  told of since it last acted (a crash must not bring back a lower count);
- every chat line a player received (the host echoes a line to everyone,
  its sender too) is in the table file (the last 50; a chat line is
  replaced atomically with the table file but flushed to disk lazily: a
  killed program loses none, only a power cut could);
- a clean stop keeps the turn clocks' time left (within 0.5 s; at set-up
  each seat's own), and the resumed clock holds until its player is back,
  who is then shown that time; after a crash the turn timer's bot plays
  no turn for a player while it reconnects;
- a player who joined from another terminal keeps the seat, and its old
  app never gets it back; no game's record is kept twice.

Printed: runs, stops by phase, moves lost, settings changed, time-outs
lost, chat lines lost, resumes refused, players moved to another terminal,
turns the turn timer's bot played for a player while it reconnected (by
turn time), runs that did not finish or whose records do not verify, time
to resume (process start to listening), reconnect time p50/p99 (from the
resumed host listening to each player's reconnect; after SIGKILL a client
notices only at its 5 s idle time-out), the clean stop's clock error.
Each run's files stay in ``--keep DIR`` (else in a temporary directory,
removed at the end unless a run found a fault).
Ports: --port-base and up, one per run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from threeup_tui.bots import make_bot
from threeup_tui.client.events import (
    ChatReceived,
    ConnectionChanged,
    Lobby,
    LobbyChanged,
    Notice,
    TurnClock,
    ViewChanged,
)
from threeup_tui.netplay.client import NetClient
from threeup_tui.netplay.tokens import TokenStore
from threeup_tui.netplay.wire import CLOSE_TAKEN_OVER, view_from_wire, view_to_wire
from threeup_tui.rules import View, parse_record, seat_view
from threeup_tui.rules.record import start_state
from threeup_tui.table import CHAT_HISTORY

LOOPBACK = "127.0.0.1"
THREEUP = Path(sys.executable).with_name("threeup")
PHASES = ("setup", "play", "after_move", "over", "rematch")
LISTENING = re.compile(r"threeup host listening on 127\.0\.0\.1:(\d+)")
MOVE_CHANCE = 0.35  # a crash run where a player joins again from another terminal
RUN_TIMEOUT = 120.0  # seconds a run may take before it counts as unfinished
# Lobby fields that are the table's settings (rematch votes are not kept: decided).
LOBBY_SETTINGS = (
    "options", "code_required", "table_name", "turn_time", "rematch", "rematch_after",
    "games", "spectator_chat",
)  # fmt: skip


# ---------------------------------------------------------------------- the host process
@dataclass
class HostProc:
    popen: subprocess.Popen[bytes]
    log: Path
    started: float
    listening: float = 0.0
    port: int = 0

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


def spawn_host(args: list[str], workdir: Path, tag: str) -> HostProc:
    log = workdir / f"{tag}.log"
    env = dict(os.environ, THREEUP_STATE_DIR=str(workdir / "host-state"), PYTHONUNBUFFERED="1")
    env["THREEUP_ANNOUNCE"] = "off"
    with log.open("wb") as out:
        popen = subprocess.Popen(
            [str(THREEUP), "host", "--headless", *args],
            stdin=subprocess.DEVNULL, stdout=out, stderr=out, env=env, cwd=workdir,
        )  # fmt: skip
    return HostProc(popen, log, time.monotonic())


async def until_listening(host: HostProc, timeout: float = 30.0) -> bool:
    """Whether the host said it listens (False: it exited or took too long)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = LISTENING.search(host.text())
        if found:
            host.port = int(found.group(1))
            host.listening = time.monotonic()
            return True
        if host.popen.poll() is not None:
            return False
        await asyncio.sleep(0.01)
    return False


async def until_exit(host: HostProc, timeout: float) -> int | None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        code = host.popen.poll()
        if code is not None:
            return code
        await asyncio.sleep(0.05)
    return None


def stop_process(host: HostProc) -> None:
    if host.popen.poll() is None:
        host.popen.send_signal(signal.SIGKILL)
        host.popen.wait(10)


# ---------------------------------------------------------------------- players
@dataclass
class Player:
    """One person at the table, played by a bot in this process."""

    name: str
    client: NetClient
    level: str
    rng: random.Random
    seat: int | None = None
    views: list[View] = field(default_factory=list)  # every view, in order
    games: list[int] = field(default_factory=list)  # the game number of each view
    chat_seen: dict[int, str] = field(default_factory=dict)
    told_timeouts: int = 0  # "time is up" notices since this player last acted
    lobby: Lobby | None = None
    clock: tuple[float, TurnClock] | None = None  # (received at, the clock)
    clocks_after: list[tuple[float, TurnClock]] = field(default_factory=list)  # after a stop
    reconnected_at: list[float] = field(default_factory=list)
    closed: str | None = None
    idle_turns: int = 0  # own turns still to sit out (the turn timer acts)
    acted_at: int = -1
    chose_in: int = -1  # the game whose face-up cards this player chose
    voted_in: int = -1
    setup_delay: float = 0.0
    paused: bool = False  # stopped acting: the host is about to be stopped
    chat_sent: int = 0
    fresh: bool = False  # joined after the resume, from another terminal
    back_at: tuple[int, int] | None = None  # (game, moves) of the first view after a reconnect
    sent: dict[tuple[int, int], Any] = field(default_factory=dict)  # (game, at) -> its move

    @property
    def game(self) -> int:
        return self.lobby.game_number if self.lobby is not None else 0


def record_view(player: Player, view: View) -> None:
    player.views.append(view)
    player.games.append(player.game)


async def play(player: Player, soak: Soak) -> None:
    client = player.client
    bot = make_bot(player.level, player.rng.randrange(1 << 30))
    while True:
        event = await client.next_event()
        now = time.monotonic()
        if isinstance(event, ConnectionChanged):
            if event.state == "closed":
                player.closed = event.detail
                return
            if event.state == "connected" and "reconnected" in event.detail:
                player.reconnected_at.append(now)
            continue
        if isinstance(event, LobbyChanged):
            player.lobby = event.lobby
            maybe_vote(player)
        elif isinstance(event, ChatReceived):
            if event.number:
                player.chat_seen[event.number] = event.text
        elif isinstance(event, Notice):
            if event.text.startswith("time is up"):
                player.told_timeouts += 1
        elif isinstance(event, TurnClock):
            player.clock = (now, event)
            if soak.result.stopped:
                player.clocks_after.append((now, event))
        elif isinstance(event, ViewChanged):
            record_view(player, event.view)
            if player.reconnected_at and player.back_at is None:
                player.back_at = (player.game, event.view.moves_played)
            soak.on_view(player, event.view)
            if not player.paused:
                await act(player, bot, event.view)
                maybe_vote(player)


async def act(player: Player, bot: Any, view: View) -> None:
    client = player.client
    me = view.seat
    if me is None:
        return
    if view.phase == "setup" and not view.seats[me].ready and player.chose_in != player.game:
        player.chose_in = player.game
        delay = player.setup_delay
        cards = list(bot.choose_face_up(view))

        async def choose_later() -> None:
            await asyncio.sleep(delay)
            client.choose_face_up(cards)
            player.told_timeouts = 0

        asyncio.get_running_loop().create_task(choose_later())
        return
    if not view.my_turn or player.acted_at == view.moves_played:
        return
    player.acted_at = view.moves_played
    if player.idle_turns > 0:
        player.idle_turns -= 1  # sits this one out: the turn timer acts
        return
    if player.rng.random() < 0.08:
        player.chat_sent += 1
        client.chat(f"{player.name} says {player.chat_sent}")
        player.told_timeouts = 0  # any request is the player acting (Table.seat_active)
    await asyncio.sleep(player.rng.uniform(0.0, 0.03))
    if client.view is view:
        move = bot.choose_move(view)
        client.submit(move)
        player.sent[(player.game, view.moves_played)] = move
        player.told_timeouts = 0
    else:
        player.acted_at = -1  # a newer view came meanwhile: act on that one


def maybe_vote(player: Player) -> None:
    """After a game, ask for the next one (again after a resume: votes are not kept)."""
    lobby, view = player.lobby, player.client.view
    if lobby is None or view is None or view.phase != "over" or player.paused:
        return
    if lobby.rematch != "vote" or player.seat in lobby.rematch_votes:
        return
    if player.voted_in == len(player.reconnected_at) * 1000 + lobby.game_number:
        return  # asked already in this session; the lobby will show it
    player.voted_in = len(player.reconnected_at) * 1000 + lobby.game_number
    player.client.rematch()


# ---------------------------------------------------------------------- one run
@dataclass
class RunResult:
    phase: str
    stop: str
    turn_time: float | None = None
    stopped: bool = False
    resume_refused: bool = False
    finished: bool = False
    verified: bool = False
    moves_lost: int = 0
    settings_changed: list[str] = field(default_factory=list)
    timeouts_lost: int = 0
    chat_lost: int = 0
    clock_error: float | None = None
    clock_short: bool = False
    resume_seconds: float | None = None
    reconnect_seconds: list[float] = field(default_factory=list)
    moved: int = 0  # players who joined again from another terminal after the resume
    turns_lost_to_clock: int = 0  # moves the turn timer made while the player reconnected
    problems: list[str] = field(default_factory=list)


class Soak:
    """One run: a table, its players, and the stop at a moment of ``phase``."""

    def __init__(self, index: int, rng: random.Random, workdir: Path, port: int, stop: str):
        self.index, self.rng, self.workdir, self.port = index, rng, workdir, port
        self.phase = rng.choice(PHASES)
        self.result = RunResult(self.phase, stop)
        self.players: list[Player] = []
        self.host: HostProc | None = None
        self.trigger = asyncio.Event()
        self.target_moves = rng.randrange(1, 60)
        # "over": the end of the first game, or the last (a crash only: a
        # clean stop after the last game is the table's end, nothing to resume).
        self.over_game = rng.choice([1, 2]) if stop == "kill" else 1
        self.settings = self._draw_settings()
        self.result.turn_time = self.settings["turn_time"]
        self.seen: dict[str, Any] = {}  # what the players saw before the stop
        self.moved: list[Player] = []  # the old terminals of players who moved
        self.tasks: list[asyncio.Task[None]] = []
        self.stopped_file: dict[str, Any] = {}  # the table file as the stop left it

    def _draw_settings(self) -> dict[str, Any]:
        rng = self.rng
        players = rng.randrange(2, 6)
        people = rng.randrange(1, min(players, 3) + 1)
        stop = self.result.stop
        turn_time = rng.choice([None, 3, 5, 20]) if stop == "kill" else rng.choice([15, 25])
        return {
            "players": players,
            "people": people,
            "bots": players - people,
            "bot_level": rng.choice(["random", "greedy"]),
            "code": rng.choice([None, f"code{self.index}"]),
            "turn_time": turn_time,
            "finish": rng.choice(["first_out", "places"]),
            "voluntary_pickup": rng.random() < 0.3,
            "spectator_chat": rng.random() < 0.7,
            "rematch_after": rng.choice([None, 60]),
            "games": 2 if self.phase in ("over", "rematch") else 1,
            "seed": rng.randrange(1 << 20),
        }

    def host_args(self) -> list[str]:
        s = self.settings
        args = [
            "--bind", LOOPBACK, "--port", str(self.port), "--players", str(s["players"]),
            "--bots", str(s["bots"]), "--bot-level", s["bot_level"], "--seed", str(s["seed"]),
            "--record", str(self.journal), "--games", str(s["games"]),
            "--takeover-after", "600", "--finish", s["finish"], "--name", f"soak{self.index}",
        ]  # fmt: skip
        for flag, key in (("--code", "code"), ("--turn-time", "turn_time"),
                          ("--rematch-after", "rematch_after")):  # fmt: skip
            if s[key] is not None:
                args += [flag, str(s[key])]
        if s["voluntary_pickup"]:
            args.append("--voluntary-pickup")
        if not s["spectator_chat"]:
            args.append("--no-spectator-chat")
        return args

    @property
    def journal(self) -> Path:
        return self.workdir / "party.json"

    @property
    def table_file(self) -> Path:
        return self.workdir / "party.json.table"

    # ---------------------------------------------------------------- when to stop
    def on_view(self, player: Player, view: View) -> None:
        """Decide, from what the players see, when the host is stopped."""
        if self.trigger.is_set() or self.result.stopped:
            return
        game = player.game
        phase = self.phase
        if phase == "setup" and view.phase == "setup" and any(s.ready for s in view.seats):
            self._fire(self.rng.uniform(0.0, 0.3))
        elif phase == "play" and view.phase == "play" and view.moves_played >= self.target_moves:
            self._fire(self.rng.uniform(0.0, 0.05))
        elif phase == "after_move" and view.phase == "play" and view.moves_played > 0:
            last = view.log[-1] if view.log else None
            if last is not None and last.seat == view.seat and view.moves_played >= 3:
                self._fire(0.0)  # this player's own move, just acknowledged
        elif phase == "over" and view.phase == "over" and game == self.over_game:
            self._fire(0.0)
        elif phase == "rematch" and view.phase == "over" and game == 1:
            self._fire(self.rng.uniform(0.05, 0.5))

    def _fire(self, after: float) -> None:
        loop = asyncio.get_running_loop()
        loop.call_later(after, self.trigger.set)
        if after == 0.0:
            self.trigger.set()

    # ---------------------------------------------------------------- the run
    async def run(self) -> RunResult:
        result = self.result
        self.host = spawn_host(self.host_args(), self.workdir, "host")
        if not await until_listening(self.host):
            result.problems.append(f"host did not start:\n{self.host.text()[-2000:]}")
            return result
        tasks = self.tasks = await self._seat_players()
        try:
            await self._stop_and_resume()
            if result.stopped and not result.resume_refused:
                await self._finish()
        finally:
            for task in tasks:
                task.cancel()
            for player in self.players + self.moved:
                with contextlib.suppress(Exception):
                    await player.client.close()
            if self.host is not None:
                stop_process(self.host)
        return result

    async def _seat_players(self) -> list[asyncio.Task[None]]:
        s = self.settings
        tasks = []
        for n in range(s["people"]):
            name = f"p{n}"
            tokens = TokenStore(self.workdir / f"seats-{name}.json")
            client = NetClient(LOOPBACK, self.port, name, s["code"], tokens=tokens)
            player = Player(name, client, self.rng.choice(["greedy", "random"]),
                            random.Random(self.rng.random()))  # fmt: skip
            if self.phase == "setup" and n == 0:
                player.setup_delay = 2.0  # the set-up lasts long enough to be stopped in
            if s["turn_time"] is not None and s["turn_time"] <= 5 and self.rng.random() < 0.5:
                player.idle_turns = self.rng.randrange(1, 5)
            await client.start()
            player.seat = client.seat
            self.players.append(player)
            tasks.append(asyncio.get_running_loop().create_task(play(player, self)))
        return tasks

    async def _stop_and_resume(self) -> None:
        result = self.result
        host = self.host
        assert host is not None
        try:
            async with asyncio.timeout(RUN_TIMEOUT):
                done = asyncio.ensure_future(until_exit(host, RUN_TIMEOUT))
                trigger = asyncio.ensure_future(self.trigger.wait())
                await asyncio.wait({done, trigger}, return_when=asyncio.FIRST_COMPLETED)
                done.cancel()
                trigger.cancel()
        except TimeoutError:
            pass
        if not self.trigger.is_set():
            result.problems.append(f"never reached the moment to stop ({self.phase})")
            return
        if result.stop == "term":
            # The players stop acting, so that the clock the stop keeps is
            # the one they were last shown.
            for player in self.players:
                player.paused = True
            await asyncio.sleep(self.rng.uniform(0.3, 1.5))
        seen = self._snapshot()
        stopped_at = time.monotonic()
        if result.stop == "kill":
            host.popen.send_signal(signal.SIGKILL)
        else:
            host.popen.send_signal(signal.SIGTERM)
        code = await until_exit(host, 30)
        result.stopped = True
        if result.stop == "term" and code not in (0, 130):
            result.problems.append(f"SIGTERM: the host exited with {code}")
        table = self.stopped_file = self._read_table_file()
        self._check_after_stop(seen, table, stopped_at)
        self.host = resumed = spawn_host(["--resume", str(self.journal)], self.workdir, "resumed")
        if not await until_listening(resumed):
            result.resume_refused = True
            result.problems.append(f"resume refused:\n{resumed.text()[-2000:]}")
            return
        result.resume_seconds = resumed.listening - resumed.started
        after = self._read_table_file()
        self._compare_files(table, after, "resumed table file")
        self.seen = seen
        for player in self.players:
            player.paused = False
        if result.stop == "kill" and self.rng.random() < MOVE_CHANCE:
            await self._move_to_another_terminal(self.rng.choice(self.players))

    async def _move_to_another_terminal(self, old: Player) -> None:
        """The player joins again from another terminal of the same account
        (the same seat tokens), while the old app still waits to notice the
        crash (its idle time-out): the new session must keep the seat, and
        the old app be told it was taken over."""
        tokens = TokenStore(self.workdir / f"seats-{old.name}.json")
        client = NetClient(LOOPBACK, self.port, old.name, self.settings["code"], tokens=tokens)
        new = Player(old.name, client, old.level, random.Random(old.rng.random()), fresh=True)
        try:
            await client.start()
        except ConnectionError as err:
            self.result.problems.append(f"{old.name} from another terminal: {err}")
            return
        new.seat = client.seat
        old.paused = True  # the old terminal is left alone
        self.players[self.players.index(old)] = new
        self.moved.append(old)
        self.result.moved += 1
        self.tasks.append(asyncio.get_running_loop().create_task(play(new, self)))

    def _check_moved(self) -> None:
        host = self.host
        assert host is not None
        for old in self.moved:
            # It may not have knocked again before the table closed: then it
            # must not have been seated either.
            back = [at for at in old.reconnected_at if at >= host.started]
            if back or (old.closed is not None and CLOSE_TAKEN_OVER not in old.closed):
                self.result.problems.append(
                    f"{old.name}'s old terminal came back to the seat ({old.closed})"
                )
        for player in self.players:
            if player.fresh and player.closed is not None and "taken over" in player.closed:
                self.result.problems.append(
                    f"{player.name}'s new terminal lost the seat to the old one: {player.closed}"
                )

    async def _finish(self) -> None:
        result = self.result
        host = self.host
        assert host is not None
        code = await until_exit(host, RUN_TIMEOUT)
        if code is None:
            result.problems.append("the resumed table did not finish its games")
            return
        result.finished = code == 0
        if code != 0:
            result.problems.append(f"the resumed host exited with {code}:\n{host.text()[-1500:]}")
        self._check_moved()
        for player in self.players:
            if player.fresh:
                continue
            for at in player.reconnected_at:
                if at >= host.started:
                    result.reconnect_seconds.append(max(0.0, at - host.listening))
                    break
            else:
                if player.closed is None or "closed" not in player.closed:
                    result.problems.append(f"{player.name} never reconnected ({player.closed})")
        self._check_records()
        self._check_lobby_after()
        if result.stop == "term":
            self._check_clock_after_resume()

    # ---------------------------------------------------------------- what was seen
    def _snapshot(self) -> dict[str, Any]:
        return {
            "views": {p.name: list(zip(p.games, p.views, strict=True)) for p in self.players},
            "chat": {n: t for p in self.players for n, t in p.chat_seen.items()},
            "told": {p.seat: p.told_timeouts for p in self.players},
            "lobby": {p.name: p.lobby for p in self.players},
            "clock": {p.name: p.clock for p in self.players},
            "tokens": {p.seat: p.client._token for p in self.players},
            "moves": {p.name: (p.game, p.views[-1].moves_played) for p in self.players if p.views},
        }

    def _read_table_file(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.table_file.read_text())
        return data

    def _check_after_stop(self, seen: dict[str, Any], table: dict[str, Any], at: float) -> None:
        result = self.result
        self._check_settings(table, "table file at the stop")
        for seat, token in seen["tokens"].items():
            if seat is not None and table["seats"][seat]["token"] != token:
                result.settings_changed.append(f"seat {seat + 1}'s owner in the table file")
        for seat, told in seen["told"].items():
            if seat is None:
                continue
            kept = table["seats"][seat]["timeouts"]
            if kept < told and not table["seats"][seat]["away"]:
                result.timeouts_lost += told - kept
                result.problems.append(f"seat {seat + 1}: told of {told} time-outs, file {kept}")
        kept_chat = {line[4]: line[2] for line in table["chat"]}
        newest = max(kept_chat, default=0)
        for number, text in seen["chat"].items():
            if number > newest - CHAT_HISTORY and kept_chat.get(number) != text:
                result.chat_lost += 1
                result.problems.append(f"chat line {number} {text!r} not in the table file")
        if self.result.stop == "term":
            self._check_clock_kept(seen, table, at)

    def _check_settings(self, table: dict[str, Any], where: str) -> None:
        s = self.settings
        config, options = table["config"], table["options"]
        want = {
            "players": s["players"], "bot_level": s["bot_level"], "code": s["code"],
            "turn_time": None if s["turn_time"] is None else float(s["turn_time"]),
            "rematch_after": None if s["rematch_after"] is None else float(s["rematch_after"]),
            "games": s["games"], "spectator_chat": s["spectator_chat"], "seed": s["seed"],
            "takeover_after": 600.0, "table_name": f"soak{self.index}'s table",
        }  # fmt: skip
        for key, value in want.items():
            if config.get(key) != value:
                self.result.settings_changed.append(f"{where}: {key} {config.get(key)!r}")
        if options.get("finish", "first_out") != s["finish"]:
            self.result.settings_changed.append(f"{where}: finish {options.get('finish')!r}")
        if bool(options.get("voluntary_pickup")) != s["voluntary_pickup"]:
            self.result.settings_changed.append(f"{where}: voluntary_pickup")
        if table["hosting"].get("port") != self.port:
            self.result.settings_changed.append(f"{where}: port {table['hosting'].get('port')}")
        bots = [seat for seat in table["seats"] if seat["kind"] == "bot"]
        if len(bots) != s["bots"] or any(b["bot_level"] != s["bot_level"] for b in bots):
            self.result.settings_changed.append(f"{where}: the bot seats")

    def _compare_files(self, before: dict[str, Any], after: dict[str, Any], where: str) -> None:
        self._check_settings(after, where)
        keys = ("table_id", "secret", "config", "options", "host_seat", "game_number", "deal")
        for key in keys:
            if before.get(key) != after.get(key):
                self.result.settings_changed.append(f"{where}: {key}")
        for i, (a, b) in enumerate(zip(before["seats"], after["seats"], strict=True)):
            if seat_setting(a) != seat_setting(b):
                self.result.settings_changed.append(f"{where}: seat {i + 1} {a} -> {b}")
        kept = {line[4]: line for line in after["chat"]}
        newest = max(kept, default=0)
        for line in before["chat"]:
            if line[4] > newest - CHAT_HISTORY and kept.get(line[4]) != line:
                self.result.chat_lost += 1
                self.result.problems.append(f"{where}: chat line {line} not kept")

    def _check_clock_kept(self, seen: dict[str, Any], table: dict[str, Any], at: float) -> None:
        """A clean stop keeps the running clock's time left."""
        kept = table.get("clock")
        shown = [c for c in seen["clock"].values() if c is not None and c[1].remaining]
        if not shown:
            return
        received, clock = max(shown, key=lambda c: c[0])
        if kept is None:
            if self._game_over_at_stop():
                return
            self.result.problems.append(f"clean stop: no clock kept (players saw {clock})")
            self.result.clock_error = float("inf")
            return
        expected = (clock.remaining or 0.0) - (at - received)
        left = kept_time_left(kept, clock.seat)
        self.result.clock_error = float("inf") if left is None else abs(left - expected)
        if self.result.clock_error > 0.5:
            self.result.problems.append(
                f"clean stop: clock kept {left} s for seat {clock.seat}, "
                f"players saw {expected:.2f} s"
            )

    def _game_over_at_stop(self) -> bool:
        return any(p.views and p.views[-1].phase != "play" for p in self.players)

    def _check_clock_after_resume(self) -> None:
        """A clock the stop kept holds until its player is back: the first
        clock a player is shown for their own seat after the resume has the
        time the stop kept (set-up: each seat's own; play: the seat to act's)."""
        kept = self.stopped_file.get("clock")
        if kept is None or self.settings["turn_time"] is None or self.host is None:
            return
        for player in self.players:
            left = kept_time_left(kept, player.seat)
            shown = [c for t, c in player.clocks_after if t >= self.host.listening]
            shown = [c for c in shown if c.seat == player.seat and c.remaining is not None]
            if left is None or not shown:
                continue
            given = shown[0].remaining
            assert given is not None
            if given < left - 0.5:
                self.result.clock_short = True
                self.result.problems.append(
                    f"{player.name}: resumed clock {given:.2f} s, the stop kept {left:.2f} s"
                )

    # ---------------------------------------------------------------- the end
    def _check_records(self) -> None:
        """Every view seen before the stop is a prefix of its game's record."""
        result = self.result
        records = self._records()
        for name, views in self.seen["views"].items():
            for game, view in views:
                record = records.get(game)
                if record is None:
                    result.problems.append(f"{name}: no record of game {game}")
                    result.moves_lost += 1
                    break
                if view.phase == "setup":
                    continue  # checked by its face-up cards in the record below
                if view.moves_played > len(record.moves):
                    result.moves_lost += view.moves_played - len(record.moves)
                    result.problems.append(
                        f"{name}: saw {view.moves_played} moves of game {game}, "
                        f"the record has {len(record.moves)}"
                    )
                    break
                if expected_view(record, view) != view:
                    result.moves_lost += 1
                    result.problems.append(f"{name}: view at move {view.moves_played} of game "
                                           f"{game} differs from the record")  # fmt: skip
                    break
        result.verified = all(verified(path) for path in self._record_paths().values())
        self._count_turns_lost_to_the_clock(records)

    def _count_turns_lost_to_the_clock(self, records: dict[int, Any]) -> None:
        """Moves the turn timer's bot made for a player between the stop and
        the player's first view after reconnecting: turns a crash cost them."""
        for player in self.players:
            before = self.seen["moves"].get(player.name)
            if player.fresh or player.back_at is None or before is None:
                continue
            game, moves = before
            back_game, back_moves = player.back_at
            record = records.get(game)
            if record is None or back_game != game:
                continue
            lost = [
                at
                for at in range(moves, min(back_moves, len(record.moves)))
                if record.moves[at].seat == player.seat
                and not same_move(player.sent.get((game, at)), record.moves[at])
            ]
            self.result.turns_lost_to_clock += len(lost)

    def _record_paths(self) -> dict[int, Path]:
        """Game number -> its record: the kept party-N.json, or the journal for the last."""
        paths = {}
        for path in self.workdir.glob("party-*.json"):
            number = path.stem.removeprefix("party-")
            if number.isdigit():
                paths[int(number)] = path
            else:  # party-1-2.json: a game kept twice, or a name taken
                self.result.problems.append(f"{path.name}: a second record of a game")
        return paths

    def _records(self) -> dict[int, Any]:
        out = {}
        for number, path in self._record_paths().items():
            out[number] = parse_record(json.loads(path.read_text()))
        return out

    def _check_lobby_after(self) -> None:
        for player in self.players:
            before = self.seen["lobby"].get(player.name)
            after = player.lobby
            if before is None or after is None:
                continue
            for key in LOBBY_SETTINGS:
                if key == "rematch":
                    continue  # "none" after the last game
                if getattr(before, key) != getattr(after, key):
                    self.result.settings_changed.append(f"{player.name}'s lobby: {key}")
            names = [(s.name, s.kind) for s in before.seats]
            if names != [(s.name, s.kind) for s in after.seats]:
                self.result.settings_changed.append(f"{player.name}'s lobby: seats")


def same_move(sent: Any, made: Any) -> bool:
    """Whether the move a player sent is the one the record holds."""
    if sent is None:
        return False
    return (sent.kind, sorted(sent.cards), sent.slot) == (made.kind, sorted(made.cards), made.slot)


def kept_time_left(kept: dict[str, Any], seat: int | None) -> float | None:
    """The time a clean stop kept for ``seat``'s clock (table file "clock")."""
    if seat is None:
        return None
    setup = kept.get("setup")
    if isinstance(setup, list):
        return setup[seat] if seat < len(setup) else None
    return kept.get("remaining") if kept.get("seat") == seat else None


def seat_setting(seat: dict[str, Any]) -> dict[str, Any]:
    """A seat as the table file holds it, but a person's bot level only while
    a bot plays for them (a level left from an earlier take-over is unused)."""
    seat = {**seat, "claims": None}  # each session that takes the seat counts
    if seat["kind"] == "human" and not seat["away"]:
        return {**seat, "bot_level": None}
    return seat


def expected_view(record: Any, view: View) -> View:
    """The view ``view``'s seat would see after the record's first moves."""
    state = start_state(record)
    for move in record.moves[: view.moves_played]:
        state.apply_move(move)
    return view_from_wire(view_to_wire(seat_view(state, view.seat)))


def verified(path: Path) -> bool:
    out = subprocess.run(
        [str(THREEUP), "verify", str(path), "--json"], capture_output=True, text=True, check=False
    )
    return out.returncode == 0


# ---------------------------------------------------------------------- figures
def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(results: list[RunResult]) -> dict[str, Any]:
    reconnects = [s for r in results for s in r.reconnect_seconds]
    resumes = [r.resume_seconds for r in results if r.resume_seconds is not None]
    clocks = [r.clock_error for r in results if r.clock_error is not None]
    return {
        "runs": len(results),
        "stops_by_phase": {
            f"{stop}/{phase}": sum(
                r.stopped and (r.stop, r.phase) == (stop, phase) for r in results
            )
            for stop in ("kill", "term")
            for phase in PHASES
        },
        "moves_lost": sum(r.moves_lost for r in results),
        "settings_changed": sum(len(r.settings_changed) for r in results),
        "timeouts_lost": sum(r.timeouts_lost for r in results),
        "chat_lines_lost": sum(r.chat_lost for r in results),
        "resumes_refused": sum(1 for r in results if r.resume_refused),
        "moved_to_another_terminal": sum(r.moved for r in results),
        "turns_played_by_the_clock_while_reconnecting": {
            str(t): sum(r.turns_lost_to_clock for r in results if r.turn_time == t)
            for t in sorted({r.turn_time for r in results if r.turn_time is not None})
        },
        "not_finished": sum(1 for r in results if r.stopped and not r.finished),
        "not_verified": sum(1 for r in results if r.finished and not r.verified),
        "resume_s_p50": statistics.median(resumes) if resumes else None,
        "resume_s_max": max(resumes) if resumes else None,
        "reconnect_s_p50": percentile(reconnects, 0.5) if reconnects else None,
        "reconnect_s_p99": percentile(reconnects, 0.99) if reconnects else None,
        "clean_stop_clock_error_s_max": max(clocks) if clocks else None,
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stops", default="kill,term", help="kill, term or both")
    parser.add_argument("--phases", default=",".join(PHASES))
    parser.add_argument("--port-base", type=int, default=42100)
    parser.add_argument("--keep", type=Path, default=None, help="keep each run's files here")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    stops = args.stops.split(",")
    phases = args.phases.split(",")
    results = []
    base = args.keep or Path(tempfile.mkdtemp(prefix="threeup-soak-"))
    for index in range(args.runs):
        workdir = base / f"run-{index:03d}"
        workdir.mkdir(parents=True, exist_ok=True)
        soak = Soak(index, random.Random(rng.random()), workdir, args.port_base + index % 800,
                    stops[index % len(stops)])  # fmt: skip
        if len(phases) < len(PHASES):
            soak.phase = soak.result.phase = phases[index % len(phases)]
            soak.settings["games"] = 2 if soak.phase in ("over", "rematch") else 1
        started = time.monotonic()
        result = await soak.run()
        results.append(result)
        flag = "ok" if not (result.problems or result.settings_changed) else "FAULT"
        print(f"run {index:3d} {result.stop}/{result.phase:<10} {flag} "
              f"{time.monotonic() - started:5.1f} s {json.dumps(soak.settings)}",
              file=sys.stderr, flush=True)  # fmt: skip
        for problem in result.problems + result.settings_changed:
            print(f"    {problem}", file=sys.stderr, flush=True)
    figures = summary(results)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>30}: {value}")
    faults = any(r.problems or r.settings_changed for r in results)
    if args.keep is None and not faults:
        shutil.rmtree(base, ignore_errors=True)
    else:
        print(f"files: {base}", file=sys.stderr)


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main())
