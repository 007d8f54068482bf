"""Set-up, lobby, join, replay, rules, and the command line's way into the app."""

from __future__ import annotations

import argparse
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from app_fakes import ScriptedClient, ScriptedLauncher
from app_helpers import fast_launcher, screen_text, wait_for, wait_for_setup, words_shown
from app_states import lobby_for
from text_fit import cut_text, footer_keys
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Checkbox
from textual.widgets._footer import FooterKey

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.main import app_from_args, run_app, spec_from_args
from threeup_tui.app.rules_text import BUILTIN_RULES, RULES_PATH, load_rules
from threeup_tui.app.scenes import demo_record
from threeup_tui.app.screens.confirm import ConfirmScreen
from threeup_tui.app.screens.help import HelpScreen
from threeup_tui.app.screens.join import JoinScreen
from threeup_tui.app.screens.lobby import LobbyScreen
from threeup_tui.app.screens.replay import ReplayScreen
from threeup_tui.app.screens.setup import SetupScreen
from threeup_tui.app.screens.start import StartScreen
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.bots import GreedyBot
from threeup_tui.cli import build_parser
from threeup_tui.client import ActionRejected, LobbyChanged, SeatSlot, ViewChanged, Welcome
from threeup_tui.launcher import JoinSettings
from threeup_tui.recordfile import save_record
from threeup_tui.rules import GameState, Options, seat_view


async def open_setup(pilot: Pilot[int], client: ScriptedClient, state: GameState) -> None:
    """Seat 0 of ``state`` (a "you" and "bot" table) on the set-up screen."""
    client.emit(Welcome(0, True))
    client.emit(LobbyChanged(lobby_for(["you", "bot"])))
    client.emit(ViewChanged(seat_view(state, 0)))
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen) and app.screen.is_mounted)


