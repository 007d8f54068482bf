"""The Textual app: start screen, lobby, set-up, table, game over, rules, replay.

The app holds no rules logic: every legal move, reason and count comes from
the :class:`~threeup_tui.rules.View` the table sends, and every request goes
through the :class:`~threeup_tui.client.TableClient` interface.
"""
