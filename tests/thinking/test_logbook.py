"""The whole log for a bot that reads it, pieced together from views that
carry only the last few moves (as a network client's do), and the table's
own bots get as much log as they read."""

from __future__ import annotations

from threeup_tui.bots import GreedyBot
from threeup_tui.bots.logbook import LogBook
from threeup_tui.bots.pool import decide
from threeup_tui.client.botseat import BotSeat
from threeup_tui.netplay.wire import WIRE_LOG, ViewDecoder, view_to_wire
from threeup_tui.rules import GameState, Move, Options, View, seat_view
from threeup_tui.table import Table, TableConfig


def game(seed: int) -> GameState:
    state = GameState.new(["a", "b", "c"], Options(), seed)
    for seat in range(3):
        cards = GreedyBot(seat).choose_face_up(seat_view(state, seat, log_length=0))
        state.choose_face_up_codes(seat, list(cards))
    return state


def wire_views(state: GameState, seat: int, decoder: ViewDecoder) -> View:
    """``seat``'s view as a network client decodes it: the last few moves only."""
    return decoder.decode(view_to_wire(seat_view(state, seat)))


def test_views_seen_after_every_move_give_the_whole_log() -> None:
    for seed in range(3):
        state = game(seed)
        book, decoder = LogBook(), ViewDecoder()
        while not state.over:
            view = wire_views(state, 1, decoder)
            assert len(view.log) <= WIRE_LOG
            whole = book.view_for(view, None)
            assert whole.log == seat_view(state, 1, log_length=None).log
            assert whole.moves_played == view.moves_played and whole.hand == view.hand
            state.apply_move(GreedyBot(seed).choose_move(seat_view(state, state.seat)))


def test_a_gap_gives_the_view_as_it_came_until_the_next_game() -> None:
    state = game(7)
    book, decoder = LogBook(), ViewDecoder()
    book.see(wire_views(state, 0, decoder))
    for _ in range(WIRE_LOG + 2):  # more moves than a view carries, unseen
        state.apply_move(GreedyBot(1).choose_move(seat_view(state, state.seat)))
    view = wire_views(state, 0, decoder)
    assert book.view_for(view, None) is view  # it cannot know the moves it missed
    state.apply_move(GreedyBot(1).choose_move(seat_view(state, state.seat)))
    later = wire_views(state, 0, decoder)
    assert book.view_for(later, None) is later  # nor later
    fresh = GameState.new(["a", "b", "c"], Options(), 8)  # the next game: whole again
    book.see(seat_view(fresh, 0))
    again = game(8)
    again.apply_move(GreedyBot(1).choose_move(seat_view(again, again.seat)))
    view = wire_views(again, 0, ViewDecoder())
    assert book.view_for(view, None).log == seat_view(again, 0, log_length=None).log


def test_a_short_log_is_enough_for_a_bot_that_reads_a_few_moves() -> None:
    state = game(3)
    for _ in range(4):
        state.apply_move(GreedyBot(1).choose_move(seat_view(state, state.seat)))
    view = wire_views(state, 0, ViewDecoder())
    assert LogBook().view_for(view, 2) is view


def test_the_tables_bots_get_as_much_log_as_they_read() -> None:
    table = Table(TableConfig(players=2, seed=2, auto_start=True))
    table.add_bot(None, "greedy")  # reads no log
    table.add_bot(None, "expert")  # reads it all
    while True:
        request = table.bot_request()
        assert request is not None
        if request.seat == 0:
            assert request.view.log == ()
        elif request.moves >= 5:
            break
        table.apply_bot_decision(request, decide(GreedyBot(0), request.view))  # quick play
    assert len(request.view.log) == request.moves == request.view.moves_played


class LogReader(GreedyBot):
    """Greedy, reading the whole log: notes how much of it each view had."""

    log_length = None

    def __init__(self) -> None:
        super().__init__(0)
        self.seen: list[tuple[int, int]] = []  # (moves played, log entries)

    def choose_move(self, view: View) -> Move:
        self.seen.append((view.moves_played, len(view.log)))
        return super().choose_move(view)


class Outbox:
    """Where a bot seat's requests go (the seat under test is BotSeat)."""

    def __init__(self) -> None:
        self.sent: list[object] = []

    def submit(self, move: Move) -> None:
        self.sent.append(move)

    def choose_face_up(self, cards: object) -> None:
        self.sent.append(cards)


def test_a_bot_seat_gives_its_bot_the_whole_log_from_network_views() -> None:
    state = game(5)
    bot, outbox, decoder = LogReader(), Outbox(), ViewDecoder()
    seat = BotSeat(outbox, bot)  # type: ignore[arg-type]
    while not state.over and len(bot.seen) < 8:
        seat.on_view(wire_views(state, 1, decoder))  # as `threeup join --bot` gets them
        if state.seat == 1:
            move = outbox.sent[-1]
            assert isinstance(move, Move)
        else:
            move = GreedyBot(2).choose_move(seat_view(state, state.seat))
        state.apply_move(move)
    assert len(bot.seen) == 8
    assert all(entries == moves for moves, entries in bot.seen)  # the whole log each time
    assert any(moves > WIRE_LOG for moves, _entries in bot.seen)  # more than a view carries
