"""What ``threeup join HOST --bot LEVEL`` tells whoever runs it: a line on
stderr as it sits down and as each game begins and ends, nothing on stdout.
A real host process and a real bot process on loopback; and the reporter
fed a real game's views and a link that drops and comes back."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from netplay_support import LOOPBACK, THREEUP, child_env, load_record_file, start_host_process

from threeup_tui.bots import GreedyBot
from threeup_tui.client.events import (
    ConnectionChanged,
    Lobby,
    LobbyChanged,
    SeatSlot,
    ViewChanged,
    Welcome,
)
from threeup_tui.netplay.botreport import BotReport
from threeup_tui.rules import GameState, Options, Phase, seat_view


def test_a_joined_bot_says_each_game_it_plays_on_stderr_and_nothing_on_stdout(
    tmp_path: Path,
) -> None:
    """It played game after game and printed nothing until the table closed:
    its operator could not tell a bot at play from one stuck."""
    record = tmp_path / "game.json"
    host = start_host_process(tmp_path, players=2, bots=1, seed=21, record=record, games=2)
    out, err = tmp_path / "bot.stdout", tmp_path / "bot.stderr"
    args = [str(THREEUP), "join", f"{LOOPBACK}:{host.port}", "--bot", "greedy", "--name", "robo"]
    with out.open("wb") as stdout, err.open("wb") as stderr:
        bot = subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr,
            env=child_env(tmp_path / "bot-state"),
        )  # fmt: skip
    try:
        assert bot.wait(60) == 0, err.read_text()
        assert host.wait(60) == 0, host.stderr()
    finally:
        bot.kill()
        host.kill()
    assert out.read_bytes() == b""  # quiet for scripts
    expected = []
    for number in (1, 2):
        game = load_record_file(tmp_path / f"game-{number}.json")
        seat = game.players.index("robo")
        assert game.result is not None
        winner = game.result["winner"]
        if number == 1:
            expected.append(f"threeup join: seated at {LOOPBACK}:{host.port}: seat {seat + 1}")
        result = "won" if winner == seat else f"lost; {game.players[winner]} won"
        expected += [
            f"threeup join: game {number} begins: seat {seat + 1} of 2, as robo",
            f"threeup join: game {number} over: {result}; {len(game.moves)} moves",
        ]
    expected.append("threeup join: the table has played its 2 games")
    assert err.read_text().splitlines() == expected


def test_join_help_says_what_a_bot_prints_and_where() -> None:
    shown = subprocess.run([str(THREEUP), "join", "--help"], capture_output=True, text=True)
    bot_help = " ".join(shown.stdout.split("\n  --bot LEVEL", 1)[1].split("--think-ms")[0].split())
    assert "says on stderr when it sits down, as each game begins and ends" in bot_help
    assert "prints nothing on stdout" in bot_help


@pytest.mark.parametrize("seed", [3, 1])  # robo wins; robo comes 2nd
def test_the_report_says_the_place_the_winner_and_a_link_that_drops(seed: int) -> None:
    said: list[str] = []
    report = BotReport("127.0.0.1:49999", said.append)
    names = ["robo", "Ann\x1b[2J", "Cy"]
    state = GameState.new(names, Options(finish="places"), seed=seed)
    report.on_event(Welcome(0, False))
    seats = tuple(SeatSlot(i, name, "human", True) for i, name in enumerate(names))
    report.on_event(LobbyChanged(Lobby(seats, Options(), False, None, True, None, game_number=4)))
    report.on_event(ViewChanged(seat_view(state, 0)))  # its set-up: the game begins
    report.on_event(ViewChanged(seat_view(state, 0)))  # and does not begin twice
    report.on_event(ConnectionChanged("reconnecting"))
    report.on_event(ConnectionChanged("reconnecting"))  # still trying: said once
    report.on_event(ConnectionChanged("connected"))
    report.on_event(Welcome(0, False))  # seated again, in the same seat: nothing new
    for seat in range(3):
        state.choose_face_up_codes(
            seat, GreedyBot(seat).choose_face_up(seat_view(state, seat, log_length=0))
        )
    bots = [GreedyBot(seat) for seat in range(3)]
    while state.phase != Phase.OVER:
        state.apply_move(bots[state.seat].choose_move(seat_view(state, state.seat)))
    over = seat_view(state, 0)
    report.on_event(ViewChanged(over))
    report.on_event(ViewChanged(over))  # the same end seen again: said once
    *before, end = said
    assert before == [
        "seated at 127.0.0.1:49999: seat 1",
        "game 4 begins: seat 1 of 3, as robo",
        "lost the link to 127.0.0.1:49999: trying to reach it again",
        "back at 127.0.0.1:49999",
    ]
    shown = ["robo", "Ann[2J", "Cy"]  # the host's names, without their escapes
    order = ", ".join(shown[p] for p in over.places)
    moves = f"{over.moves_played} moves"
    if over.winner == 0:
        assert end == f"game 4 over: won (places: {order}); {moves}"
    else:
        assert over.winner is not None
        place = ["1st", "2nd", "3rd"][over.places.index(0)]
        winner = shown[over.winner]
        assert end == f"game 4 over: {place} of 3; {winner} won (places: {order}); {moves}"
