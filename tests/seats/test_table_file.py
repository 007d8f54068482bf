"""A resume forgets nothing: the table file beside the journal holds every
setting, the seats and their tokens, the game number and the chat."""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pytest

from threeup_tui.hostargs import check_host_args, resume_overrides
from threeup_tui.netplay import wire
from threeup_tui.rules import Options, Phase
from threeup_tui.rules.cards import CODES
from threeup_tui.table import Hosting, Table, TableConfig, TableError, open_table
from threeup_tui.tablefile import TableFileError, settings_from_json, settings_to_json


def played_table(journal: Path, moves: int | None = 6, host: bool = True) -> Table:
    """A table of three (a bot, Ann, 山田) some ``moves`` into its first game
    (None: the game played to its end); ``host``: Ann hosts it from the app
    (else a headless host does, and she joined)."""
    config = TableConfig(
        players=3, seed=7, code="pizza", bot_level="random", takeover_after=12.5,
        journal=journal, table_name="Ann's table", options=Options(finish="places"),
    )  # fmt: skip
    table = open_table(config, bots=1)
    table.hosting = Hosting(bind="127.0.0.1", port=40123, announce="off", ssh_port=2222)
    table.seat_human("Ann", "a" * 32, host=host)
    table.seat_human("山田", "b" * 32)
    table.chat(1, "hello from seat 2")
    table.start(None)
    while table.state is not None and not table.state.over:
        if moves is not None and len(table.state.history) >= moves:
            break
        if table.bot_turn() is not None:
            table.step_bot()
            continue
        state = table.state
        if state.phase == Phase.SETUP:
            for seat in (1, 2):
                if state.setup[seat] is None:
                    hand = state.setup_hand(seat)[:3]
                    table.choose_face_up(seat, [CODES[kind] for kind in hand])
        else:
            state.apply(state.legal_actions()[0])
            table._after_change()
    table.set_hosting(port=40123)
    return table


def test_the_table_file_is_private_and_holds_the_table(tmp_path: Path) -> None:
    journal = tmp_path / "party.json"
    table = played_table(journal)
    path = tmp_path / "party.json.table"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # it holds the room code and tokens
    data = json.loads(path.read_text())
    assert data["format"] == "threeup-table/1"
    assert data["table_id"] == table.table_id and data["secret"] == table.secret
    assert data["config"]["code"] == "pizza" and data["config"]["takeover_after"] == 12.5
    assert data["hosting"]["port"] == 40123 and data["hosting"]["ssh_port"] == 2222
    assert [s["token"] for s in data["seats"]][1:] == ["a" * 32, "b" * 32]
    assert ["hello from seat 2" in line[2] for line in data["chat"]].count(True) == 1


def test_resume_alone_brings_back_every_setting_seat_and_line(tmp_path: Path) -> None:
    journal = tmp_path / "party.json"
    before = played_table(journal)
    after = Table.resume(journal)
    assert after.table_id == before.table_id and after.secret == before.secret
    assert dataclasses.asdict(after.config) == dataclasses.asdict(before.config)
    assert after.hosting == before.hosting
    assert after.options == before.options == Options(finish="places")
    assert [(s.name, s.kind, s.bot_level, s.token) for s in after.seats] == [
        (s.name, s.kind, s.bot_level if s.kind == "bot" else None, s.token) for s in before.seats
    ]
    assert not any(s.connected for s in after.seats if s.kind == "human")  # they come back
    assert after.host_seat == before.host_seat == 1
    assert after.game_number == before.game_number == 1
    assert after.chat_log == before.chat_log
    assert after.state is not None and before.state is not None
    assert after.state.history == before.state.history
    # The code is still required, and the tokens still give the seats back.
    with pytest.raises(TableError, match="wrong room code"):
        after.check_code(None)
    assert after.seat_human("anyone", "b" * 32) == (2, "b" * 32)


def test_chat_lines_are_numbered_on_across_a_resume(tmp_path: Path) -> None:
    """A client drops a repeated line by its number, so the numbers go on
    where they stopped; an older file's lines (without numbers) get 1, 2, ..."""
    journal = tmp_path / "party.json"
    before = played_table(journal)
    for n in range(60):  # more than the file keeps (50)
        before._system(f"news {n}")
    numbers = [line.number for line in before.chat_log]
    assert len(numbers) == 50 and numbers == list(range(numbers[0], numbers[0] + 50))
    assert numbers[0] > 10
    after = Table.resume(journal)
    after.chat(1, "hello again")
    assert [line.number for line in after.chat_log] == [*numbers[1:], numbers[-1] + 1]
    path = tmp_path / "party.json.table"
    data = json.loads(path.read_text())
    data["chat"] = [line[:4] for line in data["chat"]][-3:]  # as an older version wrote it
    path.write_text(json.dumps(data))
    older = Table.resume(journal)
    assert [line.number for line in older.chat_log] == [1, 2, 3]
    assert older.chat_log[-1].text == "hello again"


