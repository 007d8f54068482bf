"""A dedicated host keeps its table: votes, --rematch-after, --games, records.

Tables without a host seat (``threeup host --headless``) start the next
game when every connected person has asked; bots (the table's, a network
bot, an absent player's) always agree.  Each finished game is kept beside
the journal as NAME-N.json, and every one verifies.
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

import pytest
from netplay_support import play_out_as_bots

from threeup_tui.netplay.run import _host_games
from threeup_tui.netplay.wire import CLOSE_HOST_STOPPED_BETWEEN_GAMES, CLOSE_HOST_STOPPED_IN_LOBBY
from threeup_tui.recordfile import read_json
from threeup_tui.rules import Phase, verify
from threeup_tui.table import REMATCH_PAUSE, Table, TableConfig, TableError


class FakeClock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


def headless(tmp_path: Path, **config: object) -> tuple[Table, FakeClock]:
    """Two people (ann, bob) and a bot at a table with no host seat."""
    clock = FakeClock()
    table = Table(
        TableConfig(players=3, seed=4, journal=tmp_path / "party.json", **config),  # type: ignore[arg-type]
        clock,
    )
    table.seat_human("ann", "a" * 32)
    table.seat_human("bob", "b" * 32)
    table.add_bot(None, "greedy")
    return table, clock


def test_the_next_game_starts_when_every_connected_person_has_asked(tmp_path: Path) -> None:
    table, clock = headless(tmp_path)
    table.start(None)
    play_out_as_bots(table)
    lobby = table.lobby(0)
    assert lobby.rematch == "vote" and lobby.rematch_votes == () and lobby.game_number == 1
    table.rematch(0)
    assert table.lobby().rematch_votes == (0,)
    clock.now += 3600
    table.check_timers()
    assert table.state is not None and table.state.phase == Phase.OVER  # bob has not asked
    table.rematch(1)
    assert table.rematch_at == clock.now + REMATCH_PAUSE  # a moment to see the result
    clock.now += REMATCH_PAUSE
    table.check_timers()
    assert table.game_number == 2 and table.state.phase == Phase.SETUP
    assert table.lobby().rematch_votes == ()


@pytest.mark.parametrize("seat", [-1, 3, 9])
def test_a_vote_from_a_seat_number_that_names_no_seat_is_refused(tmp_path: Path, seat: int) -> None:
    """Refused in words and not counted: seat -1 is not the last seat, nor
    is seat 4 of three an IndexError.  (Found by
    tests/seats/test_table_stateful.py.)"""
    table, _clock = headless(tmp_path)
    table.start(None)
    play_out_as_bots(table)
    lines = len(table.chat_log)
    with pytest.raises(TableError, match=f"there is no seat {seat + 1}$"):
        table.rematch(seat)
    assert table.rematch_votes == set() and table.lobby().rematch_votes == ()
    assert len(table.chat_log) == lines


def test_a_player_who_left_does_not_hold_up_the_next_game(tmp_path: Path) -> None:
    table, clock = headless(tmp_path)
    table.start(None)
    play_out_as_bots(table)
    table.rematch(0)
    table.disconnect(1)
    clock.now += REMATCH_PAUSE
    table.check_timers()
    assert table.game_number == 2


def test_a_network_bot_always_agrees(tmp_path: Path) -> None:
    table, clock = headless(tmp_path)
    table.set_network_bot(1, "greedy")
    slot = table.lobby().seats[1]
    assert (slot.kind, slot.bot_level, slot.connected) == ("bot", "greedy", True)
    table.start(None)
    play_out_as_bots(table)
    table.rematch(0)
    clock.now += REMATCH_PAUSE
    table.check_timers()
    assert table.game_number == 2


def test_a_person_marked_away_does_not_hold_up_the_next_game(tmp_path: Path) -> None:
    """An away seat is played by a bot while its player, still connected,
    does nothing (three turns timed out).  The next game waited for their
    vote, which an idle player never sends: without --rematch-after, ann
    waited for ever, with nothing to do.  Away is "the bot plays for you
    until you act", so the bot plays on for bob in the next game; the
    moment he acts he is back, and then he is waited for like anyone."""
    table, clock = headless(tmp_path)
    table.start(None)
    play_out_as_bots(table)
    seat = table.seats[1]
    seat.away, seat.bot = True, table._stand_in(1)  # as three time-outs leave it
    table.rematch(0)
    clock.now += REMATCH_PAUSE
    table.check_timers()
    assert table.game_number == 2
    assert seat.away and seat.bot is not None  # the bot plays his seat on
    play_out_as_bots(table)
    table.rematch(0)
    table.seat_active(1)  # bob comes back after the game: the next one waits for him
    clock.now += 3600
    table.check_timers()
    assert table.game_number == 2
    table.rematch(1)
    clock.now += REMATCH_PAUSE
    table.check_timers()
    assert table.game_number == 3


def test_a_table_whose_players_are_all_away_deals_no_next_game(tmp_path: Path) -> None:
    """Connected but idle: the turn timer's bot plays both seats (away), and
    --rematch-after would deal game after game to the bots, each counted in
    the idle players' histories.  The table waits until one of them acts."""
    table, clock = headless(tmp_path, rematch_after=30.0)
    table.start(None)
    for i in (0, 1):
        seat = table.seats[i]
        seat.away, seat.bot = True, table._stand_in(i)  # as three time-outs leave it
    play_out_as_bots(table)
    for _ in range(3):
        clock.now += 3600
        table.check_timers()
    assert table.game_number == 1
    table.seat_active(1)  # bob acts (a chat line, say): he is back
    clock.now += 29.9
    table.check_timers()
    assert table.game_number == 1
    clock.now += 0.1  # --rematch-after counts from his return
    table.check_timers()
    assert table.game_number == 2