async def test_setup_by_keys_sends_the_three_cards(client: ScriptedClient) -> None:
    state = GameState.new(["you", "bot"], Options(first=0), seed=2)
    app = create_app(ScriptedLauncher(client), StartSpec(mode="play"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot, client, state)
        hand = seat_view(state, 0).hand
        await pilot.press("enter")  # nothing chosen yet: nothing sent
        assert client.requests == []
        await pilot.press("1", "2", "3", "4")  # a 4th choice replaces the oldest
        await pilot.press("left", "space", "space")  # the cursor: off and on again
        await pilot.press("enter")
        assert len(client.requests) == 1
        kind, cards = client.requests[0]
        assert kind == "choose_face_up" and sorted(cards) == sorted(hand[1:4])  # type: ignore


async def test_the_set_up_key_bar_shows_the_digits_that_choose(client: ScriptedClient) -> None:
    """The set-up's key bar showed "space Select" alone, while 1-6 (the
    nth card) are the quick way to choose: it shows them, at 70 columns too."""
    state = GameState.new(["you", "bot"], Options(first=0), seed=2)
    app = create_app(ScriptedLauncher(client), StartSpec(mode="play"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot, client, state)
        await wait_for(pilot, lambda: "1-6/space Select" in footer_keys(app), what="the digits")
        # At 70 columns too.  The bar of 80 shows them until the footer is
        # recomposed after the resize: the keys awaited are new ones.
        at_80 = set(app.screen.query(FooterKey))
        await pilot.resize_terminal(70, 20)
        await wait_for(
            pilot,
            lambda: (
                not at_80 & set(app.screen.query(FooterKey))
                and "1-6/space Select" in footer_keys(app)
            ),
            what="the digits in the bar refitted to 70 columns",
        )
        await pilot.press("6")  # and the digits do what the bar says
        await wait_for(pilot, lambda: "Chosen 1/3" in screen_text(app))


async def test_once_the_cards_are_laid_the_set_up_offers_no_hint(client: ScriptedClient) -> None:
    state = GameState.new(["you", "bot"], Options(first=0), seed=2)
    app = create_app(ScriptedLauncher(client), StartSpec(mode="play"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot, client, state)
        assert "Hint" in screen_text(app).splitlines()[-1]
        await pilot.press("1", "2", "3", "enter")
        await wait_for(pilot, lambda: "Hint" not in screen_text(app).splitlines()[-1])
        await pilot.press("h")  # and the key asks for nothing
        await pilot.pause()
        assert not any("hint" in n.message.lower() for n in app._notifications)


CHOOSING_KEYS = ("1-6/space Select", "⏎ Lay face up")


@pytest.mark.parametrize("laid_by", ["the player", "the bot"])
async def test_once_the_cards_are_laid_the_footer_offers_no_choosing(
    client: ScriptedClient, laid_by: str
) -> None:
    """Laid, by the player or by the bot for a player away, the set-up's
    footer went on offering "1-6/space Select ⏎ Lay face up" beside
    "waiting for the others…": keys that choose nothing any more."""
    state = GameState.new(["you", "bot"], Options(first=0), seed=2)
    app = create_app(ScriptedLauncher(client), StartSpec(mode="play"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot, client, state)
        await wait_for(
            pilot,
            lambda: all(key in footer_keys(app) for key in CHOOSING_KEYS),
            what="the choosing keys",
        )
        if laid_by == "the player":
            await pilot.press("1", "2", "3", "enter")
            assert client.requests == [("choose_face_up", seat_view(state, 0).hand[:3])]
        # The table's word: laid (for the player away, by the bot).
        state.choose_face_up_codes(0, seat_view(state, 0).hand[:3])
        client.emit(ViewChanged(seat_view(state, 0)))
        await wait_for(pilot, lambda: "Face up:" in screen_text(app), what="the cards laid")
        await wait_for(
            pilot,
            lambda: not any(key in footer_keys(app) for key in CHOOSING_KEYS),
            what="a footer without the choosing keys",
        )
        assert "? Help" in footer_keys(app) and "q Leave" in footer_keys(app), footer_keys(app)
        laid = list(client.requests)
        await pilot.press("4", "space", "enter")  # and they do nothing
        await pilot.pause()
        assert client.requests == laid
        assert "Chosen" not in screen_text(app)


FOUR = ["you", "Bo", "Cy", "Di"]


@pytest.mark.parametrize("size", [(80, 24), (40, 15)], ids=["80x24", "40x15"])
@pytest.mark.parametrize("laid_by", ["the player", "the bot"])
async def test_once_the_cards_are_laid_the_button_gives_way_to_whom_they_wait_for(
    client: ScriptedClient, laid_by: str, size: tuple[int, int]
) -> None:
    """Laid, by the player's Enter or by the bot for a player away, the
    set-up went on showing its "Lay face up ⏎" button, greyed, beside
    "waiting for the others…": a button that could do nothing.  Its place
    says what is true, and whom the player waits for."""
    state = GameState.new(FOUR, Options(first=0), seed=2)
    state.choose_face_up_codes(1, seat_view(state, 1).hand[:3])  # Bo has laid
    app = create_app(ScriptedLauncher(client), StartSpec(mode="play"))
    async with app.run_test(size=size) as pilot:
        client.emit(Welcome(0, True))
        client.emit(LobbyChanged(lobby_for(FOUR)))
        client.emit(ViewChanged(seat_view(state, 0)))
        await wait_for(pilot, lambda: "Lay face up ⏎" in screen_text(app), what="the button")
        if laid_by == "the player":
            await pilot.press("1", "2", "3", "enter")
            await wait_for(pilot, lambda: "Lay face up ⏎" not in screen_text(app), what="it gone")
        state.choose_face_up_codes(0, seat_view(state, 0).hand[:3])  # the table's word
        client.emit(ViewChanged(seat_view(state, 0)))
        await wait_for(
            pilot, lambda: "Laid: waiting for Cy and Di…" in screen_text(app), what="whom"
        )
        assert "Lay face up" not in screen_text(app), screen_text(app)
        state.choose_face_up_codes(2, seat_view(state, 2).hand[:3])  # Cy lays
        client.emit(ViewChanged(seat_view(state, 0)))
        await wait_for(pilot, lambda: "Laid: waiting for Di…" in screen_text(app), what="Di")
        assert "Di … choosing" in screen_text(app), screen_text(app)  # the list, still in sight


async def test_a_choice_the_table_refuses_brings_the_button_back(client: ScriptedClient) -> None:
    """Laid, the button gives way to "Laid: waiting for …"; refused by the
    table, the cards are the player's to choose again, and the button that
    lays them is back, and lays them."""
    state = GameState.new(FOUR, Options(first=0), seed=2)
    app = create_app(ScriptedLauncher(client), StartSpec(mode="play"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot, client, state)
        await pilot.press("1", "2", "3", "enter")
        await wait_for(pilot, lambda: "Laid: waiting for" in screen_text(app), what="laid")
        assert "Lay face up ⏎" not in screen_text(app)
        client.emit(ActionRejected("the face-up cards must come from your hand", "setup"))
        await wait_for(pilot, lambda: "Lay face up ⏎" in screen_text(app), what="the button back")
        assert "Laid:" not in screen_text(app) and "Chosen 3/3" in screen_text(app)
        await pilot.click("#confirm")
        assert [kind for kind, _cards in client.requests] == ["choose_face_up"] * 2


@pytest.mark.parametrize("size", [(80, 24), (40, 15)], ids=["80x24", "40x15"])
async def test_a_chat_line_refused_while_the_choice_is_in_flight_brings_no_button_back(
    client: ScriptedClient, size: tuple[int, int]
) -> None:
    """Any refusal brought the "Lay face up ⏎" button back while the choice
    was on its way (a chat line refused, say), and a second Enter sent the
    choice again.  Only the choice's own refusal does."""
    state = GameState.new(FOUR, Options(first=0), seed=2)
    app = create_app(ScriptedLauncher(client), StartSpec(mode="play"))
    async with app.run_test(size=size) as pilot:
        await open_setup(pilot, client, state)
        await pilot.press("1", "2", "3", "enter")
        await wait_for(pilot, lambda: "Laid: waiting for" in screen_text(app), what="laid")
        client.emit(ActionRejected("too many chat lines: at most 5; wait 3 s", "chat"))
        await wait_for(
            pilot,
            lambda: any("too many chat lines" in n.message for n in app._notifications),
            what="the refusal told",
        )
        await pilot.pause()
        assert "Lay face up ⏎" not in screen_text(app), screen_text(app)
        assert "Laid: waiting for" in screen_text(app), screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert [kind for kind, _cards in client.requests] == ["choose_face_up"]


def setup_title(app: object) -> str:
    screen = app.screen  # type: ignore[attr-defined]
    assert isinstance(screen, SetupScreen)
    return words_shown(app, screen.query_one("#setup-title"))


@pytest.mark.parametrize("size", [(80, 24), (40, 15)], ids=["80x24", "40x15"])
async def test_once_laid_the_title_says_so_and_choosing_again_when_refused(
    client: ScriptedClient, size: tuple[int, int]
) -> None:
    """Laid, the set-up's title still said "Choose 3 cards to lay face up"
    above "Laid: waiting for Bo, Cy and Di…".  It says what is true, and
    choosing again once the table refuses the choice."""
    state = GameState.new(FOUR, Options(first=0), seed=2)
    app = create_app(ScriptedLauncher(client), StartSpec(mode="play"))
    async with app.run_test(size=size) as pilot:
        await open_setup(pilot, client, state)
        await wait_for(pilot, lambda: "Choose 3 cards" in setup_title(app), what="choosing")
        assert setup_title(app) == "Choose 3 cards to lay face up", setup_title(app)
        await pilot.press("1", "2", "3", "enter")
        await wait_for(pilot, lambda: "Laid: waiting for" in screen_text(app), what="laid")
        await wait_for(pilot, lambda: setup_title(app) == "Your face-up cards", what="the title")
        assert "Choose" not in screen_text(app), screen_text(app)
        client.emit(ActionRejected("the face-up cards must come from your hand", "setup"))
        await wait_for(pilot, lambda: "Lay face up ⏎" in screen_text(app), what="the button back")
        assert setup_title(app) == "Choose 3 cards to lay face up", setup_title(app)


async def test_host_lobby_controls(client: ScriptedClient) -> None:
    app = create_app(ScriptedLauncher(client), StartSpec(mode="host"))
    async with app.run_test(size=(100, 30)) as pilot:
        client.emit(Welcome(0, True))
        client.emit(LobbyChanged(lobby_for(["you", "bot"], started=False)))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.is_mounted)
        await pilot.press("a")
        assert client.requests[-1] == ("add_bot", "greedy")
        await pilot.press("x")  # the highlight starts on the bot
        assert client.requests[-1] == ("remove_seat", 1)
        app.screen.query_one("#voluntary", Checkbox).value = True
        await wait_for(pilot, lambda: client.requests[-1][0] == "set_options")
        assert client.requests[-1] == ("set_options", Options(voluntary_pickup=True))
        await pilot.press("s")
        assert client.requests[-1] == ("start_game", None)


async def test_the_hosts_first_x_in_the_lobby_removes_a_bot(client: ScriptedClient) -> None:
    """The seat list's highlight started on the host's own seat, so the
    host's first x was refused ("the host keeps their own seat"): it starts
    on the first bot now, and x on a seat it cannot remove says what to do."""
    seats = lobby_for(["you", "open", "bot"], started=False).seats
    seats = (seats[0], SeatSlot(1, "seat 2", "open", False), seats[2])
    lobby = replace(lobby_for(["you"], started=False), seats=seats)
    app = create_app(ScriptedLauncher(client), StartSpec(mode="host"))
    async with app.run_test(size=(80, 24)) as pilot:
        client.emit(Welcome(0, True))
        client.emit(LobbyChanged(lobby))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.is_mounted)
        await pilot.press("x")
        assert client.requests[-1] == ("remove_seat", 2)
        for key, said in (("up", "seat is open already: a adds a bot"), ("up", "your own seat")):
            app.clear_notifications()
            await pilot.press(key, "x")
            await pilot.pause()
            assert client.requests[-1] == ("remove_seat", 2)  # nothing more asked
            assert any(said in note.message for note in app._notifications)


async def test_a_narrow_hosts_lobby_keeps_every_key_in_its_bar(client: ScriptedClient) -> None:
    """At 70 columns the host's lobby bar ended "? Rules  q Lea▏^p palette":
    the way out was cut for the palette's hint, as the table's once was."""
    app = create_app(ScriptedLauncher(client), StartSpec(mode="host"))
    async with app.run_test(size=(70, 20)) as pilot:
        client.emit(Welcome(0, True))
        client.emit(LobbyChanged(lobby_for(["you", "bot"], started=False)))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.is_mounted)
        keys = ["a Add bot", "x Remove", "s Start game", "c Chat", "? Rules", "q Leave"]
        # The footer recomposes after a refresh: its keys, not a fixed pause.
        await wait_for(pilot, lambda: footer_keys(app) == keys, what=f"the bar's keys {keys}")
        assert not [p for p in cut_text(app) if p.startswith("FooterKey")]
        assert "q Leave" in screen_text(app).splitlines()[-1]
        # And the host's controls: the bot level's drop-down had shrunk to
        # nothing, the pick-up option's words were cut at "pick up at".
        level = app.screen.query_one("#bot-level")
        assert level.region.width >= len("greedy ▼") + 2, level.region
        assert "greedy" in words_shown(app, level)
        assert "Voluntary pick-up (at any time)" in screen_text(app)


async def test_a_short_hosts_lobby_opens_at_its_room_code(client: ScriptedClient) -> None:
    """At 70x20 the host's lobby opened scrolled down to the seats (they
    take the focus): the table's name, its room code and the join line were
    out of sight, and no key scrolled back up.  It opens at its top now,
    the seats still taking ↑ ↓ x."""
    client.address = ("0.0.0.0", 45011)  # type: ignore[attr-defined]
    lobby = replace(lobby_for(["you", "bot", "bot 2", "bot 3"], started=False), code="PARTY")
    app = create_app(ScriptedLauncher(client), StartSpec(mode="host"))
    async with app.run_test(size=(70, 20)) as pilot:
        client.emit(Welcome(0, True))
        client.emit(LobbyChanged(lobby))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.is_mounted)
        await pilot.pause(0.2)
        text = screen_text(app)
        assert "Room code: PARTY" in text and "threeup join HOST:45011" in text, text
        assert app.screen.query_one("#seats").has_focus
        await pilot.press("down", "x")
        assert client.requests[-1] == ("remove_seat", 2)


async def test_guest_lobby_has_no_host_controls(client: ScriptedClient) -> None:
    app = create_app(ScriptedLauncher(client), StartSpec(mode="join", join=JoinSettings("h")))
    async with app.run_test(size=(100, 30)) as pilot:
        client.emit(Welcome(1, False))
        client.emit(LobbyChanged(lobby_for(["ana", "you"], started=False)))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.is_mounted)
        assert not app.screen.query("#start")
        assert "Waiting for the host" in screen_text(app)