def test_a_setting_given_again_overrides_and_is_logged_never_the_code(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    journal = tmp_path / "party.json"
    played_table(journal)
    args = argparse.Namespace(
        port=5000, code="sesame", takeover_after=None, name="Bo", bind="127.0.0.1"
    )
    with caplog.at_level(logging.INFO, logger="threeup.table"):
        table = Table.resume(journal, resume_overrides(args))
    assert table.hosting.port == 5000 and table.config.code == "sesame"
    assert table.config.takeover_after == 12.5  # not given: kept
    assert table.config.table_name == "Bo's table"
    text = caplog.text
    assert "--port given: 5000 instead of the saved 40123" in text
    # Given again as saved: not told as a change (a helper read "--bind given:
    # 127.0.0.1 instead of the saved 127.0.0.1").
    assert "--bind given again: 127.0.0.1, as saved" in text and "saved 127.0.0.1" not in text
    assert "--code given: the setting changes" in text
    assert "--name given" in text
    assert "sesame" not in text and "pizza" not in text


def test_a_resumed_tables_room_code_can_be_taken_away(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """`threeup host --resume FILE --code ''` was refused with "leave --code
    out for none", and left out, the resumed table kept its code: a resume
    had no way to open the table to anyone.  --no-code does, and says so."""
    journal = tmp_path / "party.json"
    played_table(journal)  # room code "pizza"
    args = argparse.Namespace(resume=journal, no_code=True, code=None, ssh_authorized_keys=None)
    check_host_args(args)
    with caplog.at_level(logging.INFO, logger="threeup.table"):
        table = Table.resume(journal, resume_overrides(args))
    assert table.config.code is None
    table.check_code(None)  # anyone may sit: no TableError
    assert "--no-code given: the table has no room code now" in caplog.text
    assert "pizza" not in caplog.text
    assert Table.resume(journal).config.code is None  # kept so in the table file
    both = argparse.Namespace(resume=journal, no_code=True, code="x", ssh_authorized_keys=None)
    with pytest.raises(ValueError, match="--code and --no-code: give one of them"):
        check_host_args(both)


def test_a_resume_refuses_what_would_weaken_or_change_the_game(tmp_path: Path) -> None:
    journal = tmp_path / "party.json"
    played_table(journal)
    args = argparse.Namespace(resume=journal, players=4, bots=None, ssh_authorized_keys=None)
    with pytest.raises(ValueError, match="--players 4: the resumed table has 3 seats, and a resu"):
        check_host_args(args)
    table_file = tmp_path / "party.json.table"
    good = table_file.read_text()
    table_file.write_text(good.replace('"code": "pizza"', '"code": 7'))
    with pytest.raises(TableError, match="setting 'code'"):
        Table.resume(journal)
    table_file.write_text("{not json")
    with pytest.raises(TableError, match="not JSON"):
        Table.resume(journal)
    table_file.unlink()
    with pytest.raises(TableError, match="is missing"):
        Table.resume(journal)


def test_a_resume_takes_the_seats_and_rules_given_again_as_saved(tmp_path: Path) -> None:
    """An operator who adds --resume to the command line that started the
    table (--players 3 --bots 1 --finish places) was refused "--players: a
    resumed table keeps its seats and rules; leave it out", though nothing
    changed, while --port given again as saved was taken.  The same values
    pass; a different one is refused, with what the table has."""
    journal = tmp_path / "party.json"
    played_table(journal)  # 3 seats, 1 bot, finish places, no voluntary pick-up
    same = dict(players=3, bots=1, finish="places", voluntary_pickup=None)
    check_host_args(argparse.Namespace(resume=journal, ssh_authorized_keys=None, **same))
    refusals = {
        "players": (4, "--players 4: the resumed table has 3 seats"),
        "bots": (2, "--bots 2: the resumed table has 1 bot seat"),
        "finish": ("first_out", "--finish first_out: the resumed table plays finish places"),
        "voluntary_pickup": (
            True,
            "--voluntary-pickup: the resumed table lets players pick up only when nothing",
        ),
    }
    for name, (given, words) in refusals.items():
        args = argparse.Namespace(resume=journal, ssh_authorized_keys=None, **{**same, name: given})
        with pytest.raises(ValueError) as refused:
            check_host_args(args)
        assert str(refused.value).startswith(words)
        assert str(refused.value).endswith("keeps its seats and rules; leave it out")


def test_the_command_line_check_refuses_what_a_resume_would_and_writes_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    journal = tmp_path / "party.json"
    played_table(journal)
    table_file = tmp_path / "party.json.table"
    saved = table_file.read_bytes(), table_file.stat().st_mtime_ns
    args = argparse.Namespace(resume=journal, port=5000, ssh_authorized_keys=None)
    caplog.set_level(logging.INFO, logger="threeup")
    check_host_args(args)  # a journal that resumes passes
    assert (table_file.read_bytes(), table_file.stat().st_mtime_ns) == saved
    assert "--port given" not in caplog.text  # the resume itself logs it, once
    record = json.loads(journal.read_text())
    record["moves"][-1] = {"seat": 2, "play": ["B5"]}  # out of turn: the deal does not allow it
    journal.write_text(json.dumps(record))
    with pytest.raises(ValueError, match="cannot resume: the journal does not replay"):
        check_host_args(args)
    journal.write_text("{not json")
    with pytest.raises(ValueError, match=r"cannot resume: .*not JSON"):
        check_host_args(args)
    assert (table_file.read_bytes(), table_file.stat().st_mtime_ns) == saved


@pytest.mark.parametrize("moves", [6, None])
def test_the_app_is_told_at_once_that_a_headless_hosts_game_has_no_seat_for_it(
    tmp_path: Path, moves: int | None
) -> None:
    """The app's player sits in the host's seat or an open one; in a game a
    headless host began (or finished), every seat is its joined players'."""
    journal = tmp_path / "party.json"
    played_table(journal, moves, host=False)
    app = argparse.Namespace(resume=journal, headless=False, ssh_authorized_keys=None)
    with pytest.raises(ValueError, match="headless") as refused:
        check_host_args(app)
    assert f"`threeup host --headless --resume {journal}`" in str(refused.value)
    check_host_args(argparse.Namespace(**{**vars(app), "headless": True}))
    hosted = tmp_path / "hosted.json"
    played_table(hosted, moves, host=True)
    check_host_args(argparse.Namespace(**{**vars(app), "resume": hosted}))  # the host's seat
    lobby = tmp_path / "lobby.json"
    open_table(TableConfig(players=3, journal=lobby), bots=1).seat_human("Guest", "g" * 32)
    check_host_args(argparse.Namespace(**{**vars(app), "resume": lobby}))  # seats open again


def test_a_lobby_comes_back_with_its_bots_and_the_hosts_seat(tmp_path: Path) -> None:
    journal = tmp_path / "lobby.json"
    table = open_table(TableConfig(players=4, journal=journal, code="c0de"), bots=1)
    table.seat_human("Host", "h" * 32, host=True)
    table.seat_human("Guest", "g" * 32)
    assert not journal.exists()  # no game yet: no record, only the table file
    back = Table.resume(journal)
    assert [s.kind for s in back.seats] == ["bot", "human", "open", "open"]
    assert back.host_seat == 1 and back.seats[1].token == "h" * 32
    assert back.config.code == "c0de" and back.state is None


def test_settings_are_kept_field_by_field_whatever_the_fields() -> None:
    """A setting another engineer adds to TableConfig is kept with no change
    to the file's code: the codec reads the dataclass's own annotations."""

    @dataclass
    class Future:
        turn_time: float | None = None
        games: int | None = None
        spectator_chat: bool = True
        finish: Literal["a", "b"] = "a"
        where: Path | None = None
        options: Options = dataclasses.field(default_factory=Options)

    value = Future(20.0, 3, False, "b", Path("/tmp/x"), Options(voluntary_pickup=True))
    data = json.loads(json.dumps(settings_to_json(value)))
    assert Future(**settings_from_json(Future, data, "f", frozenset())) == value
    assert settings_from_json(Future, {"unknown": 1}, "f", frozenset()) == {}
    for bad in ({"games": "3"}, {"spectator_chat": 1}, {"finish": "c"}, {"turn_time": "x"}):
        with pytest.raises(TableFileError):
            settings_from_json(Future, bad, "f", frozenset())


@pytest.mark.parametrize("game", [1, 2])
def test_a_crash_during_a_set_up_keeps_the_deal_and_the_choices_made(
    tmp_path: Path, game: int
) -> None:
    """The journal holds a game once every face-up choice is made; a crash
    before that once lost the deal and the choices already made, and (in a
    later game) brought back the last game over and skipped a number."""
    journal = tmp_path / "party.json"
    table = played_table(journal, moves=0 if game == 1 else None)  # in set-up / played out
    if game == 2:
        assert table.state is not None and table.state.over
        table.start(None)
    state = table.state
    assert state is not None and state.phase == Phase.SETUP and table.game_number == game
    hand = state.setup_hand(1)
    table.choose_face_up(1, [CODES[k] for k in hand[:3]])  # 山田 has chosen; Ann not yet
    chosen, deck = state.setup[1], list(state.deck)
    # kill -9 now: only the files are left.
    after = Table.resume(journal)
    assert after.game_number == game
    back = after.state
    assert back is not None and back.phase == Phase.SETUP
    assert list(back.deck) == deck and back.setup[1] == chosen and back.setup[2] is None
    assert [s.kind for s in after.seats] == ["bot", "human", "human"]  # seats wait (D17)
    # It goes on: the last choices made, the journal holds the game from its deal.
    after.choose_face_up(2, [CODES[k] for k in back.setup_hand(2)[:3]])
    while after.bot_turn() is not None and back.phase == Phase.SETUP:
        after.step_bot()
    assert back.phase == Phase.PLAY
    assert json.loads(journal.read_text())["deck"] == [CODES[k] for k in deck]


def test_a_set_up_in_the_table_file_that_does_not_deal_is_refused(tmp_path: Path) -> None:
    journal = tmp_path / "party.json"
    played_table(journal, moves=0)
    path = tmp_path / "party.json.table"
    data = json.loads(path.read_text())
    data["deal"]["setup"][1] = ["R1", "R1", "R1"]  # not the seat's cards
    path.write_text(json.dumps(data))
    with pytest.raises(TableError, match="the set-up in the table file does not deal"):
        Table.resume(journal)


def test_a_seat_a_bot_had_taken_over_is_not_waited_for_again_after_a_crash(
    tmp_path: Path,
) -> None:
    """Bob left, and after --takeover-after a bot played his seat (D17).
    The host died: the resumed game once waited the whole take-over time
    again for him, stalling everyone; a seat whose player was only cut off
    by the crash still waits for them."""
    now = [100.0]
    journal = tmp_path / "party.json"
    config = TableConfig(players=3, seed=7, takeover_after=30.0, journal=journal)
    table = Table(config, lambda: now[0])
    table.seat_human("Ann", "a" * 32)
    table.seat_human("Bob", "b" * 32)
    table.add_bot(None, "greedy")
    table.start(None)
    table.disconnect(1)
    now[0] += 30
    table.check_takeovers()
    assert table.seats[1].bot is not None
    resumed = Table.resume(journal, clock=lambda: now[0])  # nothing saved at the kill
    assert resumed.seats[1].bot is not None and resumed.lobby().seats[1].bot_level == "greedy"
    assert resumed.seats[0].bot is None  # Ann was here: her seat waits for her
    while resumed.bot_turn() is not None:
        resumed.step_bot()
    assert resumed.state is not None and resumed.state.setup[1] is not None
    resumed.seat_human("Bob", "b" * 32)
    assert resumed.seats[1].bot is None  # he is back: the bot hands the seat over


def test_claims_and_chat_numbers_edited_past_64_bits_are_not_resumed(tmp_path: Path) -> None:
    """A table file edited to hold a seat's claim or a chat line's number
    past what msgpack carries (the wire takes either below 2**63) resumed a
    table whose ACCEPT to that seat could not be packed, and whose chat
    lines every client dropped as malformed.  Such numbers are taken as
    a missing claim, and as lines numbered on."""
    journal = tmp_path / "party.json"
    before = played_table(journal)
    path = tmp_path / "party.json.table"
    data = json.loads(path.read_text())
    for entry in data["seats"]:
        if isinstance(entry, dict) and "claims" in entry:
            entry["claims"] = 2**64
    data["chat"][-1][4] = 2**70
    path.write_text(json.dumps(data))
    after = Table.resume(journal)
    assert [seat.claims for seat in after.seats if seat.kind == "human"] == [0, 0]
    numbers = [line.number for line in after.chat_log]
    assert numbers == [line.number for line in before.chat_log]
    for line in after.chat_log:  # each as a client takes it
        assert wire.chat_numbers({"seat": line.seat, "n": line.number})[1] == line.number