def test_rematch_after_starts_the_next_game_anyway(tmp_path: Path) -> None:
    table, clock = headless(tmp_path, rematch_after=30.0)
    table.start(None)
    play_out_as_bots(table)
    assert table.lobby().rematch_after == 30.0
    clock.now += 29.9
    assert table.check_timers() == pytest.approx(0.1)
    assert table.game_number == 1
    clock.now += 0.1
    table.check_timers()
    assert table.game_number == 2
    assert table.chat_log[-2].text == "time is up: the next game starts"


def test_rematch_after_0_still_leaves_a_moment_to_see_the_result(tmp_path: Path) -> None:
    """With --rematch-after 0 the next game was dealt as the last move
    landed: a guest's app was sent the new deal instead of the finished
    game (1 result box of 3 shown, 2 of 3 games in its history, with real
    processes).  The next game waits the pause everyone gets."""
    table, clock = headless(tmp_path, rematch_after=0.0)
    table.start(None)
    play_out_as_bots(table)
    table.check_timers()
    assert table.game_number == 1
    clock.now += REMATCH_PAUSE - 0.01
    table.check_timers()
    assert table.game_number == 1
    clock.now += 0.01
    table.check_timers()
    assert table.game_number == 2


async def test_a_dedicated_host_logs_each_game_as_it_ended(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The host's loop once read the live table when it woke: a game dealt
    before it ran (with --rematch-after 0, before the pause above) was
    logged as "game 2 over: the game ends in a stalemate after 1000 turns;
    record in party-1.json", the game that had ended never, and --games N
    counted game N as played once dealt (the table closed 0.5 s into it).
    Here every game is dealt and played before the loop runs at all."""
    table, _clock = headless(tmp_path, games=3)
    stop = asyncio.Event()
    ended = []
    with caplog.at_level(logging.INFO, logger="threeup"):
        host = asyncio.create_task(_host_games(table, stop))
        for number in (1, 2, 3):
            table.start(None)
            play_out_as_bots(table)
            assert table.state is not None
            ended.append(f"game {number} over: {table.result_words(table.state)}; "
                         f"record in {tmp_path / f'party-{number}.json'}")  # fmt: skip
        assert await asyncio.wait_for(host, 5) == 0
    said = [r.getMessage() for r in caplog.records if " over: " in r.getMessage()]
    assert said == ended


def test_the_last_of_games_n_offers_no_rematch(tmp_path: Path) -> None:
    table, _clock = headless(tmp_path, games=2)
    table.start(None)
    assert table.lobby().rematch == "vote" and table.lobby().games == 2
    play_out_as_bots(table)
    table.rematch(0)
    table.rematch(1)
    table.start(None)  # what the pause would do
    play_out_as_bots(table)
    assert table.lobby().rematch == "none"
    with pytest.raises(TableError, match="plays 2 games, and that was the last"):
        table.rematch(0)


def test_a_closing_table_offers_no_rematch(tmp_path: Path) -> None:
    table, _clock = headless(tmp_path)
    table.start(None)
    play_out_as_bots(table)
    table.close("the host closed the table")
    assert table.lobby().rematch == "none"
    with pytest.raises(TableError, match="the host closed the table"):
        table.rematch(0)


def test_a_table_stopped_between_games_deals_nothing_and_keeps_its_next_game(
    tmp_path: Path,
) -> None:
    """The host stops between games (Ctrl-C), and --resume may bring the
    table back.  Stopping, it deals no game whatever the votes and timers
    do, but it does not tell its players there is no next game (their
    game-over box read "This table closes after this game" as their apps
    began to wait for the resume); the resumed table deals it, the votes
    given before the stop counted."""
    table, clock = headless(tmp_path, rematch_after=30.0)
    table.start(None)
    play_out_as_bots(table)
    table.rematch(0)
    table.stop(CLOSE_HOST_STOPPED_BETWEEN_GAMES)
    assert table.lobby().rematch == "vote"
    table.rematch(1)  # the last vote, as the host stops
    clock.now += 60.0
    table.check_timers()
    assert table.game_number == 1 and table.state is not None and table.state.over
    later = FakeClock()
    resumed = Table.resume(tmp_path / "party.json", clock=later)
    assert resumed.lobby().rematch == "vote" and resumed.lobby().rematch_votes == (0, 1)
    resumed.seat_human("ann", "a" * 32)
    resumed.seat_human("bob", "b" * 32)
    later.now += REMATCH_PAUSE
    resumed.check_timers()
    assert resumed.game_number == 2 and resumed.state is not None
    assert resumed.state.phase == Phase.SETUP


def test_a_lobby_filled_as_its_host_stops_deals_no_game(tmp_path: Path) -> None:
    """The last seat taken while the host stops: the game waits for the resume."""
    table = Table(TableConfig(players=2, seed=4, auto_start=True, journal=tmp_path / "p.json"))
    table.seat_human("ann", "a" * 32)
    table.stop(CLOSE_HOST_STOPPED_IN_LOBBY)
    table.seat_human("bob", "b" * 32)
    assert table.state is None and table.game_number == 0
    with pytest.raises(TableError, match="the host stopped before the game began"):
        table.start(None)


def test_a_table_with_a_host_seat_leaves_the_rematch_to_the_host(tmp_path: Path) -> None:
    table = Table(TableConfig(players=2, seed=4))
    table.seat_human("host", "h" * 32, host=True)
    table.add_bot(None, "greedy")
    table.start(0)
    play_out_as_bots(table)
    assert table.lobby().rematch == "host"
    table.rematch(0)
    assert table.game_number == 2


def test_every_finished_game_is_kept_beside_the_journal_and_verifies(tmp_path: Path) -> None:
    table, _clock = headless(tmp_path)
    for _game in range(3):
        table.start(None)
        play_out_as_bots(table)
    kept = [tmp_path / f"party-{n}.json" for n in (1, 2, 3)]
    assert table.kept_records == kept
    records = [read_json(path) for path in kept]
    for record in records:
        verdict = verify(record)
        assert verdict.ok and verdict.finished, verdict
    assert len({str(r["moves"]) for r in records}) == 3  # three different games
    # The journal holds the current (here: the last finished) game.
    assert read_json(tmp_path / "party.json") == records[-1]


def test_a_resumed_finished_game_waits_for_the_next_one(tmp_path: Path) -> None:
    table, _clock = headless(tmp_path)
    table.start(None)
    play_out_as_bots(table)
    later = FakeClock()
    # --rematch-after given with --resume: an override of the saved setting.
    resumed = Table.resume(tmp_path / "party.json", {"rematch_after": 5.0}, clock=later)
    assert resumed.state is not None and resumed.state.over
    assert resumed.lobby().rematch == "vote" and resumed.game_number == 1
    later.now += 3600
    resumed.check_timers()
    assert resumed.game_number == 1  # nobody has come back: no game for bots alone
    resumed.seat_human("ann", "a" * 32)  # ann's client comes back
    later.now += 4.9
    resumed.check_timers()
    assert resumed.game_number == 1
    later.now += 0.1  # --rematch-after counts from her return
    resumed.check_timers()
    assert resumed.game_number == 2 and resumed.state.phase == Phase.SETUP


def test_a_vote_for_the_next_game_survives_a_crash(tmp_path: Path) -> None:
    """Ann asked for another game, then the host died.  Once she and bob
    are back, bob's asking is all the next game waits for: she is not asked
    twice, nor does a vote from the file count for a seat a bot plays."""
    table, _clock = headless(tmp_path)
    table.start(None)
    play_out_as_bots(table)
    table.rematch(0)
    later = FakeClock()
    resumed = Table.resume(tmp_path / "party.json", clock=later)  # nothing saved at the kill
    assert resumed.lobby().rematch_votes == (0,)
    resumed.seat_human("ann", "a" * 32)
    resumed.seat_human("bob", "b" * 32)
    resumed.rematch(1)
    later.now += REMATCH_PAUSE
    resumed.check_timers()
    assert resumed.game_number == 2 and resumed.state is not None
    assert resumed.state.phase == Phase.SETUP


def test_a_player_back_before_the_pause_ends_is_asked_too(tmp_path: Path) -> None:
    """Ann has asked; bob's connection drops, so nobody here is waiting and
    the next game is due after the pause; bob is back within it.  The game
    once started anyway ("time is up", with no --rematch-after), dealing
    bob in without his asking."""
    table, clock = headless(tmp_path)
    table.start(None)
    play_out_as_bots(table)
    table.rematch(0)
    table.disconnect(1)
    assert table.rematch_at == clock.now + REMATCH_PAUSE
    clock.now += REMATCH_PAUSE / 2
    table.seat_human("bob", "b" * 32)
    clock.now += REMATCH_PAUSE
    table.check_timers()
    assert table.game_number == 1 and table.rematch_at is None
    table.rematch(1)
    clock.now += REMATCH_PAUSE
    table.check_timers()
    assert table.game_number == 2


def test_after_a_resume_the_first_back_does_not_start_the_game_for_the_rest(
    tmp_path: Path,
) -> None:
    """Found in tmux: a resumed finished game; a `join --bot` seat (which
    always agrees) came back first, nobody else was here yet, so the pause
    began; bob came back a moment later and the next game started without
    his asking."""
    table, _clock = headless(tmp_path)
    table.set_network_bot(0, "greedy")  # ann's seat is a network bot
    table.start(None)
    play_out_as_bots(table)
    later = FakeClock()
    resumed = Table.resume(tmp_path / "party.json", clock=later)
    resumed.seat_human("ann", "a" * 32)  # the network bot reconnects first
    later.now += 0.4
    resumed.seat_human("bob", "b" * 32)
    later.now += 60
    resumed.check_timers()
    assert resumed.game_number == 1  # waiting for bob
    resumed.rematch(1)
    later.now += REMATCH_PAUSE
    resumed.check_timers()
    assert resumed.game_number == 2


def test_rematch_after_still_counts_once_a_pause_is_called_off(tmp_path: Path) -> None:
    table, clock = headless(tmp_path, rematch_after=30.0)
    table.start(None)
    play_out_as_bots(table)
    table.rematch(0)
    table.disconnect(1)  # the pause begins
    clock.now += 0.5
    table.seat_human("bob", "b" * 32)  # and is called off: bob has not asked
    assert table.rematch_at == clock.now - 0.5 + 30.0
    clock.now += 29.5
    table.check_timers()
    assert table.game_number == 2


@pytest.mark.parametrize("votes", [[2], [7], [-1], ["0"], [True], "0", None])
def test_votes_in_a_table_file_that_name_no_person_count_for_nobody(
    tmp_path: Path, votes: object
) -> None:
    table, _clock = headless(tmp_path)
    table.start(None)
    play_out_as_bots(table)
    file = tmp_path / "party.json.table"
    data = json.loads(file.read_text())
    data["votes"] = votes
    file.write_text(json.dumps(data))
    resumed = Table.resume(tmp_path / "party.json", clock=FakeClock())
    assert resumed.rematch_votes == set()


def test_with_nobody_here_the_bots_deal_no_next_game(tmp_path: Path) -> None:
    """Everyone left: the bots finish the game (D17), and the table waits
    for someone to come back rather than deal game after game to bots alone,
    each kept on disk."""
    table, clock = headless(tmp_path, rematch_after=30.0)
    table.start(None)
    table.disconnect(0)
    table.disconnect(1)
    play_out_as_bots(table)
    assert table.state is not None and table.state.over
    for _ in range(3):
        clock.now += 3600
        table.check_timers()
        table.step_bot()
    assert table.game_number == 1 and table.kept_records == [tmp_path / "party-1.json"]
    table.seat_human("bob", "b" * 32)  # bob is back, and asks at once
    table.rematch(1)
    clock.now += REMATCH_PAUSE
    table.check_timers()
    assert table.game_number == 2


def test_a_network_bot_deals_no_next_game_while_a_persons_seat_waits(tmp_path: Path) -> None:
    """Found in tmux: ann's app closed, the stand-in bot finished her game,
    and with a `join --bot` seat at the table (which counted as someone
    here) the host dealt 36 games in 20 minutes, each kept on disk, until
    she came back.  The table waits for her, as it does with bots alone."""
    table, clock = headless(tmp_path, rematch_after=30.0)
    table.set_network_bot(1, "greedy")  # bob's seat is a network bot
    table.start(None)
    table.disconnect(0)
    play_out_as_bots(table)
    for _ in range(3):
        clock.now += 3600
        table.check_timers()
        table.step_bot()
    assert table.game_number == 1 and table.kept_records == [tmp_path / "party-1.json"]
    table.seat_human("ann", "a" * 32)  # ann is back, and asks
    table.rematch(0)
    clock.now += REMATCH_PAUSE
    table.check_timers()
    assert table.game_number == 2


def test_network_bots_alone_play_on(tmp_path: Path) -> None:
    """A table of `join --bot` clients only (a rig, a benchmark) plays game
    after game by itself."""
    table, clock = headless(tmp_path)
    table.set_network_bot(0, "greedy")
    table.set_network_bot(1, "random")
    table.start(None)
    play_out_as_bots(table)
    clock.now += REMATCH_PAUSE
    table.check_timers()
    assert table.game_number == 2


def test_the_tables_lines_read_right_when_they_name_you(tmp_path: Path) -> None:
    """A local game names its player "you" when no name is set: the result
    and the rematch lines must read right for that name as for any other
    (they once said "you wins")."""
    clock = FakeClock()
    table = Table(TableConfig(players=2, seed=5, journal=tmp_path / "party.json"), clock)
    table.seat_human("you", "a" * 32)
    table.seat_human("ann", "b" * 32)
    table.start(None)
    play_out_as_bots(table)
    state = table.state
    assert state is not None and state.winner == 0  # this seed's deal: "you" wins
    assert table.chat_log[-1].text == "you won"
    table.rematch(0)
    assert table.chat_log[-1].text == "you would like another game"


async def resumed_host_log(journal: Path, caplog: pytest.LogCaptureFixture) -> list[str]:
    """What a headless host resumed from ``journal`` logs before it is stopped."""
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="threeup"):
        resumed = Table.resume(journal)
        stop = asyncio.Event()
        host = asyncio.create_task(_host_games(resumed, stop))
        await asyncio.sleep(0.2)  # the loop takes what the resume queued
        stop.set()
        assert await asyncio.wait_for(host, 5) == 0
    return [r.getMessage() for r in caplog.records if r.name == "threeup"]


@pytest.mark.parametrize("record_kept", [True, False], ids=["stopped", "killed-at-the-end"])
async def test_a_resumed_host_tells_a_game_over_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, record_kept: bool
) -> None:
    """A host stopped after game 1 (its record kept, "game 1 over" logged)
    and resumed logged "game 1 over: ...; record in party-1.json" again at
    start, as if it had just ended.  Killed right after the last move, the
    record was not kept: the resume keeps it, and its line is the first."""
    table, _clock = headless(tmp_path)
    table.start(None)
    play_out_as_bots(table)
    assert table.state is not None
    words = table.result_words(table.state)
    record = tmp_path / "party-1.json"
    assert record.exists()
    if not record_kept:
        record.unlink()  # kill -9 between the journal's last move and the record
    said = await resumed_host_log(tmp_path / "party.json", caplog)
    over = f"game 1 over: {words}; record in {record}"
    if record_kept:
        assert over not in said, said
        assert f"resumed after game 1 ({words}); its record is in {record}" in said, said
    else:
        assert over in said, said
    assert record.exists()