async def test_a_failed_join_is_shown_on_the_form(client: ScriptedClient) -> None:
    launcher = ScriptedLauncher(client, join_error="no answer from 192.0.2.1:47823")
    app = create_app(launcher, StartSpec(mode="join", join=JoinSettings("192.0.2.1", "bo")))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, JoinScreen) and app.screen.is_mounted)
        await wait_for(pilot, lambda: "Could not join" in screen_text(app))
        assert "no answer from 192.0.2.1:47823" in screen_text(app)
        assert app.session is None


async def test_replay_steps_forwards_and_back() -> None:
    record = demo_record()
    app = create_app(fast_launcher(), StartSpec(mode="replay", record=record, record_name="g"))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        total = len(record.moves)
        await pilot.press("right", "right", "right")
        assert screen.index == 3 and f"move 3 of {total}" in screen_text(app)
        await pilot.press("left")
        assert screen.index == 2
        await pilot.press("end")
        assert record.result is not None  # the demo game is finished
        winner = record.players[record.result["winner"]]
        assert screen.index == total and f"Game over: {winner} won" in screen_text(app)
        await pilot.press("home")
        assert screen.index == 0
        await pilot.press("q")  # a replay from the command line ends the app
    assert app.return_code == 0


@pytest.mark.parametrize(("first", "then"), [((100, 30), (80, 24)), ((80, 24), (100, 30))])
async def test_the_replay_keys_fit_the_footer_after_a_resize(
    first: tuple[int, int], then: tuple[int, int]
) -> None:
    """Under 100 columns the footer leaves out ^p palette so that every key
    fits (widgets/footer.py), after a resize too: shrunk to 80 columns, the
    replay's footer kept it and cut "space Play/pause q Close" (now "esc
    Back") short."""
    app = create_app(
        fast_launcher(), StartSpec(mode="replay", record=demo_record(), record_name="g")
    )
    async with app.run_test(size=first) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.resize_terminal(*then)
        # The footer recomposes after the refresh that follows the resize.
        await wait_for(
            pilot,
            lambda: (
                "esc Back" in (bar := screen_text(app).split("\n")[-1])
                and ("palette" in bar) == (then[0] >= 100)
            ),
            what=f"the footer refitted to {then[0]} columns",
        )
        footer = screen_text(app).split("\n")[-1]
        assert "esc Back" in footer, footer
        assert ("palette" in footer) == (then[0] >= 100), footer
        # Each key says what it does: the footer read "Home Start  End End".
        assert "Home First" in footer and "End Last" in footer, footer


