"""A bot playing one seat through the client interface."""

from __future__ import annotations

import asyncio
import logging

from ..bots.base import Bot
from ..bots.logbook import LogBook
from ..bots.pool import Decision, ThinkPool, decide, fallback_decision, shared_pool, thinks
from ..rules import Move, View
from ..tasks import cancel_and_wait
from .base import TableClient
from .events import Lobby

log = logging.getLogger("threeup.botseat")


class BotSeat:
    """Plays ``client``'s seat with ``bot`` from the views it is sent: the
    face-up choice once during set-up, one move on each own turn.  The same
    loop serves ``threeup join --bot`` and any other seat a bot plays.  The
    bot gets as much of the public log as it reads (``Bot.log_length``),
    pieced together from the views (bots/logbook.py).

    A bot that thinks decides in ``pool``'s workers (default: the process's
    shared pool), so the client's session goes on acking and beating while it
    does; the decision is sent only if the seat's latest view is still the
    one it was made on.  A cheap bot answers at once, from :meth:`on_view`.

    A bot is its own player: when the table marks its seat away (its turns
    timed out: it thought too long, or its process was stopped a while),
    it says ``here`` as soon as it hears so, as a person's next key would.
    Otherwise the table's stand-in kept the seat for good: the stand-in
    acts at once on an away seat's turns, so the bot never had a turn left
    to act on, and a table of bots waited for ever for someone to come back.
    """

    def __init__(self, client: TableClient, bot: Bot, pool: ThinkPool | None = None) -> None:
        self.client = client
        self.bot = bot
        self.pool = pool
        self._chose = False
        self._acted_at = -1  # the move count of the view last acted on
        self._latest: View | None = None
        self._lobby: Lobby | None = None
        self._said_here = False  # `here` sent for the away mark the lobby shows now
        self._thinking: asyncio.Task[None] | None = None
        self._log = LogBook()  # a network view carries a few moves; the bot may read all

    def on_view(self, view: View) -> None:
        if self.bot.log_length != 0:
            view = self._log.view_for(view, self.bot.log_length)
        self._latest = view
        if view.seat is None:
            return
        self._answer_away()
        if view.phase != "setup":
            # Set-up is over: the next set-up view is the next game's (a
            # dedicated host plays on; its "over" view may be superseded).
            self._chose = False
        if view.phase == "over":
            self._acted_at = -1
            return
        if view.phase == "setup":
            self._acted_at = -1
            if not view.seats[view.seat].ready and not self._chose:
                self._chose = True
                self._act(view)
        elif view.my_turn and self._acted_at != view.moves_played:
            self._acted_at = view.moves_played
            self._act(view)

    def on_lobby(self, lobby: Lobby) -> None:
        self._lobby = lobby
        self._answer_away()

    def _answer_away(self) -> None:
        """Take the seat back (``here``) once per away mark the lobby shows."""
        view, lobby = self._latest, self._lobby
        if view is None or view.seat is None or lobby is None:
            return
        slots = lobby.seats
        away = 0 <= view.seat < len(slots) and slots[view.seat].away
        if away and not self._said_here:
            self.client.here()
        self._said_here = away

    def rejected(self, request: str | None) -> None:
        """A request of kind ``request`` (its wire ``t``) was refused: if it
        was the bot's move or face-up choice, act again on the next view.
        Any other refusal (a ``here``, a chat line) leaves them alone: it
        made the bot act twice.  ``None`` (a host older than ``re``) may be
        refusing either, so both are tried again, as the app does."""
        if request in ("move", None):
            self._acted_at = -1
        if request in ("setup", None):
            self._chose = False

    async def stop(self) -> None:
        """Give up a decision under way (the seat is leaving)."""
        await cancel_and_wait(self._thinking)
        self._thinking = None

    @property
    def thinking(self) -> bool:
        return self._thinking is not None and not self._thinking.done()

    def _act(self, view: View) -> None:
        if not thinks(self.bot):
            self._send(decide(self.bot, view))
            return
        if self._thinking is not None:
            self._thinking.cancel()  # overtaken: that decision would be stale
        self._thinking = asyncio.get_running_loop().create_task(self._think(view))

    async def _think(self, view: View) -> None:
        pool = self.pool or shared_pool()
        try:
            decision = await pool.decide(self.bot, view)
        except Exception as err:  # a bot bug or a lost worker must not stall the seat
            log.error("the bot gave no decision (%s): it plays greedy's move instead", err)
            decision = fallback_decision(view)
        latest = self._latest
        if latest is None or (latest.phase, latest.moves_played) != (view.phase, view.moves_played):
            return  # the table moved on while the bot thought
        self._send(decision)

    def _send(self, decision: Decision) -> None:
        if isinstance(decision, Move):
            self.client.submit(decision)
        else:
            self.client.choose_face_up(decision)
