"""A bot playing one seat through the client interface."""

from __future__ import annotations

from ..bots.base import Bot
from ..rules import View
from .base import TableClient


class BotSeat:
    """Plays ``client``'s seat with ``bot`` from the views it is sent: the
    face-up choice once during set-up, one move on each own turn.  The same
    loop serves ``threeup join --bot`` and any other seat a bot plays."""

    def __init__(self, client: TableClient, bot: Bot) -> None:
        self.client = client
        self.bot = bot
        self._chose = False
        self._acted_at = -1  # the move count of the view last acted on

    def on_view(self, view: View) -> None:
        if view.seat is None:
            return
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
                self.client.choose_face_up(self.bot.choose_face_up(view))
        elif view.my_turn and self._acted_at != view.moves_played:
            self._acted_at = view.moves_played
            self.client.submit(self.bot.choose_move(view))

    def rejected(self) -> None:
        """The last request was refused: act again on the next view."""
        self._acted_at = -1
        self._chose = False