async def test_a_replay_tells_an_illegal_move_from_a_wrong_result() -> None:
    """A record whose result the replay does not give was shown at its end
    as "The record stops here: move 84 is illegal: the result names as
    winner ..." in a record of 83 moves: there is no move 84, every move
    is legal, and verify says "wrong result"."""
    record = demo_record()
    assert record.result is not None
    loser = (record.result["winner"] + 1) % len(record.players)
    wrong = replace(record, result={"winner": loser})
    illegal = replace(record, moves=(record.moves[1], *record.moves[1:]), result=None)
    for bad, last, words in (
        (wrong, len(record.moves), "The record's result is wrong: the result names as winner"),
        (illegal, 0, "The record stops here: move 1 is illegal: it is the turn of"),
    ):
        app = create_app(fast_launcher(), StartSpec(mode="replay", record=bad, record_name="g"))
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda app=app: isinstance(app.screen, ReplayScreen))
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            await pilot.press("end")
            await pilot.pause()
            assert screen.index == screen.last == last
            shown = words_shown(app, screen.query_one("#replay-problem"))
            assert shown.startswith(words), shown


async def test_the_replay_of_a_game_for_places_gives_the_places() -> None:
    record = demo_record(players=4, options=Options(finish="places"))
    assert record.result is not None and len(record.result["places"]) > 1
    names = [record.players[p] for p in record.result["places"]]
    app = create_app(fast_launcher(), StartSpec(mode="replay", record=record, record_name="g"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("end")
        lines = screen_text(app).splitlines()
        # The result has a line of its own under the move count (it once
        # wrapped into three lines at 80 columns, places and all).
        assert lines[1].startswith(" Replay g  move") and "over" not in lines[1]
        assert lines[2].strip() == f"Game over: {names[0]} won"
        head = " ".join(screen_text(app).split())
        # Each seat's line gives its place, as the table's panes do; the last
        # seat is still holding cards, so it is not "OUT" but last.
        assert f"{names[0]} OUT (1st)" in head and f"{names[2]} OUT (3rd)" in head
        assert f"{names[-1]} LAST (4th)" in head and "OUT (4th)" not in head


def _args(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(list(argv))


def test_command_line_to_start_spec() -> None:
    assert spec_from_args(_args()).mode == "menu"
    play = spec_from_args(_args("play", "--players", "3", "--seed", "9", "--name", "zoe"))
    assert (play.mode, play.players, play.seed, play.name) == ("play", 3, 9, "zoe")
    host = spec_from_args(
        _args(
            "host",
            "--players",
            "5",
            "--bots",
            "2",
            "--code",
            "K",
            "--finish",
            "places",
            "--voluntary-pickup",
        )
    )
    assert host.mode == "host" and host.host is not None
    assert (host.host.players, host.host.bots, host.host.code) == (5, 2, "K")
    assert host.host.options == Options(voluntary_pickup=True, finish="places")
    join = spec_from_args(_args("join", "10.0.0.2:5000", "--name", "bo", "--watch"))
    assert join.join == JoinSettings("10.0.0.2:5000", "bo", None, True)


def test_replay_of_a_bad_file_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert run_app(_args("replay", str(bad))) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("threeup replay: ") and "Traceback" not in err
    assert run_app(_args("replay", str(tmp_path / "missing.json"))) == 2
    assert "no such file" in capsys.readouterr().err


def test_replay_of_a_good_file_opens_the_viewer(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    save_record(path, demo_record())
    app = app_from_args(_args("replay", str(path)))
    assert app.start_spec.mode == "replay" and app.start_spec.record is not None


async def test_a_replay_given_a_long_path_keeps_its_header_on_one_line(tmp_path: Path) -> None:
    """`threeup replay some/deeply/nested/.../my-best-game-....json` at 80x24:
    the header showed the path cut at 80 characters, across three lines
    ("...against-the-greedy" / "-b  move 97 of 97"), and never the end of
    the file's name."""
    folder = tmp_path / "some" / "quite" / "deeply" / "nested" / "folder" / "of" / "games"
    folder.mkdir(parents=True)
    path = folder / "my-best-game-against-the-greedy-bots-on-sunday.json"
    record = demo_record()
    save_record(path, record)
    app = app_from_args(_args("replay", str(path)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "Before the first move" in screen_text(app))
        rows = screen_text(app).splitlines()
        total = len(record.moves)
        assert rows[1].strip() == (
            f"Replay my-best-game-against-the-greedy-bot…  move 0 of {total} · turn 1"
        ), rows[:4]
        assert rows[2].strip().startswith("Before the first move"), rows[:4]


def test_rules_page_falls_back_to_the_summary(tmp_path: Path) -> None:
    assert load_rules(tmp_path / "nowhere.md") == BUILTIN_RULES
    if RULES_PATH.exists():
        assert load_rules() == RULES_PATH.read_text(encoding="utf-8")


async def test_the_summary_gives_the_early_draw_with_its_conditions(tmp_path: Path) -> None:
    """Without docs/rules.md the rules page is the built-in summary; it said
    only "(you may draw first)" after the Clear +1 and +2, although the draw
    is there only with fewer than 3 cards in hand and cards left to draw,
    and is a must with an empty hand (D10-D12)."""
    app = create_app(fast_launcher(), StartSpec(), rules_text=load_rules(tmp_path / "no.md"))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
        app.show_help("rules")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause()
        shown = " ".join(screen_text(app).split())
        assert "you may draw first" not in shown, shown
        for words in ("fewer than 3 cards", "while the draw pile lasts", "empty hand you must"):
            assert words in shown, f"{words!r} not in {shown!r}"


async def test_start_screen_settings_and_rules() -> None:
    app = create_app(fast_launcher(), StartSpec(), rules_text="# Rules\n\nbe kind")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
        screen = app.screen
        assert isinstance(screen, StartScreen)
        await pilot.press("plus", "plus", "plus", "b")
        assert screen.players == 6 and screen.bot_level != "greedy"
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: "be kind" in screen_text(app))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))


@pytest.mark.parametrize(
    ("opener", "covering", "close"),
    [("show_help", HelpScreen, "escape"), ("confirm_leave", ConfirmScreen, "n")],
    ids=["help", "question"],
)
async def test_a_covering_screen_stays_on_top_while_the_game_moves_on_under_it(
    opener: str, covering: type[Screen[object]], close: str
) -> None:
    """The rules, or the question "Leave this table?", are open over the
    set-up when the set-up is laid (as the seat's other terminal could lay
    it): the app routes nothing over them, and once they are closed the
    table comes up."""
    app = create_app(fast_launcher(), StartSpec(players=2, seed=16))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), what="start screen")
        await pilot.press("minus", "minus", "enter")
        await wait_for_setup(pilot)
        getattr(app, opener)()
        await wait_for(pilot, lambda: isinstance(app.screen, covering) and app.screen.is_mounted)
        session = app.session
        assert session is not None and session.view is not None
        session.client.choose_face_up(GreedyBot(2).choose_face_up(session.view))
        await wait_for(pilot, lambda: session.view is not None and session.view.phase == "play")
        for _ in range(5):
            await pilot.pause()
            assert isinstance(app.screen, covering)
        await pilot.press(close)
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, TableScreen) and app.screen.is_mounted,
            what="the table once the covering screen is closed",
        )


def test_the_app_starts_without_loading_the_help_pages_widgets() -> None:
    """Markdown and the tabs are the help's alone and slow to import (~90 ms
    of a cold start): the app module leaves them until the help opens."""
    probe = (
        "import sys, threeup_tui.app.app\n"
        "print(' '.join(m for m in sys.modules if m.startswith("
        "('markdown_it', 'textual.widgets._markdown', 'textual.widgets._tabbed_content'))))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == []
